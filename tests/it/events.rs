//! Sections through the real binary: `wildt event new` pairs a
//! section and mails each player their games, `event withdraw` rules both
//! ways, and the public site — written by `wildt publish` and refreshed by
//! `wildt serve --once` after a move — shows the games, the crosstable of
//! `event show --json`, and never an address or a key. [IO: processes, temp
//! files]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::cli::{json_of, temp_config, wildt};
use crate::support::club::mail;
use crate::support::fixtures::body_text;

/// A club with `[publish] path` set, in a fresh folder.
struct Section {
    dir: tempfile::TempDir,
    cfg: PathBuf,
}

impl Section {
    fn new() -> Section {
        let dir = tempfile::tempdir().unwrap();
        let cfg = temp_config(dir.path());
        let mut text = std::fs::read_to_string(&cfg).unwrap();
        text.push_str(&format!(
            "\n[publish]\npath = \"{}\"\n",
            dir.path().join("site").display()
        ));
        std::fs::write(&cfg, text).unwrap();
        Section { dir, cfg }
    }

    fn site(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    fn run(&self, args: &[&str]) -> Value {
        json_of(&wildt(&self.cfg, args))
    }

    /// Every mail sent so far: `serve --once` flushes the outbox table to
    /// the file outbox first.
    fn outbox(&self) -> Vec<String> {
        std::fs::create_dir_all(self.dir.path().join("mail/new")).unwrap();
        let out = wildt(&self.cfg, &["serve", "--once"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.path().join("outbox"))
            .map(|rd| rd.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "eml"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    }

    fn deliver(&self, name: &str, raw: &str) {
        let new = self.dir.path().join("mail/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join(name), raw).unwrap();
    }
}

fn emails(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("p{i}.player@club{i}.example"))
        .collect()
}

/// `event new` for `n` players: the created games' (white, black) pairs.
fn pairs_of(v: &Value) -> Vec<(String, String)> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"].as_str().unwrap().to_owned(),
                g["black"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn event_new_pairs_every_size_from_3_to_16_once_and_double_twice_with_colours_swapped() {
    for n in 3..=16 {
        for double in [false, true] {
            let s = Section::new();
            let players = emails(n).join(",");
            let mut args = vec!["event", "new", "Test", "--players", &players, "--json"];
            if double {
                args.push("--double");
            }
            let pairs = pairs_of(&s.run(&args));
            let per_pair = if double { 2 } else { 1 };
            assert_eq!(
                pairs.len(),
                n * (n - 1) / 2 * per_pair,
                "n={n} double={double}"
            );
            let mut seen: BTreeMap<(String, String), Vec<(String, String)>> = BTreeMap::new();
            for (w, b) in &pairs {
                assert_ne!(w, b);
                let key = if w < b {
                    (w.clone(), b.clone())
                } else {
                    (b.clone(), w.clone())
                };
                seen.entry(key).or_default().push((w.clone(), b.clone()));
            }
            assert_eq!(seen.len(), n * (n - 1) / 2, "every pair meets, n={n}");
            for (pair, games) in &seen {
                assert_eq!(games.len(), per_pair, "{pair:?} n={n}");
                if double {
                    assert_eq!(games[0].0, games[1].1, "colours swapped: {games:?}");
                    assert_eq!(games[0].1, games[1].0, "colours swapped: {games:?}");
                }
            }
            for e in emails(n) {
                let whites = pairs.iter().filter(|(w, _)| *w == e).count();
                let blacks = pairs.iter().filter(|(_, b)| *b == e).count();
                assert!(
                    whites.abs_diff(blacks) <= 1,
                    "{e}: {whites} white, {blacks} black (n={n})"
                );
            }
        }
    }
}

#[test]
fn event_new_mails_each_player_one_summary_of_all_their_games_and_each_game_its_welcome() {
    let s = Section::new();
    let v = s.run(&[
        "event",
        "new",
        "Spring Cup",
        "--players",
        "Anna Smith <anna@x.example>, ben@y.example, Cy <cy@z.example>, dee@w.example",
        "--json",
    ]);
    assert_eq!(v["games"].as_array().unwrap().len(), 6);
    let mails = s.outbox();
    // Two welcomes per game plus one summary per player.
    assert_eq!(mails.len(), 6 * 2 + 4, "{}", mails.len());
    let summaries: Vec<&String> = mails
        .iter()
        .filter(|m| m.contains("Spring Cup: your games"))
        .collect();
    assert_eq!(summaries.len(), 4);
    let anna = summaries
        .iter()
        .find(|m| {
            m.contains("To: \"Anna Smith\" <anna@x.example>")
                || m.contains("To: Anna Smith <anna@x.example>")
        })
        .expect("Anna's summary");
    for g in v["games"].as_array().unwrap() {
        let id = g["id"].as_i64().unwrap();
        let plays = g["white"] == "anna@x.example" || g["black"] == "anna@x.example";
        assert_eq!(
            body_text(anna.as_bytes()).contains(&format!("Game {id}: you play")),
            plays,
            "game {id} in Anna's summary: {anna}"
        );
    }
    let body = body_text(anna.as_bytes());
    assert!(body.contains("against Cy <cy@z.example>"), "{body}");
}

fn results(s: &Section, id: &str) -> Value {
    s.run(&["event", "show", id, "--json"])
}

#[test]
fn a_withdrawal_scores_forfeits_or_annuls_under_half_and_tells_the_opponents() {
    for annul in [false, true] {
        let s = Section::new();
        let v = s.run(&[
            "event",
            "new",
            "Cup",
            "--players",
            "a@x.example,b@x.example,c@x.example,d@x.example",
            "--json",
        ]);
        let event = v["id"].as_i64().unwrap().to_string();
        let before: BTreeSet<String> = s.outbox().into_iter().collect();
        let mut args = vec!["event", "withdraw", &event, "b@x.example", "--json"];
        if annul {
            args.push("--annul-under-half");
        }
        let w = s.run(&args);
        assert_eq!(w["ruling"], if annul { "annulled" } else { "forfeit" });
        assert_eq!(w["games"].as_array().unwrap().len(), 3);
        let notices: Vec<String> = s
            .outbox()
            .into_iter()
            .filter(|m| !before.contains(m))
            .collect();
        assert_eq!(notices.len(), 3, "one notice per opponent");
        for to in ["a@x.example", "c@x.example", "d@x.example"] {
            let n = notices
                .iter()
                .find(|m| m.contains(&format!("To: {to}")))
                .unwrap_or_else(|| panic!("no notice to {to}"));
            let expected = if annul {
                "counts for neither side"
            } else {
                "win for you by forfeit"
            };
            let body = body_text(n.as_bytes());
            assert!(body.contains(expected), "{body}");
        }
        let table = results(&s, &event);
        for g in table["games"].as_array().unwrap() {
            let has_b = g["white"] == "b@x.example" || g["black"] == "b@x.example";
            let r = g["result"].as_str().unwrap();
            if !has_b {
                assert_eq!(r, "*");
            } else if annul {
                assert_eq!(r, "annulled");
            } else {
                let expected = if g["white"] == "b@x.example" {
                    "-+"
                } else {
                    "+-"
                };
                assert_eq!(r, expected);
            }
        }
        let points: BTreeMap<String, f64> = table["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["email"].as_str().unwrap().to_owned(),
                    p["points"].as_f64().unwrap(),
                )
            })
            .collect();
        let expected_a = if annul { 0.0 } else { 1.0 };
        assert_eq!(points["a@x.example"], expected_a);
        assert_eq!(points["b@x.example"], 0.0);
        // A ruled game is over: the game shows it finished.
        let g = table["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["white"] == "b@x.example" || g["black"] == "b@x.example")
            .unwrap()["id"]
            .as_i64()
            .unwrap();
        let shown = s.run(&["game", "show", &g.to_string(), "--json"]);
        assert_eq!(shown["status"], "finished");
        assert_eq!(
            shown["termination"],
            if annul { "annulled" } else { "forfeit" }
        );
        // And no move is played in it any more.
        let mv = wildt(
            &s.cfg,
            &[
                "game",
                "move",
                &g.to_string(),
                "5254",
                "--as",
                "white",
                "--json",
            ],
        );
        let after = s.run(&["game", "show", &g.to_string(), "--json"]);
        assert_eq!(
            after["moves"].as_array().unwrap().len(),
            0,
            "{}",
            String::from_utf8_lossy(&mv.stdout)
        );
        // Twice is refused.
        let again = wildt(&s.cfg, &["event", "withdraw", &event, "b@x.example"]);
        assert!(!again.status.success());
    }
}

/// Every file under `dir`, relative path -> bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

/// The targets of `href="…"` and `src="…"` in a page.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap();
            out.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    out
}

/// Text of the `<td class="NAME">` cells of the crosstable's rows, by the
/// row's player name.
fn table_column(html: &str, class: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for row in html.split("<tr data-seat=").skip(1) {
        let name = between(row, "<th scope=\"row\">", "</th>");
        let value = between(row, &format!("<td class=\"{class}\">"), "</td>");
        out.insert(name.to_owned(), value.to_owned());
    }
    out
}

fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    let i = s.find(start).unwrap_or_else(|| panic!("no {start}")) + start.len();
    let j = s[i..].find(end).unwrap() + i;
    &s[i..j]
}

/// A section with a move played through the daemon: the site it wrote.
fn played_section() -> (Section, Value, Vec<String>) {
    let s = Section::new();
    let v = s.run(&[
        "event",
        "new",
        "Autumn Open",
        "--players",
        "Anna Smith <anna@x.example>, ben.jones@y.example, Cy <cy@z.example>",
        "--json",
    ]);
    let first = v["games"][0]["id"].as_i64().unwrap();
    let shown = s.run(&["game", "show", &first.to_string(), "--json"]);
    let white = shown["white"]["email"].as_str().unwrap().to_owned();
    let address = shown["white"]["address"].as_str().unwrap().to_owned();
    // With the move, a conditional line: stored, never published.
    s.deliver(
        "1.eml",
        &mail(
            &white,
            &address,
            "m1@x.example",
            "1. 5254\r\nif 1... 2836 then 2. 7163",
        ),
    );
    let before: BTreeSet<String> = s.outbox().into_iter().collect();
    assert!(
        before
            .iter()
            .any(|m| body_text(m.as_bytes()).contains("Your conditional moves are stored")),
        "the conditional line was stored"
    );
    // Every address and key of the club.
    let mut secrets = vec![
        "anna@x.example".to_owned(),
        "ben.jones@y.example".to_owned(),
        "cy@z.example".to_owned(),
        "ben.jones".to_owned(),
        // The conditional line's moves and its words.
        "2836".to_owned(),
        "7163".to_owned(),
        "Nf3".to_owned(),
        "then 2".to_owned(),
    ];
    for g in v["games"].as_array().unwrap() {
        let shown = s.run(&["game", "show", &g["id"].to_string(), "--json"]);
        for seat in ["white", "black"] {
            let a = shown[seat]["address"].as_str().unwrap();
            secrets.push(a.to_owned());
            // The key alone: the part after `+ID-` before `@`.
            let key = a.split('@').next().unwrap().rsplit('-').next().unwrap();
            assert!(key.len() >= 8, "{a}");
            secrets.push(key.to_owned());
        }
    }
    (s, v, secrets)
}

#[test]
fn the_daemon_republishes_the_site_after_a_move_without_any_address_or_key() {
    let (s, v, secrets) = played_section();
    let site = s.site();
    let files = tree(&site);
    let first = v["games"][0]["id"].as_i64().unwrap();
    let game_page =
        String::from_utf8(files[&PathBuf::from(format!("games/{first}.html"))].clone()).unwrap();
    assert!(game_page.contains("5254"), "the move is on the game page");
    assert!(files.contains_key(&PathBuf::from(format!("games/{first}/1.html"))));
    let pgn =
        String::from_utf8(files[&PathBuf::from(format!("games/{first}.pgn"))].clone()).unwrap();
    assert!(pgn.contains("1. e4"), "{pgn}");
    assert!(files.contains_key(&PathBuf::from("events/1.pgn")));
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes).to_lowercase();
        for secret in &secrets {
            assert!(
                !text.contains(&secret.to_lowercase()),
                "{} publishes {secret}",
                path.display()
            );
        }
        assert!(!text.contains('@'), "{} holds an @", path.display());
    }
}

#[test]
fn every_link_of_the_site_resolves_inside_it_and_the_crosstable_matches_event_show() {
    let (s, v, _) = played_section();
    let site = s.site();
    let files = tree(&site);
    let mut checked = 0;
    for (path, bytes) in files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "html"))
    {
        let html = String::from_utf8(bytes.clone()).unwrap();
        assert!(html.contains("<h1>"), "{} has a heading", path.display());
        assert!(html.contains("name=\"viewport\""), "{}", path.display());
        for link in links(&html) {
            assert!(!link.contains("//"), "{}: external {link}", path.display());
            let target = path.parent().unwrap().join(&link);
            let mut norm = PathBuf::new();
            for c in target.components() {
                match c {
                    std::path::Component::ParentDir => {
                        assert!(norm.pop(), "{link} leaves the tree")
                    }
                    std::path::Component::CurDir => {}
                    other => norm.push(other),
                }
            }
            assert!(
                files.contains_key(&norm),
                "{}: {link} -> {} missing",
                path.display(),
                norm.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} links");
    let event = v["id"].as_i64().unwrap();
    let shown = s.run(&["event", "show", &event.to_string(), "--json"]);
    let page =
        String::from_utf8(files[&PathBuf::from(format!("events/{event}.html"))].clone()).unwrap();
    let points = table_column(&page, "points");
    let played = table_column(&page, "played");
    let sb = table_column(&page, "sb");
    let rank = table_column(&page, "rank");
    let names: BTreeSet<&String> = points.keys().collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for p in shown["players"].as_array().unwrap() {
        let name = match p["name"].as_str() {
            Some(n) => n.to_owned(),
            None => {
                let email = p["email"].as_str().unwrap();
                wildt::event::public_name(&wildt::event::parse_player(email).unwrap())
            }
        };
        assert_eq!(
            points[&name].parse::<f64>().unwrap(),
            p["points"].as_f64().unwrap(),
            "{name}"
        );
        assert_eq!(
            played[&name].parse::<u64>().unwrap(),
            p["played"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            sb[&name].parse::<f64>().unwrap(),
            p["sb"].as_f64().unwrap(),
            "{name}"
        );
        assert_eq!(&rank[&name], p["rank"].as_str().unwrap(), "{name}");
    }
}

#[test]
fn game_over_mails_of_an_event_show_each_players_standing() {
    let s = Section::new();
    let v = s.run(&[
        "event",
        "new",
        "Winter Cup",
        "--players",
        "a@x.example,b@x.example,c@x.example",
        "--json",
    ]);
    let first = v["games"][0]["id"].as_i64().unwrap();
    let shown = s.run(&["game", "show", &first.to_string(), "--json"]);
    let white = shown["white"]["email"].as_str().unwrap().to_owned();
    let black = shown["black"]["email"].as_str().unwrap().to_owned();
    let address = shown["white"]["address"].as_str().unwrap().to_owned();
    let before: BTreeSet<String> = s.outbox().into_iter().collect();
    s.deliver(
        "1.eml",
        &mail(&white, &address, "r1@x.example", "I resign."),
    );
    let over: Vec<String> = s
        .outbox()
        .into_iter()
        .filter(|m| !before.contains(m) && m.contains("X-Wildt-Event: game-over"))
        .collect();
    assert_eq!(over.len(), 2, "{over:#?}");
    let body_of = |to: &str| {
        body_text(
            over.iter()
                .find(|m| m.contains(&format!("To: {to}")))
                .unwrap()
                .as_bytes(),
        )
    };
    let winner = body_of(&black);
    assert!(
        winner.contains("Standing in Winter Cup: place 1 of 3, points: 1, games finished: 1."),
        "{winner}"
    );
    let loser = body_of(&white);
    assert!(
        loser.contains("Standing in Winter Cup: place 2–3 of 3, points: 0, games finished: 1."),
        "{loser}"
    );
}

/// Runs headless Chromium on `url` with `extra` arguments; its stderr.
fn chromium_run(browser: &Path, profile: &Path, url: &str, extra: &[String]) -> String {
    let mut child = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start chromium");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("chromium took more than 120 s on {url}");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "chromium failed on {url}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The console messages Chromium logged (`INFO:CONSOLE` lines).
fn console_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

fn browser() -> Option<PathBuf> {
    let found = std::env::var_os("WILDT_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            let path = std::env::var_os("PATH")?;
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
                .find(|p| p.is_file())
        });
    match found {
        Some(p) => Some(p),
        None if std::env::var("WILDT_SKIP_BROWSER").as_deref() == Ok("1") => {
            eprintln!("SKIPPED: no chromium on PATH (WILDT_SKIP_BROWSER=1)");
            None
        }
        None => {
            panic!("the site tests need headless Chromium (or WILDT_SKIP_BROWSER=1 without it)")
        }
    }
}

/// RGB pixels of a PNG screenshot.
fn pixels(png_bytes: &[u8]) -> Vec<[u8; 3]> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

fn count_colour(px: &[[u8; 3]], colour: &str) -> usize {
    let v = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    let c = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
    px.iter()
        .filter(|p| p.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= 6))
        .count()
}

#[test]
fn in_chromium_every_page_loads_without_console_errors_and_the_pages_have_their_colours() {
    let Some(browser) = browser() else { return };
    let work = tempfile::tempdir().unwrap();
    let profile = work.path().join("profile");
    // The check itself is checked: a page whose script logs an error is seen.
    let bad = work.path().join("bad.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><title>t</title><script>console.error('boom')</script>",
    )
    .unwrap();
    let seen = chromium_run(
        &browser,
        &profile,
        &format!("file://{}", bad.display()),
        &["--dump-dom".to_owned()],
    );
    assert_eq!(console_lines(&seen).len(), 1, "{seen}");

    let (s, v, _) = played_section();
    let site = std::fs::canonicalize(s.site()).unwrap();
    let files = tree(&site);
    let pages: Vec<&PathBuf> = files
        .keys()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    assert!(pages.len() >= 9, "{pages:?}");
    for page in &pages {
        let url = format!("file://{}", site.join(page).display());
        let err = chromium_run(&browser, &profile, &url, &["--dump-dom".to_owned()]);
        assert!(
            console_lines(&err).is_empty(),
            "{}: {:?}",
            page.display(),
            console_lines(&err)
        );
    }
    let keep = std::env::var_os("WILDT_SCREENSHOT_DIR").map(PathBuf::from);
    let shot = |page: &str, name: &str| -> Vec<[u8; 3]> {
        let png_path = work.path().join(format!("{name}.png"));
        chromium_run(
            &browser,
            &profile,
            &format!("file://{}", site.join(page).display()),
            &[
                format!("--screenshot={}", png_path.display()),
                "--window-size=420,820".to_owned(),
            ],
        );
        let bytes = std::fs::read(&png_path).unwrap();
        if let Some(dir) = &keep {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(format!("{name}.png")), &bytes).unwrap();
        }
        pixels(&bytes)
    };
    let first = v["games"][0]["id"].as_i64().unwrap();
    let game = shot(&format!("games/{first}.html"), "site-game");
    let square = (wildt::html::SQUARE_PX * wildt::html::SQUARE_PX) as usize;
    // 62 plain squares, the two of the move highlighted; pieces cover part of each.
    assert!(
        count_colour(&game, wildt::html::LIGHT) > 10 * square,
        "light squares"
    );
    assert!(
        count_colour(&game, wildt::html::DARK) > 10 * square,
        "dark squares"
    );
    let highlighted = count_colour(&game, wildt::html::LIGHT_LAST_MOVE)
        + count_colour(&game, wildt::html::DARK_LAST_MOVE);
    assert!(
        highlighted > square,
        "the last move's squares: {highlighted}"
    );
    let event = v["id"].as_i64().unwrap();
    let table = shot(&format!("events/{event}.html"), "site-event");
    // The crosstable's grid lines (#999) and text are drawn.
    assert!(
        count_colour(&table, "#999999") > 200,
        "the crosstable's lines"
    );
    assert!(count_colour(&table, "#111111") > 100, "the text");
}

#[test]
fn publish_twice_swaps_the_link_to_a_new_tree_and_removes_the_old_one() {
    let s = Section::new();
    s.run(&[
        "event",
        "new",
        "Cup",
        "--players",
        "a@x.example,b@x.example,c@x.example",
        "--json",
    ]);
    let out = s.dir.path().join("www/chess");
    let publish = || {
        let o = wildt(&s.cfg, &["publish", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    publish();
    let first = std::fs::read_link(&out).unwrap();
    publish();
    let second = std::fs::read_link(&out).unwrap();
    assert_ne!(first, second, "a new tree each time");
    let beside: Vec<String> = std::fs::read_dir(s.dir.path().join("www"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tree-"))
        .collect();
    assert_eq!(beside, vec![second.to_string_lossy().into_owned()]);
    assert!(out.join("index.html").is_file() && out.join("events/1.html").is_file());
    // A real folder at the path is not replaced.
    let folder = s.dir.path().join("mine");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("keep.txt"), "mine").unwrap();
    let o = wildt(&s.cfg, &["publish", "--out", folder.to_str().unwrap()]);
    assert!(!o.status.success());
    assert_eq!(
        std::fs::read_to_string(folder.join("keep.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn event_new_gives_every_game_the_time_control_of_time() {
    let s = Section::new();
    let v = s.run(&[
        "event",
        "new",
        "Timed",
        "--players",
        "a@x.example,b@x.example,c@x.example",
        "--time",
        "10/50",
        "--json",
    ]);
    for g in v["games"].as_array().unwrap() {
        let shown = s.run(&["game", "show", &g["id"].to_string(), "--json"]);
        assert_eq!(shown["clock"]["control"], "10/50", "{shown}");
    }
    let bad = wildt(
        &s.cfg,
        &[
            "event",
            "new",
            "X",
            "--players",
            "a@x.example,b@x.example,c@x.example",
            "--time",
            "soon",
        ],
    );
    assert!(!bad.status.success());
}

const DAY: i64 = 86_400;
const HOUR: i64 = 3_600;

fn rfc3339(t: i64) -> String {
    let secs = t.rem_euclid(DAY);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        wildt::clock::Date::of_instant(t),
        secs / HOUR,
        secs % HOUR / 60,
        secs % 60
    )
}

impl Section {
    /// `wildt ARGS` with `WILDT_NOW` at `now`; its JSON-free output checked.
    fn run_at(&self, now: i64, args: &[&str]) -> std::process::Output {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(args)
            .arg("--config")
            .arg(&self.cfg)
            .env("WILDT_NOW", rfc3339(now))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// Delivers `raw` as if it arrived at `at` (the file's mtime), then
    /// runs `serve --once` an hour later.
    fn move_at(&self, name: &str, raw: &str, at: i64) {
        self.deliver(name, raw);
        let path = self.dir.path().join("mail/new").join(name);
        let when = std::time::SystemTime::UNIX_EPOCH
            + std::time::Duration::from_secs(u64::try_from(at).unwrap());
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(when)
            .unwrap();
        self.run_at(at + HOUR, &["serve", "--once"]);
    }
}

#[test]
fn a_timed_sections_game_page_shows_both_clocks_and_its_pgn_the_control_and_days() {
    let s = Section::new();
    let t0 = wildt::clock::Date::from_ymd(2026, 12, 1).unwrap().start();
    let v = json_of(&s.run_at(
        t0,
        &[
            "event",
            "new",
            "Winter Open",
            "--players",
            "Anna Smith <anna@x.example>, ben.jones@y.example, Cy <cy@z.example>",
            "--time",
            "10/50",
            "--json",
        ],
    ));
    let id = v["games"][0]["id"].as_i64().unwrap();
    let shown = s.run(&["game", "show", &id.to_string(), "--json"]);
    let seat = |c: &str| {
        (
            shown[c]["email"].as_str().unwrap().to_owned(),
            shown[c]["address"].as_str().unwrap().to_owned(),
        )
    };
    let ((white, white_to), (black, black_to)) = (seat("white"), seat("black"));
    // White thinks 3 days and 2 hours, Black 5 days and 1 hour.
    let first = t0 + 3 * DAY + 2 * HOUR;
    s.move_at(
        "1.eml",
        &mail(&white, &white_to, "m1@x.example", "1. 5254"),
        first,
    );
    let second = first + 5 * DAY + HOUR;
    s.move_at(
        "2.eml",
        &mail(&black, &black_to, "m2@x.example", "1... 5755"),
        second,
    );
    // Black's leave, granted before it starts; the site says "on leave" and
    // never when.
    s.run_at(
        second + 2 * HOUR,
        &[
            "game",
            "leave",
            &id.to_string(),
            "--as",
            "black",
            "--from",
            "2026-12-10",
            "--to",
            "2026-12-14",
        ],
    );
    // White has thought 4 days and 5 hours on move 2 when the site is written.
    let publish_at = second + 4 * DAY + 5 * HOUR;
    s.run_at(publish_at, &["publish"]);

    let files = tree(&s.site());
    let text = |p: &str| String::from_utf8(files[&PathBuf::from(p)].clone()).unwrap();
    let page = text(&format!("games/{id}.html"));
    let clocks = between(&page, "<table class=\"clocks\">", "</table>");
    let white_row = between(clocks, "data-side=\"white\">", "</tr>");
    let black_row = between(clocks, "data-side=\"black\">", "</tr>");
    assert!(page.contains("Time control 10/50"), "{page}");
    assert!(page.contains("as of 2026-12-13 08:00 UTC"), "{page}");
    assert_eq!(between(white_row, "<td class=\"used\">", "</td>"), "7");
    assert_eq!(
        between(white_row, "<td class=\"left\">", "</td>"),
        "43 days left for moves 2–10"
    );
    assert_eq!(
        between(white_row, "<td class=\"state\">", "</td>"),
        "to move (4 days on this move)"
    );
    assert_eq!(between(black_row, "<td class=\"used\">", "</td>"), "5");
    assert_eq!(
        between(black_row, "<td class=\"left\">", "</td>"),
        "45 days left for moves 2–10"
    );
    assert_eq!(
        between(black_row, "<td class=\"state\">", "</td>"),
        "on leave"
    );
    // The position after White's first move: the clocks as it arrived.
    let after_one = text(&format!("games/{id}/1.html"));
    let row = between(&after_one, "data-side=\"white\">", "</tr>");
    assert_eq!(between(row, "<td class=\"used\">", "</td>"), "3");
    assert_eq!(
        between(row, "<td class=\"left\">", "</td>"),
        "47 days left for moves 2–10"
    );
    let row = between(&after_one, "data-side=\"black\">", "</tr>");
    assert_eq!(
        between(row, "<td class=\"left\">", "</td>"),
        "50 days left for moves 1–10"
    );
    assert_eq!(between(row, "<td class=\"state\">", "</td>"), "");

    for pgn in [text(&format!("games/{id}.pgn")), text("events/1.pgn")] {
        assert!(pgn.contains("[TimeControl \"10/50\"]"), "{pgn}");
        assert!(pgn.contains("1. e4 {5254 3d} e5 {5755 5d}"), "{pgn}");
    }
    // The game's own `game pgn` agrees with the site's file.
    let own = s.run_at(publish_at, &["game", "pgn", &id.to_string()]);
    let own = String::from_utf8(own.stdout).unwrap();
    assert!(own.contains("1. e4 {5254 3d} e5 {5755 5d}"), "{own}");

    // Nothing private: no address, no key, no leave date.
    let mut secrets = vec![
        "anna@x.example".to_owned(),
        "ben.jones".to_owned(),
        "cy@z.example".to_owned(),
        "2026-12-10".to_owned(),
        "2026-12-14".to_owned(),
        "12-14".to_owned(),
    ];
    for g in v["games"].as_array().unwrap() {
        let shown = s.run(&["game", "show", &g["id"].to_string(), "--json"]);
        for seat in ["white", "black"] {
            let a = shown[seat]["address"].as_str().unwrap();
            secrets.push(a.to_owned());
            secrets.push(
                a.split('@')
                    .next()
                    .unwrap()
                    .rsplit('-')
                    .next()
                    .unwrap()
                    .to_owned(),
            );
        }
    }
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes).to_lowercase();
        for secret in &secrets {
            assert!(
                !text.contains(&secret.to_lowercase()),
                "{} publishes {secret}",
                path.display()
            );
        }
        assert!(!text.contains('@'), "{} holds an @", path.display());
    }
}
