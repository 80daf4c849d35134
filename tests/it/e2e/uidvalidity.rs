//! Scenario 7: the referee's folder is deleted and recreated with the same
//! messages, so every UID is new (new UIDVALIDITY). wildt must recognise each
//! message by its bytes (SHA-256): nothing re-applied, no new replies.

use std::time::Duration;

use super::{
    Game, Options, Referee, count_delivered, fresh_inboxes, player, ply_mail, random_line,
    round_robin, wait_delivered,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recreated_folder_with_new_uidvalidity_reapplies_nothing() {
    let rig = rig_or_skip!();
    let (referee, white, black) = (player(28), player(29), player(30));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black]).await;
    let mut inbox = readers.remove(0);
    let folder = inbox.new_folder("e2e-uidvalidity").await;
    let r = Referee::new(
        &rig,
        &referee,
        Options {
            mailbox: folder.clone(),
            ..Options::default()
        },
    );
    let games: Vec<Game> = vec![
        r.new_game(&white, &black, false),
        r.new_game(&black, &white, false),
    ];
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    // Four plies each now; game 0's fifth is the sentinel at the end.
    let lines: Vec<Vec<String>> = (0..2).map(|i| random_line(7000 + i, 5)).collect();
    let mut sent = Vec::new();
    for (g, ply) in round_robin(2, 4) {
        let raw = ply_mail(&games[g], &lines[g], ply);
        inbox.append(&folder, &raw).await;
        sent.push(raw);
    }
    let first = r.serve_once();
    println!("uidvalidity: first run: {first}");
    assert!(
        first.starts_with("8 messages, 0 duplicates, 16 mails sent"),
        "{first}"
    );
    let (before, _) = wait_delivered(&mut readers, &ids, 16, Duration::from_secs(30)).await;
    let records: Vec<Vec<String>> = ids.iter().map(|id| r.moves(*id)).collect();
    assert_eq!(
        records,
        vec![lines[0][..4].to_vec(), lines[1][..4].to_vec()]
    );

    let old = inbox.uidvalidity(&folder).await;
    inbox.delete(&folder).await;
    inbox.create(&folder).await;
    for raw in &sent {
        inbox.append(&folder, raw).await;
    }
    let new = inbox.uidvalidity(&folder).await;
    println!("uidvalidity: {folder} recreated: UIDVALIDITY {old} -> {new}");
    assert_ne!(old, new, "the recreated folder kept its UIDVALIDITY");

    let second = r.serve_once();
    println!("uidvalidity: second run: {second}");
    assert!(
        second.starts_with("0 messages, 8 duplicates, 0 mails sent"),
        "{second}"
    );
    let after: Vec<Vec<String>> = ids.iter().map(|id| r.moves(*id)).collect();
    assert_eq!(after, records, "a move was applied again");
    // Every recognised message is flagged done in the new folder too.
    let flags: Vec<bool> = inbox
        .messages(&folder)
        .await
        .iter()
        .map(|m| m.seen_flag)
        .collect();
    assert_eq!(flags, vec![true; 8]);

    // Absence, proven: a later move's replies arrive, and nothing else did.
    inbox
        .append(&folder, &ply_mail(&games[0], &lines[0], 4))
        .await;
    let third = r.serve_once();
    assert!(
        third.starts_with("1 messages, 0 duplicates, 2 mails sent"),
        "{third}"
    );
    let (d, _) = wait_delivered(&mut readers, &ids, 18, Duration::from_secs(30)).await;
    let (d2, _) = count_delivered(&mut readers, &ids).await;
    println!(
        "uidvalidity: replies before {} after the sentinel {} (duplicates {})",
        before.total, d2.total, d2.duplicates
    );
    assert_eq!((d.total, d2.total, d2.duplicates), (18, 18, 0));
    inbox.delete(&folder).await;
}
