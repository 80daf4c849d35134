//! Every word wildt writes, in the player's language: the [`Lang`]s, the message
//! [`Key`]s with the variables each takes, and [`text`] to format one. [pure: no IO]
//!
//! The translations are Project Fluent files (`locales/<lang>/wildt.ftl`),
//! embedded in the binary with `include_str!` and parsed once. English is the
//! fallback for a message missing in a language; the tests forbid any missing
//! message in the languages of [`Lang::ALL`], so in practice the fallback only
//! guards against a broken build.
//!
//! Numbers the player wrote (moves, move numbers, squares) are always passed as
//! text variables and never translated: `5254` reads the same everywhere.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use shakmaty::{Color, Role};

pub mod explain;
pub mod san;

/// A language wildt writes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    De,
    Fr,
    Es,
    It,
    Nl,
    Pt,
    Pl,
    Cs,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 10] = [
        Lang::En,
        Lang::De,
        Lang::Fr,
        Lang::Es,
        Lang::It,
        Lang::Nl,
        Lang::Pt,
        Lang::Pl,
        Lang::Cs,
        Lang::Ru,
    ];

    /// The ISO 639-1 code: `de`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Fr => "fr",
            Lang::Es => "es",
            Lang::It => "it",
            Lang::Nl => "nl",
            Lang::Pt => "pt",
            Lang::Pl => "pl",
            Lang::Cs => "cs",
            Lang::Ru => "ru",
        }
    }

    /// The language's name in itself, as a player would write it: `Deutsch`.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
            Lang::Fr => "Français",
            Lang::Es => "Español",
            Lang::It => "Italiano",
            Lang::Nl => "Nederlands",
            Lang::Pt => "Português",
            Lang::Pl => "Polski",
            Lang::Cs => "Čeština",
            Lang::Ru => "Русский",
        }
    }

    /// From a language tag as in `Content-Language` or on the command line:
    /// `de`, `DE`, `de-AT`, `pt_BR`. Only the primary subtag counts.
    pub fn from_code(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?;
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// From the name a player writes ("deutsch", "German", "français",
    /// "francais", "česky", "русский"…), in the language itself or in English.
    pub fn from_name(name: &str) -> Option<Lang> {
        let name = name.trim().to_lowercase();
        let lang = match name.as_str() {
            "english"
            | "englisch"
            | "anglais"
            | "inglés"
            | "ingles"
            | "inglese"
            | "engels"
            | "inglês"
            | "angielski"
            | "angličtina"
            | "anglicky"
            | "английский" => Lang::En,
            "deutsch" | "german" | "allemand" | "alemán" | "aleman" | "tedesco" | "duits"
            | "alemão" | "alemao" | "niemiecki" | "němčina" | "nemcina" | "německy" | "nemecky"
            | "немецкий" => Lang::De,
            "français"
            | "francais"
            | "french"
            | "französisch"
            | "franzosisch"
            | "francés"
            | "frances"
            | "francese"
            | "frans"
            | "francês"
            | "francuski"
            | "francouzština"
            | "francouzstina"
            | "francouzsky"
            | "французский" => Lang::Fr,
            "español" | "espanol" | "castellano" | "spanish" | "spanisch" | "espagnol"
            | "spagnolo" | "spaans" | "espanhol" | "hiszpański" | "hiszpanski" | "španělština"
            | "spanelstina" | "španělsky" | "spanelsky" | "испанский" => Lang::Es,
            "italiano"
            | "italian"
            | "italienisch"
            | "italien"
            | "italiaans"
            | "włoski"
            | "wloski"
            | "italština"
            | "italstina"
            | "italsky"
            | "итальянский" => Lang::It,
            "nederlands"
            | "dutch"
            | "vlaams"
            | "niederländisch"
            | "niederlandisch"
            | "holländisch"
            | "néerlandais"
            | "neerlandais"
            | "neerlandés"
            | "holandés"
            | "olandese"
            | "holandês"
            | "neerlandês"
            | "niderlandzki"
            | "holenderski"
            | "nizozemština"
            | "nizozemsky"
            | "голландский"
            | "нидерландский" => Lang::Nl,
            "português"
            | "portugues"
            | "portuguese"
            | "portugiesisch"
            | "portugais"
            | "portugués"
            | "portoghese"
            | "portugees"
            | "portugalski"
            | "portugalština"
            | "portugalsky"
            | "португальский" => Lang::Pt,
            "polski" | "polish" | "polnisch" | "polonais" | "polaco" | "polacco" | "pools"
            | "polonês" | "polština" | "polstina" | "polsky" | "польский" => Lang::Pl,
            "čeština" | "cestina" | "česky" | "cesky" | "czech" | "tschechisch" | "tchèque"
            | "tcheque" | "checo" | "ceco" | "tsjechisch" | "tcheco" | "czeski" | "чешский" => {
                Lang::Cs
            }
            "русский" | "по-русски" | "russian" | "russisch" | "russe" | "ruso" | "russo"
            | "rosyjski" | "ruština" | "rustina" | "rusky" => Lang::Ru,
            _ => return None,
        };
        Some(lang)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A text that names no language wildt writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a language wildt writes (en, de, fr, es, it, nl, pt, pl, cs, ru)")]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;

    /// A code (`de`, `de-AT`) or a name (`Deutsch`, `German`).
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        Lang::from_code(s)
            .or_else(|| Lang::from_name(s))
            .ok_or_else(|| UnknownLang(s.trim().to_owned()))
    }
}

/// What a message variable holds, so tests can feed every message sample
/// values (and every variant of its selectors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// Free text or a number the player wrote: passed through unchanged.
    Text,
    /// A count: selects the plural form.
    Count,
    /// `white` or `black` ([`color_arg`]).
    Color,
    /// `king`, `queen`, `rook`, `bishop`, `knight`, `pawn` ([`piece_arg`]).
    Piece,
}

macro_rules! keys {
    ($($variant:ident = $id:literal [$($var:ident: $kind:ident),*],)*) => {
        /// A message. The enum is the list of every message there is: code can
        /// only ask for one that the tests prove exists in every language.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Key { $($variant,)* }

        impl Key {
            pub const ALL: &'static [Key] = &[$(Key::$variant,)*];

            /// The message's id in the `.ftl` files.
            pub fn id(self) -> &'static str {
                match self { $(Key::$variant => $id,)* }
            }

            /// The variables the message takes.
            pub fn vars(self) -> &'static [(&'static str, Var)] {
                match self { $(Key::$variant => &[$((stringify!($var), Var::$kind),)*],)* }
            }
        }
    };
}

keys! {
    // Subjects (the `[wildt #N]` prefix is not translated: players filter on it).
    SubjectNewGame = "subject-new-game" [color: Color, opponent: Text],
    SubjectNewAddress = "subject-new-address" [],
    SubjectMoveAccepted = "subject-move-accepted" [move: Text],
    SubjectYourMove = "subject-your-move" [move: Text],
    SubjectDrawOfferSent = "subject-draw-offer-sent" [],
    SubjectDrawOffered = "subject-draw-offered" [],
    SubjectDrawDeclined = "subject-draw-declined" [],
    SubjectStatus = "subject-status" [],
    SubjectNotPlayed = "subject-not-played" [],
    SubjectGameOver = "subject-game-over" [result: Text],
    SubjectTooLarge = "subject-too-large" [],
    SubjectHowToPlay = "subject-how-to-play" [],
    SubjectSecurity = "subject-security" [],
    SubjectWrongAddress = "subject-wrong-address" [],
    SubjectNotUnderstood = "subject-not-understood" [],

    // Opening a game, a new address.
    WelcomeIntro = "welcome-intro" [game: Text, color: Color, opponent: Text],
    WelcomeIntroEvent = "welcome-intro-event" [game: Text, event: Text, color: Color, opponent: Text],
    WelcomeAddress = "welcome-address" [address: Text],
    NotationExplained = "notation-explained" [],
    NewAddress = "new-address" [game: Text, color: Color, opponent: Text, address: Text],

    // The picture every game mail ends with.
    RecordLine = "record-line" [record: Text],
    RecordEmpty = "record-empty" [],
    StatusToMove = "status-to-move" [color: Color, number: Text],
    StatusToMoveDrawOffered = "status-to-move-draw-offered" [color: Color, number: Text, offerer: Color],
    StatusGameOver = "status-game-over" [result: Text, termination: Text],
    BoardLegend = "board-legend" [],
    BoardCaption = "board-caption" [color: Color],
    RecordHeading = "record-heading" [],
    ColumnWhite = "column-white" [],
    ColumnBlack = "column-black" [],

    // How a game ends.
    TerminationCheckmate = "termination-checkmate" [],
    TerminationStalemate = "termination-stalemate" [],
    TerminationInsufficientMaterial = "termination-insufficient-material" [],
    TerminationResignation = "termination-resignation" [],
    TerminationDrawAgreed = "termination-draw-agreed" [],
    TerminationThreefoldRepetition = "termination-threefold-repetition" [],
    TerminationFiftyMoveRule = "termination-fifty-move-rule" [],

    // How to answer.
    FooterYourMove = "footer-your-move" [number: Text, example: Text],
    FooterWait = "footer-wait" [],

    // A verdict.
    MovedMine = "moved-mine" [game: Text, move: Text, san: Text],
    MovedMineDrawOffer = "moved-mine-draw-offer" [],
    MovedTheirs = "moved-theirs" [game: Text, color: Color, move: Text, san: Text],
    MovedTheirsDrawOffer = "moved-theirs-draw-offer" [],
    EndedResigned = "ended-resigned" [color: Color],
    EndedDrawAccepted = "ended-draw-accepted" [color: Color],
    EndedDrawClaimed = "ended-draw-claimed" [color: Color, termination: Text],
    DrawOfferSent = "draw-offer-sent" [game: Text],
    DrawOffered = "draw-offered" [game: Text, color: Color],
    DrawDeclinedMine = "draw-declined-mine" [game: Text],
    DrawDeclinedTheirs = "draw-declined-theirs" [game: Text, color: Color],
    StatusIntro = "status-intro" [game: Text],
    RejectedIntro = "rejected-intro" [game: Text],
    RejectedReason = "rejected-reason" [reason: Text],
    RejectedWhatToDo = "rejected-what-to-do" [todo: Text],
    GameOverBody = "game-over-body" [game: Text, result: Text, termination: Text],
    GameOverThanks = "game-over-thanks" [],

    // What to do after a rejection.
    TodoGameOver = "todo-game-over" [],
    TodoWait = "todo-wait" [],
    TodoCompareRecords = "todo-compare-records" [number: Text],
    TodoCompareRecordsLater = "todo-compare-records-later" [number: Text],
    TodoSendOne = "todo-send-one" [number: Text],
    TodoSendIfYours = "todo-send-if-yours" [number: Text, move: Text],
    TodoChoosePromotion = "todo-choose-promotion" [options: Text],
    TodoSendLegal = "todo-send-legal" [number: Text],
    TodoOfferDrawYourself = "todo-offer-draw-yourself" [],
    TodoPlayOn = "todo-play-on" [],

    // Why a command was rejected (the referee's `Rejection`).
    RejectGameOver = "reject-game-over" [result: Text, termination: Text],
    RejectNotYourTurn = "reject-not-your-turn" [color: Color],
    RejectWrongNumber = "reject-wrong-number" [given: Text, expected: Text, color: Color],
    RejectEchoMismatch = "reject-echo-mismatch" [number: Text, given: Text, recorded: Text],
    RejectSeveralNewMoves = "reject-several-new-moves" [count: Count, moves: Text],
    RejectAlreadyRecorded = "reject-already-recorded" [number: Text, move: Text],
    RejectIllegal = "reject-illegal" [number: Text, move: Text, why: Text],
    RejectNoDrawOffer = "reject-no-draw-offer" [],
    RejectOwnDrawOffer = "reject-own-draw-offer" [],
    RejectClaimRefused = "reject-claim-refused" [repetitions: Count, moves: Count],

    // Why a move is illegal (notation's `IllegalMove` and `CastlingBlock`).
    IllegalNoPiece = "illegal-no-piece" [square: Text],
    IllegalOpponentsPiece = "illegal-opponents-piece" [square: Text, color: Color],
    IllegalCannotReachNoMoves = "illegal-cannot-reach-no-moves" [piece: Piece, from: Text, to: Text],
    IllegalCannotReachMoves = "illegal-cannot-reach-moves" [piece: Piece, from: Text, to: Text, moves: Text],
    IllegalLeavesKingInCheck = "illegal-leaves-king-in-check" [move: Text, king: Text],
    IllegalCastling = "illegal-castling" [move: Text, reason: Text],
    CastlingRightLost = "castling-right-lost" [],
    CastlingPieceInTheWay = "castling-piece-in-the-way" [square: Text],
    CastlingInCheck = "castling-in-check" [],
    CastlingSquareAttacked = "castling-square-attacked" [square: Text],
    IllegalPromotionDigitMissing = "illegal-promotion-digit-missing" [options: Text],
    IllegalPromotionDigitNotAllowed = "illegal-promotion-digit-not-allowed" [move: Text, without: Text],
    IllegalOldPromotionForm = "illegal-old-promotion-form" [given: Text, standard: Text],

    // Why a text is not an ICCF move (notation's `ParseError`).
    ParseWrongLength = "parse-wrong-length" [text: Text, count: Count],
    ParseNotADigit = "parse-not-a-digit" [text: Text, char: Text],
    ParseNotASquare = "parse-not-a-square" [square: Text],
    ParseSameSquare = "parse-same-square" [text: Text, square: Text],
    ParseBadPromotionDigit = "parse-bad-promotion-digit" [text: Text, digit: Text],

    // A message that is not one clear command (intake's `Unclear`).
    UnclearIntro = "unclear-intro" [game: Text],
    UnclearFound = "unclear-found" [what: Text],
    UnclearPlease = "unclear-please" [number: Text],
    UnclearNothingFound = "unclear-nothing-found" [],
    UnclearSeveralMoves = "unclear-several-moves" [moves: Text],
    UnclearNotAMove = "unclear-not-a-move" [text: Text, error: Text],
    UnclearAlgebraic = "unclear-algebraic" [text: Text],
    UnclearNumberInProse = "unclear-number-in-prose" [text: Text],
    UnclearVagueDraw = "unclear-vague-draw" [text: Text],
    UnclearUncertain = "unclear-uncertain" [text: Text],
    UnclearMixedCommands = "unclear-mixed-commands" [commands: Text],
    UnclearTooManyCommands = "unclear-too-many-commands" [count: Count, limit: Count],
    UnclearMalformed = "unclear-malformed" [],

    // Notices outside play (decide).
    TooLarge = "too-large" [size: Count, limit: Count],
    Help = "help" [name: Text, address: Text, local: Text, domain: Text],
    AuthFailed = "auth-failed" [game: Text, from: Text, found: Text],
    AuthFoundSummary = "auth-found-summary" [summary: Text],
    AuthFoundNothing = "auth-found-nothing" [],
    Stranger = "stranger" [game: Text, from: Text, registered: Text],
    WrongAddress = "wrong-address" [game: Text, address: Text],

    // The first line of a mail when the player's name is known.
    Greeting = "greeting" [name: Text],

    // conditional
    CondSubject = "cond-subject" [],
    CondSubjectPrepared = "cond-subject-prepared" [move: Text],
    CondIntro = "cond-intro" [game: Text],
    CondStored = "cond-stored" [],
    CondCancelled = "cond-cancelled" [],
    CondRejected = "cond-rejected" [reason: Text],
    CondMoveCounts = "cond-move-counts" [],
    CondNotConsidered = "cond-not-considered" [],
    CondPreparedPlayed = "cond-prepared-played" [game: Text, opponent: Text, answer: Text],
    CondPreparedAccepted = "cond-prepared-accepted" [game: Text, opponent: Text],
    CondRemaining = "cond-remaining" [],
    CondNoneRemain = "cond-none-remain" [],
    CondRelayPrepared = "cond-relay-prepared" [],
    CondOffTree = "cond-off-tree" [opponent: Text],
    CondNoOffer = "cond-no-offer" [opponent: Text],
    CondStale = "cond-stale" [],

    // clock
    TerminationTimeForfeit = "termination-time-forfeit" [],
    SubjectClockReminder = "subject-clock-reminder" [],
    SubjectClockLowTime = "subject-clock-low-time" [],
    ClockReminder = "clock-reminder" [game: Text, days: Count],
    ClockLowTime = "clock-low-time" [game: Text, days: Count],
    ClockDaysLeft = "clock-days-left" [color: Color, days: Count, from: Count, to: Count],
    ClockDaysLeftOpen = "clock-days-left-open" [color: Color, days: Count],
    TerminationAdjudication = "termination-adjudication" [],
    SubjectClockLeave = "subject-clock-leave" [],
    SubjectClockRuling = "subject-clock-ruling" [],
    ClockLeaveGranted = "clock-leave-granted" [game: Text, color: Color, from: Text, to: Text],
    ClockDaysGiven = "clock-days-given" [game: Text, color: Color, days: Count],
    ClockAdjudicated = "clock-adjudicated" [game: Text, result: Text, reason: Text],
    ClockLeaveRefused = "clock-leave-refused" [game: Text, why: Text],
    ClockLeaveWhyEndsBeforeStart = "clock-leave-why-ends-before-start" [from: Text, to: Text],
    ClockLeaveWhyInPast = "clock-leave-why-in-past" [from: Text, today: Text],
    ClockLeaveWhyOverlaps = "clock-leave-why-overlaps" [from: Text, to: Text],
    ClockLeaveWhyExceeds = "clock-leave-why-exceeds" [year: Count, asked: Count, remaining: Count, allowance: Count],
    ClockLeaveWhyOverlapsOrganiser = "clock-leave-why-overlaps-organiser" [from: Text, to: Text],
    ClockLeaveWhyExceedsOrganiser = "clock-leave-why-exceeds-organiser" [year: Count, asked: Count, remaining: Count, allowance: Count],
    ClockLeaveWhyUnclear = "clock-leave-why-unclear" [],
    ClockLeaveCancelled = "clock-leave-cancelled" [game: Text, color: Color, from: Text],
    ClockLeaveNothingToCancel = "clock-leave-nothing-to-cancel" [game: Text],

    // event
    TerminationForfeit = "termination-forfeit" [],
    TerminationAnnulled = "termination-annulled" [],
    SubjectEventWelcome = "subject-event-welcome" [event: Text],
    EventWelcomeIntro = "event-welcome-intro" [event: Text, players: Text, games: Text],
    EventWelcomeGame = "event-welcome-game" [game: Text, color: Color, opponent: Text, address: Text],
    EventWelcomeOutro = "event-welcome-outro" [],
    SubjectEventWithdrawal = "subject-event-withdrawal" [event: Text],
    EventWithdrawalForfeit = "event-withdrawal-forfeit" [event: Text, game: Text, opponent: Text],
    EventWithdrawalAnnulled = "event-withdrawal-annulled" [event: Text, game: Text, opponent: Text],
    EventStanding = "event-standing" [event: Text, rank: Text, points: Text, played: Text, players: Text],
    // The player chose a language ("language: deutsch").
    SubjectLanguageSet = "subject-language-set" [],
    LanguageSet = "language-set" [],
    // Xfcc: a player's note with a move sent from a chess GUI, and the
    // password mail.
    XfccNote = "xfcc-note" [note: Text],
    SubjectXfccPassword = "subject-xfcc-password" [],
    XfccPassword = "xfcc-password" [user: Text, password: Text],
}

/// A value for a message variable.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Text(String),
    Count(i64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_owned())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Count(n)
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Count(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Count(i64::from(n))
    }
}

/// The value of a [`Var::Color`] variable.
pub fn color_arg(color: Color) -> Arg {
    Arg::Text(
        match color {
            Color::White => "white",
            Color::Black => "black",
        }
        .to_owned(),
    )
}

/// The value of a [`Var::Piece`] variable.
pub fn piece_arg(role: Role) -> Arg {
    Arg::Text(
        match role {
            Role::King => "king",
            Role::Queen => "queen",
            Role::Rook => "rook",
            Role::Bishop => "bishop",
            Role::Knight => "knight",
            Role::Pawn => "pawn",
        }
        .to_owned(),
    )
}

const SOURCES: [(Lang, &str); 10] = [
    (Lang::En, include_str!("../locales/en/wildt.ftl")),
    (Lang::De, include_str!("../locales/de/wildt.ftl")),
    (Lang::Fr, include_str!("../locales/fr/wildt.ftl")),
    (Lang::Es, include_str!("../locales/es/wildt.ftl")),
    (Lang::It, include_str!("../locales/it/wildt.ftl")),
    (Lang::Nl, include_str!("../locales/nl/wildt.ftl")),
    (Lang::Pt, include_str!("../locales/pt/wildt.ftl")),
    (Lang::Pl, include_str!("../locales/pl/wildt.ftl")),
    (Lang::Cs, include_str!("../locales/cs/wildt.ftl")),
    (Lang::Ru, include_str!("../locales/ru/wildt.ftl")),
];

type Bundle = FluentBundle<FluentResource>;

fn source(lang: Lang) -> &'static str {
    SOURCES
        .iter()
        .find(|(l, _)| *l == lang)
        .map(|(_, s)| *s)
        .expect("every language has a source")
}

fn build(lang: Lang) -> Bundle {
    let id: unic_langid::LanguageIdentifier = lang.code().parse().expect("valid language code");
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Mail is plain text: Unicode isolation marks around variables would show
    // up as stray characters in some clients and break copy-paste of moves.
    bundle.set_use_isolating(false);
    // A syntax error in an embedded file is a build defect; the tests parse
    // every file without errors, so keep whatever parsed.
    let resource = FluentResource::try_new(source(lang).to_owned()).unwrap_or_else(|(r, _)| r);
    bundle
        .add_resource(resource)
        .unwrap_or_else(|_| unreachable!("one resource per bundle cannot clash"));
    bundle
}

static BUNDLES: LazyLock<Vec<(Lang, Bundle)>> =
    LazyLock::new(|| Lang::ALL.into_iter().map(|l| (l, build(l))).collect());

fn bundle(lang: Lang) -> &'static Bundle {
    &BUNDLES
        .iter()
        .find(|(l, _)| *l == lang)
        .expect("a bundle per language")
        .1
}

fn fluent_args(args: &[(&str, Arg)]) -> FluentArgs<'static> {
    let mut out = FluentArgs::new();
    for (name, value) in args {
        let value = match value {
            Arg::Text(s) => FluentValue::from(s.clone()),
            Arg::Count(n) => FluentValue::from(*n),
        };
        out.set(name.to_string(), value);
    }
    out
}

/// Formats `key` in `lang` with `args`; English if the message is missing in
/// `lang` (which the tests forbid). Errors (a missing variable) leave Fluent's
/// visible `{$name}` marker in the text rather than failing the mail.
///
/// In debug builds, a variable missing from `args` or not taken by the
/// message panics, so a mistake in the calling code shows in its tests.
pub fn text(lang: Lang, key: Key, args: &[(&str, Arg)]) -> String {
    debug_assert!(
        key.vars()
            .iter()
            .all(|(v, _)| args.iter().any(|(a, _)| a == v))
            && args
                .iter()
                .all(|(a, _)| key.vars().iter().any(|(v, _)| a == v)),
        "{}: takes {:?}, given {:?}",
        key.id(),
        key.vars().iter().map(|(v, _)| v).collect::<Vec<_>>(),
        args.iter().map(|(a, _)| a).collect::<Vec<_>>()
    );
    format(lang, key, args).0
}

/// As [`text`], with the formatting errors.
fn format(lang: Lang, key: Key, args: &[(&str, Arg)]) -> (String, Vec<String>) {
    format_in(bundle(lang), bundle(Lang::En), key, args)
}

/// Formats `key` from `primary`, or from `fallback` if `primary` lacks it.
fn format_in(
    primary: &Bundle,
    fallback: &Bundle,
    key: Key,
    args: &[(&str, Arg)],
) -> (String, Vec<String>) {
    let Some((bundle, message)) = [primary, fallback]
        .into_iter()
        .find_map(|b| b.get_message(key.id()).map(|m| (b, m)))
    else {
        return (key.id().to_owned(), vec!["no such message".to_owned()]);
    };
    let Some(pattern) = message.value() else {
        return (key.id().to_owned(), vec!["message has no value".to_owned()]);
    };
    let args = fluent_args(args);
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
    (
        text.into_owned(),
        errors.iter().map(ToString::to_string).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_syntax::ast;

    fn ids_in(lang: Lang) -> Vec<String> {
        let resource = match FluentResource::try_new(source(lang).to_owned()) {
            Ok(r) => r,
            Err((_, errors)) => panic!("{lang}: syntax errors: {errors:?}"),
        };
        resource
            .entries()
            .filter_map(|e| match e {
                ast::Entry::Message(m) => Some(m.id.name.to_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_language_file_parses_without_errors() {
        for lang in Lang::ALL {
            assert!(!ids_in(lang).is_empty(), "{lang} has no messages");
        }
    }

    #[test]
    fn every_key_exists_in_english() {
        let en = ids_in(Lang::En);
        for key in Key::ALL {
            assert!(en.iter().any(|id| id == key.id()), "en lacks {}", key.id());
        }
    }

    #[test]
    fn no_language_misses_a_key() {
        let mut missing = Vec::new();
        for lang in Lang::ALL {
            let ids = ids_in(lang);
            for key in Key::ALL {
                if !ids.iter().any(|id| id == key.id()) {
                    missing.push(format!("{lang}: {}", key.id()));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "missing messages:\n{}",
            missing.join("\n")
        );
    }

    #[test]
    fn no_language_has_a_message_no_key_names() {
        let mut stray = Vec::new();
        for lang in Lang::ALL {
            for id in ids_in(lang) {
                if !Key::ALL.iter().any(|k| k.id() == id) {
                    stray.push(format!("{lang}: {id}"));
                }
            }
        }
        assert!(
            stray.is_empty(),
            "messages no key names:\n{}",
            stray.join("\n")
        );
    }

    /// Every combination of sample values for a key's variables: both colours,
    /// all six pieces, and counts that hit each plural form in the ten languages.
    fn samples(key: Key) -> Vec<Vec<(&'static str, Arg)>> {
        let mut combos: Vec<Vec<(&'static str, Arg)>> = vec![Vec::new()];
        for &(name, kind) in key.vars() {
            let values: Vec<Arg> = match kind {
                Var::Text => vec![Arg::from("5254")],
                Var::Count => [0i64, 1, 2, 3, 5, 21, 22, 25, 101]
                    .into_iter()
                    .map(Arg::Count)
                    .collect(),
                Var::Color => vec![color_arg(Color::White), color_arg(Color::Black)],
                Var::Piece => Role::ALL.into_iter().map(piece_arg).collect(),
            };
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((name, v.clone()));
                        c
                    })
                })
                .collect();
        }
        combos
    }

    #[test]
    fn every_message_formats_without_errors_with_its_variables() {
        let mut failures = Vec::new();
        for lang in Lang::ALL {
            for &key in Key::ALL {
                for args in samples(key) {
                    let (out, errors) = format(lang, key, &args);
                    if !errors.is_empty() || out.contains('{') || out.trim().is_empty() {
                        failures.push(format!("{lang} {}: {out:?} {errors:?}", key.id()));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn a_selector_variable_changes_the_text() {
        // The colour and the piece are grammar, not decoration: a translation
        // that ignores them would name the wrong side or piece.
        for lang in Lang::ALL {
            for &key in Key::ALL {
                for &(name, kind) in key.vars() {
                    let values = match kind {
                        Var::Color => vec![color_arg(Color::White), color_arg(Color::Black)],
                        Var::Piece => Role::ALL.into_iter().map(piece_arg).collect(),
                        Var::Text | Var::Count => continue,
                    };
                    let texts: Vec<String> = values
                        .into_iter()
                        .map(|v| {
                            let mut args = samples(key).swap_remove(0);
                            args.retain(|(n, _)| *n != name);
                            args.push((name, v));
                            text(lang, key, &args)
                        })
                        .collect();
                    for (i, a) in texts.iter().enumerate() {
                        for b in &texts[i + 1..] {
                            assert_ne!(a, b, "{lang} {}: ${name} makes no difference", key.id());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn counts_select_the_plural_form() {
        let digits = |lang, n: i64| {
            text(
                lang,
                Key::ParseWrongLength,
                &[("text", "525".into()), ("count", n.into())],
            )
        };
        assert!(
            digits(Lang::En, 1).contains("1 digit:"),
            "{}",
            digits(Lang::En, 1)
        );
        assert!(digits(Lang::En, 3).contains("3 digits"));
        assert!(
            digits(Lang::Ru, 3).contains("3 цифры"),
            "{}",
            digits(Lang::Ru, 3)
        );
        assert!(
            digits(Lang::Ru, 5).contains("5 цифр"),
            "{}",
            digits(Lang::Ru, 5)
        );
        assert!(
            digits(Lang::Pl, 3).contains("3 cyfry"),
            "{}",
            digits(Lang::Pl, 3)
        );
        assert!(
            digits(Lang::Pl, 5).contains("5 cyfr"),
            "{}",
            digits(Lang::Pl, 5)
        );
        assert!(
            digits(Lang::Cs, 3).contains("3 číslice"),
            "{}",
            digits(Lang::Cs, 3)
        );
        assert!(
            digits(Lang::Cs, 5).contains("5 číslic"),
            "{}",
            digits(Lang::Cs, 5)
        );
    }

    #[test]
    fn text_fills_in_variables_and_keeps_numbers_as_written() {
        let s = text(
            Lang::De,
            Key::MovedTheirs,
            &[
                ("game", "7".into()),
                ("color", color_arg(Color::Black)),
                ("move", "12... 7163".into()),
                ("san", "Sf3".into()),
            ],
        );
        assert_eq!(s, "Partie 7: Schwarz hat 12... 7163 (Sf3) gespielt.");
    }

    #[test]
    fn lang_reads_codes_and_names() {
        assert_eq!(Lang::from_code("de"), Some(Lang::De));
        assert_eq!(Lang::from_code("pt-BR"), Some(Lang::Pt));
        assert_eq!(Lang::from_code("CS_cz"), Some(Lang::Cs));
        assert_eq!(Lang::from_code("xx"), None);
        for (name, lang) in [
            ("deutsch", Lang::De),
            ("German", Lang::De),
            ("français", Lang::Fr),
            ("francais", Lang::Fr),
            ("Español", Lang::Es),
            ("italiano", Lang::It),
            ("Nederlands", Lang::Nl),
            ("português", Lang::Pt),
            ("polski", Lang::Pl),
            ("česky", Lang::Cs),
            ("Русский", Lang::Ru),
            ("english", Lang::En),
        ] {
            assert_eq!(Lang::from_name(name), Some(lang), "{name}");
            assert_eq!(name.parse::<Lang>(), Ok(lang), "{name}");
        }
        assert_eq!(Lang::from_name("klingon"), None);
        assert!("klingon".parse::<Lang>().is_err());
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
            assert_eq!(Lang::from_name(lang.native_name()), Some(lang));
        }
    }

    #[test]
    fn a_message_missing_in_a_language_falls_back_to_english() {
        let id: unic_langid::LanguageIdentifier = "de".parse().unwrap();
        let mut partial = FluentBundle::new_concurrent(vec![id]);
        partial.set_use_isolating(false);
        partial
            .add_resource(
                FluentResource::try_new("subject-status = Stellung\n".to_owned())
                    .expect("valid ftl"),
            )
            .expect("one resource");
        let en = build(Lang::En);
        let (present, errors) = format_in(&partial, &en, Key::SubjectStatus, &[]);
        assert_eq!((present.as_str(), errors.len()), ("Stellung", 0));
        let (missing, errors) = format_in(&partial, &en, Key::StatusIntro, &[("game", "3".into())]);
        assert_eq!(missing, "Game 3: the position now.");
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "moved-mine: takes")]
    fn a_missing_variable_panics_in_debug_builds() {
        text(Lang::En, Key::MovedMine, &[("game", "3".into())]);
    }

    /// The command words each language's footer teaches, in the footer's
    /// order: resign, offer, accept, decline, claim, board.
    fn taught(lang: Lang) -> [&'static str; 6] {
        match lang {
            Lang::En => [
                "resign",
                "offer draw",
                "accept draw",
                "decline draw",
                "claim draw",
                "status",
            ],
            Lang::De => [
                "aufgeben",
                "ich biete Remis an",
                "Remis angenommen",
                "Remis abgelehnt",
                "reklamiere Remis",
                "Stellung",
            ],
            Lang::Fr => [
                "j'abandonne",
                "je propose nulle",
                "j'accepte nulle",
                "je refuse nulle",
                "je réclame nulle",
                "échiquier",
            ],
            Lang::Es => [
                "abandono",
                "ofrezco tablas",
                "acepto tablas",
                "rechazo tablas",
                "reclamo tablas",
                "tablero",
            ],
            Lang::It => [
                "abbandono",
                "propongo patta",
                "accetto patta",
                "rifiuto patta",
                "richiedo patta",
                "scacchiera",
            ],
            Lang::Nl => [
                "opgeven",
                "remise aanbieden",
                "remise aangenomen",
                "remise geweigerd",
                "remise claimen",
                "stelling",
            ],
            Lang::Pt => [
                "abandono",
                "proponho empate",
                "aceito empate",
                "recuso empate",
                "reivindico empate",
                "tabuleiro",
            ],
            Lang::Pl => [
                "poddaję się",
                "proponuję remis",
                "przyjmuję remis",
                "odrzucam remis",
                "reklamuję remis",
                "szachownica",
            ],
            Lang::Cs => [
                "vzdávám",
                "nabízím remízu",
                "přijímám remízu",
                "odmítám remízu",
                "reklamuji remízu",
                "šachovnice",
            ],
            Lang::Ru => [
                "сдаюсь",
                "предлагаю ничью",
                "принимаю ничью",
                "отклоняю ничью",
                "требую ничью",
                "доска",
            ],
        }
    }

    #[test]
    fn footers_teach_the_same_command_words_as_the_help() {
        for lang in Lang::ALL {
            let list = taught(lang).join(", ");
            let footer = text(
                lang,
                Key::FooterYourMove,
                &[("number", "1.".into()), ("example", "5254".into())],
            );
            assert!(footer.contains(&list), "{lang}: {list:?} not in {footer}");
            let args = [
                ("name", "wildt".into()),
                ("address", "a@b".into()),
                ("local", "a".into()),
                ("domain", "b".into()),
            ];
            assert!(text(lang, Key::Help, &args).contains(&list), "{lang} help");
            assert!(
                text(lang, Key::UnclearPlease, &[("number", "1.".into())]).contains(&list),
                "{lang} unclear"
            );
        }
    }

    /// Every word a footer teaches is a word the intake reads (KEYWORDS.md),
    /// in every language wildt writes.
    #[test]
    fn the_intake_reads_the_taught_words_of_every_language() {
        use crate::command::Command;
        use crate::intake::{Disposition, IntakeConfig, Reading, read};
        let cfg = IntakeConfig {
            referee_local: "chess".into(),
            referee_domain: "club.example".into(),
            max_message_bytes: 4096,
            max_commands: crate::intake::DEFAULT_MAX_COMMANDS,
        };
        let want = [
            Command::Resign,
            Command::OfferDraw,
            Command::AcceptDraw,
            Command::DeclineDraw,
            Command::ClaimDraw,
            Command::Status,
        ];
        for lang in Lang::ALL {
            for (word, command) in taught(lang).into_iter().zip(&want) {
                let mail = format!(
                    "From: a@example.org\r\nTo: chess+1-k3x9qp2m@club.example\r\n\
                     Subject: game\r\nMessage-ID: <x@example.org>\r\n\
                     Content-Type: text/plain; charset=utf-8\r\n\r\n{word}\r\n"
                );
                let got = read(mail.as_bytes(), &cfg).disposition;
                assert_eq!(
                    got,
                    Disposition::Read(Reading::Command(command.clone())),
                    "{lang}: {word}"
                );
            }
        }
    }
}
