//! Conditional moves in a decision: what a mail's set of conditions does to
//! the sender's stored set ([`set_change`]), and what the stored sets do once
//! the mail's move is on the board ([`follow`]): the prepared answers played,
//! and each seat's set kept, replaced or cleared. [pure: no IO]
//!
//! `handle` loads both seats' stored sets and writes back what [`Sequel`]
//! says, in the message's own transaction; `reply` writes the words.
//!
//! ## Chains: both players with a set
//! A player's stored set always waits for the opponent's next move: when it
//! is the player's turn, the set has just been used (its rest waits for the
//! opponent's following move) or cleared. So a mail's hand move can meet at
//! most one stored set, the opponent's. But the same mail may bring a new set
//! of the sender's, anchored at the opponent's next move, and the opponent's
//! prepared answer *is* that move: the sender's new set answers it, the
//! opponent's rest answers that, and so on. [`follow`] plays this out until a
//! side has no set, a move falls off a set, or the game ends. It always
//! stops: every prepared answer uses up one level of a finite tree.

use std::borrow::Cow;

use shakmaty::{ByColor, Color};

use crate::command::MoveNumber;
use crate::conditional::{
    Action, Applied, ConditionalParseError, ConditionalText, ConditionalTree, Matched,
    SetRejection, apply, validate,
};
use crate::game::Record;
use crate::notation::IccfMove;
use crate::referee::{Verdict, judge_with};
use crate::tablebase::TablebaseRules;

use super::{Decision, GameView};

/// What a mail's conditional lines did to the sender's stored set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetChange {
    /// A new set, checked against the game: it replaces the stored one.
    Replaced(ConditionalTree),
    /// "cancel conditionals": the stored set is cleared.
    Cancelled,
    /// The set fails in the game (after the mail's own move): refused
    /// whole, the stored set stays; the mail's own move still counts.
    Rejected(SetRejection),
    /// The lines cannot be read at all: refused, the stored set stays.
    Unreadable(ConditionalParseError),
    /// The rest of the message was not one clear command, so where the set
    /// would start is unknown: not looked at, the stored set stays.
    NotConsidered,
}

/// The sender's set change: `text` as the intake read it, checked against
/// `after_own_move`, the record after the mail's own move (the game's
/// record if the mail has none or it was refused).
pub fn set_change(
    text: &Result<ConditionalText, ConditionalParseError>,
    after_own_move: &Record,
    seat: Color,
) -> SetChange {
    match text {
        Err(e) => SetChange::Unreadable(e.clone()),
        Ok(ConditionalText::Cancel) => SetChange::Cancelled,
        Ok(ConditionalText::Set(set)) => match validate(set, after_own_move, seat) {
            Ok(tree) => SetChange::Replaced(tree),
            Err(why) => SetChange::Rejected(why),
        },
    }
}

/// A prepared answer played for `seat` the moment the opponent's move came.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub seat: Color,
    /// The branch that matched: the opponent's move and the answer.
    pub matched: Matched,
    /// The referee's verdict on the answer (a move, or an accepted draw).
    pub verdict: Verdict,
    /// The game after the answer.
    pub after: Record,
}

/// Why a seat's stored set is cleared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cleared {
    /// The player cancelled it.
    Cancelled,
    /// Its last prepared answer was played.
    UsedUp,
    /// The opponent played `opponent` (as move `number`), which no line foresaw.
    OffTree {
        number: MoveNumber,
        opponent: IccfMove,
    },
    /// The line ended in "accept draw", but the opponent's move came without
    /// an offer: nothing was played.
    NoOfferToAccept {
        number: MoveNumber,
        opponent: IccfMove,
    },
    /// The game is over.
    GameOver,
    /// The set no longer fits the game (changed by hand): never played.
    Stale,
}

/// What becomes of one seat's stored set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Fate {
    /// Left as it is (or none stored and none given).
    #[default]
    Keep,
    /// Stored (a new set, or what remains of the old one).
    Store(ConditionalTree),
    Clear(Cleared),
}

/// What the stored sets did after the mail's own move.
#[derive(Debug, Clone, Default)]
pub struct Sequel {
    /// Prepared answers played, in order.
    pub played: Vec<Prepared>,
    /// What becomes of each seat's stored set.
    pub fate: ByColor<Fate>,
}

impl Sequel {
    /// The game after the last prepared answer, if any was played.
    pub fn record_after(&self) -> Option<&Record> {
        self.played.last().map(|p| &p.after)
    }

    /// Whether the stored sets change or anything was played.
    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
            && matches!(self.fate.white, Fate::Keep)
            && matches!(self.fate.black, Fate::Keep)
    }
}

/// Plays out the stored sets `stored` (each seat's, as loaded in the
/// message's transaction) after `decision` on `game`, and records the result
/// in `decision.sequel`. The sender's set change in the decision comes first:
/// a new set replaces the stored one before anything is played. Under
/// `adjudicate = "auto"` (`tablebase`) a prepared answer that reaches a
/// position the tables resolve ends the game as a player's move does.
pub fn follow(
    decision: &mut Decision,
    game: &GameView,
    stored: ByColor<Option<ConditionalTree>>,
    tablebase: &TablebaseRules,
) {
    let Some(seat) = decision.seat else {
        return;
    };
    let mut trees = stored;
    let mut fate: ByColor<Fate> = ByColor::default();
    match &decision.conditional {
        Some(SetChange::Replaced(tree)) => {
            *trees.get_mut(seat) = Some(tree.clone());
            *fate.get_mut(seat) = Fate::Store(tree.clone());
        }
        Some(SetChange::Cancelled) => {
            *trees.get_mut(seat) = None;
            *fate.get_mut(seat) = Fate::Clear(Cleared::Cancelled);
        }
        _ => {}
    }
    let mut played = Vec::new();
    if let Some(start) = &decision.record_after {
        // Copied only when a prepared answer is played: most moves meet no
        // stored set, and a long game's record is hundreds of plies.
        let mut record = Cow::Borrowed(start);
        let mut plies_before = game.record.ply_count();
        loop {
            if record.is_over() {
                for c in [Color::White, Color::Black] {
                    if trees.get(c).is_some() {
                        *trees.get_mut(c) = None;
                        *fate.get_mut(c) = Fate::Clear(Cleared::GameOver);
                    }
                }
                break;
            }
            // Only a new move is an answer to wait for: a draw offer or
            // decline alone leaves every set as it is.
            if record.ply_count() == plies_before {
                break;
            }
            let responder = record.turn();
            let Some(tree) = trees.get(responder).clone() else {
                break;
            };
            let Some((number, opponent)) = last_move(&record) else {
                break;
            };
            let cleared = match apply(&tree, &record) {
                Applied::Matched(m) => match (m.action, m.command()) {
                    (Action::Nothing, _) | (_, None) => {
                        Cleared::NoOfferToAccept { number, opponent }
                    }
                    (_, Some(command)) => {
                        let verdict = judge_with(&record, responder, &command, tablebase);
                        if matches!(verdict, Verdict::Rejected(_)) {
                            Cleared::Stale
                        } else {
                            let mut after = record.as_ref().clone();
                            after.apply(&verdict);
                            *trees.get_mut(responder) = m.remaining.clone();
                            *fate.get_mut(responder) = match &m.remaining {
                                Some(rest) => Fate::Store(rest.clone()),
                                None => Fate::Clear(Cleared::UsedUp),
                            };
                            plies_before = record.ply_count();
                            record = Cow::Owned(after.clone());
                            played.push(Prepared {
                                seat: responder,
                                matched: m,
                                verdict,
                                after,
                            });
                            continue;
                        }
                    }
                },
                Applied::OffTree { opponent } => Cleared::OffTree { number, opponent },
                Applied::Stale => Cleared::Stale,
            };
            *trees.get_mut(responder) = None;
            *fate.get_mut(responder) = Fate::Clear(cleared);
            break;
        }
    }
    let sequel = Sequel { played, fate };
    if !sequel.is_empty() {
        if !sequel.played.is_empty() {
            decision.detail = format!(
                "{}; {} prepared answer(s) played",
                decision.detail,
                sequel.played.len()
            );
        }
        decision.sequel = Some(sequel);
    }
}

/// The record's last move, with its number.
fn last_move(record: &Record) -> Option<(MoveNumber, IccfMove)> {
    let last = record.last_ply()?;
    Some((record.number_of_ply(record.ply_count() - 1), last.iccf))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Policy;
    use crate::conditional::{ConditionalText, parse_conditionals};
    use crate::decide::{Recent, decide};
    use crate::fixtures::{BLACK_KEY, WHITE_KEY, game_17, rules};
    use crate::game::Termination;
    use crate::intake::read;

    /// `body` from White (`white`) or Black on game 17 after `moves`,
    /// decided and followed with the stored sets `stored`.
    fn followed(
        moves: &[&str],
        white: bool,
        body: &str,
        stored: ByColor<Option<ConditionalTree>>,
    ) -> Decision {
        let (from, key) = if white {
            ("anna@example.org", WHITE_KEY)
        } else {
            ("ben@example.net", BLACK_KEY)
        };
        let raw = format!(
            "From: {from}\r\nTo: chess+17-{key}@club.example\r\nSubject: move\r\nMessage-ID: <m@example.org>\r\n\r\n{body}\r\n"
        );
        let rules = rules(1 << 20, Policy::Key, false);
        let game = game_17(moves);
        let mut d = decide(
            &read(raw.as_bytes(), &rules.intake),
            Some(&game),
            Recent::default(),
            &rules,
            None,
        );
        follow(&mut d, &game, stored, &TablebaseRules::default());
        d
    }

    /// The set `text` checked for `seat` after `moves`.
    fn tree(moves: &[&str], seat: Color, text: &str) -> ConditionalTree {
        let Ok(Some(ConditionalText::Set(set))) = parse_conditionals(text, 600) else {
            panic!("not a set: {text}");
        };
        crate::conditional::validate(&set, &game_17(moves).record, seat).expect("a valid set")
    }

    fn stored_for(color: Color, t: ConditionalTree) -> ByColor<Option<ConditionalTree>> {
        let mut b = ByColor::default();
        *b.get_mut(color) = Some(t);
        b
    }

    #[test]
    fn an_accept_draw_branch_accepts_the_offer_that_comes_with_the_matching_move() {
        let t = tree(&["5254"], Color::White, "if 1... 5755 then accept draw");
        let d = followed(
            &["5254"],
            false,
            "1... 5755 offer draw",
            stored_for(Color::White, t),
        );
        let sequel = d.sequel.clone().expect("a sequel");
        assert_eq!(sequel.played.len(), 1);
        let after = d.final_record().expect("changed");
        assert_eq!(
            after.end.map(|e| e.termination),
            Some(Termination::DrawAgreed)
        );
        assert_eq!(after.plies().len(), 2);
        assert_eq!(sequel.fate.white, Fate::Clear(Cleared::UsedUp));
    }

    #[test]
    fn an_accept_draw_branch_without_an_offer_plays_nothing_and_is_used_up() {
        let t = tree(&["5254"], Color::White, "if 1... 5755 then accept draw");
        let d = followed(&["5254"], false, "1... 5755", stored_for(Color::White, t));
        let sequel = d.sequel.clone().expect("a sequel");
        assert!(sequel.played.is_empty());
        assert_eq!(d.final_record().map(|r| r.plies().len()), Some(2));
        assert!(matches!(
            sequel.fate.white,
            Fate::Clear(Cleared::NoOfferToAccept { .. })
        ));
    }

    #[test]
    fn a_set_that_no_longer_fits_the_game_is_cleared_not_played() {
        // Anchored at Black's first move, but the game is two plies further.
        let t = tree(&["5254"], Color::White, "if 1... 5755 then 2. 7163");
        let d = followed(
            &["5254", "5755", "7163"],
            false,
            "2... 2836",
            stored_for(Color::White, t),
        );
        let sequel = d.sequel.clone().expect("a sequel");
        assert!(sequel.played.is_empty());
        assert_eq!(sequel.fate.white, Fate::Clear(Cleared::Stale));
    }

    #[test]
    fn a_draw_offer_alone_leaves_the_opponents_set_waiting() {
        // White, on move, offers a draw without a move: Black's set waits
        // for White's move and stays.
        let t = tree(&["5254", "5755"], Color::Black, "if 2. 7163 then 2... 2836");
        let d = followed(
            &["5254", "5755"],
            true,
            "offer draw",
            stored_for(Color::Black, t),
        );
        assert_eq!(
            d.outcome,
            crate::decide::Outcome::DrawOffered,
            "{}",
            d.detail
        );
        assert!(d.sequel.is_none(), "{:?}", d.sequel);
    }

    #[test]
    fn a_move_that_ends_the_game_clears_the_opponents_set() {
        // Fool's mate: 1. f3 e5 2. g4 Qh4#; White's set foresaw 2... Nc6.
        let t = tree(
            &["6263", "5755", "7274"],
            Color::White,
            "if 2... 2836 then 3. 5254",
        );
        let d = followed(
            &["6263", "5755", "7274"],
            false,
            "2... 4884",
            stored_for(Color::White, t),
        );
        let sequel = d.sequel.clone().expect("a sequel");
        assert!(sequel.played.is_empty());
        assert_eq!(sequel.fate.white, Fate::Clear(Cleared::GameOver));
    }

    #[test]
    fn a_refused_set_keeps_the_stored_one_and_the_mails_move_still_counts() {
        let t = tree(&["5254", "5755"], Color::Black, "if 2. 7163 then 2... 2836");
        // White's own set is illegal; White's move is played, Black's set answers.
        let d = followed(
            &["5254", "5755"],
            true,
            "2. 7163\nif 2... 2836 then 3. 6199",
            stored_for(Color::Black, t),
        );
        assert!(
            matches!(d.conditional, Some(SetChange::Unreadable(_))),
            "{:?}",
            d.conditional
        );
        let sequel = d.sequel.clone().expect("a sequel");
        assert_eq!(sequel.played.len(), 1);
        assert_eq!(sequel.fate.white, Fate::Keep);
        assert_eq!(d.final_record().map(|r| r.plies().len()), Some(4));
    }

    /// Every example of the conditional-moves section of `KEYWORDS.md` is
    /// read as conditional moves (a set, or a cancel).
    #[test]
    fn keywords_md_conditional_examples_are_read() {
        let doc = include_str!("../intake/KEYWORDS.md");
        let section = doc
            .split("### Conditional moves")
            .nth(1)
            .and_then(|rest| rest.split("###").next())
            .unwrap_or_default();
        let mut checked = 0;
        for row in section.lines().filter(|l| l.starts_with("| `")) {
            let first = row.split('|').nth(1).unwrap_or_default();
            let cancel = first.contains("cancel");
            for example in first.split('`').skip(1).step_by(2) {
                let read = parse_conditionals(example, 600);
                match read {
                    Ok(Some(ConditionalText::Cancel)) => assert!(cancel, "{example}"),
                    Ok(Some(ConditionalText::Set(_))) => assert!(!cancel, "{example}"),
                    other => panic!("{example}: {other:?}"),
                }
                checked += 1;
            }
        }
        assert!(checked >= 18, "only {checked} examples found");
    }
}
