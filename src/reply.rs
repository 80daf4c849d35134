//! Decisions -> the mails to write: recipients, subjects, bodies and the
//! headers players filter on. Every word a player reads is written here,
//! every subject by [`subject`]. [pure: no IO]
//!
//! Rendering to RFC 5322 bytes happens at the edge (`mail::render`); here a mail
//! is plain data, so tests can read exactly what a player would.
//!
//! Every text comes from [`i18n::text`] in the recipient's language (their
//! [`Seat::lang`], or the sender's language for a notice outside a game). A
//! mail that shows a position also carries an HTML part ([`html::GamePage`])
//! made from the same words: the board seen from the recipient's side.

pub mod cache;
mod conditional;
pub mod event;

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use shakmaty::{Color, Position};

use crate::command::MoveNumber;
use crate::config::RefereeConfig;
pub use crate::decide::Seat;
use crate::decide::{Decision, GameView, Notice};
use crate::game::{GameEnd, MoveNumberText, Record, board_grid};
use crate::html::{GamePage, MailPage, RecordHtml};
use crate::i18n::{self, Arg, Key, Lang, color_arg, explain, san};
use crate::intake::{Intake, Unclear, WILDT_SUBJECT_MARK};
use crate::notation::{IccfMove, Ply};
use crate::referee::Verdict;
use cache::{Rendering, Renderings};

/// The subject of every mail wildt writes: the intake's subject mark, the
/// game number if any, then `text` (`[wildt #17] 1. 5254 accepted`). The
/// intake recognises wildt's own subjects by the same mark.
pub fn subject(game: Option<i64>, text: &str) -> String {
    match game {
        Some(id) => format!("{WILDT_SUBJECT_MARK} #{id}] {text}"),
        None => format!("{WILDT_SUBJECT_MARK}] {text}"),
    }
}

/// What a mail is about: sent as the `X-Wildt-Event` header, a name
/// players' filters match and so one that stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    MoveAccepted,
    MoveRejected,
    OpponentMoved,
    /// To a player: a prepared answer from their conditional moves was
    /// played for them.
    PreparedMovePlayed,
    GameOver,
    Notice,
}

impl MailKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::MoveAccepted => "move-accepted",
            MailKind::MoveRejected => "move-rejected",
            MailKind::OpponentMoved => "opponent-moved",
            MailKind::PreparedMovePlayed => "prepared-move-played",
            MailKind::GameOver => "game-over",
            MailKind::Notice => "notice",
        }
    }
}

/// A mail to write, before rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutMail {
    /// The recipient's address: whom the mail is for, and what the hourly
    /// limit compares with the sender.
    pub to: String,
    /// The recipient's display name, for the `To` header, when known.
    pub to_name: Option<String>,
    /// The recipient's own game address, so a plain "reply" reaches the game.
    pub reply_to: Option<String>,
    pub subject: String,
    /// The text part, readable in any client.
    pub body: String,
    /// The HTML part for a mail that shows a position; sent beside `body`
    /// as `multipart/alternative`.
    pub html: Option<HtmlPart>,
    /// The language the mail is written in (`Content-Language`).
    pub lang: Lang,
    pub kind: MailKind,
    pub game: Option<i64>,
    /// Message-ID of the mail this answers, if any (without `<>`).
    pub in_reply_to: Option<String>,
}

/// The HTML part of a game mail, kept as data until rendering so that a note
/// added to the text part (conditional moves) is added to it too: the same
/// intro and outro as the text part, around the board and record.
#[derive(Debug, Clone)]
pub struct HtmlPart {
    /// Not to be changed once made, like `record`: `record_html` was made
    /// from both.
    lang: Lang,
    /// The text before the board.
    pub intro: String,
    /// The position shown and the record (the last move lit): one copy for
    /// all the mails of a reply that show it.
    record: Arc<Record>,
    /// The record's first plies as kept rendered in `lang`, which the
    /// page's table continues (see [`cache`]).
    kept: Option<Arc<Rendering>>,
    /// Whose mail it is: the board is seen from this side.
    pub viewer: Color,
    /// The text after the board and record (status, how to answer).
    pub outro: String,
    /// The record's table as the page writes it, made by the first page
    /// rendered of the mails that show this record in this language (see
    /// [`GamePage::render_sharing`]).
    record_html: Arc<OnceLock<RecordHtml>>,
}

impl HtmlPart {
    /// A part of its own: nothing shared with another mail's.
    pub fn new(lang: Lang, intro: String, record: Record, viewer: Color, outro: String) -> Self {
        HtmlPart {
            lang,
            intro,
            record: Arc::new(record),
            kept: None,
            viewer,
            outro,
            record_html: Arc::default(),
        }
    }

    /// The whole HTML document, titled with the mail's subject.
    pub fn render(&self, title: &str) -> String {
        self.page(title).render_sharing(&self.record_html)
    }

    /// [`HtmlPart::render`] as a mail carries it ([`GamePage::render_for_mail`]).
    pub fn render_for_mail(&self, title: &str) -> MailPage<'_> {
        self.page(title).render_for_mail(&self.record_html)
    }

    fn page<'p>(&'p self, title: &'p str) -> GamePage<'p> {
        GamePage {
            lang: self.lang,
            title,
            intro: &self.intro,
            record: &self.record,
            viewer: self.viewer,
            outro: &self.outro,
            kept_rows: self.kept.as_deref().map(Rendering::rows),
        }
    }
}

/// Two parts are equal when they render the same page.
impl PartialEq for HtmlPart {
    fn eq(&self, other: &HtmlPart) -> bool {
        self.render("") == other.render("")
    }
}

impl Eq for HtmlPart {}

impl OutMail {
    /// Adds `text` at the end of the mail (text part and HTML part).
    pub fn append(&mut self, text: &str) {
        self.body.push_str(text);
        if let Some(h) = &mut self.html {
            h.outro.push_str(text);
        }
    }

    /// Puts `text` before everything the mail says.
    pub fn prepend(&mut self, text: &str) {
        self.body.insert_str(0, text);
        if let Some(h) = &mut self.html {
            h.intro.insert_str(0, text);
        }
    }

    /// Inserts `text` after the mail's first paragraph (and a blank line).
    pub fn insert_after_first_paragraph(&mut self, text: &str) {
        fn insert(s: &mut String, text: &str) {
            *s = match s.find("\n\n") {
                Some(i) => format!("{}\n\n{}{}", &s[..i], text, &s[i..]),
                None => format!("{s}\n\n{text}"),
            };
        }
        insert(&mut self.body, text);
        if let Some(h) = &mut self.html {
            insert(&mut h.intro, text);
        }
    }

    /// Inserts `line` after the mail's first line.
    pub fn insert_after_first_line(&mut self, line: &str) {
        fn insert(s: &mut String, line: &str) {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(at, &format!("{line}\n"));
        }
        insert(&mut self.body, line);
        if let Some(h) = &mut self.html {
            insert(&mut h.intro, line);
        }
    }
}

/// The game as the reply writer needs it.
pub struct GameContext<'a> {
    pub id: i64,
    pub white: &'a Seat,
    pub black: &'a Seat,
    pub record: &'a Record,
    /// The renderings kept beside the record, which its mails continue.
    pub kept: &'a Renderings,
}

/// What `write` makes of the game `view`, seen as the reply writer sees it
/// (both seats with their game addresses and languages, the record).
pub fn with_game<T>(
    view: &GameView,
    referee: &RefereeConfig,
    write: impl FnOnce(&GameContext<'_>) -> T,
) -> T {
    with_game_kept(view, None, referee, write)
}

/// [`with_game`], the record's mails continuing the renderings `kept`
/// beside it (see [`cache`]).
pub fn with_game_kept<T>(
    view: &GameView,
    kept: Option<&Renderings>,
    referee: &RefereeConfig,
    write: impl FnOnce(&GameContext<'_>) -> T,
) -> T {
    let (white, black) = view.seats(referee);
    write(&GameContext {
        id: view.id,
        white: &white,
        black: &black,
        record: &view.record,
        kept: kept.unwrap_or(Renderings::none()),
    })
}

fn game_arg(id: i64) -> (&'static str, Arg) {
    ("game", Arg::from(id.to_string()))
}

/// The diagram with its legend in `lang`: the letters stay FEN's in every
/// language (the legend says so), the grid is the same for everyone.
fn diagram(lang: Lang, record: &Record) -> String {
    format!(
        "{}  {}\n",
        board_grid(record.position()),
        i18n::text(lang, Key::BoardLegend, &[])
    )
}

/// Board, record and whose move: the part every game mail ends with;
/// the record continues `kept`, its first plies as rendered before.
fn picture(lang: Lang, record: &Record, kept: Option<&Rendering>) -> String {
    let record_line = if record.ply_count() == 0 {
        i18n::text(lang, Key::RecordEmpty, &[])
    } else {
        wrapped_record_line(lang, record, kept)
    };
    format!(
        "{}\n{record_line}\n{}\n",
        diagram(lang, record),
        explain::status_line(lang, record)
    )
}

/// The record line (`Record: 1. 5254 (e4) ...`) in `lang`, as
/// [`wrap_record`] breaks it into lines, written in one pass: the message
/// is formatted around a one-character stand-in, and the record written in
/// its place a move at a time, each move's space before it turned into a
/// line break where the move would not fit. Formatting the record as an
/// argument, then wrapping the line, would copy and read a long game's
/// record three times over, once for each reply. With `kept`, the first
/// plies are its text.
fn wrapped_record_line(lang: Lang, record: &Record, kept: Option<&Rendering>) -> String {
    if let Some(kept) = kept {
        // The plies kept rendered, then the rest as if written after them.
        let rest = record.plies_from(kept.plies);
        let mut out = String::with_capacity(kept.text.len() + rest.len() * 16);
        out.push_str(&kept.text);
        let mut line_len = out.rsplit('\n').next().map_or(0, |l| l.chars().count());
        write_wrapped_plies(
            &mut out,
            &mut line_len,
            record.start().fullmoves().get() + kept.moves(),
            Color::White,
            rest,
            lang,
        );
        return out;
    }
    match record_line_of(
        lang,
        record.start().fullmoves().get(),
        record.start().turn(),
        record.plies(),
    ) {
        Ok(line) | Err(line) => line,
    }
}

/// The record line of `plies` (the first of them move `first_move`, with
/// `first_turn` to play) in `lang`: `Ok` as words then plies a move at a
/// time (what a kept rendering continues), `Err` for a translation of
/// another form, written whole and wrapped after.
fn record_line_of(
    lang: Lang,
    first_move: u32,
    first_turn: Color,
    plies: &[crate::notation::Ply],
) -> Result<String, String> {
    const STAND_IN: &str = "\u{1}";
    let framed = i18n::text(lang, Key::RecordLine, &[("record", STAND_IN.into())]);
    let Some((before, after)) = framed.split_once(STAND_IN) else {
        // A translation without the record: as Fluent wrote it.
        return Err(wrap_record(&framed));
    };
    // The words before the record end in the space at which its first
    // move may go to the next line (`Record: `); other forms are written
    // whole and wrapped after.
    let words = before
        .strip_suffix(' ')
        .filter(|w| after.is_empty() && !w.is_empty() && !w.ends_with(['.', ' ']));
    let Some(words) = words else {
        let mut line = before.to_owned();
        san::push_plies_text(&mut line, first_move, first_turn, plies, lang);
        line.push_str(after);
        return Err(wrap_record(&line));
    };
    let mut out = wrap_record(words);
    let mut line_len = out.rsplit('\n').next().map_or(0, |l| l.chars().count());
    write_wrapped_plies(&mut out, &mut line_len, first_move, first_turn, plies, lang);
    Ok(out)
}

/// Appends `plies` to a record line `out` whose last line is `line_len`
/// characters long (never 0: the words before the record are on it), each
/// ply with its SAN in `lang` placed as `push_unit` places it.
fn write_wrapped_plies(
    out: &mut String,
    line_len: &mut usize,
    first_move: u32,
    first_turn: Color,
    plies: &[crate::notation::Ply],
    lang: Lang,
) {
    if plies.is_empty() {
        return;
    }
    out.push(' ');
    // Where the space before the move being written is.
    let mut space = out.len() - 1;
    crate::notation::write_record_into(out, first_move, first_turn, plies, |out, ply| {
        out.push_str(" (");
        san::push_localized(out, &ply.san, lang);
        out.push(')');
        if crate::game::place_unit(&out[space + 1..], line_len, RECORD_WIDTH) == Some('\n') {
            out.replace_range(space..=space, "\n");
        }
        // `write_record_into` writes one space before the next move.
        space = out.len();
    });
}

/// The longest line [`wrap_record`] writes, in characters: under the 76
/// at which a text part must be encoded.
const RECORD_WIDTH: usize = 72;

/// The record line broken into lines of at most [`RECORD_WIDTH`]
/// characters (a longer word stands alone), only before a move number or
/// a ply, so that a move number, its ply and the ply's SAN stay on one line.
/// One line of a long game's length would make the whole text part
/// quoted-printable (every line soft-broken at 76 columns, mid-move in a
/// client that shows it undecoded) and cost a pass over it per mail; a
/// record of short lines leaves an English text part 7-bit. The intake
/// reads a record pasted back in lines as it reads it on one.
fn wrap_record(line: &str) -> String {
    // A unit runs to the next space before a move number or a ply (a
    // digit) that does not follow a move number (`12.` keeps its ply, a
    // ply its `(SAN)`).
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len() + line.len() / RECORD_WIDTH + 1);
    let mut line_len = 0;
    let mut from = 0;
    for at in memchr::memchr_iter(b' ', bytes) {
        let before_ply = bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
        if before_ply && at > from && bytes[at - 1] != b'.' {
            crate::game::push_unit(&mut out, &line[from..at], &mut line_len, RECORD_WIDTH);
            from = at + 1;
        }
    }
    crate::game::push_unit(&mut out, &line[from..], &mut line_len, RECORD_WIDTH);
    out
}

impl GameContext<'_> {
    fn seat(&self, color: Color) -> &Seat {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    fn lang(&self, color: Color) -> Lang {
        self.seat(color).lang
    }

    /// A mail to the player of `to` without a position.
    fn mail(&self, to: Color, kind: MailKind, text: &str, body: String) -> OutMail {
        let seat = self.seat(to);
        OutMail {
            to: seat.email.clone(),
            to_name: seat.name.clone(),
            reply_to: Some(seat.address.clone()),
            subject: subject(Some(self.id), text),
            body,
            html: None,
            lang: seat.lang,
            kind,
            game: Some(self.id),
            in_reply_to: None,
        }
    }

    /// A game mail to the player of `to`: `intro`, the board, record and
    /// status after `record`, then `outro`; the text part and the HTML part
    /// (board from `to`'s side) say the same.
    fn game_mail(
        &self,
        to: Color,
        kind: MailKind,
        text: &str,
        intro: &str,
        record: &Record,
        outro: &str,
    ) -> OutMail {
        let shown = Shown::new(record, self.kept);
        self.game_mail_showing(to, kind, text, intro, &shown, outro)
    }

    /// [`GameContext::game_mail`] for one of several mails showing the same
    /// record: what they show alike is made once (see [`Shown`]).
    fn game_mail_showing(
        &self,
        to: Color,
        kind: MailKind,
        text: &str,
        intro: &str,
        shown: &Shown<'_>,
        outro: &str,
    ) -> OutMail {
        let lang = self.lang(to);
        let (picture, record_html) = shown.in_lang(lang);
        let mut m = self.mail(to, kind, text, format!("{intro}{picture}{outro}"));
        let status = explain::status_line(lang, shown.record);
        m.html = Some(HtmlPart {
            lang,
            intro: intro.to_owned(),
            record: shown.shared(),
            kept: shown.kept(lang).cloned(),
            viewer: to,
            outro: format!("{status}\n{outro}"),
            record_html,
        });
        m
    }
}

/// A record as the game mails of one reply show it: the confirmation and
/// the move passed on show the same board and record. What grows with the
/// game is made once for both instead of once per mail: the record copied
/// once into an `Arc` their HTML parts share, and per language the text
/// part's board and record ([`picture`]) and the cell the HTML page's record
/// table is kept in. Both continue the renderings `kept` (see [`cache`]).
struct Shown<'r> {
    record: &'r Record,
    kept: &'r Renderings,
    shared: OnceCell<Arc<Record>>,
    langs: RefCell<Vec<(Lang, InLang)>>,
}

/// What [`Shown`] keeps per language: the text part's board and record, and
/// the cell of the HTML page's record table.
type InLang = (Rc<str>, Arc<OnceLock<RecordHtml>>);

impl<'r> Shown<'r> {
    fn new(record: &'r Record, kept: &'r Renderings) -> Self {
        Shown {
            record,
            kept,
            shared: OnceCell::new(),
            langs: RefCell::new(Vec::new()),
        }
    }

    fn shared(&self) -> Arc<Record> {
        Arc::clone(self.shared.get_or_init(|| Arc::new(self.record.clone())))
    }

    /// The kept rendering the record's mails in `lang` continue.
    fn kept(&self, lang: Lang) -> Option<&Arc<Rendering>> {
        self.kept.for_reply(self.record, lang)
    }

    /// The text part's picture in `lang` and the cell of its page's record.
    fn in_lang(&self, lang: Lang) -> InLang {
        let mut langs = self.langs.borrow_mut();
        if let Some((_, (picture, html))) = langs.iter().find(|(l, _)| *l == lang) {
            return (Rc::clone(picture), Arc::clone(html));
        }
        let picture = picture(lang, self.record, self.kept(lang).map(|k| &**k));
        let made: InLang = (picture.into(), Arc::default());
        langs.push((lang, (Rc::clone(&made.0), Arc::clone(&made.1))));
        made
    }
}

/// The closing lines: how to answer (with a move that is legal right now as
/// the example), or that the opponent's move will come.
fn footer(lang: Lang, to_play: bool, record: &Record) -> String {
    if to_play {
        let example = record
            .position()
            .legal_moves()
            .first()
            .map(|m| IccfMove::from_move(*m).to_string())
            .unwrap_or_else(|| "5254".to_owned());
        let text = i18n::text(
            lang,
            Key::FooterYourMove,
            &[
                ("number", number_text(record).into()),
                ("example", example.into()),
            ],
        );
        format!("\n{text}\n")
    } else {
        format!("\n{}\n", i18n::text(lang, Key::FooterWait, &[]))
    }
}

fn number_text(record: &Record) -> String {
    MoveNumberText(record.next_number()).to_string()
}

/// The mails that open a game: each player learns the opponent, their colour
/// and their own game address (as `Reply-To`, so replying just works).
pub fn welcome_mails(game: &GameContext<'_>, event: Option<&str>) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let me = game.seat(c);
            let them = game.seat(!c);
            let lang = me.lang;
            let opponent = ("opponent", Arg::from(them.who()));
            let intro = match event {
                Some(e) => i18n::text(
                    lang,
                    Key::WelcomeIntroEvent,
                    &[
                        game_arg(game.id),
                        ("event", e.into()),
                        ("color", color_arg(c)),
                        opponent.clone(),
                    ],
                ),
                None => i18n::text(
                    lang,
                    Key::WelcomeIntro,
                    &[game_arg(game.id), ("color", color_arg(c)), opponent.clone()],
                ),
            };
            let intro = format!(
                "{}{intro}\n{}\n{}\n\n",
                greeting(me),
                i18n::text(
                    lang,
                    Key::WelcomeAddress,
                    &[("address", me.address.as_str().into())]
                ),
                i18n::text(lang, Key::NotationExplained, &[]),
            );
            let subject = i18n::text(
                lang,
                Key::SubjectNewGame,
                &[
                    ("color", color_arg(c)),
                    (
                        "opponent",
                        them.name.as_deref().unwrap_or(&them.email).into(),
                    ),
                ],
            );
            game.game_mail(
                c,
                MailKind::Notice,
                &subject,
                &intro,
                game.record,
                &footer(lang, game.record.turn() == c, game.record),
            )
        })
        .collect()
}

/// The mail that gives a player a new game address after `wildt game rekey`:
/// the old one no longer works, and replying to this mail reaches the new one.
pub fn new_address_mail(game: &GameContext<'_>, seat: Color) -> OutMail {
    let me = game.seat(seat);
    let lang = me.lang;
    let intro = i18n::text(
        lang,
        Key::NewAddress,
        &[
            game_arg(game.id),
            ("color", color_arg(seat)),
            ("opponent", game.seat(!seat).who().into()),
            ("address", me.address.as_str().into()),
        ],
    );
    game.game_mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, Key::SubjectNewAddress, &[]),
        &format!("{}{intro}\n\n", greeting(me)),
        game.record,
        &footer(lang, game.record.turn() == seat, game.record),
    )
}

/// `Hello Anna Smith,` and a blank line when the player's name is known.
fn greeting(seat: &Seat) -> String {
    seat.name
        .as_ref()
        .map(|name| {
            format!(
                "{}\n\n",
                i18n::text(seat.lang, Key::Greeting, &[("name", name.as_str().into())])
            )
        })
        .unwrap_or_default()
}

/// The organiser's notice that a mail to a player failed for good: who,
/// which game, which mail, the relay's answer, and what to do.
pub fn undeliverable_notice(
    organiser: &str,
    game: Option<i64>,
    kind: &str,
    recipient: &str,
    row: i64,
    reason: &str,
) -> OutMail {
    let what = match game {
        Some(g) => format!("game {g}"),
        None => "no game".to_owned(),
    };
    let body = format!(
        "A mail to {recipient} ({what}, {kind}) could not be delivered and will not be \
         tried again.\n\nThe mail server answered: {reason}\n\n\
         Check the address with the player. Once it is fixed, `wildt outbox retry {row}` \
         sends the mail again; `wildt outbox list --failed` lists every failed mail.\n"
    );
    OutMail {
        to: organiser.to_owned(),
        to_name: None,
        reply_to: None,
        subject: subject(game, &format!("mail to {recipient} failed")),
        body,
        // To the organiser, who reads the operator's language: English.
        html: None,
        lang: Lang::En,
        kind: MailKind::Notice,
        game,
        in_reply_to: None,
    }
}

/// The mails for a verdict given to the player of `seat`. `after` is the record
/// with the verdict applied.
pub fn verdict_mails(
    game: &GameContext<'_>,
    seat: Color,
    verdict: &Verdict,
    after: &Record,
    answering: Option<&str>,
) -> Vec<OutMail> {
    let mine = game.lang(seat);
    let theirs = game.lang(!seat);
    match verdict {
        Verdict::Moved {
            ply,
            number,
            end,
            draw_offered,
            ..
        } => {
            let played = Played {
                ply,
                number: *number,
                draw_offered: *draw_offered,
            };
            moved_mails(game, seat, &played, *end, after, answering)
        }
        Verdict::Ended { by, end } => ended_mails(game, seat, *by, *end, after, answering),
        Verdict::DrawOffered { by } => notice_pair(
            game,
            seat,
            after,
            answering,
            (
                Key::SubjectDrawOfferSent,
                i18n::text(mine, Key::DrawOfferSent, &[game_arg(game.id)]),
            ),
            (
                Key::SubjectDrawOffered,
                i18n::text(
                    theirs,
                    Key::DrawOffered,
                    &[game_arg(game.id), ("color", color_arg(*by))],
                ),
            ),
        )
        .into(),
        Verdict::DrawDeclined { by } => notice_pair(
            game,
            seat,
            after,
            answering,
            (
                Key::SubjectDrawDeclined,
                i18n::text(mine, Key::DrawDeclinedMine, &[game_arg(game.id)]),
            ),
            (
                Key::SubjectDrawDeclined,
                i18n::text(
                    theirs,
                    Key::DrawDeclinedTheirs,
                    &[game_arg(game.id), ("color", color_arg(*by))],
                ),
            ),
        )
        .into(),
        Verdict::Status => vec![status_mail(game, seat, after, answering)],
        Verdict::Rejected(why) => vec![rejected_mail(game, seat, why, after, answering)],
    }
}

/// The move a [`Verdict::Moved`] played, as its mails tell it.
struct Played<'v> {
    ply: &'v Ply,
    number: MoveNumber,
    /// The mover offered a draw with it.
    draw_offered: bool,
}

/// The mails of a move played: the confirmation to the mover, the move
/// passed on to the opponent (both showing the same record), and the
/// game-over mails if the move ended the game.
fn moved_mails(
    game: &GameContext<'_>,
    seat: Color,
    played: &Played<'_>,
    end: Option<GameEnd>,
    after: &Record,
    answering: Option<&str>,
) -> Vec<OutMail> {
    let opp = !seat;
    let mine = game.lang(seat);
    let theirs = game.lang(opp);
    let move_text = format!("{} {}", MoveNumberText(played.number), played.ply.iccf);
    let moved = |lang: Lang, key: Key, color: Option<Color>, offer: Key| {
        let mut args = vec![
            game_arg(game.id),
            ("move", Arg::from(move_text.as_str())),
            ("san", san::localize(&played.ply.san, lang).into()),
        ];
        if let Some(c) = color {
            args.push(("color", color_arg(c)));
        }
        let mut s = i18n::text(lang, key, &args);
        s.push('\n');
        if played.draw_offered {
            s.push_str(&i18n::text(lang, offer, &[]));
            s.push('\n');
        }
        s.push('\n');
        s
    };
    let mut mails = Vec::new();
    let intro = moved(mine, Key::MovedMine, None, Key::MovedMineDrawOffer);
    let outro = if end.is_none() {
        footer(mine, false, after)
    } else {
        String::new()
    };
    let shown = Shown::new(after, game.kept);
    let mut m = game.game_mail_showing(
        seat,
        MailKind::MoveAccepted,
        &i18n::text(
            mine,
            Key::SubjectMoveAccepted,
            &[("move", move_text.as_str().into())],
        ),
        &intro,
        &shown,
        &outro,
    );
    m.in_reply_to = answering.map(str::to_owned);
    mails.push(m);

    let intro = moved(
        theirs,
        Key::MovedTheirs,
        Some(seat),
        Key::MovedTheirsDrawOffer,
    );
    let (subject, outro) = if end.is_none() {
        (
            i18n::text(
                theirs,
                Key::SubjectYourMove,
                &[("move", move_text.as_str().into())],
            ),
            footer(theirs, true, after),
        )
    } else {
        (move_text.clone(), String::new())
    };
    mails.push(game.game_mail_showing(
        opp,
        MailKind::OpponentMoved,
        &subject,
        &intro,
        &shown,
        &outro,
    ));
    if let Some(end) = end {
        mails.extend(game_over(game, after, end, |_| String::new()));
    }
    mails
}

/// The game-over mails of a game `by` ended with a command (resigned,
/// agreed or claimed a draw); the one to `seat` answers its message.
fn ended_mails(
    game: &GameContext<'_>,
    seat: Color,
    by: Color,
    end: GameEnd,
    after: &Record,
    answering: Option<&str>,
) -> Vec<OutMail> {
    let how = |lang: Lang| {
        let color = ("color", color_arg(by));
        let line = match end.termination {
            crate::game::Termination::Resignation => i18n::text(lang, Key::EndedResigned, &[color]),
            crate::game::Termination::DrawAgreed => {
                i18n::text(lang, Key::EndedDrawAccepted, &[color])
            }
            t => i18n::text(
                lang,
                Key::EndedDrawClaimed,
                &[color, ("termination", explain::termination(lang, t).into())],
            ),
        };
        format!("{line}\n")
    };
    let mut mails = game_over(game, after, end, how);
    for m in &mut mails {
        if m.to == game.seat(seat).email {
            m.in_reply_to = answering.map(str::to_owned);
        }
    }
    mails
}

/// The board and record `seat` asked for.
fn status_mail(
    game: &GameContext<'_>,
    seat: Color,
    after: &Record,
    answering: Option<&str>,
) -> OutMail {
    let mine = game.lang(seat);
    let to_play = after.end.is_none() && after.turn() == seat;
    let outro = if after.end.is_none() {
        footer(mine, to_play, after)
    } else {
        String::new()
    };
    let mut m = game.game_mail(
        seat,
        MailKind::Notice,
        &i18n::text(mine, Key::SubjectStatus, &[]),
        &format!(
            "{}\n\n",
            i18n::text(mine, Key::StatusIntro, &[game_arg(game.id)])
        ),
        after,
        &outro,
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// Why the command of `seat` was not carried out, and what to do.
fn rejected_mail(
    game: &GameContext<'_>,
    seat: Color,
    why: &crate::referee::Rejection,
    after: &Record,
    answering: Option<&str>,
) -> OutMail {
    let mine = game.lang(seat);
    let intro = format!(
        "{}\n\n{}\n\n{}\n\n",
        i18n::text(mine, Key::RejectedIntro, &[game_arg(game.id)]),
        i18n::text(
            mine,
            Key::RejectedReason,
            &[("reason", explain::rejection(mine, why).into())]
        ),
        i18n::text(
            mine,
            Key::RejectedWhatToDo,
            &[("todo", explain::what_to_do(mine, why, after, seat).into())]
        ),
    );
    let mut m = game.game_mail(
        seat,
        MailKind::MoveRejected,
        &i18n::text(mine, Key::SubjectNotPlayed, &[]),
        &intro,
        after,
        "",
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// A notice to the player who gave the command (answering their message) and
/// one to the opponent, each its text (`Game N: …`) followed by the board.
fn notice_pair(
    game: &GameContext<'_>,
    seat: Color,
    after: &Record,
    answering: Option<&str>,
    mine: (Key, String),
    theirs: (Key, String),
) -> [OutMail; 2] {
    let mail = |to: Color, (subject, text): (Key, String)| {
        game.game_mail(
            to,
            MailKind::Notice,
            &i18n::text(game.lang(to), subject, &[]),
            &format!("{text}\n\n"),
            after,
            "",
        )
    };
    let mut m = mail(seat, mine);
    m.in_reply_to = answering.map(str::to_owned);
    [m, mail(!seat, theirs)]
}

/// The game-over mail to each player, each opening with `how(lang)` (how the
/// game ended, if a player's command ended it).
fn game_over(
    game: &GameContext<'_>,
    after: &Record,
    end: GameEnd,
    how: impl Fn(Lang) -> String,
) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let lang = game.lang(c);
            let intro = format!(
                "{}{}\n\n",
                how(lang),
                i18n::text(
                    lang,
                    Key::GameOverBody,
                    &[
                        game_arg(game.id),
                        ("result", end.result.as_str().into()),
                        (
                            "termination",
                            explain::termination(lang, end.termination).into()
                        ),
                    ],
                )
            );
            game.game_mail(
                c,
                MailKind::GameOver,
                &i18n::text(
                    lang,
                    Key::SubjectGameOver,
                    &[("result", end.result.as_str().into())],
                ),
                &intro,
                after,
                &format!("\n{}\n", i18n::text(lang, Key::GameOverThanks, &[])),
            )
        })
        .collect()
}

/// The mails a decision sends, and how many to the sender the hourly limit
/// held back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Letters {
    pub mails: Vec<OutMail>,
    /// Mails to the sender dropped by the hourly limit.
    pub rate_limited: usize,
}

/// Everything `decision` on the message `intake` sends: the verdict's mails
/// or the notice. An answer that does not advance the game (a rejection, a
/// notice, help, status) is sent to the sender only within
/// `decision.reply_budget`; the mails of an accepted command always go.
/// `game` is the game the decision was taken on; mails to its players are in
/// each player's language, a notice to a sender outside a game in
/// `sender_lang`. Mails showing its record continue the renderings `kept`
/// beside it, as loaded with the game (see [`cache`]).
pub fn write(
    decision: &Decision,
    intake: &Intake,
    game: Option<&GameView>,
    kept: Option<&Renderings>,
    referee: &RefereeConfig,
    sender_lang: Lang,
) -> Letters {
    let answering = intake.message_id.as_deref();
    // A player's "language: …" line: confirmed in the new language. It is
    // read only from a player at their game address (`decision.seat`), and
    // a mail that holds nothing else is not an unclear one.
    let language_set = intake.lang.requested.filter(|_| decision.seat.is_some());
    let only_language = language_set.is_some()
        && matches!(
            decision.notice,
            Some(Notice::Unclear {
                unclear: Unclear::NothingFound,
                ..
            })
        );
    let mut mails = match (&decision.verdict, decision.seat, game) {
        (Some(verdict), Some(seat), Some(view)) => with_game_kept(view, kept, referee, |ctx| {
            let after = decision.record_after.as_ref().unwrap_or(ctx.record);
            verdict_mails(ctx, seat, verdict, after, answering)
        }),
        _ => match &decision.notice {
            Some(_) if only_language => Vec::new(),
            Some(notice) => notice_mail(notice, decision, intake, game, kept, referee, sender_lang)
                .into_iter()
                .collect(),
            None => Vec::new(),
        },
    };
    conditional::amend(&mut mails, decision, answering, game, kept, referee);
    if let (Some(lang), Some(from)) = (language_set, intake.from.as_deref()) {
        mails.insert(
            0,
            notice(
                from,
                lang,
                &i18n::text(lang, Key::SubjectLanguageSet, &[]),
                format!("{}\n", i18n::text(lang, Key::LanguageSet, &[])),
                decision.game,
                answering,
            ),
        );
    }
    let mut rate_limited = 0;
    // The limit bounds only answers that do not advance a game: an accepted
    // move (or resignation, agreed draw, draw offer) cannot feed a mail loop,
    // since each needs a new legal command from the player's own address,
    // and its confirmation and relay must never be lost.
    if !decision.outcome.changes_game()
        && let Some(sender) = &intake.from
    {
        let before = mails.len();
        let mut to_sender = 0;
        mails.retain(|m| {
            if &m.to != sender {
                return true;
            }
            to_sender += 1;
            to_sender <= decision.reply_budget
        });
        rate_limited = before - mails.len();
    }
    Letters {
        mails,
        rate_limited,
    }
}

/// The mail a notice becomes; `None` when it names a seat of no game.
fn notice_mail(
    what: &Notice,
    decision: &Decision,
    intake: &Intake,
    game: Option<&GameView>,
    kept: Option<&Renderings>,
    referee: &RefereeConfig,
    lang: Lang,
) -> Option<OutMail> {
    let answering = intake.message_id.as_deref();
    let sender = |key: Key, body: String, game: Option<i64>| {
        let text = i18n::text(lang, key, &[]);
        Some(notice(
            intake.from.as_deref()?,
            lang,
            &text,
            body,
            game,
            answering,
        ))
    };
    match what {
        Notice::TooLarge { size, limit } => sender(
            Key::SubjectTooLarge,
            format!(
                "{}\n",
                i18n::text(
                    lang,
                    Key::TooLarge,
                    &[("size", (*size).into()), ("limit", (*limit).into())]
                )
            ),
            decision.game,
        ),
        Notice::Help => sender(Key::SubjectHowToPlay, help_text(referee, lang), None),
        Notice::WrongAddress { seat } => with_game_kept(game?, kept, referee, |ctx| {
            Some(wrong_address_mail(ctx, *seat, answering))
        }),
        Notice::Stranger { seat, from } => with_game_kept(game?, kept, referee, |ctx| {
            let seat = ctx.seat(*seat);
            Some(security_notice(
                ctx.id,
                seat,
                i18n::text(
                    seat.lang,
                    Key::Stranger,
                    &[
                        game_arg(ctx.id),
                        ("from", from.as_str().into()),
                        ("registered", seat.email.as_str().into()),
                    ],
                ),
            ))
        }),
        Notice::AuthFailed { seat, from, checks } => with_game_kept(game?, kept, referee, |ctx| {
            Some(auth_failed_notice(ctx, *seat, from, checks.as_deref()))
        }),
        Notice::Unclear { seat, unclear } => with_game_kept(game?, kept, referee, |ctx| {
            Some(unclear_mail(ctx, *seat, unclear, answering))
        }),
    }
}

/// To the player of `seat`, at their registered address: they wrote to the
/// wrong address, and which one is their game's.
fn wrong_address_mail(ctx: &GameContext<'_>, seat: Color, answering: Option<&str>) -> OutMail {
    let seat = ctx.seat(seat);
    let mut m = notice(
        &seat.email,
        seat.lang,
        &i18n::text(seat.lang, Key::SubjectWrongAddress, &[]),
        format!(
            "{}\n",
            i18n::text(
                seat.lang,
                Key::WrongAddress,
                &[game_arg(ctx.id), ("address", seat.address.as_str().into())]
            )
        ),
        Some(ctx.id),
        answering,
    );
    m.to_name = seat.name.clone();
    m.reply_to = Some(seat.address.clone());
    m
}

/// To the player of `seat`: a message from `from` with their address as
/// sender failed the authentication checks, and what the club's server
/// found (`checks`).
fn auth_failed_notice(
    ctx: &GameContext<'_>,
    seat: Color,
    from: &str,
    checks: Option<&str>,
) -> OutMail {
    let seat = ctx.seat(seat);
    // What the club's server found, in the player's words.
    let found = match checks {
        Some(summary) => i18n::text(
            seat.lang,
            Key::AuthFoundSummary,
            &[("summary", summary.into())],
        ),
        None => i18n::text(seat.lang, Key::AuthFoundNothing, &[]),
    };
    security_notice(
        ctx.id,
        seat,
        i18n::text(
            seat.lang,
            Key::AuthFailed,
            &[
                game_arg(ctx.id),
                ("from", from.into()),
                ("found", found.into()),
            ],
        ),
    )
}

/// To the player of `seat`: no clear command was found in their message,
/// what was found instead, and the board to answer from.
fn unclear_mail(
    ctx: &GameContext<'_>,
    seat: Color,
    unclear: &Unclear,
    answering: Option<&str>,
) -> OutMail {
    let lang = ctx.lang(seat);
    let intro = format!(
        "{}\n\n{}\n\n{}\n\n",
        i18n::text(lang, Key::UnclearIntro, &[game_arg(ctx.id)]),
        i18n::text(
            lang,
            Key::UnclearFound,
            &[("what", explain::unclear(lang, unclear).into())]
        ),
        i18n::text(
            lang,
            Key::UnclearPlease,
            &[("number", number_text(ctx.record).into())]
        ),
    );
    let status = explain::status_line(lang, ctx.record);
    let mut m = ctx.mail(
        seat,
        MailKind::MoveRejected,
        &i18n::text(lang, Key::SubjectNotUnderstood, &[]),
        format!("{intro}{}{status}\n", diagram(lang, ctx.record)),
    );
    let mut html = HtmlPart::new(lang, intro, ctx.record.clone(), seat, status);
    html.kept = ctx.kept.for_reply(ctx.record, lang).cloned();
    m.html = Some(html);
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// A notice to the real player of a seat about a message that was not
/// theirs; never to the sender, whose From may be forged.
fn security_notice(game: i64, seat: &Seat, text: String) -> OutMail {
    let mut m = notice(
        &seat.email,
        seat.lang,
        &i18n::text(seat.lang, Key::SubjectSecurity, &[]),
        format!("{text}\n"),
        Some(game),
        None,
    );
    m.to_name = seat.name.clone();
    m.reply_to = Some(seat.address.clone());
    m
}

/// A notice outside a game's play, to one address.
fn notice(
    to: &str,
    lang: Lang,
    text: &str,
    body: String,
    game: Option<i64>,
    answering: Option<&str>,
) -> OutMail {
    OutMail {
        to: to.to_owned(),
        to_name: None,
        reply_to: None,
        subject: subject(game, text),
        body,
        html: None,
        lang,
        kind: MailKind::Notice,
        game,
        in_reply_to: answering.map(str::to_owned),
    }
}

/// The short help sent to mail that reaches the referee without a game address.
pub fn help_text(referee: &RefereeConfig, lang: Lang) -> String {
    let text = i18n::text(
        lang,
        Key::Help,
        &[
            ("name", referee.name.as_str().into()),
            ("address", referee.address.as_str().into()),
            ("local", referee.local.as_str().into()),
            ("domain", referee.domain.as_str().into()),
        ],
    );
    format!("{text}\n")
}

// clock: the day clocks in every game mail, reminders, warnings, forfeits.

/// Both clocks, one line each ("White: 37 days left for moves 11–20");
/// empty for a game without a time control.
pub fn clock_lines(lang: Lang, state: &crate::clock::ClockState) -> String {
    let mut s = String::new();
    for c in [Color::White, Color::Black] {
        let clock = &state.clocks[c];
        let Some(left) = clock.days_left else {
            continue;
        };
        let days = Arg::Count(i64::from(left));
        let line = match clock.control_move {
            Some(to) => i18n::text(
                lang,
                Key::ClockDaysLeft,
                &[
                    ("color", color_arg(c)),
                    ("days", days),
                    ("from", Arg::Count(i64::from(clock.next_move))),
                    ("to", Arg::Count(i64::from(to))),
                ],
            ),
            None => i18n::text(
                lang,
                Key::ClockDaysLeftOpen,
                &[("color", color_arg(c)), ("days", days)],
            ),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// Adds the clocks, in each reader's language, to every mail about a move
/// of game `game` (the confirmation, the relay and the rejection), before
/// the board.
pub fn add_clocks(letters: &mut Letters, game: i64, state: &crate::clock::ClockState) {
    for m in &mut letters.mails {
        let lines = clock_lines(m.lang, state);
        if lines.is_empty() {
            continue;
        }
        if m.game == Some(game)
            && matches!(
                m.kind,
                MailKind::MoveAccepted | MailKind::OpponentMoved | MailKind::MoveRejected
            )
        {
            m.insert_after_first_paragraph(&lines);
        }
    }
}

/// A clock mail to the player of `seat`: `text`, both clocks, the position
/// and how to answer.
fn clock_mail(
    game: &GameContext<'_>,
    seat: Color,
    subject: Key,
    text: &str,
    state: &crate::clock::ClockState,
) -> OutMail {
    let lang = game.lang(seat);
    let to_play = game.record.turn() == seat && !game.record.is_over();
    game.game_mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, subject, &[]),
        &match clock_lines(lang, state) {
            // A game without a time control: the notice without clocks.
            lines if lines.is_empty() => format!("{text}\n\n"),
            lines => format!("{text}\n\n{lines}\n"),
        },
        game.record,
        &footer(lang, to_play, game.record),
    )
}

/// The reminder to the player of `seat`, `days` days after the opponent's
/// move arrived: the position and both clocks.
pub fn clock_reminder_mail(
    game: &GameContext<'_>,
    seat: Color,
    days: u32,
    state: &crate::clock::ClockState,
) -> OutMail {
    let text = i18n::text(
        game.lang(seat),
        Key::ClockReminder,
        &[game_arg(game.id), ("days", Arg::Count(i64::from(days)))],
    );
    clock_mail(game, seat, Key::SubjectClockReminder, &text, state)
}

/// The warning to the player of `seat` that `days_left` days remain.
pub fn clock_low_time_mail(
    game: &GameContext<'_>,
    seat: Color,
    days_left: u32,
    state: &crate::clock::ClockState,
) -> OutMail {
    let text = i18n::text(
        game.lang(seat),
        Key::ClockLowTime,
        &[
            game_arg(game.id),
            ("days", Arg::Count(i64::from(days_left))),
        ],
    );
    clock_mail(game, seat, Key::SubjectClockLowTime, &text, state)
}

/// A notice to both players of the game: `text(lang)` (a leave, a ruling),
/// both clocks and the position, each in the reader's language.
fn clock_notice_pair(
    game: &GameContext<'_>,
    subject: Key,
    text: impl Fn(Lang) -> String,
    state: &crate::clock::ClockState,
) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| clock_mail(game, c, subject, &text(game.lang(c)), state))
        .collect()
}

/// What became of a player's leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaveChange {
    Granted(crate::clock::Leave),
    /// The leave starting `from` is cancelled (or ended early).
    Cancelled {
        from: crate::clock::Date,
    },
}

/// The sentence telling that the leave of `seat` changed, in `lang`.
fn leave_change_text(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    lang: Lang,
) -> String {
    match change {
        LeaveChange::Granted(leave) => i18n::text(
            lang,
            Key::ClockLeaveGranted,
            &[
                game_arg(game.id),
                ("color", color_arg(seat)),
                ("from", leave.from.to_string().into()),
                ("to", leave.to.to_string().into()),
            ],
        ),
        LeaveChange::Cancelled { from } => i18n::text(
            lang,
            Key::ClockLeaveCancelled,
            &[
                game_arg(game.id),
                ("color", color_arg(seat)),
                ("from", from.to_string().into()),
            ],
        ),
    }
}

/// Both players of the game in which the player of `seat` asked for (or
/// cancelled) leave told of it, with the clocks as they now stand.
pub fn leave_changed_mails(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    state: &crate::clock::ClockState,
) -> Vec<OutMail> {
    clock_notice_pair(
        game,
        Key::SubjectClockLeave,
        |lang| leave_change_text(game, seat, change, lang),
        state,
    )
}

/// The opponent of `seat` told that the player's leave changed, in another
/// game of that player: leave is the player's, and stops all their clocks.
pub fn leave_changed_notice(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    state: &crate::clock::ClockState,
) -> OutMail {
    let text = leave_change_text(game, seat, change, game.lang(!seat));
    clock_mail(game, !seat, Key::SubjectClockLeave, &text, state)
}

/// Both players told of a ruling that gives `seat` `days` days.
pub fn days_given_mails(
    game: &GameContext<'_>,
    seat: Color,
    days: i64,
    state: &crate::clock::ClockState,
) -> Vec<OutMail> {
    let text = |lang| {
        i18n::text(
            lang,
            Key::ClockDaysGiven,
            &[
                game_arg(game.id),
                ("color", color_arg(seat)),
                ("days", Arg::Count(days)),
            ],
        )
    };
    clock_notice_pair(game, Key::SubjectClockRuling, text, state)
}

/// Both players told the organiser decided the game, and why.
pub fn adjudicated_mails(game: &GameContext<'_>, end: GameEnd, reason: &str) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let lang = game.lang(c);
            let text = i18n::text(
                lang,
                Key::ClockAdjudicated,
                &[
                    game_arg(game.id),
                    ("result", end.result.as_str().into()),
                    ("reason", reason.into()),
                ],
            );
            game.game_mail(
                c,
                MailKind::GameOver,
                &i18n::text(
                    lang,
                    Key::SubjectGameOver,
                    &[("result", end.result.as_str().into())],
                ),
                &format!("{text}\n\n"),
                game.record,
                "",
            )
        })
        .collect()
}

/// Who reads why a leave was refused: the text names the leave as theirs
/// or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaveReader {
    /// The player who asked for it by mail: "your leave".
    Player,
    /// The organiser who asked for it for a player (`wildt game leave`):
    /// "the leave".
    Organiser,
}

/// Why a request for leave was refused, in `lang`, for `reader`: the one
/// text of it, in a refusal mail and in what the CLI prints.
pub fn leave_refusal_text(
    lang: Lang,
    why: &crate::clock::LeaveRefusal,
    reader: LeaveReader,
) -> String {
    use crate::clock::LeaveRefusal as R;
    let d = |d: crate::clock::Date| Arg::from(d.to_string().as_str());
    let organiser = reader == LeaveReader::Organiser;
    match why {
        R::EndsBeforeStart { from, to } => i18n::text(
            lang,
            Key::ClockLeaveWhyEndsBeforeStart,
            &[("from", d(*from)), ("to", d(*to))],
        ),
        R::StartsInThePast { from, today } => i18n::text(
            lang,
            Key::ClockLeaveWhyInPast,
            &[("from", d(*from)), ("today", d(*today))],
        ),
        R::Overlaps { existing } => i18n::text(
            lang,
            if organiser {
                Key::ClockLeaveWhyOverlapsOrganiser
            } else {
                Key::ClockLeaveWhyOverlaps
            },
            &[("from", d(existing.from)), ("to", d(existing.to))],
        ),
        R::ExceedsAllowance {
            year,
            asked,
            remaining,
            allowance,
        } => i18n::text(
            lang,
            if organiser {
                Key::ClockLeaveWhyExceedsOrganiser
            } else {
                Key::ClockLeaveWhyExceeds
            },
            &[
                ("year", Arg::Count(i64::from(*year))),
                ("asked", Arg::Count(i64::from(*asked))),
                ("remaining", Arg::Count(i64::from(*remaining))),
                ("allowance", Arg::Count(i64::from(*allowance))),
            ],
        ),
    }
}

/// The answer to a player whose request for leave was refused (`why`:
/// [`leave_refusal_text`], or `None` when its dates could not be read).
pub fn leave_refused_mail(
    game: &GameContext<'_>,
    seat: Color,
    why: Option<&crate::clock::LeaveRefusal>,
    answering: Option<&str>,
) -> OutMail {
    let lang = game.lang(seat);
    let why = match why {
        Some(w) => leave_refusal_text(lang, w, LeaveReader::Player),
        None => i18n::text(lang, Key::ClockLeaveWhyUnclear, &[]),
    };
    let body = i18n::text(
        lang,
        Key::ClockLeaveRefused,
        &[game_arg(game.id), ("why", why.into())],
    );
    let mut m = game.mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, Key::SubjectClockLeave, &[]),
        format!("{body}\n"),
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// The answer to "cancel leave" when there is none to cancel.
pub fn nothing_to_cancel_mail(
    game: &GameContext<'_>,
    seat: Color,
    answering: Option<&str>,
) -> OutMail {
    let lang = game.lang(seat);
    let body = i18n::text(lang, Key::ClockLeaveNothingToCancel, &[game_arg(game.id)]);
    let mut m = game.mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, Key::SubjectClockLeave, &[]),
        format!("{body}\n"),
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// The game-over mails to both players when the game ended without a
/// message (a time forfeit decided by the referee's clock, a ruling).
pub fn game_over_mails(game: &GameContext<'_>, after: &Record, end: GameEnd) -> Vec<OutMail> {
    game_over(game, after, end, |_| String::new())
}

/// The organiser's notice that a message could not be handled and was put
/// in the quarantine `folder`. Names the message only by what the inbox and
/// the headers say (never the player's text), and what to do.
pub fn quarantine_notice(
    organiser: &str,
    source: &str,
    message_id: Option<&str>,
    from: Option<&str>,
    attempts: u32,
    error: &str,
    folder: &str,
) -> OutMail {
    let body = format!(
        "A message could not be handled after {attempts} attempts and was put in the folder \
         \"{folder}\", so that the rest of the inbox goes on.\n\n\
         Inbox: {source}\nMessage-ID: {}\nFrom: {}\nLast error: {error}\n\n\
         Nobody was answered. Find the message in \"{folder}\"; once the cause is fixed \
         (`wildt status`, the journal), move it back to the inbox and it is read again.\n",
        message_id.unwrap_or("(none)"),
        from.unwrap_or("(none)"),
    );
    OutMail {
        to: organiser.to_owned(),
        to_name: None,
        reply_to: None,
        subject: subject(None, "a message was put in the quarantine"),
        body,
        // For the organiser: English and text only, as the undeliverable notice.
        html: None,
        lang: Lang::En,
        kind: MailKind::Notice,
        game: None,
        in_reply_to: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal the organiser reads names the leave as no one's own, the
    /// player's as theirs; where a refusal names no leave, both read alike.
    #[test]
    fn a_leave_refusal_reads_as_the_organiser_or_the_player_is_told_it() {
        use crate::clock::{Date, Leave, LeaveRefusal as R};
        let day = |m, d| Date::from_ymd(2027, m, d).unwrap();
        let cases = [
            (
                R::EndsBeforeStart {
                    from: day(3, 10),
                    to: day(3, 2),
                },
                "it ends (2027-03-02) before it starts (2027-03-10)",
                "it ends (2027-03-02) before it starts (2027-03-10)",
            ),
            (
                R::StartsInThePast {
                    from: day(1, 2),
                    today: day(1, 5),
                },
                "it starts (2027-01-02) before today (2027-01-05)",
                "it starts (2027-01-02) before today (2027-01-05)",
            ),
            (
                R::Overlaps {
                    existing: Leave {
                        from: day(4, 1),
                        to: day(4, 9),
                    },
                },
                "it overlaps the leave from 2027-04-01 to 2027-04-09",
                "it overlaps your leave from 2027-04-01 to 2027-04-09",
            ),
            (
                R::ExceedsAllowance {
                    year: 2027,
                    asked: 51,
                    remaining: 45,
                    allowance: 45,
                },
                "it takes 51 days of 2027, but only 45 of the 45 days a year are left",
                "it takes 51 days of 2027, but only 45 of your 45 days a year are left",
            ),
        ];
        for (why, organiser, player) in cases {
            assert_eq!(
                leave_refusal_text(Lang::En, &why, LeaveReader::Organiser),
                organiser
            );
            assert_eq!(
                leave_refusal_text(Lang::En, &why, LeaveReader::Player),
                player
            );
        }
    }

    /// Every subject starts with the intake's mark, so a player's reply to
    /// any mail of wildt is recognised as quoting wildt, not as a command.
    #[test]
    fn subjects_start_with_the_intakes_mark() {
        assert_eq!(subject(Some(17), "status"), "[wildt #17] status");
        assert_eq!(subject(None, "how to play"), "[wildt] how to play");
        assert!(subject(Some(3), "1. 5254 accepted").starts_with(WILDT_SUBJECT_MARK));
    }

    /// The record line written a move at a time, each move's space turned
    /// into a line break where the move would not fit, is the line
    /// `wrap_record` makes of the whole record: for games from the start
    /// and from a position with Black to move (`1... 7866`), of one move
    /// up to hundreds, in every language (Cyrillic letters counted as
    /// characters, not bytes).
    #[test]
    fn the_record_line_written_move_by_move_breaks_where_wrapping_the_whole_line_does() {
        use crate::command::Command;
        use crate::referee::judge;
        let black_first = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let shuffles: [(Option<&str>, [&str; 4]); 2] = [
            (None, ["7163", "7866", "6371", "6678"]),
            (Some(black_first), ["7866", "7163", "6678", "6371"]),
        ];
        for (fen, shuffle) in shuffles {
            let mut record = Record::new(fen).unwrap();
            for (n, m) in shuffle.iter().cycle().take(160).enumerate() {
                let v = judge(&record, record.turn(), &Command::single(m.parse().unwrap()));
                assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
                record.apply(&v);
                if ![1, 2, 3, 9, 10, 11, 12, 13, 14, 40, 159].contains(&n) {
                    continue;
                }
                for lang in Lang::ALL {
                    let one_line = i18n::text(
                        lang,
                        Key::RecordLine,
                        &[("record", san::record_text(&record, lang).into())],
                    );
                    assert_eq!(
                        wrapped_record_line(lang, &record, None),
                        wrap_record(&one_line),
                        "{lang:?}, {fen:?}, {} plies",
                        n + 1
                    );
                }
            }
        }
    }

    /// The record of a long game, in every language, is written in lines
    /// of at most 72 characters that together are the record on one line,
    /// each move number with its ply and each ply with its SAN; and a line
    /// too long for one is only wrapped at a move number or a ply.
    #[test]
    fn a_long_record_is_written_in_short_lines_that_keep_each_move_whole() {
        let shuffle = ["7163", "7866", "6371", "6678"];
        let plies: Vec<&str> = shuffle.iter().copied().cycle().take(301).collect();
        let game = crate::fixtures::game_17(&plies);
        for lang in Lang::ALL {
            let one_line = i18n::text(
                lang,
                Key::RecordLine,
                &[("record", san::record_text(&game.record, lang).into())],
            );
            let wrapped = wrap_record(&one_line);
            let lines: Vec<&str> = wrapped.lines().collect();
            assert!(lines.len() > 50, "{lang:?}: {} lines", lines.len());
            assert_eq!(lines.join(" "), one_line, "{lang:?}");
            for line in &lines {
                assert!(line.chars().count() <= RECORD_WIDTH, "{lang:?}: {line}");
            }
            for line in &lines[1..] {
                assert!(
                    line.starts_with(|c: char| c.is_ascii_digit()),
                    "{lang:?}: a line starts inside a move: {line}"
                );
                assert!(!line.ends_with('.'), "{lang:?}: a number alone: {line}");
            }
            assert!(
                picture(lang, &game.record, None).contains(&wrapped),
                "{lang:?}"
            );
        }
        assert_eq!(wrap_record("Record: 1. 5254 (e4)"), "Record: 1. 5254 (e4)");
        assert_eq!(
            wrap_record(&format!("Record: 1. 5254 (e4) {}", "9".repeat(80))),
            format!("Record: 1. 5254 (e4)\n{}", "9".repeat(80))
        );
    }

    /// A note added after a mail is written (conditional moves) reaches the
    /// HTML part as well as the text part.
    #[test]
    fn notes_added_later_reach_both_parts() {
        let view = crate::fixtures::game_17(&["5254"]);
        let referee = crate::fixtures::referee();
        let mut m = with_game(&view, &referee, |ctx| {
            verdict_mails(ctx, Color::White, &Verdict::Status, ctx.record, None).remove(0)
        });
        m.prepend("Prepared answer played.\n\n");
        m.insert_after_first_line("Second line.");
        m.append("\nConditional moves stored.\n");
        assert!(
            m.body
                .starts_with("Prepared answer played.\nSecond line.\n")
        );
        assert!(m.body.ends_with("\nConditional moves stored.\n"));
        let html = m.html.as_ref().unwrap().render(&m.subject);
        for note in [
            "Prepared answer played.",
            "Second line.",
            "Conditional moves stored.",
        ] {
            assert!(html.contains(note), "{note} missing in {html}");
        }
    }

    /// The confirmation and the move passed on share what they show only
    /// within one language: with White reading German and Black Russian,
    /// each mail's text and page give the record in its reader's SAN, and
    /// in a game of one language both pages carry the same record table.
    #[test]
    fn a_moves_two_mails_show_the_record_each_in_its_readers_language() {
        let mails = |white: Lang, black: Lang| {
            let mut game = crate::fixtures::game_17(&["5254", "5755"]);
            game.white.lang = white;
            game.black.lang = black;
            let (letters, _) = crate::fixtures::white_moves(&game, "2. 7163", white);
            letters
                .mails
                .iter()
                .map(|m| (m.body.clone(), m.html.as_ref().unwrap().render(&m.subject)))
                .collect::<Vec<_>>()
        };
        let mixed = mails(Lang::De, Lang::Ru);
        let (de_text, de_page) = &mixed[0];
        let (ru_text, ru_page) = &mixed[1];
        assert!(de_text.contains("7163 (Sf3)"), "{de_text}");
        assert!(!de_text.contains("\u{41a}f3"), "{de_text}");
        assert!(de_page.contains("<b>7163</b> (Sf3)"), "{de_page}");
        assert!(ru_text.contains("7163 (\u{41a}f3)"), "{ru_text}");
        assert!(!ru_text.contains("(Sf3)"), "{ru_text}");
        assert!(ru_page.contains("<b>7163</b> (&#1050;f3)"), "{ru_page}");
        assert!(!ru_page.contains("(Sf3)"), "{ru_page}");
        // The record's table is the page's last (the board's, seen from
        // each reader's side, comes first).
        let table = |page: &str| {
            let from = page.rfind("<table").unwrap();
            page[from..].split("</table>").next().unwrap().to_owned()
        };
        let same = mails(Lang::En, Lang::En);
        assert!(same[0].1.contains("<b>7163</b> (Nf3)"), "{}", same[0].1);
        assert!(table(&same[0].1).contains("(Nf3)"), "{}", same[0].1);
        assert_eq!(table(&same[0].1), table(&same[1].1));
    }

    /// A game of `plies` plies (fewer if it ends) of moves picked from the
    /// legal ones by `seed`: captures, checks, promotions, castling and
    /// every piece's letter, in an order no hand would write.
    fn varied_game(seed: u64, plies: usize) -> Record {
        use shakmaty::Position as _;
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut record = Record::new(None).unwrap();
        for _ in 0..plies {
            let moves = record.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = moves[usize::try_from(state >> 33).unwrap() % moves.len()];
            record.push(IccfMove::from_move(m), m);
        }
        record
    }

    /// `record`'s page in `lang` seen by `viewer`, its table continuing
    /// `kept`.
    fn page_of(
        lang: Lang,
        record: &Record,
        kept: Option<&Arc<Rendering>>,
        viewer: Color,
    ) -> String {
        let mut part = HtmlPart::new(lang, "intro".into(), record.clone(), viewer, "outro".into());
        part.kept = kept.cloned();
        part.render_for_mail("title").into_html()
    }

    /// A long game's reply written from the plies kept rendered beside its
    /// record (the sealed parts, see `cache`) reads exactly as the reply
    /// written from all the plies: the text part's wrapped record line and
    /// the HTML page, in every language, for records ending right after
    /// the kept plies and up to a part beyond them.
    #[test]
    fn a_reply_continuing_the_kept_rendering_of_a_record_is_the_reply_rendered_whole() {
        for seed in 0..3 {
            let game = varied_game(seed, 200);
            assert!(
                game.plies().len() >= 140,
                "seed {seed}: the game ended early"
            );
            for lang in Lang::ALL {
                for kept in [64, 128] {
                    for n in [kept, kept + 1, kept + 2, kept + 37, game.plies().len()] {
                        let whole =
                            Record::replay(None, game.plies()[..n].iter().map(|p| p.iccf)).unwrap();
                        let mut renderings = Renderings::default();
                        renderings.keep(Rendering::of(&whole, kept, lang).unwrap());
                        let continued = renderings.for_reply(&whole, lang);
                        assert!(continued.is_some());
                        let at = format!("seed {seed}, {lang:?}, {kept} kept of {n}");
                        assert_eq!(
                            picture(lang, &whole, continued.map(|k| &**k)),
                            picture(lang, &whole, None),
                            "{at}"
                        );
                        for viewer in [Color::White, Color::Black] {
                            assert_eq!(
                                page_of(lang, &whole, continued, viewer),
                                page_of(lang, &whole, None, viewer),
                                "{at}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// A kept rendering is what the reply writes for those plies while its
    /// fingerprint is this build's in the language: one whose fingerprint
    /// is another build's (another translation, other markup) is passed
    /// over and the record written whole, and none is used in another
    /// language or for a record starting with Black.
    #[test]
    fn a_kept_rendering_is_used_only_with_this_builds_fingerprint_in_its_language() {
        let game = varied_game(7, 80);
        let mut made = Rendering::of(&game, 64, Lang::De).unwrap();
        made.text = "Partie: MARKED".to_owned();
        made.html = "<tr><td>MARKED</td></tr>".to_owned();
        let mut kept = Renderings::default();
        kept.keep(made.clone());
        // The picture and the page of `game` in `lang`, as a game mail
        // continuing `kept` writes them.
        let shown = |kept: &Renderings, lang: Lang| {
            let shown = Shown::new(&game, kept);
            let picture = picture(lang, &game, shown.kept(lang).map(|k| &**k));
            (
                picture,
                page_of(lang, &game, shown.kept(lang), Color::White),
            )
        };
        let (picture_de, page) = shown(&kept, Lang::De);
        assert!(picture_de.contains("Partie: MARKED 33. "), "{picture_de}");
        assert!(page.contains("<tr><td>MARKED</td></tr>\r\n<tr>"), "{page}");
        assert!(!shown(&kept, Lang::Fr).0.contains("MARKED"));
        assert!(!shown(&kept, Lang::Fr).1.contains("MARKED"));
        // Not for a record with fewer plies than it shows.
        let short = Record::replay(None, game.plies()[..63].iter().map(|p| p.iccf)).unwrap();
        assert!(kept.for_reply(&short, Lang::De).is_none());

        let mut other_build = Renderings::default();
        made.fingerprint ^= 1;
        other_build.keep(made.clone());
        assert!(!shown(&other_build, Lang::De).0.contains("MARKED"));
        assert_eq!(
            shown(&other_build, Lang::De),
            shown(Renderings::none(), Lang::De)
        );

        let black_first = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let from_black = Record::replay(
            Some(black_first),
            [4745, 5445, 4845].map(|m| m.to_string().parse().unwrap()),
        )
        .unwrap();
        assert_eq!(Rendering::of(&from_black, 2, Lang::De), None);
    }
}
