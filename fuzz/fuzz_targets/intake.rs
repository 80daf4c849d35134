//! Fuzz target: any bytes as a mail through the whole intake and decision, as
//! the daemon runs them: raw bytes -> game address, loop check, command ->
//! sender authentication -> referee -> the mails to write. Must never panic
//! and must finish quickly. [pure]
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use wildt::auth::{Policy, sender_verdict};
use wildt::config::RefereeConfig;
use wildt::decide::{GameView, Limits, Player, Recent, Trust, decide};
use wildt::intake::{DEFAULT_MAX_COMMANDS, IntakeConfig, read};
use wildt::game::Record;

const MAX_BYTES: usize = 1024 * 1024;

/// Game 17 between the fixtures' players (their keys are in the seed
/// corpus, tests/fixtures/mail), a few moves in.
static GAME: LazyLock<GameView> = LazyLock::new(|| GameView {
    id: 17,
    white: Player {
        email: "anna@example.org".to_owned(),
        key: "k3x9qp2m".to_owned(),
    },
    black: Player {
        email: "ben@example.net".to_owned(),
        key: "b7y2wq4n".to_owned(),
    },
    record: Record::replay(
        None,
        ["5254", "5755", "7163", "2836", "6125", "1716"]
            .iter()
            .map(|m| m.parse().expect("a move")),
    )
    .expect("a legal opening"),
});

fuzz_target!(|data: &[u8]| {
    let cfg = IntakeConfig {
        referee_local: "chess".to_owned(),
        referee_domain: "club.example".to_owned(),
        max_message_bytes: MAX_BYTES,
        max_commands: DEFAULT_MAX_COMMANDS,
    };
    let referee = RefereeConfig {
        address: "chess@club.example".to_owned(),
        local: "chess".to_owned(),
        domain: "club.example".to_owned(),
        name: "Fuzz club".to_owned(),
    };
    let limits = Limits {
        replies_per_sender_per_hour: 60,
        max_message_bytes: MAX_BYTES,
    };
    let intake = read(data, &cfg);
    let game = intake
        .game_address
        .as_ref()
        .filter(|a| a.game == GAME.id)
        .map(|_| &*GAME);
    // As deployed by default (the key), and with the trusted MX's verdict.
    let by_key = decide(
        &intake,
        game,
        &referee,
        &limits,
        Recent::default(),
        &Trust::default(),
    );
    let trust = Trust {
        policy: Policy::KeyAndAuth,
        auth: sender_verdict(data, Some("mx.club.example"), intake.from.as_deref()),
    };
    let by_auth = decide(&intake, game, &referee, &limits, Recent::default(), &trust);
    // Authentication only ever takes away: what moves under key+auth moves
    // under the key alone.
    if by_auth.outcome.changes_game() {
        assert_eq!(by_auth.outcome, by_key.outcome);
    }
    std::hint::black_box((by_key, by_auth));
});
