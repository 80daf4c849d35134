//! The HTML board as a browser draws it: headless Chromium renders a game
//! page to a PNG, and the pixels are checked (square colours, the last move's
//! highlight, the board turned round for Black). Does IO: runs `chromium`,
//! writes temporary files.
//!
//! Chromium is required; only `WILDT_SKIP_BROWSER=1` with no browser
//! installed skips (with a message). `WILDT_SCREENSHOT_DIR=DIR` keeps the
//! screenshots (the README's pictures are made this way).

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use shakmaty::Color;
use wildt::command::Command;
use wildt::game::Record;
use wildt::html::{
    DARK, DARK_LAST_MOVE, GamePage, LIGHT, LIGHT_LAST_MOVE, SQUARE_PX, last_move, rows,
    square_colour,
};
use wildt::i18n::Lang;
use wildt::referee::{Verdict, judge};

fn played(moves: &[&str]) -> Record {
    let mut r = Record::new(None).unwrap();
    for m in moves {
        let v = judge(&r, r.turn(), &Command::single(m.parse().unwrap()));
        assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
        r.apply(&v);
    }
    r
}

/// The browser to use: `WILDT_CHROMIUM`, or the first of the usual names on
/// `PATH`.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("WILDT_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

/// The browser, or `None` (after saying so) when it is absent and
/// `WILDT_SKIP_BROWSER=1`; panics when it is absent otherwise.
fn browser_or_skip(test: &str) -> Option<PathBuf> {
    match chromium() {
        Some(path) => Some(path),
        None if std::env::var("WILDT_SKIP_BROWSER").as_deref() == Ok("1") => {
            eprintln!("SKIPPED {test}: no chromium on PATH (WILDT_SKIP_BROWSER=1)");
            None
        }
        None => panic!(
            "{test} needs headless Chromium: install it (Debian: apt-get install -y chromium), \
             point WILDT_CHROMIUM at it, or set WILDT_SKIP_BROWSER=1 to skip"
        ),
    }
}

struct Shot {
    width: usize,
    height: usize,
    /// RGB, row by row.
    rgb: Vec<u8>,
}

impl Shot {
    fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

const WIDTH: usize = 420;
const HEIGHT: usize = 760;

/// Renders `html` in headless Chromium and decodes the screenshot.
fn screenshot(browser: &Path, html: &str, name: &str) -> Shot {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    std::fs::write(&page, html).unwrap();
    let png_path = dir.path().join("shot.png");
    let profile = dir.path().join("profile");
    let mut child = Process::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png_path.display()))
        .arg(format!("--window-size={WIDTH},{HEIGHT}"))
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("chromium took more than 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = child.wait_with_output().unwrap();
    assert!(
        status.success() && png_path.is_file(),
        "chromium failed ({status}): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = std::fs::read(&png_path).unwrap();
    if let Some(keep) = std::env::var_os("WILDT_SCREENSHOT_DIR") {
        std::fs::create_dir_all(&keep).unwrap();
        std::fs::write(Path::new(&keep).join(format!("{name}.png")), &bytes).unwrap();
        std::fs::write(Path::new(&keep).join(format!("{name}.html")), html).unwrap();
    }
    decode(&bytes)
}

fn decode(bytes: &[u8]) -> Shot {
    let decoder = png::Decoder::new(Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Shot {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

fn hex(colour: &str) -> [u8; 3] {
    let v = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 6)
}

/// The top-left corner of the board's top-left square: the first pixel,
/// row by row, in one of the four square colours.
fn board_origin(shot: &Shot) -> (usize, usize) {
    let colours = [LIGHT, DARK, LIGHT_LAST_MOVE, DARK_LAST_MOVE].map(hex);
    for y in 0..shot.height {
        for x in 0..shot.width {
            if colours.iter().any(|c| close(shot.pixel(x, y), *c)) {
                return (x, y);
            }
        }
    }
    panic!("no square colour anywhere in the screenshot");
}

/// Pixels near black inside the given screen rows of squares: the ink of the
/// pieces there (Black's pieces are solid, White's outlines).
fn ink(shot: &Shot, origin: (usize, usize), screen_rows: std::ops::Range<usize>) -> usize {
    let s = SQUARE_PX as usize;
    let mut n = 0;
    for y in origin.1 + screen_rows.start * s..origin.1 + screen_rows.end * s {
        for x in origin.0..origin.0 + 8 * s {
            if shot.pixel(x, y).iter().all(|&c| c < 70) {
                n += 1;
            }
        }
    }
    n
}

/// The colour drawn on a square, sampled inside it near its corners (away
/// from the piece in the middle); both samples must agree.
fn drawn(shot: &Shot, origin: (usize, usize), col: usize, row: usize) -> [u8; 3] {
    let s = SQUARE_PX as usize;
    let (x, y) = (origin.0 + col * s, origin.1 + row * s);
    let a = shot.pixel(x + 3, y + 3);
    let b = shot.pixel(x + s - 4, y + s - 4);
    assert!(
        close(a, b),
        "square ({col},{row}) is not one colour: {a:?} {b:?}"
    );
    a
}

fn check_board(shot: &Shot, record: &Record, viewer: Color) -> (usize, usize) {
    let origin = board_origin(shot);
    let last = last_move(record);
    for (row, squares) in rows(viewer).iter().enumerate() {
        for (col, &sq) in squares.iter().enumerate() {
            let want = hex(square_colour(sq, last));
            let got = drawn(shot, origin, col, row);
            assert!(
                close(got, want),
                "{viewer:?}: {sq} at ({col},{row}) drawn {got:?}, want {want:?}"
            );
        }
    }
    origin
}

#[test]
fn chromium_draws_whites_board_with_the_last_move_highlighted() {
    let Some(browser) =
        browser_or_skip("chromium_draws_whites_board_with_the_last_move_highlighted")
    else {
        return;
    };
    let record = played(&["5254"]);
    let html = GamePage {
        lang: Lang::En,
        title: "[wildt #7] 1. 5254 accepted",
        intro: "Game 7: your move 1. 5254 (e4) is recorded.",
        record: &record,
        viewer: Color::White,
        outro: "Black to move (1...)\n\nYou will receive your opponent's move by mail.",
        kept_rows: None,
    }
    .render();
    let shot = screenshot(&browser, &html, "board-white");
    let origin = check_board(&shot, &record, Color::White);
    // Read by hand, not from the library: from White's side a8 (top left)
    // is light, a1 (bottom left) dark, and 1. 5254 lit e2 (column 5, second
    // row from the bottom) and e4 (column 5, fourth row from the bottom),
    // both light squares.
    assert!(close(drawn(&shot, origin, 0, 0), hex(LIGHT)));
    assert!(close(drawn(&shot, origin, 0, 7), hex(DARK)));
    assert!(close(drawn(&shot, origin, 4, 6), hex(LIGHT_LAST_MOVE)));
    assert!(close(drawn(&shot, origin, 4, 4), hex(LIGHT_LAST_MOVE)));
    assert!(close(drawn(&shot, origin, 3, 6), hex(DARK)));
    // White's pieces (outlines) at the bottom, Black's (solid) on top.
    let (top, bottom) = (ink(&shot, origin, 0..2), ink(&shot, origin, 6..8));
    assert!(
        top > bottom * 3 / 2,
        "solid pieces should be on top: top {top}, bottom {bottom}"
    );
}

#[test]
fn chromium_draws_blacks_board_upside_down() {
    let Some(browser) = browser_or_skip("chromium_draws_blacks_board_upside_down") else {
        return;
    };
    let record = played(&["5254", "5755", "7163"]);
    let html = GamePage {
        lang: Lang::De,
        title: "[wildt #7] 2. 7163 - Sie sind am Zug",
        intro: "Partie 7: Weiß hat 2. 7163 (Sf3) gespielt.",
        record: &record,
        viewer: Color::Black,
        outro: "Schwarz am Zug (2...)",
        kept_rows: None,
    }
    .render();
    let shot = screenshot(&browser, &html, "board-black");
    let origin = check_board(&shot, &record, Color::Black);
    // From Black's side h1 is top left (light) and h8 bottom left (dark); the
    // knight went g1 -> f3: g1 is column 2 of the top row (dark), f3 column
    // 3 of the third row (light).
    assert!(close(drawn(&shot, origin, 0, 0), hex(LIGHT)));
    assert!(close(drawn(&shot, origin, 0, 7), hex(DARK)));
    assert!(close(drawn(&shot, origin, 1, 0), hex(DARK_LAST_MOVE)));
    assert!(close(drawn(&shot, origin, 2, 2), hex(LIGHT_LAST_MOVE)));
    assert!(
        close(drawn(&shot, origin, 6, 0), hex(LIGHT)),
        "b1 is not lit"
    );
    // Black's solid pieces at the bottom.
    let (top, bottom) = (ink(&shot, origin, 0..2), ink(&shot, origin, 6..8));
    assert!(
        bottom > top * 3 / 2,
        "solid pieces should be at the bottom: top {top}, bottom {bottom}"
    );
}

/// `html` with every `style` attribute removed, as some mail clients do.
fn without_styles(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(" style=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i + " style=\"".len()..];
        rest = &after[after.find('"').expect("closing quote") + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn chromium_still_draws_a_coloured_board_when_styles_are_stripped() {
    let Some(browser) =
        browser_or_skip("chromium_still_draws_a_coloured_board_when_styles_are_stripped")
    else {
        return;
    };
    let record = played(&["5254"]);
    let html = GamePage {
        lang: Lang::Fr,
        title: "[wildt #7] 1. 5254 accepté",
        intro: "Partie 7 : votre coup 1. 5254 (e4) est enregistré.",
        record: &record,
        viewer: Color::White,
        outro: "Trait aux Noirs (1...)",
        kept_rows: None,
    }
    .render();
    let bare = without_styles(&html);
    assert!(!bare.contains("style="), "all styles stripped");
    let shot = screenshot(&browser, &bare, "board-unstyled");
    // `bgcolor`, `width` and `height` survive: the same squares in the same
    // places, with the last move lit.
    let origin = check_board(&shot, &record, Color::White);
    assert!(close(drawn(&shot, origin, 4, 6), hex(LIGHT_LAST_MOVE)));
    assert!(close(drawn(&shot, origin, 4, 4), hex(LIGHT_LAST_MOVE)));
}

/// The HTML part of a real relay mail, written by the binary over the
/// Maildir, as Black's client draws it: Black's board upside down with
/// Black's pieces at the bottom and White's last move lit. Kept as
/// `relay-mail.png` with `WILDT_SCREENSHOT_DIR` (the README's picture).
#[test]
fn chromium_draws_the_html_part_of_a_relay_mail_from_blacks_side() {
    let Some(browser) =
        browser_or_skip("chromium_draws_the_html_part_of_a_relay_mail_from_blacks_side")
    else {
        return;
    };
    let club = crate::support::club::Club::new();
    let g = club.new_game_with(&["--black-lang", "de"]);
    club.deliver(
        "1.eml",
        &crate::support::club::mail("anna@example.org", &g.white, "m1@example.org", "1. 5254"),
    );
    club.deliver(
        "2.eml",
        &crate::support::club::mail("ben@example.net", &g.black, "m2@example.org", "1... 5755"),
    );
    club.serve_once();
    club.deliver(
        "3.eml",
        &crate::support::club::mail("anna@example.org", &g.white, "m3@example.org", "2. 7163"),
    );
    club.serve_once();
    // The outbox's file names do not follow the order of writing.
    let mails: Vec<_> = club
        .outbox()
        .iter()
        .map(|m| crate::languages::read(m))
        .filter(|m| {
            m.to == "ben@example.net"
                && m.kind == "opponent-moved"
                && m.text.contains("2. 7163 (Sf3)")
        })
        .collect();
    assert_eq!(mails.len(), 1, "the relay of 2. 7163 in German");
    let relay = &mails[0];
    let html = relay.html.as_deref().expect("an HTML part");
    let record = played(&["5254", "5755", "7163"]);
    let shot = screenshot(&browser, html, "relay-mail");
    let origin = check_board(&shot, &record, Color::Black);
    // Read by hand: from Black's side the knight's g1 is column 2 of the top
    // row (dark, lit) and f3 column 3 of the third row (light, lit).
    assert!(close(drawn(&shot, origin, 1, 0), hex(DARK_LAST_MOVE)));
    assert!(close(drawn(&shot, origin, 2, 2), hex(LIGHT_LAST_MOVE)));
    let (top, bottom) = (ink(&shot, origin, 0..2), ink(&shot, origin, 6..8));
    assert!(
        bottom > top * 3 / 2,
        "Black's solid pieces should be at the bottom: top {top}, bottom {bottom}"
    );
}
