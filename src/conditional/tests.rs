//! Tests of conditional moves: reading, checking, storing and applying sets.
//! [pure: no IO]

use shakmaty::Color;

use super::*;
use crate::command::{Command, MoveNumber, WrittenMove};
use crate::game::{GameResult, Record, Termination};
use crate::notation::IllegalMove;
use crate::referee::{Verdict, judge};

const LIMIT: usize = 600;

fn mv(s: &str) -> IccfMove {
    s.parse().unwrap()
}

fn num(number: u32, black: bool) -> MoveNumber {
    MoveNumber { number, black }
}

/// Plays `moves` from the start with the referee, so the record is as real.
fn played(moves: &[&str]) -> Record {
    let mut r = Record::new(None).unwrap();
    for m in moves {
        play_on(&mut r, m, false);
    }
    r
}

fn play_on(r: &mut Record, m: &str, offer_draw: bool) {
    let cmd = Command::Play {
        line: vec![WrittenMove {
            number: None,
            mv: mv(m),
        }],
        offer_draw,
        claim_draw: false,
    };
    let v = judge(r, r.turn(), &cmd);
    assert!(matches!(v, Verdict::Moved { .. }), "{m}: {v:?}");
    r.apply(&v);
}

fn set(text: &str) -> ConditionalSet {
    match parse_conditionals(text, LIMIT) {
        Ok(Some(ConditionalText::Set(s))) => s,
        other => panic!("expected a set in {text:?}, got {other:?}"),
    }
}

fn parse_err(text: &str) -> ConditionalParseError {
    match parse_conditionals(text, LIMIT) {
        Err(e) => e,
        other => panic!("expected an error for {text:?}, got {other:?}"),
    }
}

fn line_err(text: &str) -> LineError {
    match parse_err(text) {
        ConditionalParseError::Line { kind, .. } => kind,
        other => panic!("expected a line error for {text:?}, got {other:?}"),
    }
}

fn leaf(opponent: &str, answer: &str) -> Branch {
    node(opponent, answer, vec![])
}

fn node(opponent: &str, answer: &str, then: Vec<Branch>) -> Branch {
    Branch {
        opponent: mv(opponent),
        reply: Reply {
            mv: Some(mv(answer)),
            draw: None,
        },
        then,
    }
}

/// After 1. e4 e5 2. Nf3: Black to move, White's set.
fn after_nf3() -> Record {
    played(&["5254", "5755", "7163"])
}

fn tree(text: &str, record: &Record, seat: Color) -> ConditionalTree {
    validate(&set(text), record, seat).unwrap()
}

fn matched(applied: Applied) -> Matched {
    match applied {
        Applied::Matched(m) => m,
        other => panic!("expected a match, got {other:?}"),
    }
}

#[test]
fn chained_conditions_on_one_line_are_a_linear_sequence() {
    let s = set("if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514");
    assert_eq!(
        s.branches,
        vec![node("2836", "6125", vec![leaf("1716", "2514")])]
    );
    assert_eq!(s.lines.len(), 1);
    assert_eq!(s.lines[0].line, 1);
    assert_eq!(s.lines[0].steps[1].opponent.number, Some(num(3, true)));
}

#[test]
fn lines_from_the_current_position_merge_their_shared_beginnings() {
    let s = set("2. 7163\n\
         if 2... 2836 then 3. 6125\n\
         if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514\n\
         if 2... 2836 then 3. 6125 if 3... 7866 then 4. 5171\n\
         if 2... 7866 then 3. 4244");
    assert_eq!(
        s.branches,
        vec![
            node(
                "2836",
                "6125",
                vec![leaf("1716", "2514"), leaf("7866", "5171")]
            ),
            leaf("7866", "4244"),
        ]
    );
    // Line numbers are those of the text, the own move's line included.
    assert_eq!(
        s.lines.iter().map(|l| l.line).collect::<Vec<_>>(),
        [2, 3, 4, 5]
    );
}

#[test]
fn every_written_move_form_is_read() {
    let want = vec![node("2836", "6125", vec![leaf("1716", "2514")])];
    for text in [
        "if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514",
        "if 2…2836 then 3.6125 if 3...1716 then 4.2514",
        "if 2 ... 2836 then 3. 6125 if 3…1716 then 4. 2514.",
        "if 2836 then 6125 if 1716 then 2514",
        "If you play 2... 2836, then I play 3. 6125, and if 1716 then 2514",
        "- if 2836 then 6125 if 3... 1716 then 2514",
    ] {
        assert_eq!(set(text).branches, want, "{text}");
    }
}

#[test]
fn if_and_then_are_read_in_every_language() {
    let want = vec![node("2836", "6125", vec![leaf("1716", "2514")])];
    for (kw_if, kw_then) in [
        ("if", "then"),
        ("Wenn", "dann"),
        ("falls", "dann"),
        ("Si", "alors"),
        ("si", "entonces"),
        ("Se", "allora"),
        ("Als", "dan"),
        ("se", "então"),
        ("Jeśli", "to"),
        ("jeżeli", "to"),
        ("Pokud", "pak"),
        ("jestliže", "pak"),
        ("Если", "то"),
    ] {
        let text = format!("{kw_if} 2... 2836 {kw_then} 3. 6125 {kw_if} 1716 {kw_then} 2514");
        assert_eq!(set(&text).branches, want, "{text}");
    }
}

#[test]
fn draw_phrases_end_a_branch_in_every_language() {
    let cases = [
        ("offer draw", DrawAction::Offer),
        ("and I offer a draw", DrawAction::Offer),
        ("draw?", DrawAction::Offer),
        ("accept draw", DrawAction::Accept),
        ("draw accepted", DrawAction::Accept),
        ("biete Remis an", DrawAction::Offer),
        ("Remis?", DrawAction::Offer),
        ("nehme Remis an", DrawAction::Accept),
        ("je propose la nulle", DrawAction::Offer),
        ("j'accepte nulle", DrawAction::Accept),
        ("ofrezco tablas", DrawAction::Offer),
        ("acepto tablas", DrawAction::Accept),
        ("offro patta", DrawAction::Offer),
        ("accetto patta", DrawAction::Accept),
        ("bied remise aan", DrawAction::Offer),
        ("accepteer remise", DrawAction::Accept),
        ("ofereço empate", DrawAction::Offer),
        ("aceito empate", DrawAction::Accept),
        ("proponuję remis", DrawAction::Offer),
        ("przyjmuję remis", DrawAction::Accept),
        ("nabízím remízu", DrawAction::Offer),
        ("přijímám remízu", DrawAction::Accept),
        ("предлагаю ничью", DrawAction::Offer),
        ("принимаю ничью", DrawAction::Accept),
    ];
    for (phrase, want) in cases {
        let text = format!("if 2... 2836 then 3. 6125 {phrase}");
        let s = set(&text);
        assert_eq!(s.lines[0].draw, Some(want), "{text}");
        assert_eq!(
            s.branches[0].reply,
            Reply {
                mv: Some(mv("6125")),
                draw: Some(want)
            },
            "{text}"
        );
    }
}

#[test]
fn accept_draw_may_stand_in_place_of_the_answer() {
    let s = set("if 30... 7866 then accept draw");
    assert_eq!(
        s.branches[0].reply,
        Reply {
            mv: None,
            draw: Some(DrawAction::Accept)
        }
    );
}

#[test]
fn offer_draw_without_a_move_is_an_error() {
    assert_eq!(
        line_err("if 2... 2836 then offer draw"),
        LineError::OfferWithoutMove
    );
}

#[test]
fn draw_word_before_the_end_of_a_line_is_an_error() {
    assert_eq!(
        line_err("if 2836 then 6125 offer draw if 1716 then 2514"),
        LineError::DrawNotAtEnd
    );
}

#[test]
fn lines_that_cannot_be_read_say_why() {
    assert_eq!(
        line_err("if 2... 2836 then 3. Bb5"),
        LineError::Algebraic { text: "Bb5".into() }
    );
    assert!(matches!(
        line_err("if 2... 2839 then 3. 6125"),
        LineError::NotAMove { text, .. } if text == "2839"
    ));
    assert_eq!(line_err("if 2836 6125 then 2514"), LineError::MissingThen);
    assert_eq!(line_err("if 2836 then"), LineError::MissingAnswer);
    assert_eq!(
        line_err("if 2836 then 6125 if then 2514"),
        LineError::MissingCondition
    );
    assert_eq!(
        line_err("if 2836 then 6125 if 1716 if 2514"),
        LineError::MissingThen
    );
    assert_eq!(
        line_err("if 2836 then 6125 if 1716 then"),
        LineError::MissingAnswer
    );
    assert_eq!(
        line_err("if 2836 then 6125 maybe"),
        LineError::Unexpected {
            text: "maybe".into()
        }
    );
    assert_eq!(
        line_err("if 2836 then 6125 4244"),
        LineError::Unexpected {
            text: "4244".into()
        }
    );
    // The error names the line as numbered in the text.
    match parse_err("5254\nif 2836 then 6125 maybe") {
        ConditionalParseError::Line { line, text, .. } => {
            assert_eq!(line, 2);
            assert_eq!(text, "if 2836 then 6125 maybe");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn prose_starting_with_if_is_not_a_condition() {
    for text in [
        "If you have time, please reply soon.",
        "If I'm away until 1520 I will write.",
        "If you want to play 3 games, write to 5254 Main Street.",
        "Als Antwort auf 7866 spiele ich 4143",
        "5254",
    ] {
        assert_eq!(parse_conditionals(text, LIMIT), Ok(None), "{text}");
        assert!(!is_conditional_line(text), "{text}");
    }
}

#[test]
fn the_move_scan_gets_the_text_without_condition_lines() {
    let text = "Hi,\n12. 5254\nif 12... 7866 then 13. 4143\ncancel conditionals\nBest";
    assert_eq!(without_conditional_lines(text), "Hi,\n12. 5254\n\n\nBest");
}

#[test]
fn conflicting_answers_to_the_same_move_are_an_error() {
    let e = parse_err(
        "if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514\n\
         if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2536",
    );
    assert_eq!(
        e,
        ConditionalParseError::Conflict {
            first_line: 1,
            second_line: 2,
            before: vec![mv("2836"), mv("6125")],
            opponent: mv("1716"),
            first: Reply {
                mv: Some(mv("2514")),
                draw: None
            },
            second: Reply {
                mv: Some(mv("2536")),
                draw: None
            },
        }
    );
    // The same answer with and without a draw offer is a conflict too.
    assert!(matches!(
        parse_err("if 2836 then 6125 offer draw\nif 2836 then 6125 if 1716 then 2514"),
        ConditionalParseError::Conflict { .. }
    ));
}

#[test]
fn cancel_conditionals_is_read_in_every_language() {
    for text in [
        "cancel conditionals",
        "Cancel all my conditional moves.",
        "Bedingte Züge löschen",
        "annuler les coups conditionnels",
        "cancelar jugadas condicionales",
        "annulla mosse condizionali",
        "annuleer voorwaardelijke zetten",
        "cancelar lances condicionais",
        "anuluj ruchy warunkowe",
        "zrušit podmíněné tahy",
        "отменить условные ходы",
    ] {
        assert_eq!(
            parse_conditionals(text, LIMIT),
            Ok(Some(ConditionalText::Cancel)),
            "{text}"
        );
    }
    // A sentence about conditionals is not a cancellation.
    assert_eq!(
        parse_conditionals("I will cancel my trip, conditionals later", LIMIT),
        Ok(None)
    );
}

#[test]
fn cancel_and_a_new_set_in_one_text_is_an_error() {
    assert_eq!(
        parse_err("cancel conditionals\nif 2836 then 6125"),
        ConditionalParseError::CancelAndSet {
            cancel_line: 1,
            set_line: 2
        }
    );
}

#[test]
fn more_moves_than_the_limit_are_not_read() {
    let text = "if 2836 then 6125 ".repeat(4);
    assert_eq!(
        parse_conditionals(&text, 7),
        Err(ConditionalParseError::TooManyMoves { count: 8, limit: 7 })
    );
}

#[test]
fn valid_set_is_anchored_at_the_opponents_next_move() {
    let t = tree(
        "if 2... 2836 then 3. 6125\nif 2... 7866 then 3. 4244",
        &after_nf3(),
        Color::White,
    );
    assert_eq!(t.seat, Color::White);
    assert_eq!(t.first, num(2, true));
    assert_eq!(t.branches, vec![leaf("2836", "6125"), leaf("7866", "4244")]);
}

#[test]
fn wrong_move_number_is_rejected_naming_line_and_move() {
    let e = validate(
        &set("if 2... 2836 then 3. 6125\nif 2... 7866 then 4. 4244"),
        &after_nf3(),
        Color::White,
    )
    .unwrap_err();
    assert_eq!(
        e,
        SetRejection::WrongMoveNumber {
            line: 2,
            expected: num(3, false),
            given: num(4, false),
            mv: mv("4244"),
        }
    );
    // A line starting at the wrong move is out of step too.
    let e = validate(
        &set("if 3... 2836 then 4. 6125"),
        &after_nf3(),
        Color::White,
    )
    .unwrap_err();
    assert!(
        matches!(e, SetRejection::WrongMoveNumber { line: 1, given, .. } if given == num(3, true)),
        "{e:?}"
    );
}

#[test]
fn illegal_branch_is_rejected_with_the_reason_naming_line_and_move() {
    let e = validate(
        &set("if 2... 2836 then 3. 6125\n\
              if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2547"),
        &after_nf3(),
        Color::White,
    )
    .unwrap_err();
    match e {
        SetRejection::Illegal {
            line,
            number,
            mv: m,
            by_opponent,
            why: IllegalMove::CannotReach { reachable, .. },
        } => {
            assert_eq!(
                (line, number, m, by_opponent),
                (2, num(4, false), mv("2547"), false)
            );
            // The explanation lists the bishop's real moves, as by hand.
            assert!(reachable.contains(&mv("2514")));
        }
        other => panic!("{other:?}"),
    }
    // An opponent's "move" with the player's own piece is refused as such.
    let e = validate(&set("if 4244 then 6125"), &after_nf3(), Color::White).unwrap_err();
    assert!(
        matches!(
            e,
            SetRejection::Illegal {
                line: 1,
                by_opponent: true,
                why: IllegalMove::OpponentsPiece { .. },
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn set_is_refused_while_it_is_the_players_own_turn() {
    let r = played(&["5254", "5755"]);
    assert_eq!(
        validate(&set("if 2836 then 6125"), &r, Color::White),
        Err(SetRejection::NotOpponentsTurn {
            to_move: Color::White
        })
    );
}

#[test]
fn branch_going_on_after_mate_is_refused() {
    // Fool's mate: after 1. 6263 5755 2. 7274 Black's 4884 mates.
    let r = played(&["6263", "5755"]);
    let e = validate(
        &set("if 2. 7274 then 2... 4884 if 3. 5251 then 3... 8483"),
        &r,
        Color::Black,
    )
    .unwrap_err();
    assert!(
        matches!(e, SetRejection::GameEnds { line: 1, mv: m, .. } if m == mv("4884")),
        "{e:?}"
    );
    // Ending in the mate is fine.
    assert!(validate(&set("if 2. 7274 then 2... 4884"), &r, Color::Black).is_ok());
}

#[test]
fn opponents_move_on_the_tree_plays_the_answer_and_keeps_the_rest() {
    let mut r = after_nf3();
    let t = tree(
        "if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514\nif 2... 7866 then 3. 4244",
        &r,
        Color::White,
    );
    play_on(&mut r, "2836", false);
    let m = matched(apply(&t, &r));
    assert_eq!(
        m.action,
        Action::Play {
            mv: mv("6125"),
            offer_draw: false
        }
    );
    assert_eq!(m.number, num(3, false));
    let rest = m.remaining.clone().unwrap();
    assert_eq!(rest.first, num(3, true));
    assert_eq!(rest.branches, vec![leaf("1716", "2514")]);
    // The command is the one a player would send, and the referee plays it.
    let v = judge(&r, Color::White, &m.command().unwrap());
    assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
}

#[test]
fn opponents_move_off_the_tree_clears_the_set() {
    let mut r = after_nf3();
    let t = tree("if 2... 2836 then 3. 6125", &r, Color::White);
    play_on(&mut r, "4746", false);
    assert_eq!(
        apply(&t, &r),
        Applied::OffTree {
            opponent: mv("4746")
        }
    );
}

#[test]
fn tree_that_does_not_fit_the_record_is_stale() {
    let r = after_nf3();
    let t = tree("if 2... 2836 then 3. 6125", &r, Color::White);
    // The opponent has not moved yet.
    assert_eq!(apply(&t, &r), Applied::Stale);
    // Two plies later than the tree's anchor.
    let mut later = r.clone();
    play_on(&mut later, "2836", false);
    play_on(&mut later, "6125", false);
    play_on(&mut later, "1716", false);
    assert_eq!(apply(&t, &later), Applied::Stale);
}

#[test]
fn long_forced_line_is_played_out_by_repeated_application() {
    // The Ruy Lopez main line, White's answers prepared after 1. 5254.
    let black = [
        "5755", "2836", "1716", "7866", "6857", "2725", "4746", "5878",
    ];
    let white = [
        "7163", "6125", "2514", "5171", "6151", "1423", "3233", "8283",
    ];
    let mut text = String::new();
    for (i, (b, w)) in black.iter().zip(white).enumerate() {
        text.push_str(&format!("if {}... {b} then {}. {w} ", i + 1, i + 2));
    }
    let mut r = played(&["5254"]);
    let mut t = Some(tree(&text, &r, Color::White));
    for (b, w) in black.iter().zip(white) {
        let current = t.take().expect("the set ran out early");
        play_on(&mut r, b, false);
        let m = matched(apply(&current, &r));
        assert_eq!(
            m.action,
            Action::Play {
                mv: mv(w),
                offer_draw: false
            }
        );
        let v = judge(&r, Color::White, &m.command().unwrap());
        assert!(matches!(v, Verdict::Moved { .. }), "{w}: {v:?}");
        r.apply(&v);
        t = m.remaining;
    }
    assert_eq!(t, None, "the set is used up at its end");
    assert_eq!(r.plies().len(), 17);
}

#[test]
fn draw_offer_at_the_end_of_a_branch_comes_with_the_answer() {
    let mut r = after_nf3();
    let t = tree("if 2... 2836 then 3. 6125 offer draw", &r, Color::White);
    play_on(&mut r, "2836", false);
    let m = matched(apply(&t, &r));
    assert_eq!(
        m.action,
        Action::Play {
            mv: mv("6125"),
            offer_draw: true
        }
    );
    assert_eq!(m.remaining, None);
    let v = judge(&r, Color::White, &m.command().unwrap());
    assert!(
        matches!(
            v,
            Verdict::Moved {
                draw_offered: true,
                ..
            }
        ),
        "{v:?}"
    );
}

#[test]
fn accept_draw_at_the_end_of_a_branch_accepts_only_an_offer_made_with_the_move() {
    let text = "if 2... 2836 then accept draw\nif 2... 7866 then 3. 4244 accept draw";
    let base = after_nf3();
    let t = tree(text, &base, Color::White);

    // 2836 with an offer: accepted, the game ends drawn.
    let mut r = base.clone();
    play_on(&mut r, "2836", true);
    let m = matched(apply(&t, &r));
    assert_eq!(m.action, Action::AcceptDraw);
    let v = judge(&r, Color::White, &m.command().unwrap());
    match v {
        Verdict::Ended { end, .. } => {
            assert_eq!(end.result, GameResult::Draw);
            assert_eq!(end.termination, Termination::DrawAgreed);
        }
        other => panic!("{other:?}"),
    }

    // 2836 without an offer: nothing to play, the set is used up.
    let mut r = base.clone();
    play_on(&mut r, "2836", false);
    let m = matched(apply(&t, &r));
    assert_eq!(
        (m.action, m.command(), m.remaining),
        (Action::Nothing, None, None)
    );

    // 7866 without an offer: the written answer is played instead.
    let mut r = base.clone();
    play_on(&mut r, "7866", false);
    assert_eq!(
        matched(apply(&t, &r)).action,
        Action::Play {
            mv: mv("4244"),
            offer_draw: false
        }
    );
}

#[test]
fn stored_form_reads_back_to_the_same_tree() {
    let t = tree(
        "if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514 offer draw\n\
         if 2... 2836 then 3. 6125 if 3... 7866 then accept draw\n\
         if 2... 7866 then 3. 4244",
        &after_nf3(),
        Color::White,
    );
    let stored = t.to_stored();
    assert_eq!(stored, "c1 w 2 2836:6125(1716:2514+o,7866:+a),7866:4244");
    assert_eq!(ConditionalTree::from_stored(&stored), Ok(t));
}

#[test]
fn damaged_stored_form_is_an_error() {
    assert!(matches!(
        ConditionalTree::from_stored("c2 w 2 2836:6125"),
        Err(StoredFormatError::UnknownVersion { .. })
    ));
    for bad in [
        "c1 x 2 2836:6125",
        "c1 w 2 2836:6125(",
        "c1 w 2 2836",
        "c1 w 2 2836:",
        "c1 w 2 2836:6125+o(1716:2514)",
        "c1 w 2 2839:6125",
        "c1 w 2 ",
        "c1 w 2 2836:6125)",
    ] {
        assert!(
            matches!(
                ConditionalTree::from_stored(bad),
                Err(StoredFormatError::Damaged { .. })
            ),
            "{bad}"
        );
    }
}

#[test]
fn rendered_lines_are_numbered_and_read_back_to_the_same_tree() {
    let r = after_nf3();
    let t = tree(
        "if 2836 then 6125 if 1716 then 2514\n\
         if 2836 then 6125 if 7866 then 5171 offer draw\n\
         if 7866 then accept draw",
        &r,
        Color::White,
    );
    let lines: Vec<String> = t.lines().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514",
            "if 2... 2836 then 3. 6125 if 3... 7866 then 4. 5171 offer draw",
            "if 2... 7866 then accept draw",
        ]
    );
    assert_eq!(tree(&lines.join("\n"), &r, Color::White), t);
}

#[cfg(feature = "server")]
#[test]
fn json_view_names_moves_in_digits() {
    let t = tree("if 2... 2836 then 3. 6125", &after_nf3(), Color::White);
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["seat"], "white");
    assert_eq!(json["first_move_number"], 2);
    assert_eq!(json["branches"][0]["opponent"], "2836");
    assert_eq!(json["branches"][0]["answer"], "6125");
    assert_eq!(json["lines"][0], "if 2... 2836 then 3. 6125");
}

mod props {
    use proptest::prelude::*;
    use shakmaty::Position;

    use super::*;
    use crate::game::MoveNumberText;

    const KEYWORDS: &[(&str, &str)] = &[
        ("if", "then"),
        ("wenn", "dann"),
        ("si", "alors"),
        ("si", "entonces"),
        ("se", "allora"),
        ("als", "dan"),
        ("se", "então"),
        ("jeśli", "to"),
        ("pokud", "pak"),
        ("если", "то"),
    ];

    /// The legal move number `seed` picks in `r`'s position, if any.
    fn pick(r: &Record, seed: u16) -> Option<IccfMove> {
        if r.is_over() {
            return None;
        }
        let legal = r.position().legal_moves();
        (!legal.is_empty()).then(|| IccfMove::from_move(legal[usize::from(seed) % legal.len()]))
    }

    fn written(n: MoveNumber, m: IccfMove, style: u8) -> String {
        match (style % 4, n.black) {
            (0, _) => format!("{} {m}", MoveNumberText(n)),
            (1, true) => format!("{}…{m}", n.number),
            (1, false) => format!("{}.{m}", n.number),
            (2, true) => format!("{} ... {m}", n.number),
            _ => m.to_string(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// For random legal lines from random positions, a linear set
        /// written as text parses back to the same tree, and every answer is
        /// legal when applied, to the end of the line.
        #[test]
        fn linear_set_written_as_text_reads_back_and_plays_out(
            prefix in proptest::collection::vec(any::<u16>(), 0..40),
            line in proptest::collection::vec(any::<u16>(), 2..20),
            styles in proptest::collection::vec(any::<u8>(), 20),
            lang in 0..KEYWORDS.len(),
        ) {
            let mut r = Record::new(None).unwrap();
            for seed in prefix {
                let Some(m) = pick(&r, seed) else { break };
                play_on(&mut r, &m.to_string(), false);
            }
            prop_assume!(!r.is_over());
            let seat = !r.turn();
            let mut scratch = r.clone();
            let mut moves = Vec::new();
            for seed in line {
                let Some(m) = pick(&scratch, seed) else { break };
                play_on(&mut scratch, &m.to_string(), false);
                moves.push(m);
            }
            moves.truncate(moves.len() / 2 * 2);
            prop_assume!(!moves.is_empty());

            let (kw_if, kw_then) = KEYWORDS[lang];
            let here = r.plies().len();
            let mut text = String::new();
            for (k, pair) in moves.chunks(2).enumerate() {
                let n = |i: usize| r.number_of_ply(here + 2 * k + i);
                text.push_str(&format!(
                    "{kw_if} {} {kw_then} {} ",
                    written(n(0), pair[0], styles[2 * k]),
                    written(n(1), pair[1], styles[2 * k + 1]),
                ));
            }
            let mut want: Vec<Branch> = Vec::new();
            for pair in moves.chunks(2).rev() {
                want = vec![Branch {
                    opponent: pair[0],
                    reply: Reply { mv: Some(pair[1]), draw: None },
                    then: want,
                }];
            }
            let t = validate(&set(&text), &r, seat).unwrap();
            prop_assert_eq!(&t.branches, &want, "{}", text);
            let back = ConditionalTree::from_stored(&t.to_stored());
            prop_assert_eq!(back.as_ref(), Ok(&t));

            let mut current = Some(t);
            for pair in moves.chunks(2) {
                let t = current.take().unwrap();
                play_on(&mut r, &pair[0].to_string(), false);
                let m = matched(apply(&t, &r));
                prop_assert_eq!(m.action, Action::Play { mv: pair[1], offer_draw: false });
                let v = judge(&r, seat, &m.command().unwrap());
                prop_assert!(matches!(v, Verdict::Moved { .. }), "{:?}", v);
                r.apply(&v);
                current = m.remaining;
            }
            prop_assert_eq!(current, None);
        }
    }
}
