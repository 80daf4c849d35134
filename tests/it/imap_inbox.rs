//! `wildt::mail::imap::ImapInbox` against the rig's Dovecot: fetching without
//! marking, marking and moving, IDLE, the three TLS modes, login errors.
//! [IO: needs scripts/mail-rig; each test works in its own new folder]

use std::time::Duration;

use wildt::mail::imap::{FETCH_BATCH, ImapInbox};
use wildt::mail::{InboxError, InboxId};

use crate::support::fixtures::{REFEREE, message, unique};
use crate::support::rig::{CuttableProxy, bounded, free_port};

fn uid_of(id: &InboxId) -> u32 {
    match id {
        InboxId::Imap { uid, .. } => *uid,
        other => panic!("not an IMAP id: {other:?}"),
    }
}

/// Of a message over `max_message_bytes` only the first `max + 1` bytes are
/// fetched (so a huge mail costs no more memory than that), with its real
/// size; a message within the limit comes whole.
#[tokio::test]
async fn a_message_over_the_limit_is_fetched_only_up_to_it_with_its_real_size() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("huge").await;
    let line = "This line only makes the mail larger than the limit.\r\n";
    let huge = message(
        "anna@example.org",
        REFEREE,
        &unique("huge"),
        &format!("1. 5254\r\n\r\n{}", line.repeat(50_000)),
    );
    let small = message("anna@example.org", REFEREE, &unique("small"), "1. 5254");
    reader.append(&folder, &huge).await;
    reader.append(&folder, &small).await;

    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = bounded("connect", ImapInbox::connect(&setup.config))
        .await
        .expect("connect");
    const MAX: usize = 64 * 1024;
    inbox.set_max_message_bytes(MAX);
    let got = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(got.len(), 2);
    assert!(huge.len() > 2 * 1024 * 1024);
    assert_eq!(got[0].size, huge.len());
    assert_eq!(got[0].raw.len(), MAX + 1);
    assert_eq!(got[0].raw, huge[..MAX + 1]);
    assert_eq!(got[1].size, small.len());
    assert_eq!(got[1].raw, small);
}

#[tokio::test]
async fn fetch_waiting_returns_appended_messages_in_uid_order_without_setting_seen() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("fetch").await;
    let subjects: Vec<String> = (0..3).map(|i| unique(&format!("move{i}"))).collect();
    for s in &subjects {
        reader
            .append(&folder, &message("anna@example.org", REFEREE, s, "1. 5254"))
            .await;
    }
    let uidvalidity = reader.uidvalidity(&folder).await;

    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = bounded("connect", ImapInbox::connect(&setup.config))
        .await
        .expect("connect");
    let got = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");

    assert_eq!(got.len(), 3);
    for (inbound, subject) in got.iter().zip(&subjects) {
        let text = String::from_utf8_lossy(&inbound.raw);
        assert!(text.contains(subject.as_str()), "{subject} not in {text}");
        let InboxId::Imap {
            mailbox,
            uidvalidity: v,
            ..
        } = &inbound.id
        else {
            panic!("not an IMAP id: {:?}", inbound.id)
        };
        assert_eq!(mailbox, &folder);
        assert_eq!(*v, uidvalidity);
    }
    let uids: Vec<u32> = got.iter().map(|m| uid_of(&m.id)).collect();
    assert!(
        uids.windows(2).all(|w| w[0] < w[1]),
        "not in UID order: {uids:?}"
    );

    let stored = reader.messages(&folder).await;
    assert_eq!(stored.len(), 3);
    assert!(stored.iter().all(|m| !m.seen_flag), "fetch set \\Seen");
    let again = bounded("second fetch", inbox.fetch_waiting())
        .await
        .expect("second fetch");
    assert_eq!(
        again.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
        got.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
        "unmarked messages must be fetched again"
    );
}

#[tokio::test]
async fn mark_done_sets_seen_so_the_next_fetch_skips_the_message() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("mark").await;
    for s in ["first", "second"] {
        reader
            .append(&folder, &message("ben@example.net", REFEREE, s, "draw?"))
            .await;
    }
    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    let got = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(got.len(), 2);

    bounded("mark", inbox.mark_done(&got[0].id))
        .await
        .expect("mark_done");

    let stored = reader.messages(&folder).await;
    let first = stored
        .iter()
        .find(|m| m.uid == uid_of(&got[0].id))
        .expect("first still in the folder");
    let second = stored
        .iter()
        .find(|m| m.uid == uid_of(&got[1].id))
        .expect("second still in the folder");
    assert!(first.seen_flag, "mark_done did not set \\Seen");
    assert!(!second.seen_flag, "mark_done flagged another message");
    let next = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(
        next.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
        vec![got[1].id.clone()]
    );
}

#[tokio::test]
async fn mark_done_moves_the_message_to_the_processed_mailbox_it_created() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("move").await;
    let processed = format!("{folder}-done");
    reader
        .append(
            &folder,
            &message("anna@example.org", REFEREE, "resign", "resign"),
        )
        .await;
    let setup = rig
        .imap(REFEREE)
        .mailbox(&folder)
        .processed(&processed)
        .build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    let got = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(got.len(), 1);

    bounded("mark", inbox.mark_done(&got[0].id))
        .await
        .expect("mark_done");

    assert!(
        reader.messages(&folder).await.is_empty(),
        "still in {folder}"
    );
    let moved = reader.messages(&processed).await;
    assert_eq!(moved.len(), 1);
    assert!(moved[0].seen_flag, "moved without \\Seen");
    assert_eq!(moved[0].raw, got[0].raw);
    let next = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert!(next.is_empty(), "fetched again after the move: {next:?}");
    // Marking again (a retry after a crash) is harmless.
    bounded("mark again", inbox.mark_done(&got[0].id))
        .await
        .expect("second mark_done");
}

/// A group's messages are marked handled with one STORE and one MOVE over
/// their UID set: the three of the group are moved, seen, and the fourth,
/// not in the group, stays waiting.
#[tokio::test]
async fn mark_done_all_moves_a_group_at_once_and_only_it() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("group").await;
    let processed = format!("{folder}-done");
    for i in 0..4 {
        reader
            .append(
                &folder,
                &message("anna@example.org", REFEREE, &format!("m{i}"), "1. 5254"),
            )
            .await;
    }
    let setup = rig
        .imap(REFEREE)
        .mailbox(&folder)
        .processed(&processed)
        .build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    let got = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(got.len(), 4);
    let group: Vec<_> = got[..3].iter().map(|m| m.id.clone()).collect();

    bounded("mark", inbox.mark_done_all(&group))
        .await
        .expect("mark_done_all");

    let moved = reader.messages(&processed).await;
    assert_eq!(moved.len(), 3);
    assert!(moved.iter().all(|m| m.seen_flag), "moved without \\Seen");
    let left = reader.messages(&folder).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].raw, got[3].raw);
    let next = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(next.len(), 1, "{next:?}");
}

#[tokio::test]
async fn mark_done_with_a_stale_uidvalidity_is_refused() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("stale").await;
    reader
        .append(&folder, &message("anna@example.org", REFEREE, "x", "x"))
        .await;
    let current = reader.uidvalidity(&folder).await;
    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    let stale = InboxId::Imap {
        mailbox: folder.clone(),
        uidvalidity: current.wrapping_add(1),
        uid: 1,
    };

    let err = bounded("mark", inbox.mark_done(&stale))
        .await
        .expect_err("a stale UIDVALIDITY must not mark anything");

    assert!(
        matches!(err, InboxError::UidValidityChanged { found, .. } if found == current),
        "{err:?}"
    );
    assert!(!reader.messages(&folder).await[0].seen_flag);
}

#[tokio::test]
async fn wait_for_mail_in_idle_over_imaps_wakes_on_a_delivery() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("idle").await;
    let setup = rig
        .imap(REFEREE)
        .tls("implicit")
        .mailbox(&folder)
        .idle(true)
        .build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    assert!(
        bounded("fetch", inbox.fetch_waiting())
            .await
            .expect("fetch")
            .is_empty()
    );
    let subject = unique("idle-wake");
    let raw = message("anna@example.org", REFEREE, &subject, "2. 6364");
    let deliver = tokio::spawn(async move {
        // Give the inbox time to enter IDLE; arriving earlier must also wake it.
        tokio::time::sleep(Duration::from_millis(500)).await;
        reader.append(&folder, &raw).await;
    });

    // `max` far beyond HANG: only the delivery can end the wait in time.
    bounded(
        "wait_for_mail after a delivery",
        inbox.wait_for_mail(Duration::from_secs(600)),
    )
    .await
    .expect("wait_for_mail");
    deliver.await.expect("delivery task");

    let got = bounded("fetch after IDLE", inbox.fetch_waiting())
        .await
        .expect("the session is usable after IDLE");
    assert_eq!(got.len(), 1);
    assert!(String::from_utf8_lossy(&got[0].raw).contains(&subject));
}

#[tokio::test]
async fn idle_ended_by_max_leaves_the_session_usable() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("quiet").await;
    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    assert!(inbox.fetch_waiting().await.expect("fetch").is_empty());

    bounded(
        "wait_for_mail with nothing arriving",
        inbox.wait_for_mail(Duration::from_millis(300)),
    )
    .await
    .expect("wait_for_mail");

    reader
        .append(&folder, &message("ben@example.net", REFEREE, "later", "x"))
        .await;
    let got = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(got.len(), 1);
}

#[tokio::test]
async fn dropping_wait_for_mail_mid_idle_leaves_the_inbox_usable() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("drop").await;
    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    assert!(inbox.fetch_waiting().await.expect("fetch").is_empty());

    // Shutdown: the wait is abandoned while in IDLE.
    let abandoned = tokio::time::timeout(
        Duration::from_millis(500),
        inbox.wait_for_mail(Duration::from_secs(600)),
    )
    .await;
    assert!(
        abandoned.is_err(),
        "the wait ended by itself: {abandoned:?}"
    );

    reader
        .append(&folder, &message("anna@example.org", REFEREE, "after", "x"))
        .await;
    let got = bounded("fetch after a dropped wait", inbox.fetch_waiting())
        .await
        .expect("the inbox reconnects");
    assert_eq!(got.len(), 1);
}

#[tokio::test]
async fn polling_without_idle_fetches_what_arrived() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("poll").await;
    let setup = rig.imap(REFEREE).mailbox(&folder).idle(false).build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    assert!(inbox.fetch_waiting().await.expect("fetch").is_empty());
    reader
        .append(
            &folder,
            &message("anna@example.org", REFEREE, "polled", "x"),
        )
        .await;

    bounded("poll wait", inbox.wait_for_mail(Duration::from_secs(600)))
        .await
        .expect("wait_for_mail sleeps poll_interval (1 s here)");

    assert_eq!(inbox.fetch_waiting().await.expect("fetch").len(), 1);
}

#[tokio::test]
async fn starttls_on_the_plain_port_with_the_rig_ca_works() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("starttls").await;
    reader
        .append(&folder, &message("anna@example.org", REFEREE, "tls", "x"))
        .await;
    let setup = rig.imap(REFEREE).tls("starttls").mailbox(&folder).build();

    let mut inbox = bounded("connect", ImapInbox::connect(&setup.config))
        .await
        .expect("STARTTLS connect");

    assert_eq!(inbox.fetch_waiting().await.expect("fetch").len(), 1);
}

#[tokio::test]
async fn implicit_tls_without_the_rig_ca_fails_the_handshake() {
    let rig = rig_or_skip!();
    let setup = rig.imap(REFEREE).tls("implicit").without_ca_file().build();

    let err = bounded("connect", ImapInbox::connect(&setup.config))
        .await
        .expect_err("a self-signed cert must not pass the public roots");

    assert!(matches!(err, InboxError::TlsHandshake { .. }), "{err:?}");
}

#[tokio::test]
async fn wrong_password_is_a_login_error() {
    let rig = rig_or_skip!();
    let setup = rig.imap(REFEREE).password("not-the-password").build();

    let err = bounded("connect", ImapInbox::connect(&setup.config))
        .await
        .expect_err("login must fail");

    match &err {
        InboxError::Login { username, .. } => assert_eq!(username, REFEREE),
        other => panic!("expected a login error, got {other:?}"),
    }
    assert!(
        !err.to_string().contains("not-the-password"),
        "the password leaks into the error: {err}"
    );
}

#[tokio::test]
async fn nothing_listening_is_a_connect_error_naming_host_and_port() {
    let rig = rig_or_skip!();
    let mut setup = rig.imap(REFEREE).build();
    setup.config.port = free_port();

    let err = bounded("connect", ImapInbox::connect(&setup.config))
        .await
        .expect_err("nothing listens there");

    assert!(
        matches!(&err, InboxError::Connect { port, .. } if *port == setup.config.port),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_backlog_is_fetched_in_batches_and_waiting_does_not_block_on_it() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("backlog").await;
    let total = FETCH_BATCH + 3;
    for i in 0..total {
        reader
            .append(
                &folder,
                &message("anna@example.org", REFEREE, &format!("m{i}"), "x"),
            )
            .await;
    }
    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");

    let first = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(first.len(), FETCH_BATCH);
    for m in &first {
        bounded("mark", inbox.mark_done(&m.id))
            .await
            .expect("mark_done");
    }
    // `max` far beyond HANG: only the pending backlog can end the wait in time.
    bounded(
        "wait with a backlog",
        inbox.wait_for_mail(Duration::from_secs(600)),
    )
    .await
    .expect("wait_for_mail");
    let rest = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");

    assert_eq!(rest.len(), 3);
    let last_of_first = uid_of(&first[FETCH_BATCH - 1].id);
    assert!(
        rest.iter().all(|m| uid_of(&m.id) > last_of_first),
        "the oldest come first"
    );
}

#[tokio::test]
async fn a_lost_connection_fails_one_call_and_the_next_call_reconnects() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("lost").await;
    reader
        .append(&folder, &message("anna@example.org", REFEREE, "kept", "x"))
        .await;
    let proxy = CuttableProxy::start(&rig.host, rig.imap_port).await;
    let mut setup = rig.imap(REFEREE).mailbox(&folder).build();
    setup.config.port = proxy.port;
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    let before = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(before.len(), 1);

    proxy.cut();
    let err = bounded("fetch on a cut connection", inbox.fetch_waiting())
        .await
        .expect_err("the session is gone");
    assert!(matches!(err, InboxError::ImapStep { .. }), "{err:?}");

    let after = bounded("fetch after reconnecting", inbox.fetch_waiting())
        .await
        .expect("the next call opens a new session");
    assert_eq!(
        after.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
        before.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
        "the same message, under the same UIDVALIDITY and UID"
    );
    bounded("mark after reconnecting", inbox.mark_done(&after[0].id))
        .await
        .expect("mark_done");
    assert!(reader.messages(&folder).await[0].seen_flag);
}

/// On IMAP, a message put in the quarantine leaves the
/// mailbox for the folder (created if missing), unread, and the next fetch
/// goes on without it.
#[tokio::test]
async fn quarantine_moves_the_message_to_its_folder_unread_and_the_inbox_goes_on() {
    let rig = rig_or_skip!();
    let mut reader = rig.reader(REFEREE).await;
    let folder = reader.new_folder("quarantine").await;
    let failed = format!("{folder}-failed");
    let bad = message("anna@example.org", REFEREE, &unique("bad"), "1. 5254");
    let good = message("anna@example.org", REFEREE, &unique("good"), "1. 5254");
    reader.append(&folder, &bad).await;
    reader.append(&folder, &good).await;
    let setup = rig.imap(REFEREE).mailbox(&folder).build();
    let mut inbox = ImapInbox::connect(&setup.config).await.expect("connect");
    let waiting = bounded("list", inbox.list_waiting()).await.expect("list");
    assert_eq!(waiting.len(), 2);
    assert_eq!(waiting[0].size, bad.len());
    bounded("quarantine", inbox.quarantine(&waiting[0].id, &failed))
        .await
        .expect("quarantine");
    let kept = reader.messages(&failed).await;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].raw, bad);
    assert!(!kept[0].seen_flag, "the quarantine should show it unread");
    let next = bounded("fetch", inbox.fetch_waiting())
        .await
        .expect("fetch");
    assert_eq!(next.len(), 1);
    assert_eq!(next[0].raw, good);
}
