//! Decisions -> the mails to write: recipients, subjects, bodies and the
//! headers players filter on. Every word a player reads is written in this
//! module and its parts, every subject by [`subject`]. [pure: no IO]
//!
//! Rendering to RFC 5322 bytes happens at the edge (`mail::render`); here a mail
//! is plain data, so tests can read exactly what a player would.
//!
//! Every text comes from [`i18n::text`] in the recipient's language (their
//! [`Seat::lang`], or the sender's language for a notice outside a game). A
//! mail that shows a position also carries an HTML part
//! ([`crate::html::GamePage`]) made from the same words: the board seen
//! from the recipient's side.
//!
//! This module holds what every part shares: the mail as data ([`OutMail`],
//! [`MailKind`], [`HtmlPart`]), the game as the writer sees it
//! ([`GameContext`], [`with_game`], [`with_game_kept`]), [`write()`] (all a
//! decision sends, as [`Letters`]), the subject and the closing lines of a
//! game mail. The mails themselves are in its parts, each re-exported here:
//!
//! - `answer`: the mails answering a move or a command (the move confirmed
//!   and passed on, a draw offered or declined, the status asked for, a
//!   command rejected) and the game-over mails.
//! - `notices`: the notices about a message that plays nothing: too large,
//!   help, wrong address, a stranger or failed authentication, unclear.
//! - `clock`: the day clocks in game mails, reminders and low-time warnings,
//!   leave granted, cancelled or refused ([`leave_refusal_text`]), days
//!   given by a ruling.
//! - `organiser`: the mails of the organiser's commands (welcome, new
//!   address, adjudicated) and the notices to the organiser (a mail
//!   undeliverable, a message quarantined).
//! - `picture`: the board and record a game mail shows, made once per
//!   reply and language.
//! - `record_line`: the record line, written in short lines that keep each
//!   move whole (for `picture` and for [`cache`]).
//! - `conditional`: the words about conditional moves, added to the
//!   mails of a decision.
//! - [`event`]: an event's mails (the welcome listing all games, a
//!   withdrawal, the standing).
//! - [`cache`]: a long game's first plies kept rendered, which its replies
//!   continue.

mod answer;
pub mod cache;
mod clock;
mod conditional;
pub mod event;
mod notices;
mod organiser;
mod picture;
mod record_line;
pub mod xfcc;

use std::sync::{Arc, OnceLock};

use shakmaty::{Color, Position};

use crate::config::RefereeConfig;
use crate::decide::{Decision, GameView, Notice};
use crate::game::{MoveNumberText, Record};
use crate::html::{GamePage, MailPage, RecordHtml};
use crate::i18n::{self, Arg, Key, Lang, explain};
use crate::intake::{Intake, Unclear, WILDT_SUBJECT_MARK};
use crate::notation::IccfMove;
use cache::{Rendering, Renderings};
use notices::notice_mail;
use picture::Shown;

pub use crate::decide::Seat;
pub use answer::{game_over_mails, verdict_mails};
pub use clock::{
    LeaveChange, LeaveReader, add_clocks, clock_lines, clock_low_time_mail, clock_reminder_mail,
    days_given_mails, leave_changed_mails, leave_changed_notice, leave_refusal_text,
    leave_refused_mail, nothing_to_cancel_mail,
};
pub use notices::help_text;
pub use organiser::{
    adjudicated_mails, new_address_mail, quarantine_notice, undeliverable_notice, welcome_mails,
};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::Verdict;

    /// Every subject starts with the intake's mark, so a player's reply to
    /// any mail of wildt is recognised as quoting wildt, not as a command.
    #[test]
    fn subjects_start_with_the_intakes_mark() {
        assert_eq!(subject(Some(17), "status"), "[wildt #17] status");
        assert_eq!(subject(None, "how to play"), "[wildt] how to play");
        assert!(subject(Some(3), "1. 5254 accepted").starts_with(WILDT_SUBJECT_MARK));
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
}
