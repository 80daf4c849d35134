//! The player's text (body without quotes, plus the subject) read as one command,
//! or the reason it cannot be. [pure: no IO]
//!
//! Two stages per line, in small files as in triagebot's parser: the tokenizer
//! (`tokens`) splits a line into words, numbers and moves; the line classifier
//! (`line`) decides which of them are moves, using the word lists and command
//! phrases of `keywords`. This file gathers what every line found and
//! concludes: one command, or why the text holds none (several moves, mixed
//! commands, a number asked about, too many commands).

mod keywords;
mod line;
pub(crate) mod tokens;

use tokens::{Tok, tokenize};

use crate::command::{Command, MoveNumber, WrittenMove};
use crate::notation::ParseError;

use super::{Reading, Unclear};

/// Separate move-holding lines compared with each other; a real mail has a few.
const MAX_SEGMENTS: usize = 64;
/// A line at least this long that ends mid-sentence may have been wrapped by
/// the mail client (they wrap at 72 to 78 characters).
const WRAPPED_LINE: usize = 30;
/// Longest text quoted back in an `Unclear`.
const MAX_QUOTE: usize = 24;

/// Everything one line contributed.
#[derive(Debug, Default)]
struct Findings {
    segments: Vec<Vec<WrittenMove>>,
    not_moves: Vec<(String, ParseError)>,
    algebraic: Vec<String>,
    in_prose: Vec<String>,
    keywords: Vec<Command>,
    vague: Option<String>,
    uncertain: Option<String>,
    /// Resign, accept or claim in the subject: never taken from there, and
    /// asked about only when nothing else was found.
    subject_binding: Option<String>,
    moves_seen: usize,
    /// Command phrases found, whether taken or asked about.
    words_seen: usize,
}

/// Reads the player's body text and subject (already without wildt's own
/// subject and reply prefixes) as one command. A text with more than
/// `max_commands` moves and command words is not read at all.
pub(super) fn decide(body: &str, subject: Option<&str>, max_commands: usize) -> Reading {
    let mut f = Findings::default();
    if let Some(subject) = subject {
        let toks = tokenize(subject);
        let around = Around {
            before: &[],
            after: &[],
            subject: true,
        };
        line::read_line(subject, &toks, around, &mut f);
        if let Some(too_many) = over_limit(&f, max_commands) {
            return too_many;
        }
    }
    let lines: Vec<&str> = body.lines().collect();
    let toks: Vec<Vec<Tok>> = lines.iter().map(|l| tokenize(l)).collect();
    for (i, line) in lines.iter().enumerate() {
        // A sentence the mail client wrapped: a long line ends without a
        // full stop and the next one starts in lower case. (Short lines are
        // the player's own line breaks: "accept draw" then "thanks".)
        let wraps = |a: usize, b: usize| {
            if lines[a].trim().chars().count() < WRAPPED_LINE {
                return false;
            }
            let starts_lower = lines[b]
                .trim_start()
                .chars()
                .next()
                .is_some_and(char::is_lowercase);
            starts_lower
                && toks[a]
                    .last()
                    .is_some_and(|t| !matches!(t, Tok::Stop | Tok::Question))
        };
        let before = match i.checked_sub(1) {
            Some(p) if wraps(p, i) => last_sentence(&toks[p]),
            _ => &[],
        };
        let after = match toks.get(i + 1) {
            Some(next) if wraps(i, i + 1) => first_sentence(next),
            _ => &[],
        };
        let around = Around {
            before,
            after,
            subject: false,
        };
        line::read_line(line, &toks[i], around, &mut f);
        if let Some(too_many) = over_limit(&f, max_commands) {
            return too_many;
        }
    }
    conclude(f)
}

fn over_limit(f: &Findings, max_commands: usize) -> Option<Reading> {
    let count = f.moves_seen + f.words_seen;
    (count > max_commands).then_some(Reading::Unclear(Unclear::TooManyCommands {
        count,
        limit: max_commands,
    }))
}

/// The sentence context a line shares with its neighbours.
#[derive(Debug, Clone, Copy)]
struct Around<'a> {
    /// The unfinished sentence the line before ended with.
    before: &'a [Tok],
    /// The sentence the next line starts with, when this one ends unfinished.
    after: &'a [Tok],
    /// The line is the subject, which never carries a command that cannot be
    /// undone.
    subject: bool,
}

fn last_sentence(toks: &[Tok]) -> &[Tok] {
    let start = toks
        .iter()
        .rposition(|t| *t == Tok::Stop)
        .map_or(0, |i| i + 1);
    &toks[start..]
}

fn first_sentence(toks: &[Tok]) -> &[Tok] {
    let end = toks
        .iter()
        .position(|t| *t == Tok::Stop)
        .unwrap_or(toks.len());
    &toks[..end]
}

fn short(text: &str) -> String {
    if text.chars().count() <= MAX_QUOTE {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(MAX_QUOTE).collect();
        s.push('…');
        s
    }
}

fn conclude(f: Findings) -> Reading {
    let unclear = Reading::Unclear;
    if let Some(text) = f.uncertain {
        return unclear(Unclear::Uncertain { text });
    }
    let line = match merge(f.segments) {
        Ok(line) => line,
        Err(found) => return unclear(Unclear::SeveralMoves { found }),
    };
    if let Some((text, error)) = f.not_moves.into_iter().next() {
        return unclear(Unclear::NotAMove { text, error });
    }
    if let Some(last) = line.last() {
        let in_line = |t: &String| line.iter().any(|w| w.mv.to_string() == *t);
        if let Some(text) = f.in_prose.into_iter().find(|t| !in_line(t)) {
            return unclear(Unclear::NumberInProse { text });
        }
        if let Some(text) = f.vague {
            return unclear(Unclear::VagueDraw { text });
        }
        let mut offer_draw = false;
        let mut claim_draw = false;
        let mut tablebase = None;
        let mut others = Vec::new();
        for kw in &f.keywords {
            match kw {
                // ICCF: a tablebase claim may come with a proposed move,
                // judged but never played.
                Command::ClaimTablebase { claim, .. } if tablebase.is_none() => {
                    tablebase = Some(*claim);
                }
                Command::OfferDraw => offer_draw = true,
                // FIDE 9.2.1.1: the claim may come with the move that makes
                // the repetition or the 50th move.
                Command::ClaimDraw => claim_draw = true,
                // The reply to a move shows the board anyway, and moving
                // declines a pending draw offer anyway.
                Command::Status | Command::DeclineDraw => {}
                other => {
                    if !others.contains(&keywords::name(other).to_owned()) {
                        others.push(keywords::name(other).to_owned());
                    }
                }
            }
        }
        if !others.is_empty() {
            let mut found = vec![super::written_move_text(last)];
            found.extend(others);
            return unclear(Unclear::MixedCommands { found });
        }
        if let Some(claim) = tablebase {
            // A tablebase claim ends the game or leaves it as it was: a
            // draw offer or claim beside it could mean either.
            if offer_draw || claim_draw {
                let mut found = vec![super::written_move_text(last)];
                found.extend(f.keywords.iter().map(|k| keywords::name(k).to_owned()));
                found.dedup();
                return unclear(Unclear::MixedCommands { found });
            }
            return Reading::Command(Command::ClaimTablebase { claim, line });
        }
        return Reading::Command(Command::Play {
            line,
            offer_draw,
            claim_draw,
        });
    }
    if let Some(text) = f.algebraic.into_iter().next() {
        return unclear(Unclear::Algebraic { text });
    }
    if let Some(text) = f.in_prose.into_iter().next() {
        return unclear(Unclear::NumberInProse { text });
    }
    let mut kinds: Vec<Command> = Vec::new();
    for kw in f.keywords {
        if !kinds.contains(&kw) {
            kinds.push(kw);
        }
    }
    match kinds.as_slice() {
        [] => match (f.vague, f.subject_binding) {
            (Some(text), _) => unclear(Unclear::VagueDraw { text }),
            (None, Some(text)) => unclear(Unclear::Uncertain { text }),
            (None, None) => unclear(Unclear::NothingFound),
        },
        [kw] => Reading::Command(kw.clone()),
        _ => unclear(Unclear::MixedCommands {
            found: kinds.iter().map(|k| keywords::name(k).to_owned()).collect(),
        }),
    }
}

/// `S` is contained in `T` as a contiguous run, numbers agreeing where `S` has one.
fn contained(s: &[WrittenMove], t: &[WrittenMove]) -> bool {
    s.len() <= t.len()
        && t.windows(s.len()).any(|w| {
            w.iter()
                .zip(s)
                .all(|(a, b)| a.mv == b.mv && (b.number.is_none() || a.number == b.number))
        })
}

/// The plies of a run of moves are consecutive (where numbers say so).
fn consistent(moves: &[WrittenMove]) -> bool {
    let mut prev: Option<u64> = None;
    for w in moves {
        let ply = w
            .number
            .map(|n| u64::from(n.number) * 2 + u64::from(n.black));
        match (prev, ply) {
            (Some(p), Some(q)) if q != p + 1 => return false,
            (Some(p), _) => prev = Some(p + 1),
            (None, q) => prev = q,
        }
    }
    true
}

/// A move number's place in a game counted in plies from move 0: `12.` is 24,
/// `12...` is 25.
fn ordinal(n: MoveNumber) -> u64 {
    u64::from(n.number) * 2 + u64::from(n.black)
}

/// A record written out of order or with gaps (for example `2. 7163`
/// followed by `1. 5254 5755`), put in the game's order: each move's place is its own
/// number, else one after the move before it on its line, else (moves before
/// a line's first number) counted back from that number. Every move is then
/// written with its number, so the referee can check each against the game.
/// `None` when a line has no number to place its moves, or two different
/// moves stand for the same place: those are several moves, not a record.
fn in_game_order(segments: &[Vec<WrittenMove>]) -> Option<Vec<WrittenMove>> {
    let mut placed: Vec<(u64, WrittenMove)> = Vec::new();
    for seg in segments {
        let first = seg.iter().position(|w| w.number.is_some())?;
        let anchor = ordinal(seg[first].number?);
        for (i, w) in seg[..first].iter().enumerate() {
            placed.push((anchor.checked_sub((first - i) as u64)?, *w));
        }
        let mut prev = anchor;
        for w in &seg[first..] {
            let o = w.number.map_or(prev + 1, ordinal);
            placed.push((o, *w));
            prev = o;
        }
    }
    placed.sort_by_key(|(o, _)| *o);
    placed.dedup_by(|b, a| a.0 == b.0 && a.1.mv == b.1.mv);
    if placed.windows(2).any(|p| p[0].0 == p[1].0) {
        return None;
    }
    placed
        .into_iter()
        .map(|(o, w)| {
            let number = u32::try_from(o / 2).ok()?;
            Some(WrittenMove {
                number: Some(MoveNumber {
                    number,
                    black: o % 2 == 1,
                }),
                mv: w.mv,
            })
        })
        .collect()
}

/// Joins the move-holding lines into one line, or lists the moves that cannot
/// be one record.
fn merge(segments: Vec<Vec<WrittenMove>>) -> Result<Vec<WrittenMove>, Vec<String>> {
    let distinct = |segs: &[Vec<WrittenMove>]| {
        let mut found: Vec<String> = Vec::new();
        for w in segs.iter().flatten() {
            let t = w.mv.to_string();
            if !found.contains(&t) {
                found.push(t);
            }
            if found.len() >= 8 {
                break;
            }
        }
        found
    };
    if segments.len() > MAX_SEGMENTS {
        return Err(distinct(&segments));
    }
    // Drop lines repeated elsewhere (the move in subject and body; "13. 5254"
    // under a full record).
    let mut kept: Vec<Vec<WrittenMove>> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        let covered = segments.iter().enumerate().any(|(j, t)| {
            j != i && contained(s, t) && (t.len() > s.len() || (t.len() == s.len() && j < i))
        });
        if !covered {
            kept.push(s.clone());
        }
    }
    let several = || in_game_order(&kept).ok_or_else(|| distinct(&kept));
    match kept.len() {
        0 => Ok(Vec::new()),
        1 => {
            if consistent(&kept[0]) {
                Ok(kept.remove(0))
            } else {
                several()
            }
        }
        _ => {
            // Separate lines join into one record only when numbers tie them
            // together: `12... 3746` then `13. 5254`, or a long record wrapped
            // by the mail client (a line may then start with Black's move).
            // `5254` then `7163`, or `5254` then `13. 7163`, are two moves.
            let numbered = |s: &[WrittenMove]| s.iter().any(|w| w.number.is_some());
            let joinable = kept.iter().enumerate().all(|(k, s)| match k {
                0 => numbered(s),
                _ => {
                    s[0].number.is_some()
                        || (numbered(s) && s.len() >= 2)
                        || (s.len() >= 2 && kept[k - 1].len() >= 2 && numbered(&kept[k - 1]))
                }
            });
            if !joinable {
                return several();
            }
            let line: Vec<WrittenMove> = kept.concat();
            if consistent(&line) {
                Ok(line)
            } else {
                several()
            }
        }
    }
}

/// Helpers shared by the tests of this module and its submodules.
#[cfg(test)]
mod test_support {
    pub(super) use super::{MAX_QUOTE, decide};
    pub(super) use crate::command::{Command, MoveNumber, WrittenMove};
    pub(super) use crate::intake::{Reading, Unclear};

    /// The default `[limits] commands_per_message`.
    pub(super) const TEST_LIMIT: usize = crate::intake::DEFAULT_MAX_COMMANDS;

    pub(super) fn play(text: &str) -> Vec<String> {
        match decide(text, None, TEST_LIMIT) {
            Reading::Command(Command::Play { line, .. }) => {
                line.iter().map(crate::intake::written_move_text).collect()
            }
            other => panic!("expected a move in {text:?}, got {other:?}"),
        }
    }

    pub(super) fn unclear(text: &str) -> Unclear {
        match decide(text, None, TEST_LIMIT) {
            Reading::Unclear(u) => u,
            other => panic!("expected unclear for {text:?}, got {other:?}"),
        }
    }

    pub(super) fn command(text: &str) -> Command {
        match decide(text, None, TEST_LIMIT) {
            Reading::Command(c) => c,
            other => panic!("expected a command for {text:?}, got {other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use crate::game::Record;
    use crate::notation::IccfMove;
    use crate::referee::{Verdict, judge};
    use proptest::prelude::*;
    use shakmaty::Position;

    /// A game of up to `picks.len()` plies chosen by `picks` among the legal
    /// moves, and one more legal move: the record and the new move.
    fn game_and_next(picks: &[usize]) -> Option<(Record, IccfMove)> {
        let (last, before) = picks.split_last()?;
        let mut record = Record::new(None).unwrap();
        for pick in before {
            let legal = record.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[pick % legal.len()];
            record = Record::replay(
                None,
                record
                    .plies()
                    .iter()
                    .map(|p| p.iccf)
                    .chain([IccfMove::from_move(m)]),
            )
            .unwrap();
        }
        let legal = record.position().legal_moves();
        let m = *legal.get(last % legal.len().max(1))?;
        Some((record, IccfMove::from_move(m)))
    }

    /// The record plus the new move as chunks that each start with a
    /// numbered move, cut at `cuts`.
    fn chunks(record: &Record, new: IccfMove, cuts: &[usize]) -> Vec<String> {
        let moves: Vec<IccfMove> = record.plies().iter().map(|p| p.iccf).chain([new]).collect();
        let mut out: Vec<String> = Vec::new();
        let mut current = String::new();
        for (i, mv) in moves.iter().enumerate() {
            let n = record.number_of_ply(i);
            let starts = i == 0 || cuts.contains(&i);
            if starts && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            if starts || !n.black {
                let dots = if n.black { "..." } else { "." };
                current.push_str(&format!("{}{dots} ", n.number));
            }
            current.push_str(&format!("{mv} "));
        }
        out.push(current);
        out
    }

    proptest! {
        /// A record written in pieces, in any order, with the new move
        /// anywhere among them: the new move is played.
        #[test]
        fn record_in_any_order_plays_the_new_move(
            picks in prop::collection::vec(0usize..64, 1..24),
            cuts in prop::collection::vec(1usize..24, 0..4),
            rotate in 0usize..5,
            newline in any::<bool>(),
        ) {
            let Some((record, new)) = game_and_next(&picks) else { return Ok(()) };
            let mut parts = chunks(&record, new, &cuts);
            let len = parts.len();
            parts.rotate_left(rotate % len);
            let text = parts.join(if newline { "\n" } else { " … " });
            let Reading::Command(command) = decide(&text, None, TEST_LIMIT) else {
                return Err(TestCaseError::fail(format!("{text:?} not read")));
            };
            let v = judge(&record, record.turn(), &command);
            let Verdict::Moved { ply, .. } = &v else {
                return Err(TestCaseError::fail(format!("{text:?}: {v:?}")));
            };
            prop_assert_eq!(ply.iccf, new);
        }

        /// The same with one echoed move changed: never played.
        #[test]
        fn record_with_a_wrong_echo_is_never_played(
            picks in prop::collection::vec(0usize..64, 2..24),
            wrong in 0usize..24,
            rotate in 0usize..5,
        ) {
            let Some((record, new)) = game_and_next(&picks) else { return Ok(()) };
            let n = record.plies().len();
            prop_assume!(n >= 1);
            let at = wrong % n;
            let good = record.plies()[at].iccf;
            // Another move of the same shape: the same squares the other way.
            let bad = IccfMove { from: good.to, to: good.from, promotion: None };
            let mut text_parts = chunks(&record, new, &[at, at + 1]);
            let number = record.number_of_ply(at);
            let dots = if number.black { "..." } else { "." };
            let echo = format!("{}{dots} {good} ", number.number);
            let mut replaced = 0;
            for part in text_parts.iter_mut().filter(|p| **p == echo) {
                *part = format!("{}{dots} {bad} ", number.number);
                replaced += 1;
            }
            prop_assert_eq!(replaced, 1);
            let len = text_parts.len();
            text_parts.rotate_left(rotate % len);
            let text = text_parts.join(" … ");
            if let Reading::Command(command) = decide(&text, None, TEST_LIMIT) {
                let v = judge(&record, record.turn(), &command);
                prop_assert!(!matches!(v, Verdict::Moved { .. }), "{:?}: {:?}", text, v);
            }
        }
    }

    #[test]
    fn record_line_keeps_every_move_and_number() {
        assert_eq!(
            play("1. 5254 5755 2. 7163 2836 3. 6125"),
            ["1.5254", "5755", "2.7163", "2836", "3.6125"]
        );
    }

    #[test]
    fn echo_and_move_on_separate_lines_join() {
        assert_eq!(play("12... 3746\n13. 5254"), ["12...3746", "13.5254"]);
    }

    #[test]
    fn record_wrapped_by_the_mail_client_is_one_line() {
        let text = "1. 5254 5755 2. 7163 2836 3. 6125 1716 4. 2514 7866 5. 5171 6857 6. 6151\n2725 7. 1423 4746 8. 3233 5878";
        let line = play(text);
        assert_eq!(line.len(), 16);
        assert_eq!(line.last().map(String::as_str), Some("5878"));
    }

    #[test]
    fn unnumbered_move_before_a_numbered_one_is_several_moves() {
        assert!(matches!(
            unclear("5254\n13. 7163"),
            Unclear::SeveralMoves { .. }
        ));
        assert!(matches!(
            unclear("13. 5254\n7163"),
            Unclear::SeveralMoves { .. }
        ));
    }

    #[test]
    fn two_different_moves_are_several_moves() {
        assert!(matches!(
            unclear("5254\n\n7163"),
            Unclear::SeveralMoves { .. }
        ));
        assert!(matches!(
            unclear("13. 5254 13. 7163"),
            Unclear::SeveralMoves { .. }
        ));
    }

    #[test]
    fn subject_and_body_with_different_moves_are_several_moves() {
        let r = decide("13. 7163", Some("Game 17: 13. 5254"), TEST_LIMIT);
        assert!(
            matches!(r, Reading::Unclear(Unclear::SeveralMoves { .. })),
            "{r:?}"
        );
    }

    #[test]
    fn same_move_in_subject_and_body_is_one_move() {
        let r = decide("12... 3746 13. 5254", Some("13. 5254"), TEST_LIMIT);
        let Reading::Command(Command::Play { line, .. }) = r else {
            panic!("{r:?}")
        };
        assert_eq!(line.len(), 2);
    }

    /// Regression: a record written after the new move was "different moves".
    #[test]
    fn record_after_the_new_move_is_put_in_the_games_order() {
        assert_eq!(
            play("Mein Zug: 2. 7163 … Für den Rest: 1. 5254 5755 steht fest."),
            ["1.5254", "1...5755", "2.7163"]
        );
        assert_eq!(
            play("2. 7163\n1. 5254 5755"),
            ["1.5254", "1...5755", "2.7163"]
        );
        // A partial record with a gap keeps every number for the referee.
        assert_eq!(play("1. 5254 3. 6125"), ["1.5254", "3.6125"]);
        // The same place with two different moves is still several moves.
        assert!(matches!(
            unclear("2. 7163 1. 5254 2. 6125"),
            Unclear::SeveralMoves { .. }
        ));
    }

    /// FIDE 9.2.1.1: the claim may come with the move. Regression: it was
    /// refused as mixed commands.
    #[test]
    fn claim_with_the_move_is_one_command() {
        assert_eq!(
            decide("80. 5242 claim draw", None, TEST_LIMIT),
            Reading::Command(Command::Play {
                line: vec![WrittenMove {
                    number: Some(MoveNumber {
                        number: 80,
                        black: false
                    }),
                    mv: "5242".parse().unwrap()
                }],
                offer_draw: false,
                claim_draw: true,
            })
        );
        let r = decide("5242\nI claim a draw.", None, TEST_LIMIT);
        assert!(
            matches!(
                r,
                Reading::Command(Command::Play {
                    claim_draw: true,
                    ..
                })
            ),
            "{r:?}"
        );
    }

    #[test]
    fn nothing_found_in_greetings() {
        assert_eq!(
            unclear("Hi Ben,\nthanks for the game!\nAnna"),
            Unclear::NothingFound
        );
    }

    #[test]
    fn more_commands_than_the_limit_are_not_read() {
        // Exactly at the limit a whole record is still read (and judged later)...
        let record = "5254 5755 ".repeat(TEST_LIMIT / 2);
        assert!(matches!(
            decide(&record, None, TEST_LIMIT),
            Reading::Command(_)
        ));
        // ...one more command word and the message is not read at all.
        let over = format!("{record}\ndraw?");
        assert_eq!(
            decide(&over, None, TEST_LIMIT),
            Reading::Unclear(Unclear::TooManyCommands {
                count: TEST_LIMIT + 1,
                limit: TEST_LIMIT
            })
        );
        // Command words count as much as moves.
        let words = "resign\n".repeat(11);
        assert!(matches!(
            decide(&words, None, 10),
            Reading::Unclear(Unclear::TooManyCommands {
                count: 11,
                limit: 10
            })
        ));
    }
}
