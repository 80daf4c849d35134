//! Fuzz target: any bytes as a mail through the whole intake and decision, as
//! the daemon runs them: raw bytes -> game address, loop check, command ->
//! sender authentication -> referee -> the mails to write. Must never panic
//! and must finish quickly. [pure]
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use wildt::auth::Policy;
use wildt::config::Rules;
use wildt::decide::{GameView, Recent, judge_message};
use wildt::fixtures::{game_17, rules};
use wildt::intake::read;
use wildt::reply;

const MAX_BYTES: usize = 1024 * 1024;

/// Game 17 between the fixtures' players (their keys are in the seed
/// corpus, tests/fixtures/mail), a few moves in.
static GAME: LazyLock<GameView> =
    LazyLock::new(|| game_17(&["5254", "5755", "7163", "2836", "6125", "1716"]));

/// As deployed by default (the key, no trusted server), and with the
/// trusted MX's verdict required.
static BY_KEY: LazyLock<Rules> = LazyLock::new(|| rules(MAX_BYTES, Policy::Key, false));
static BY_AUTH: LazyLock<Rules> = LazyLock::new(|| rules(MAX_BYTES, Policy::KeyAndAuth, true));

fuzz_target!(|data: &[u8]| {
    let intake = read(data, &BY_KEY.intake);
    let game = intake
        .game_address
        .as_ref()
        .filter(|a| a.game == GAME.id)
        .map(|_| &*GAME);
    let by_key = judge_message(data, &intake, game, Recent::default(), &BY_KEY);
    let by_auth = judge_message(data, &intake, game, Recent::default(), &BY_AUTH);
    // Authentication only ever takes away: what moves under key+auth moves
    // under the key alone.
    if by_auth.outcome.changes_game() {
        assert_eq!(by_auth.outcome, by_key.outcome);
    }
    // The sender's language as the mail suggests it, so the fuzzer also
    // drives the translated texts (English when the mail says nothing).
    let lang = intake
        .lang
        .requested
        .or(intake.lang.guessed)
        .unwrap_or_default();
    let mails = (
        reply::write(&by_key, &intake, game, None, &BY_KEY.referee, lang),
        reply::write(&by_auth, &intake, game, None, &BY_AUTH.referee, lang),
    );
    std::hint::black_box((by_key, by_auth, mails));
});
