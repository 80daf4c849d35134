//! Whole-game tests of the clocks: controls over many moves, leave, deadlines.

use shakmaty::{ByColor, Color};

use super::*;

const H: i64 = 3600;
const D: i64 = DAY_SECS;

fn day(s: &str) -> Date {
    s.parse().unwrap()
}

fn at(date: &str, hour: i64) -> i64 {
    day(date).start() + hour * H
}

/// Plies whose reflections last the given wall-clock spans, one after the
/// other from `start`.
fn plies_after(start: i64, spans: &[i64]) -> Vec<PlyTime> {
    let mut t = start;
    spans
        .iter()
        .map(|&s| {
            t += s;
            PlyTime {
                arrived: t,
                free: false,
            }
        })
        .collect()
}

fn input<'a>(
    control: &str,
    rules: &'a ClockRules,
    started: i64,
    plies: &'a [PlyTime],
    leaves: ByColor<&'a [Leave]>,
) -> ClockInput<'a> {
    ClockInput {
        control: control.parse().unwrap(),
        rules,
        started,
        first_mover: Color::White,
        plies,
        leaves,
        extra_days: ByColor::default(),
    }
}

const NO_LEAVE: ByColor<&[Leave]> = ByColor {
    white: &[],
    black: &[],
};

fn kinds(ds: &[Deadline]) -> Vec<(String, i64)> {
    ds.iter().map(|d| (d.key.to_string(), d.at)).collect()
}

#[test]
fn first_move_is_charged_from_the_game_start() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let plies = plies_after(start, &[23 * D + 7 * H]);
    let s = clock_state(
        &input("10/50", &rules, start, &plies, NO_LEAVE),
        plies[0].arrived,
    );
    assert_eq!(s.charges, vec![26]);
    assert_eq!(s.clocks.white.days_used, 26);
    assert_eq!(s.clocks.white.days_left, Some(24));
    assert_eq!(s.to_move, Color::Black);
    assert_eq!(s.clocks.black.days_left, Some(50));
}

#[test]
fn the_player_on_move_is_charged_while_thinking() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let plies = plies_after(start, &[H]);
    let game = input("10/50", &rules, start, &plies, NO_LEAVE);
    let s = clock_state(&game, plies[0].arrived + 3 * D + 23 * H);
    assert_eq!(s.clocks.black.thinking_days, 3);
    assert_eq!(s.clocks.black.days_used, 3);
    assert_eq!(s.clocks.black.days_left, Some(47));
    assert_eq!(s.clocks.white.thinking_days, 0);
    assert_eq!(s.turn_started, plies[0].arrived);
}

/// White spends 4 days a move on moves 1–10, 5 on 11–20, 6 on 21–29; Black
/// answers within hours. Unused days carry forward; move 30 has 6 days.
#[test]
fn unused_days_carry_forward_over_three_moves_controls() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let mut spans = Vec::new();
    for white_days in std::iter::repeat_n(4, 10)
        .chain(std::iter::repeat_n(5, 10))
        .chain(std::iter::repeat_n(6, 9))
    {
        spans.push(white_days * D + H);
        spans.push(2 * H);
    }
    let plies = plies_after(start, &spans);
    let game = input("10/50", &rules, start, &plies[..20], NO_LEAVE);
    let after_20 = clock_state(&game, plies[19].arrived);
    assert_eq!(after_20.clocks.white.days_used, 40);
    assert_eq!(after_20.clocks.white.days_left, Some(60));
    assert_eq!(after_20.clocks.white.next_move, 11);
    assert_eq!(after_20.clocks.white.control_move, Some(20));

    let game = input("10/50", &rules, start, &plies, NO_LEAVE);
    let turn = plies.last().unwrap().arrived;
    let s = clock_state(&game, turn);
    assert_eq!(s.clocks.white.days_used, 40 + 50 + 54);
    assert_eq!(s.clocks.white.days_left, Some(6));
    assert_eq!(s.clocks.white.next_move, 30);
    assert_eq!(s.clocks.white.control_move, Some(30));
    assert_eq!(s.flag, None);

    // Six days and 23 hours still make the control; the seventh day does not.
    assert_eq!(clock_state(&game, turn + 6 * D + 23 * H).flag, None);
    assert_eq!(
        clock_state(&game, turn + 7 * D).flag,
        Some(FlagFall {
            side: Color::White,
            at: turn + 7 * D,
            ply: 58
        })
    );
    assert_eq!(
        clock_state(&game, turn + 7 * D).clocks.white.days_left,
        Some(0)
    );
}

#[test]
fn increment_control_adds_days_after_every_move() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    // White: 22 days 5 hours (charged 24), then exactly 9 days; Black: 1 hour.
    let plies = plies_after(start, &[22 * D + 5 * H, H, 9 * D, H]);
    let game = input("30+3", &rules, start, &plies[..2], NO_LEAVE);
    let s = clock_state(&game, plies[1].arrived);
    assert_eq!(s.clocks.white.days_used, 24);
    assert_eq!(s.clocks.white.days_left, Some(33 - 24));
    assert_eq!(s.clocks.white.control_move, None);
    assert_eq!(s.clocks.black.days_left, Some(33));

    let game = input("30+3", &rules, start, &plies, NO_LEAVE);
    let turn = plies[3].arrived;
    let s = clock_state(&game, turn);
    assert_eq!(s.clocks.white.days_used, 33);
    assert_eq!(s.clocks.white.days_left, Some(36 - 33));
    // Three days left: the warning is due at once, the forfeit on the 4th day,
    // and the reminders would come after it.
    assert_eq!(
        kinds(&deadlines(&game)),
        vec![
            ("4/low-time".to_owned(), turn),
            ("4/forfeit".to_owned(), turn + 4 * D)
        ]
    );
}

#[test]
fn leave_across_new_year_stops_the_clock_and_counts_in_both_years() {
    let rules = ClockRules::default();
    let start = at("2026-12-17", 12);
    let leave = [Leave {
        from: day("2026-12-20"),
        to: day("2027-01-03"),
    }];
    // White moves after a day; Black answers 19 days later, 15 of them on leave.
    let plies = plies_after(start, &[D, 19 * D]);
    let leaves = ByColor {
        white: &[][..],
        black: &leave[..],
    };
    let game = input("10/50", &rules, start, &plies, leaves);
    let s = clock_state(&game, plies[1].arrived);
    assert_eq!(s.charges, vec![1, 4]);
    assert_eq!(s.clocks.black.leave_days_left, 42);
    assert!(!s.clocks.black.on_leave);

    // On Christmas Day Black has not answered yet.
    let thinking = input("10/50", &rules, start, &plies[..1], leaves);
    let during = clock_state(&thinking, at("2026-12-25", 10));
    assert!(during.clocks.black.on_leave);
    assert!(!during.clocks.white.on_leave);
    assert_eq!(during.clocks.black.leave_days_left, 33);
    // 2026-12-18 12:00 to 12-20 00:00 is 1.5 days: one day charged so far.
    assert_eq!(during.clocks.black.thinking_days, 1);
    // The clock stays stopped to the end of the leave, and runs after it.
    let thinking_days = |t| clock_state(&thinking, t).clocks.black.thinking_days;
    assert_eq!(thinking_days(at("2027-01-03", 23)), 1);
    assert_eq!(thinking_days(at("2027-01-04", 12)), 2);
}

/// Black's turn begins 2027-03-01 12:00 with a full 10/50 clock; Black is on
/// leave 6–8 March.
#[test]
fn reminders_warning_and_forfeit_fall_later_by_the_leave() {
    let rules = ClockRules::default();
    let start = at("2027-02-28", 12);
    let plies = plies_after(start, &[D]);
    let leave = [Leave {
        from: day("2027-03-06"),
        to: day("2027-03-08"),
    }];
    let leaves = ByColor {
        white: &[][..],
        black: &leave[..],
    };
    let game = input("10/50", &rules, start, &plies, leaves);
    assert_eq!(
        kinds(&deadlines(&game)),
        vec![
            ("1/reminder-14".to_owned(), at("2027-03-18", 12)),
            ("1/reminder-28".to_owned(), at("2027-04-01", 12)),
            // 45 days charged (5 left) after 33 days of reflection: 20 + 2×13.
            ("1/low-time".to_owned(), at("2027-04-06", 12)),
            // 51 days (over 50) after 36: 20 + 2×16 = 52.
            ("1/forfeit".to_owned(), at("2027-04-09", 12)),
        ]
    );
    let ds = deadlines(&game);
    assert!(ds.iter().all(|d| d.side == Color::Black));
    // The same game without leave: each instant three days earlier.
    let plain = input("10/50", &rules, start, &plies, NO_LEAVE);
    let earlier: Vec<i64> = deadlines(&plain).iter().map(|d| d.at + 3 * D).collect();
    assert_eq!(earlier, ds.iter().map(|d| d.at).collect::<Vec<_>>());
}

#[test]
fn warning_falls_when_five_days_are_left() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    // White's first move takes 30 days (20 + 2×10 = 40 charged); Black answers
    // within the hour. White then has 10 days for moves 2–10.
    let plies = plies_after(start, &[30 * D, H]);
    let game = input("10/50", &rules, start, &plies, NO_LEAVE);
    let turn = plies[1].arrived;
    assert_eq!(clock_state(&game, turn).clocks.white.days_left, Some(10));
    assert_eq!(
        kinds(&deadlines(&game)),
        vec![
            ("2/low-time".to_owned(), turn + 5 * D),
            ("2/forfeit".to_owned(), turn + 11 * D)
        ]
    );
    let left = |t| clock_state(&game, t).clocks.white.days_left;
    assert_eq!(left(turn + 5 * D - 1), Some(6));
    assert_eq!(left(turn + 5 * D), Some(5));
    assert_eq!(left(turn + 10 * D), Some(0));
    assert_eq!(clock_state(&game, turn + 10 * D).flag, None);
    assert_eq!(
        clock_state(&game, turn + 11 * D)
            .flag
            .map(|f| (f.side, f.at, f.ply)),
        Some((Color::White, turn + 11 * D, 2))
    );
}

#[test]
fn a_move_that_arrives_after_the_flag_fell_is_reported_with_its_ply() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    // Black's first answer comes after 40 days: 60 charged, over 50 at day 36.
    let plies = plies_after(start, &[H, 40 * D, H]);
    let game = input("10/50", &rules, start, &plies, NO_LEAVE);
    let flag = FlagFall {
        side: Color::Black,
        at: plies[0].arrived + 36 * D,
        ply: 1,
    };
    assert_eq!(clock_state(&game, plies[2].arrived).flag, Some(flag));
    assert_eq!(
        deadlines(&game),
        vec![Deadline {
            key: DeadlineKey {
                ply: 1,
                kind: DeadlineKind::Forfeit
            },
            side: Color::Black,
            at: flag.at
        }]
    );
}

#[test]
fn a_conditional_answer_costs_no_time() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let mut plies = plies_after(start, &[2 * D, 3 * D]);
    plies[1].free = true;
    let game = input("10/50", &rules, start, &plies, NO_LEAVE);
    assert_eq!(clock_state(&game, plies[1].arrived).charges, vec![2, 0]);
}

#[test]
fn rulings_add_days_to_every_control() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let plies = plies_after(start, &[10 * D]);
    let mut game = input("10/50", &rules, start, &plies, NO_LEAVE);
    game.extra_days.white = 7;
    let s = clock_state(&game, plies[0].arrived);
    assert_eq!(s.clocks.white.days_left, Some(47));
}

#[test]
fn without_a_control_days_are_counted_and_only_reminders_fall() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let plies = plies_after(start, &[200 * D]);
    let game = input("none", &rules, start, &plies, NO_LEAVE);
    let s = clock_state(&game, plies[0].arrived + 400 * D);
    assert_eq!(s.clocks.white.days_used, 20 + 2 * 180);
    assert_eq!(s.clocks.white.days_left, None);
    assert_eq!(s.flag, None);
    let turn = plies[0].arrived;
    assert_eq!(
        kinds(&deadlines(&game)),
        vec![
            ("1/reminder-14".to_owned(), turn + 14 * D),
            ("1/reminder-28".to_owned(), turn + 28 * D)
        ]
    );
}

#[test]
fn a_game_from_a_position_with_black_to_move_counts_black_first() {
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let plies = plies_after(start, &[3 * D]);
    let mut game = input("10/50", &rules, start, &plies, NO_LEAVE);
    game.first_mover = Color::Black;
    let s = clock_state(&game, plies[0].arrived);
    assert_eq!(s.clocks.black.days_used, 3);
    assert_eq!(s.clocks.black.next_move, 2);
    assert_eq!(s.clocks.white.next_move, 1);
    assert_eq!(s.to_move, Color::White);
}

/// A 30-move game under 10/50 with the clocks worked out by hand after every
/// ply: whole days only, doubling beyond 20 (21 d → 22, 23 d → 26, 22 d → 24,
/// 20 d 23 h → 20), a conditional answer (White's 24th, recorded two days
/// after the move it answers, as after an outage of the referee: it costs
/// nothing), and five days of leave inside Black's 15th move (12 days on the
/// wall clock, 7 charged).
#[test]
fn thirty_move_game_clocks_after_every_move() {
    /// A wall-clock span in (days, hours).
    type Span = (i64, i64);
    // (move, White's span, White used, White left,
    //        Black's span, Black used, Black left)
    #[rustfmt::skip]
    let rows: [(u32, Span, u32, u32, Span, u32, u32); 30] = [
        (1, (0, 2), 0, 50, (1, 2), 1, 49),
        (2, (1, 0), 1, 49, (2, 0), 3, 47),
        (3, (3, 5), 4, 46, (0, 12), 3, 47),
        (4, (2, 23), 6, 44, (5, 5), 8, 42),
        (5, (6, 1), 12, 38, (3, 0), 11, 39),
        (6, (0, 23), 12, 38, (4, 4), 15, 35),
        (7, (10, 0), 22, 28, (6, 0), 21, 29),
        (8, (4, 12), 26, 24, (2, 2), 23, 27),
        (9, (7, 0), 33, 17, (10, 10), 33, 17),
        (10, (9, 6), 42, 58, (7, 0), 40, 60),
        (11, (21, 3), 64, 36, (3, 3), 43, 57),
        (12, (1, 1), 65, 35, (2, 0), 45, 55),
        (13, (5, 0), 70, 30, (4, 0), 49, 51),
        (14, (2, 2), 72, 28, (1, 1), 50, 50),
        (15, (0, 5), 72, 28, (12, 0), 57, 43),
        (16, (8, 8), 80, 20, (0, 1), 57, 43),
        (17, (3, 3), 83, 17, (9, 9), 66, 34),
        (18, (6, 6), 89, 11, (3, 0), 69, 31),
        (19, (4, 0), 93, 7, (5, 0), 74, 26),
        (20, (6, 20), 99, 51, (20, 23), 94, 56),
        (21, (23, 9), 125, 25, (2, 2), 96, 54),
        (22, (2, 0), 127, 23, (22, 0), 120, 30),
        (23, (1, 12), 128, 22, (1, 0), 121, 29),
        (24, (2, 0), 128, 22, (3, 3), 124, 26),
        (25, (3, 0), 131, 19, (4, 0), 128, 22),
        (26, (4, 4), 135, 15, (2, 0), 130, 20),
        (27, (2, 2), 137, 13, (6, 6), 136, 14),
        (28, (5, 5), 142, 8, (1, 1), 137, 13),
        (29, (3, 23), 145, 5, (5, 0), 142, 8),
        (30, (4, 0), 149, 51, (3, 12), 145, 55),
    ];
    let rules = ClockRules::default();
    let start = at("2027-01-04", 9);
    let spans: Vec<i64> = rows
        .iter()
        .flat_map(|r| [r.1.0 * D + r.1.1 * H, r.4.0 * D + r.4.1 * H])
        .collect();
    let mut plies = plies_after(start, &spans);
    plies[46].free = true; // White's 24th: a conditional answer.
    // Black's 15th (ply 29) starts at the arrival of ply 28; leave on the 2nd
    // to 6th day after, all inside its 12 days.
    let leave_from = Date::of_instant(plies[28].arrived).add_days(2);
    let leave = [Leave {
        from: leave_from,
        to: leave_from.add_days(4),
    }];
    let leaves = ByColor {
        white: &[][..],
        black: &leave[..],
    };
    let control = |m: u32| Some(m.div_ceil(10) * 10);
    let (mut b_used, mut b_left) = (0, 50);
    for (i, &(m, _, w_used, w_left, _, bu, bl)) in rows.iter().enumerate() {
        let white_ply = 2 * i;
        let game = input("10/50", &rules, start, &plies[..=white_ply], leaves);
        let s = clock_state(&game, plies[white_ply].arrived);
        let w = s.clocks.white;
        let b = s.clocks.black;
        assert_eq!(
            (w.days_used, w.days_left, w.next_move, w.control_move),
            (w_used, Some(w_left), m + 1, control(m + 1)),
            "White after move {m}"
        );
        assert_eq!(
            (b.days_used, b.days_left, b.next_move, b.control_move),
            (b_used, Some(b_left), m, control(m)),
            "Black before move {m}"
        );
        assert_eq!(s.flag, None);

        let game = input("10/50", &rules, start, &plies[..=white_ply + 1], leaves);
        let s = clock_state(&game, plies[white_ply + 1].arrived);
        let w = s.clocks.white;
        let b = s.clocks.black;
        assert_eq!(
            (b.days_used, b.days_left, b.next_move, b.control_move),
            (bu, Some(bl), m + 1, control(m + 1)),
            "Black after move {m}"
        );
        assert_eq!(
            (w.days_used, w.days_left),
            (w_used, Some(w_left)),
            "White while Black thinks on move {m}"
        );
        assert_eq!(s.flag, None);
        (b_used, b_left) = (bu, bl);
    }
}

#[test]
fn deadline_keys_read_as_stable_text() {
    let key = |kind| DeadlineKey { ply: 12, kind }.to_string();
    assert_eq!(
        key(DeadlineKind::Reminder { after_days: 14 }),
        "12/reminder-14"
    );
    assert_eq!(key(DeadlineKind::LowTime), "12/low-time");
    assert_eq!(key(DeadlineKind::Forfeit), "12/forfeit");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn game_parts() -> impl Strategy<Value = (Vec<i64>, Leave, &'static str)> {
        let base = day("2027-01-04");
        (
            prop::collection::vec(0..16 * D, 0..12),
            (0i64..120, 0i64..10),
            prop_oneof![Just("10/50"), Just("5/20"), Just("10+2"), Just("1/1")],
        )
            .prop_map(move |(spans, (s, len), control)| {
                let leave = Leave {
                    from: base.add_days(s),
                    to: base.add_days(s + len),
                };
                (spans, leave, control)
            })
    }

    proptest! {
        #[test]
        fn deadlines_fall_exactly_when_the_clock_says_so((spans, leave, control) in game_parts()) {
            let rules = ClockRules::default();
            let start = at("2027-01-04", 9);
            let plies = plies_after(start, &spans);
            let leaves = [leave];
            let game = input(control, &rules, start, &plies, ByColor { white: &leaves[..], black: &leaves[..] });
            let turn = plies.last().map_or(start, |p| p.arrived);
            let ds = deadlines(&game);
            if let Some(flag) = clock_state(&game, turn).flag {
                // A move arrived after the flag fell: that forfeit alone.
                prop_assert!(flag.ply < plies.len());
                prop_assert_eq!(ds.len(), 1);
                prop_assert_eq!(ds[0].key, DeadlineKey { ply: flag.ply, kind: DeadlineKind::Forfeit });
                prop_assert_eq!(ds[0].at, flag.at);
                return Ok(());
            }
            let side = clock_state(&game, turn).to_move;
            let forfeit = ds.iter().find(|d| d.key.kind == DeadlineKind::Forfeit).unwrap();
            prop_assert_eq!(
                clock_state(&game, forfeit.at).flag,
                Some(FlagFall { side, at: forfeit.at, ply: plies.len() })
            );
            if forfeit.at > turn {
                prop_assert_eq!(clock_state(&game, forfeit.at - 1).flag, None);
            }
            let left = |t: i64| clock_state(&game, t).clocks[side].days_left.unwrap();
            for d in &ds {
                prop_assert!(d.at >= turn && d.at <= forfeit.at);
                match d.key.kind {
                    DeadlineKind::LowTime => {
                        prop_assert!(left(d.at) <= rules.warn_days_left);
                        if d.at > turn {
                            prop_assert!(left(d.at - 1) > rules.warn_days_left);
                        }
                    }
                    DeadlineKind::Reminder { after_days } => {
                        let spans = LeaveSpans::new(&leaves);
                        prop_assert_eq!(spans.reflection(turn, d.at), i64::from(after_days) * D);
                    }
                    DeadlineKind::Forfeit => {}
                }
            }
        }

        #[test]
        fn days_used_never_fall_as_time_passes(
            (spans, leave, control) in game_parts(), a in 0..60 * D, b in 0..60 * D,
        ) {
            let rules = ClockRules::default();
            let start = at("2027-01-04", 9);
            let plies = plies_after(start, &spans);
            let leaves = [leave];
            let game = input(control, &rules, start, &plies, ByColor { white: &leaves[..], black: &leaves[..] });
            let turn = plies.last().map_or(start, |p| p.arrived);
            let (early, late) = (turn + a.min(b), turn + a.max(b));
            let (e, l) = (clock_state(&game, early), clock_state(&game, late));
            for side in [Color::White, Color::Black] {
                prop_assert!(e.clocks[side].days_used <= l.clocks[side].days_used);
                prop_assert!(e.clocks[side].days_left >= l.clocks[side].days_left);
            }
        }
    }
}
