//! On the mail rig: a refused SMTP login (a wrong password file) does not
//! fail every pending mail for good. The daemon
//! says which file to check, tries again with backoff, reads the file again
//! before each new try, and once the file is right every mail arrives, none
//! twice. A recipient the relay refuses for good fails that one row, is told
//! to the organiser and shown by `game show`.
//! [IO: needs scripts/mail-rig; processes, temp files]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{fresh_inboxes, mails, player, wait_mails};
use crate::support::cli::{json_of, wildt};
use crate::support::rig::{default_password, toml_str};

const REFEREE: &str = "chess@club.example";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_smtp_login_is_retried_and_every_mail_arrives_once_after_the_password_file_is_fixed()
 {
    let rig = rig_or_skip!();
    let (white, black, organiser) = (player(32), player(33), player(34));
    let mut readers = fresh_inboxes(&rig, &[&white, &black, &organiser]).await;

    let dir = tempfile::tempdir().unwrap();
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    let password = dir.path().join("smtp-password");
    std::fs::write(&password, "not-the-password\n").unwrap();
    // The players' provider: it wants a login (SASL) from the referee.
    let cfg = dir.path().join("wildt.toml");
    std::fs::write(
        &cfg,
        format!(
            "[referee]\naddress = {referee}\norganiser = {organiser}\n\n\
             {database}\n\
             [inbox]\nkind = \"maildir\"\npath = {maildir}\n\n\
             [outbox]\nkind = \"smtp\"\nhost = {host}\nport = {port}\ntls = \"none\"\n\
             username = {referee}\npassword_file = {password}\n\
             retry_initial_secs = 1\nretry_max_secs = 2\n",
            referee = toml_str(REFEREE),
            organiser = toml_str(&organiser),
            database = crate::support::cli::database_table(dir.path()),
            maildir = toml_str(&dir.path().join("mail").display().to_string()),
            host = toml_str(&rig.host),
            port = rig.submit_port,
            password = toml_str(&password.display().to_string()),
        ),
    )
    .unwrap();
    // Queued before the daemon starts: two processes opening a new database
    // at once would both create its tables.
    let game = json_of(&wildt(
        &cfg,
        &[
            "game", "new", "--white", &white, "--black", &black, "--json",
        ],
    ))["id"]
        .as_i64()
        .unwrap();
    let log = dir.path().join("serve.log");
    let mut serve = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["serve", "--config"])
        .arg(&cfg)
        .env("RUST_LOG", "info")
        .env("JOURNAL_STREAM", "0:0")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();
    let wait_log = |needle: &str| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !read_log().contains(needle) {
            assert!(
                Instant::now() < deadline,
                "{needle:?} not logged:\n{}",
                read_log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };

    wait_log(&format!(
        "SMTP login refused: check the password file {}",
        password.display()
    ));
    // Refused, and kept: nothing failed for good.
    let failed = json_of(&wildt(&cfg, &["outbox", "list", "--failed", "--json"]));
    assert_eq!(failed.as_array().unwrap().len(), 0, "{failed}");

    // The operator fixes the file; the daemon keeps running.
    std::fs::write(&password, format!("{}\n", default_password(REFEREE))).unwrap();
    let within = Duration::from_secs(60);
    let is_welcome = |m: &super::Mail| m.game == Some(game);
    wait_mails(&mut readers[0], "INBOX", "welcome", 1, within, is_welcome).await;
    wait_mails(&mut readers[1], "INBOX", "welcome", 1, within, is_welcome).await;

    // A recipient the relay refuses for good: that row alone fails, and the
    // organiser is told.
    let nobody = "nobody-h15a@club.example";
    let lost = json_of(&wildt(
        &cfg,
        &[
            "game", "new", "--white", &white, "--black", nobody, "--json",
        ],
    ))["id"]
        .as_i64()
        .unwrap();
    let notices = wait_mails(
        &mut readers[2],
        "INBOX",
        "organiser notice",
        1,
        within,
        |m| m.game == Some(lost),
    )
    .await;
    assert!(
        notices[0].text.contains(nobody) && notices[0].text.contains("550"),
        "{:?}",
        notices[0].text
    );
    wait_mails(&mut readers[0], "INBOX", "second welcome", 1, within, |m| {
        m.game == Some(lost)
    })
    .await;

    let killed = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(serve.wait().unwrap().success(), "{}", read_log());

    // None twice: each player got exactly the mails queued for them.
    let white_mails = mails(&mut readers[0], "INBOX").await;
    assert_eq!(white_mails.len(), 2, "{white_mails:?}");
    assert_eq!(mails(&mut readers[1], "INBOX").await.len(), 1);
    assert_eq!(mails(&mut readers[2], "INBOX").await.len(), 1);
    let shown = json_of(&wildt(&cfg, &["game", "show", &lost.to_string(), "--json"]));
    assert_eq!(shown["failed_mail"][0]["recipient"], nobody, "{shown}");
    assert_eq!(shown["failed_mail"].as_array().unwrap().len(), 1, "{shown}");
    let waiting = json_of(&wildt(&cfg, &["outbox", "list", "--json"]));
    assert_eq!(
        waiting.as_array().unwrap().len(),
        1,
        "only the failed one: {waiting}"
    );
}
