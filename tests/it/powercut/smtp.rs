//! The SMTP path under power cuts: wildt's database and Maildir on LazyFS,
//! its mail handed to the rig's Postfix, which is not cut, with
//! `[receipts]` (p59). Counted by Message-ID in the players' mailboxes
//! (p60 and p61, which no other test uses): every mail exactly once.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use rand::{Rng as _, SeedableRng as _};

use super::{Club, Cut, State, assert_all_taken, assert_whole, run_and_cut};
use crate::e2e::{fresh_inboxes, player};
use crate::support::rig::{Reader, toml_str};

const GAMES: usize = 8;
const PLIES: usize = 14;
const WAVE: usize = 5;
const CUTS: usize = 22;
/// The copies of the mail sent go to p59; a mail in doubt after a cut
/// waits this long for its copy.
const RECEIPTS: &str = "p59@example.org";
const RECEIPT_WAIT_SECS: u64 = 10;
/// Cuts at the crash point right after the relay took a batch.
const RELAY_CUTS: usize = 3;

/// Every Message-ID in the readers' INBOXes, with how many copies.
async fn delivered(readers: &mut [Reader]) -> HashMap<String, usize> {
    let mut copies = HashMap::new();
    for r in readers.iter_mut() {
        for m in r.messages("INBOX").await {
            let id = m
                .header("Message-ID")
                .expect("every mail has a Message-ID")
                .trim_matches(['<', '>'])
                .to_owned();
            *copies.entry(id).or_default() += 1;
        }
    }
    copies
}

/// Waits (bounded) until every mail the database marks sent is in the
/// mailboxes (the relay accepted it), and checks that every mail that
/// arrived is one of the database's: the relay took it, so its decision
/// must be kept. Returns the copies of each Message-ID seen.
async fn check_relay(readers: &mut [Reader], state: &State, what: &str) -> HashMap<String, usize> {
    let sent = sent_ids(state);
    let deadline = Instant::now() + Duration::from_secs(60);
    let copies = loop {
        let copies = delivered(readers).await;
        let missing: Vec<&String> = sent.iter().filter(|id| !copies.contains_key(*id)).collect();
        if missing.is_empty() {
            break copies;
        }
        assert!(
            Instant::now() < deadline,
            "after {what}: {} mails marked sent never reached the mailboxes: {missing:?}",
            missing.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let queued: HashSet<&str> = state.outbox.iter().map(|r| r.1.as_str()).collect();
    let strangers: Vec<&String> = copies
        .keys()
        .filter(|id| !queued.contains(id.as_str()))
        .collect();
    assert!(
        strangers.is_empty(),
        "after {what}: the relay took mails whose decisions are not in the database: {strangers:?}"
    );
    copies
}

fn sent_ids(state: &State) -> HashSet<String> {
    state
        .outbox
        .iter()
        .filter(|r| r.2.is_some())
        .map(|r| r.1.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn power_cuts_with_postfix_as_relay_keep_every_sent_mark_and_send_each_decision_under_one_message_id()
 {
    let rig = rig_or_skip!();
    let (white, black) = (player(60), player(61));
    let mut readers = fresh_inboxes(&rig, &[&white, &black]).await;
    let seed: u64 = std::env::var("WILDT_POWERCUT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0053);
    println!("powercut smtp: seed {seed} (WILDT_POWERCUT_SEED to repeat)");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    // [outbox] is the embedded configuration's last table: [receipts]
    // follows it.
    let secrets = tempfile::tempdir().unwrap();
    let outbox = format!(
        "kind = \"smtp\"\nhost = {}\nport = {}\ntls = \"none\"\nca_file = {}\n{}",
        toml_str(&rig.host),
        rig.smtp_port,
        toml_str(&rig.ca.display().to_string()),
        rig.receipts_toml(RECEIPTS, RECEIPTS, secrets.path(), RECEIPT_WAIT_SECS),
    );
    let started = Instant::now();
    let mut club = Club::new(GAMES, PLIES, seed, (&white, &black), Some(&outbox));
    let mut marked = HashSet::new();
    for i in 0..CUTS {
        club.deliver_next(WAVE);
        let delay = Duration::from_millis(rng.random_range(0..500));
        // The first cuts come right after the relay took a batch, before it
        // is marked: those mails are in doubt however the random cuts fall.
        let cut = if i < RELAY_CUTS {
            Cut::AfterRelayTook
        } else {
            Cut::Random
        };
        assert!(
            run_and_cut(&mut club, cut, delay) || cut == Cut::Random,
            "cut {} did not come at its crash point:\n{}",
            i + 1,
            club.last_log()
        );
        club.fs.remount();
        let what = format!("cut {} ({delay:?})", i + 1);
        let state = assert_whole(&club, false, &what).await;
        check_relay(&mut readers, &state, &what).await;
        // A mark of sent, once on the disk, stays: wildt sends only what is
        // not marked, so a mail marked sent is never handed over again.
        let now_sent = sent_ids(&state);
        let lost: Vec<&String> = marked.difference(&now_sent).collect();
        assert!(
            lost.is_empty(),
            "after {what}: marks of sent lost: {lost:?}"
        );
        marked = now_sent;
    }
    let cuts_took = started.elapsed();

    while club.deliver_next(WAVE) > 0 {}
    let line = club.serve_once();
    // A mail in doubt whose copy never came (cut before the relay took it)
    // waits RECEIPT_WAIT_SECS for one, then goes: served until none is left.
    let deadline = Instant::now() + Duration::from_secs(6 * RECEIPT_WAIT_SECS);
    let mut waited = 0;
    while club.read().await.outbox.iter().any(|r| r.2.is_none()) {
        assert!(
            Instant::now() < deadline,
            "mail still unsent {:?} after the last run",
            deadline.elapsed()
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
        waited += 1;
        club.serve_once();
    }
    let state = assert_whole(&club, false, "the last run").await;
    club.assert_tally_clean("powercut smtp");
    assert_all_taken(&club, &state, &line);
    // Every decision's mails reached the relay, each once. A mail the relay
    // accepted in the instant before a cut, before wildt could mark it
    // sent, was in doubt after it: its copy in the receipts mailbox told
    // the next run that the relay had it, and it was marked sent, not
    // handed over again.
    let copies = check_relay(&mut readers, &state, "the last run").await;
    assert_eq!(copies.len(), 2 * club.delivered.len());
    let again: Vec<(&String, &usize)> = copies.iter().filter(|(_, n)| **n > 1).collect();
    let crate::support::logs::Doubts {
        by_receipt, resent, ..
    } = crate::support::logs::doubts(club.fs.outside());
    println!(
        "powercut smtp: {} moves, {CUTS} cuts ({RELAY_CUTS} right after the relay took a batch) \
         in {cuts_took:?}: {} mails, {} more than one copy; mail in doubt: {by_receipt} marked \
         sent by their receipt, {resent} sent after no receipt came ({waited} more runs, a second \
         apart, at the end)",
        club.delivered.len(),
        copies.len(),
        again.len(),
    );
    assert!(
        by_receipt > 0,
        "no mail the relay took before a cut was settled by its receipt"
    );
    assert!(
        again.is_empty(),
        "mails delivered more than once after the cuts: {again:?}"
    );
}
