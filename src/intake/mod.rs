//! Intake: raw mail bytes -> who wrote, for which game, and what one command the
//! player's own text holds (or why it holds none). [pure: no IO]
//!
//! The daemon and `wildt check FILE.eml` call [`read`] on the same bytes and get
//! the same [`Intake`]. Nothing here checks the game key (the store does, in
//! constant time) or the legality of a move (the referee does, in position): the
//! intake only says what the message *says*.
//!
//! Order of work, cheapest and most important first: the header block alone is
//! parsed, and the loop-prevention headers (RFC 3834) are decided before any
//! body is looked at; an oversize message stops there. Otherwise mail-parser
//! decodes the body, the quoted, forwarded and signature text is cut away
//! (`text`), and what is left, plus the subject (`subject`), is read as one
//! command (`scan`). The accepted words are listed in `KEYWORDS.md`.

mod headers;
pub mod language;
pub mod order;
mod quotes;
pub(crate) mod scan;
mod subject;
mod text;

/// Every subject wildt sends must start with this (`[wildt #17] …`): a reply's
/// subject holding it is never read as the player's command. `reply` should
/// build its subjects from this constant.
pub use subject::WILDT_SUBJECT_MARK;

use std::fmt;

use serde::Serialize;

use crate::command::{Command, WrittenMove};
use crate::conditional::{
    ConditionalParseError, ConditionalText, parse_conditionals, without_conditional_lines,
};
use crate::notation::ParseError;

/// Where the referee receives mail; game addresses are `<local>+<game>-<key>@<domain>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntakeConfig {
    pub referee_local: String,
    pub referee_domain: String,
    /// Larger messages are not parsed (only their header block is).
    pub max_message_bytes: usize,
    /// A text with more moves and command words than this is not read
    /// (`[limits] commands_per_message`; a whole-record echo counts each move).
    pub max_commands: usize,
}

/// The default commands-per-message limit: room for the whole record of the
/// longest game ever played in a tournament (269 moves, 538 plies) and a few
/// command words.
pub const DEFAULT_MAX_COMMANDS: usize = 600;

/// Default `[limits] max_message_bytes`: larger messages are not read.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Everything the daemon needs to decide about one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intake {
    /// Without the angle brackets.
    pub message_id: Option<String>,
    /// The (first) From address, lower-cased.
    pub from: Option<String>,
    /// Decoded, as sent (reply prefixes kept).
    pub subject: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    /// The game address the MTA delivered to (Delivered-To, X-Original-To),
    /// else the first usable one in To, Cc.
    pub game_address: Option<GameAddress>,
    /// No usable `+game-key` address was found: the mail is for the referee
    /// itself (the bare address, a mangled key, or a Bcc). Always equal to
    /// `game_address.is_none()`; kept as a field so callers need not know that.
    pub to_bare_referee: bool,
    /// What the mail says about its writer's language.
    pub lang: language::LangHint,
    pub disposition: Disposition,
    /// Conditional moves ("if 12... 7866 then 13. 4143") or "cancel
    /// conditionals" in the player's own text, read apart from the one
    /// command (`None`: the text holds none). The command scan never sees
    /// these lines. Checked against the game by `decide`.
    pub conditionals: Option<Result<ConditionalText, ConditionalParseError>>,
}

/// `chess+17-k3x9qp2m@club.example` -> game 17, key `k3x9qp2m` (lower-cased).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameAddress {
    pub game: i64,
    /// Not verified here: `decide` compares it in constant time.
    pub key: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Disposition {
    /// RFC 3834 & friends: never answered, never a move. Recorded with its reason.
    Automatic(AutoReason),
    /// Over `max_message_bytes`: only the header block was parsed.
    TooLarge { size: usize },
    /// Parsed: the player's own text read as one command, or why not.
    Read(Reading),
}

/// Why a message was recognised as machine-sent and must not be answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", content = "value", rename_all = "snake_case")]
pub enum AutoReason {
    /// `Auto-Submitted` with a value other than `no` (the value, lower-cased).
    AutoSubmitted(String),
    /// `Precedence: bulk | junk | list | auto_reply` (the value, lower-cased).
    Precedence(String),
    /// `X-Autoreply` or `X-Autorespond` was present (the header's name).
    AutoReplyHeader(&'static str),
    /// `List-Id` was present.
    ListMail,
    /// `Return-Path: <>`: bounces and auto-replies use the null sender.
    NullReturnPath,
    /// The From local part is MAILER-DAEMON, postmaster, noreply and the like,
    /// or the From address is the referee's own (its mail come back).
    DaemonSender(String),
    /// `multipart/report`: delivery or disposition notifications.
    DeliveryReport,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    Command(Command),
    Unclear(Unclear),
    /// A line about leave ("leave 2026-12-20 to 2027-01-03", "cancel
    /// leave"), and no other command in the message.
    Leave(crate::clock::LeaveRequest),
}

/// Why the player's text is not one clear command. Kept as data: the daemon
/// quotes the `Display` text back to the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unclear {
    /// No move and no keyword in the player's own text.
    NothingFound,
    /// Different moves that cannot be one record (e.g. `5254` and `7163` on
    /// separate lines, or two different move-13s; or subject and body differ).
    SeveralMoves { found: Vec<String> },
    /// Stands where a move would, but is not one (`5259`, `2024`, `525`).
    NotAMove { text: String, error: ParseError },
    /// A move in algebraic notation; never converted, to avoid guessing.
    Algebraic { text: String },
    /// A number inside a sentence that may or may not be the move
    /// ("I'll be away until 1520"): asked about, not guessed.
    NumberInProse { text: String },
    /// Bare "draw" (or "remis", "nulle", "tablas") without saying offer, accept
    /// or decline.
    VagueDraw { text: String },
    /// A command that cannot be undone (resign, accept or claim a draw), or
    /// an offer beside a negation, mentioned but not plainly given: in a
    /// question, a condition, a quotation, with a negation, beside words about
    /// someone else ("You should resign."), or in the subject. Asked about.
    Uncertain { text: String },
    /// A move together with another command, or two different commands
    /// (e.g. `5254` and "resign", or "accept draw" and "no draw").
    MixedCommands { found: Vec<String> },
    /// More moves and command words than one message may hold
    /// (`[limits] commands_per_message`): not read at all.
    TooManyCommands { count: usize, limit: usize },
    /// Not a readable mail message (no header block).
    Malformed,
}

/// Reads one raw message. Never panics; work is linear in the input size.
///
/// ```
/// use wildt::command::Command;
/// use wildt::intake::{read, Disposition, IntakeConfig, Reading};
///
/// let cfg = IntakeConfig {
///     referee_local: "chess".into(),
///     referee_domain: "club.example".into(),
///     max_message_bytes: 256 * 1024,
///     max_commands: 600,
/// };
/// let raw = b"From: Anna <anna@example.org>\r\n\
///             To: chess+17-k3x9qp2m@club.example\r\n\
///             Subject: Re: [wildt #17] 12... 3746\r\n\r\n\
///             13. 5254\r\n\r\n\
///             On Sun, Ben wrote:\r\n> 12... 3746\r\n";
/// let intake = read(raw, &cfg);
/// assert_eq!(intake.game_address.map(|g| g.game), Some(17));
/// let Disposition::Read(Reading::Command(Command::Play { line, offer_draw, .. })) = intake.disposition
/// else {
///     panic!("not a move");
/// };
/// assert_eq!(line.len(), 1);
/// assert_eq!(line[0].mv.to_string(), "5254");
/// assert!(!offer_draw);
/// ```
pub fn read(raw: &[u8], cfg: &IntakeConfig) -> Intake {
    read_sized(raw, raw.len(), cfg)
}

/// [`read`] for a message of `size` bytes of which only `raw`, its beginning,
/// was taken from the inbox: an inbox reads no more of a message than
/// `max_message_bytes + 1` bytes, so a huge one costs no more memory than
/// that, and is still answered with its real size.
pub fn read_sized(raw: &[u8], size: usize, cfg: &IntakeConfig) -> Intake {
    let size = size.max(raw.len());
    let oversize = size > cfg.max_message_bytes;
    // The header block alone decides the envelope and the loop check, so an
    // auto-reply or an oversize message never has its body decoded.
    let cap = if oversize {
        MAX_HEADER_BYTES
    } else {
        raw.len()
    };
    let parser = mail_parser::MessageParser::default();
    let head = parser
        .parse_headers(header_block(raw, cap))
        .filter(|m| !m.headers().is_empty());
    let Some(head) = head else {
        let mut intake = malformed();
        if oversize {
            intake.disposition = Disposition::TooLarge { size };
        }
        return intake;
    };
    let mut intake = headers::envelope(&head, cfg);
    if let Some(reason) = headers::automatic(&head, cfg) {
        intake.disposition = Disposition::Automatic(reason);
        return intake;
    }
    if oversize {
        intake.disposition = Disposition::TooLarge { size };
        return intake;
    }
    let reading = match parser.parse(raw) {
        Some(message) => {
            let body = text::player_text(&message);
            // A list (`de, en`) is parsed into its items: joined again, the
            // guess sees that it names more than one.
            let content_language = message
                .header("Content-Language")
                .and_then(|h| h.as_text_list())
                .map(|l| l.join(","));
            intake.lang = language::hint(&body, content_language.as_deref());
            // The language line is not a game command: the rest is read.
            let (_, body) = language::take_language_command(&body);
            intake.conditionals = parse_conditionals(&body, cfg.max_commands).transpose();
            let body = if intake.conditionals.is_some() {
                without_conditional_lines(&body)
            } else {
                body
            };
            let subject_line = subject::command_text(&intake.subject);
            // A leave line's dates must not be read as moves: it is taken
            // out first, and is the message's command if nothing else is.
            let leave = body.lines().find_map(crate::clock::parse_leave_line);
            match leave {
                Some(req) => {
                    let rest: String = body
                        .lines()
                        .filter(|l| crate::clock::parse_leave_line(l).is_none())
                        .flat_map(|l| [l, "\n"])
                        .collect();
                    match scan::decide(&rest, subject_line.as_deref(), cfg.max_commands) {
                        Reading::Unclear(Unclear::NothingFound) => Reading::Leave(req),
                        other => other,
                    }
                }
                None => scan::decide(&body, subject_line.as_deref(), cfg.max_commands),
            }
        }
        None => Reading::Unclear(Unclear::Malformed),
    };
    intake.disposition = Disposition::Read(reading);
    intake
}

/// Header bytes parsed for an oversize message: enough for any real header block.
const MAX_HEADER_BYTES: usize = 64 * 1024;

/// The bytes up to the first blank line (LF or CRLF), at most `cap` of them.
fn header_block(raw: &[u8], cap: usize) -> &[u8] {
    let capped = &raw[..raw.len().min(cap)];
    let lf = capped.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    let crlf = capped
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4);
    let end = lf.into_iter().chain(crlf).min().unwrap_or(capped.len());
    &capped[..end]
}

fn malformed() -> Intake {
    Intake {
        message_id: None,
        from: None,
        subject: String::new(),
        in_reply_to: None,
        references: Vec::new(),
        game_address: None,
        to_bare_referee: true,
        lang: language::LangHint::default(),
        disposition: Disposition::Read(Reading::Unclear(Unclear::Malformed)),
        conditionals: None,
    }
}

impl fmt::Display for AutoReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutoReason::AutoSubmitted(v) => {
                write!(
                    f,
                    "the message says it was sent automatically (Auto-Submitted: {v})"
                )
            }
            AutoReason::Precedence(v) => {
                write!(f, "the message is bulk or list mail (Precedence: {v})")
            }
            AutoReason::AutoReplyHeader(h) => write!(f, "the message is an auto-reply ({h})"),
            AutoReason::ListMail => write!(f, "the message came through a mailing list (List-Id)"),
            AutoReason::NullReturnPath => {
                write!(
                    f,
                    "the message has an empty return path, as bounces and auto-replies do"
                )
            }
            AutoReason::DaemonSender(s) => {
                write!(f, "the message comes from a mail system address ({s})")
            }
            AutoReason::DeliveryReport => {
                write!(
                    f,
                    "the message is a delivery or read report (multipart/report)"
                )
            }
        }
    }
}

impl Unclear {
    /// What was unclear, in words that hold none of the player's own text:
    /// for the `info` log and `messages.detail`, which must never keep what a
    /// player wrote (the [`Display`](fmt::Display) text quotes it, for the
    /// reply and for `debug`).
    pub fn without_player_text(&self) -> String {
        match self {
            Unclear::NothingFound | Unclear::TooManyCommands { .. } | Unclear::Malformed => {
                self.to_string()
            }
            Unclear::SeveralMoves { found } => format!("{} different moves", found.len()),
            Unclear::NotAMove { .. } => "something that looks like a move but is not one".into(),
            Unclear::Algebraic { .. } => "a move in algebraic notation".into(),
            Unclear::NumberInProse { .. } => "a number inside a sentence".into(),
            Unclear::VagueDraw { .. } => "draw without offer, accept or decline".into(),
            Unclear::Uncertain { .. } => {
                "a command that cannot be undone, not plainly given".into()
            }
            Unclear::MixedCommands { found } => format!("{} different commands", found.len()),
        }
    }
}

impl fmt::Display for Unclear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unclear::NothingFound => write!(
                f,
                "no move or command was found in your message; write the move in numeric notation on a line of its own, e.g. 13. 5254"
            ),
            Unclear::SeveralMoves { found } => write!(
                f,
                "your message holds different moves ({}); send one move (with the record if you like, e.g. 12... 3746 13. 5254)",
                found.join(", ")
            ),
            Unclear::NotAMove { text, error } => {
                write!(f, "`{text}` looks like a move but is not one: {error}")
            }
            Unclear::Algebraic { text } => write!(
                f,
                "`{text}` is algebraic notation; this game is played in numeric notation (e.g. 5254 for e2-e4), so it was not converted"
            ),
            Unclear::NumberInProse { text } => write!(
                f,
                "`{text}` stands inside a sentence and may or may not be your move; send the move on a line of its own, e.g. 13. 5254"
            ),
            Unclear::VagueDraw { text } => write!(
                f,
                "`{text}`: please write \"offer draw\", \"accept draw\" or \"decline draw\""
            ),
            Unclear::Uncertain { text } => write!(
                f,
                "`{text}` mentions a command that cannot be undone, but not as a plain statement of your own (it stands in a question, a condition, a quotation, with a negation, beside words about someone else, or in the subject); if you mean it, write it alone on a line of the message, e.g. \"I resign\""
            ),
            Unclear::MixedCommands { found } => write!(
                f,
                "your message holds more than one command ({}); send one at a time",
                found.join(", ")
            ),
            Unclear::TooManyCommands { count, limit } => write!(
                f,
                "your message holds {count} moves and commands, more than the {limit} one message may hold; send your move alone"
            ),
            Unclear::Malformed => write!(f, "the message could not be read as an e-mail"),
        }
    }
}

/// A flat, serialisable view of an [`Intake`] for `wildt check --json` and the
/// fixture tests. The game key is included: this is a local diagnostic view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub message_id: Option<String>,
    pub from: Option<String>,
    pub subject: String,
    pub game: Option<i64>,
    pub key: Option<String>,
    pub to_bare_referee: bool,
    /// `automatic`, `too_large`, `play`, `resign`, `offer_draw`, `accept_draw`,
    /// `decline_draw`, `claim_draw`, `status` or `unclear`.
    pub outcome: &'static str,
    /// For `automatic`: the [`AutoReason`] in snake case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// For `unclear`: the [`Unclear`] variant in snake case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// For `play`: each move as written, `12...3746`, `13.5254` or `5254`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offer_draw: Option<bool>,
    /// For `play`: the move came with a draw claim, judged after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_draw: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// The plain-words explanation (Display) for `automatic` and `unclear`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

/// `13.5254`, `12...3746` or `5254`: compact and unambiguous in fixtures and logs.
pub fn written_move_text(w: &WrittenMove) -> String {
    match w.number {
        Some(n) if n.black => format!("{}...{}", n.number, w.mv),
        Some(n) => format!("{}.{}", n.number, w.mv),
        None => w.mv.to_string(),
    }
}

impl Intake {
    /// The command read from the player's text, if it was one.
    pub fn command(&self) -> Option<&Command> {
        match &self.disposition {
            Disposition::Read(Reading::Command(c)) => Some(c),
            _ => None,
        }
    }

    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            message_id: self.message_id.clone(),
            from: self.from.clone(),
            subject: self.subject.clone(),
            game: self.game_address.as_ref().map(|g| g.game),
            key: self.game_address.as_ref().map(|g| g.key.clone()),
            to_bare_referee: self.to_bare_referee,
            outcome: "unclear",
            reason: None,
            kind: None,
            line: None,
            offer_draw: None,
            claim_draw: None,
            size: None,
            explanation: None,
        };
        match &self.disposition {
            Disposition::Automatic(r) => {
                s.outcome = "automatic";
                s.reason = Some(r.kind());
                s.explanation = Some(r.to_string());
            }
            Disposition::TooLarge { size } => {
                s.outcome = "too_large";
                s.size = Some(*size);
            }
            Disposition::Read(Reading::Unclear(u)) => {
                s.kind = Some(u.kind());
                s.explanation = Some(u.to_string());
            }
            Disposition::Read(Reading::Leave(_)) => {
                s.outcome = "leave";
            }
            Disposition::Read(Reading::Command(c)) => {
                s.outcome = match c {
                    Command::Play {
                        line,
                        offer_draw,
                        claim_draw,
                    } => {
                        s.line = Some(line.iter().map(written_move_text).collect());
                        s.offer_draw = Some(*offer_draw);
                        s.claim_draw = Some(*claim_draw);
                        "play"
                    }
                    Command::Resign => "resign",
                    Command::OfferDraw => "offer_draw",
                    Command::AcceptDraw => "accept_draw",
                    Command::DeclineDraw => "decline_draw",
                    Command::ClaimDraw => "claim_draw",
                    Command::Status => "status",
                    Command::XfccPassword => "xfcc_password",
                };
            }
        }
        s
    }
}

impl AutoReason {
    /// Snake-case name, stable for logs and JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            AutoReason::AutoSubmitted(_) => "auto_submitted",
            AutoReason::Precedence(_) => "precedence",
            AutoReason::AutoReplyHeader(_) => "auto_reply_header",
            AutoReason::ListMail => "list_mail",
            AutoReason::NullReturnPath => "null_return_path",
            AutoReason::DaemonSender(_) => "daemon_sender",
            AutoReason::DeliveryReport => "delivery_report",
        }
    }
}

impl Unclear {
    /// Snake-case name, stable for logs and JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Unclear::NothingFound => "nothing_found",
            Unclear::SeveralMoves { .. } => "several_moves",
            Unclear::NotAMove { .. } => "not_a_move",
            Unclear::Algebraic { .. } => "algebraic",
            Unclear::NumberInProse { .. } => "number_in_prose",
            Unclear::VagueDraw { .. } => "vague_draw",
            Unclear::Uncertain { .. } => "uncertain",
            Unclear::MixedCommands { .. } => "mixed_commands",
            Unclear::TooManyCommands { .. } => "too_many_commands",
            Unclear::Malformed => "malformed",
        }
    }
}
