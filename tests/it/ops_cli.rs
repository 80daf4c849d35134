//! The operator's commands against the real binary: `config check` (offline,
//! and `--connect` against the mail rig: right password, wrong passwords, a
//! mailbox without sub-addressing), `init`, `status` and `backup` around a
//! running `serve`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::cli::{temp_config, wildt};
use crate::support::club::mail;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn check(config: &Path, extra: &[&str]) -> Output {
    bin()
        .args(["config", "check", "--config"])
        .arg(config)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn config_check_names_an_unknown_key_with_file_and_line_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let mut toml = std::fs::read_to_string(&cfg).unwrap();
    toml.push_str("\n[limits]\nreplies_per_hour = 3\n");
    std::fs::write(&cfg, &toml).unwrap();
    let line = toml.lines().count();
    let out = check(&cfg, &[]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "{}:{line}: unknown field `replies_per_hour`",
            cfg.display()
        )),
        "{said}"
    );
    assert!(said.contains("fix: "), "{said}");
}

#[test]
fn config_check_passes_a_valid_local_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let out = check(&cfg, &["--json"]);
    assert!(out.status.success(), "{}", text(&out));
    let findings: Value = serde_json::from_slice(&out.stdout).unwrap();
    let levels: Vec<&str> = findings
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["level"].as_str().unwrap())
        .collect();
    assert!(!levels.contains(&"error"), "{findings}");
    assert_eq!(levels[0], "ok");
}

#[test]
fn init_writes_a_config_that_passes_check_and_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("wildt.toml");
    let init = |extra: &[&str]| {
        bin()
            .args(["init", "--domain", "chess.club.example", "--out"])
            .arg(&out_file)
            .args(extra)
            .output()
            .unwrap()
    };
    let first = init(&[]);
    assert!(first.status.success(), "{}", text(&first));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.contains("address = \"chess@chess.club.example\""));
    assert!(written.contains("host = \"imap.chess.club.example\""));
    // The passwords are what is left to do: with them, the check passes.
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "secret\n").unwrap();
    let with_pw = written.replace(
        "/run/credentials/wildt.service/imap-password",
        &pw.display().to_string(),
    );
    let with_pw = with_pw.replace(
        "/run/credentials/wildt.service/smtp-password",
        &pw.display().to_string(),
    );
    let checked_file = dir.path().join("checked.toml");
    std::fs::write(&checked_file, with_pw).unwrap();
    let checked = check(&checked_file, &[]);
    assert!(checked.status.success(), "{}", text(&checked));

    std::fs::write(&out_file, "# the operator's own\n").unwrap();
    let again = init(&[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again).contains("--force"), "{}", text(&again));
    assert_eq!(
        std::fs::read_to_string(&out_file).unwrap(),
        "# the operator's own\n"
    );
    let forced = init(&["--force"]);
    assert!(forced.status.success(), "{}", text(&forced));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), written);
}

/// A configuration aimed at the rig: IMAP as `user`, SMTP through the
/// provider's submission port (which relays to the MX that stamps
/// Authentication-Results), each with its own password file.
fn rig_config(
    dir: &Path,
    rig: &crate::support::rig::Rig,
    user: &str,
    imap_pw: &str,
    smtp_pw: &str,
) -> PathBuf {
    let imap_file = dir.join("imap-password");
    let smtp_file = dir.join("smtp-password");
    std::fs::write(&imap_file, format!("{imap_pw}\n")).unwrap();
    std::fs::write(&smtp_file, format!("{smtp_pw}\n")).unwrap();
    let text = format!(
        "[referee]\naddress = \"{user}\"\n\n[database]\nurl = \"sqlite://{db}\"\n\n\
         [inbox]\nkind = \"imap\"\nhost = \"{host}\"\nport = {imap}\ntls = \"none\"\n\
         username = \"{user}\"\npassword_file = \"{imap_file}\"\n\n\
         [outbox]\nkind = \"smtp\"\nhost = \"{host}\"\nport = {submit}\ntls = \"starttls\"\n\
         ca_file = \"{ca}\"\nusername = \"{user}\"\npassword_file = \"{smtp_file}\"\n\n\
         [security]\ntrusted_authserv_id = \"{authserv}\"\n",
        db = dir.join("wildt.db").display(),
        host = rig.host,
        imap = rig.imap_port,
        submit = rig.submit_port,
        ca = rig.ca.display(),
        imap_file = imap_file.display(),
        smtp_file = smtp_file.display(),
        authserv = rig.mx_authserv_id,
    );
    let path = dir.join("wildt.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn connect(cfg: &Path) -> (Option<i32>, String) {
    let out = check(cfg, &["--connect", "--wait", "30"]);
    (out.status.code(), text(&out))
}

#[test]
fn config_check_connect_logs_in_and_sees_the_probe_arrive_with_the_trusted_header() {
    let rig = rig_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let cfg = rig_config(dir.path(), &rig, "chess@club.example", "chesspw", "chesspw");
    let (code, said) = connect(&cfg);
    assert_eq!(code, Some(0), "{said}");
    for expected in [
        "ok   IMAP ",
        "logged in as chess@club.example",
        "IDLE offered",
        "ok   SMTP ",
        "ok   sub-addressing: the probe to chess+probe-",
        &format!("ok   security.trusted_authserv_id: {}", rig.mx_authserv_id),
    ] {
        assert!(said.contains(expected), "no {expected:?} in:\n{said}");
    }
    assert!(!said.contains("FAIL"), "{said}");
}

#[test]
fn config_check_connect_names_the_password_file_when_imap_refuses_the_login() {
    let rig = rig_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let cfg = rig_config(dir.path(), &rig, "chess@club.example", "wrong", "chesspw");
    let (code, said) = connect(&cfg);
    assert_eq!(code, Some(1), "{said}");
    let imap_file = dir.path().join("imap-password");
    assert!(said.contains("FAIL IMAP "), "{said}");
    assert!(
        said.contains("login as chess@club.example refused"),
        "{said}"
    );
    assert!(
        said.contains(&format!("the password in {}", imap_file.display())),
        "{said}"
    );
    assert!(said.contains("sub-addressing not checked"), "{said}");
}

#[test]
fn config_check_connect_names_the_password_file_when_smtp_refuses_the_login() {
    let rig = rig_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let cfg = rig_config(dir.path(), &rig, "chess@club.example", "chesspw", "wrong");
    let (code, said) = connect(&cfg);
    assert_eq!(code, Some(1), "{said}");
    let smtp_file = dir.path().join("smtp-password");
    assert!(said.contains("ok   IMAP "), "{said}");
    assert!(said.contains("(535)"), "{said}");
    assert!(
        said.contains(&format!("the password in {}", smtp_file.display())),
        "{said}"
    );
}

#[test]
fn config_check_connect_reports_a_mailbox_without_sub_addressing() {
    let rig = rig_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    // The rig's nosub@ refuses nosub+anything@, as a provider without
    // sub-addressing does.
    let cfg = rig_config(dir.path(), &rig, "nosub@club.example", "nosubpw", "nosubpw");
    let (code, said) = connect(&cfg);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("ok   IMAP "), "{said}");
    assert!(said.contains("ok   SMTP "), "{said}");
    assert!(
        said.contains("FAIL sub-addressing: sending the probe to nosub+probe-"),
        "{said}"
    );
    assert!(said.contains("turn on sub-addressing"), "{said}");
}

/// `wildt serve` in the background, stopped (SIGTERM) when dropped.
struct Daemon(Child);

impl Daemon {
    fn start(cfg: &Path) -> Daemon {
        Daemon(
            bin()
                .args(["serve", "--config"])
                .arg(cfg)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        )
    }

    fn stop(&mut self) {
        let killed = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = self.0.wait().unwrap();
        assert!(status.success(), "serve ended with {status}");
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            self.0.kill().ok();
            self.0.wait().ok();
        }
    }
}

fn status(cfg: &Path) -> (Option<i32>, Value) {
    let out = wildt(cfg, &["status", "--json"]);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    (out.status.code(), v)
}

fn kinds(v: &Value) -> Vec<String> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn status_tells_daemon_outbox_and_failures_and_backup_copies_a_running_database() {
    if crate::support::cli::on_postgres() {
        // SQLite's lock, backup and file: PostgreSQL's status, refused
        // backup and several daemons are tested in `multi`.
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    let game = wildt(
        &cfg,
        &[
            "game",
            "new",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--json",
        ],
    );
    assert!(game.status.success(), "{}", text(&game));
    let game: Value = serde_json::from_slice(&game.stdout).unwrap();
    let white = game["white"]["address"].as_str().unwrap();

    // Welcome mails wait and nobody sends them.
    let (code, v) = status(&cfg);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["daemon"]["running"], false);
    assert_eq!(v["outbox"]["waiting"], 2);
    assert!(v["outbox"]["next_due_at"].is_i64(), "{v}");
    assert_eq!(kinds(&v), ["daemon_not_running"]);
    assert_eq!(v["last_message_at"], Value::Null);

    std::fs::write(
        dir.path().join("mail/new/move1"),
        mail("anna@example.org", white, "m1@example.org", "5254"),
    )
    .unwrap();
    let mut daemon = Daemon::start(&cfg);
    let started = Instant::now();
    let v = loop {
        let (code, v) = status(&cfg);
        if v["daemon"]["running"] == true
            && v["outbox"]["waiting"] == 0
            && v["last_message_at"].is_i64()
        {
            assert_eq!(code, Some(0), "{v}");
            break v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "never settled: {v}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(v["daemon"]["pid"], daemon.0.id());
    assert!(v["ok"] == true && kinds(&v).is_empty(), "{v}");

    // A second daemon on the same database is refused.
    let second = wildt(&cfg, &["serve", "--once"]);
    assert_eq!(second.status.code(), Some(1));
    assert!(
        text(&second).contains("another wildt daemon"),
        "{}",
        text(&second)
    );

    // A backup while the daemon runs is a database wildt opens.
    let copy = dir.path().join("copy.db");
    let backup = wildt(&cfg, &["backup", copy.to_str().unwrap()]);
    assert!(backup.status.success(), "{}", text(&backup));
    let again = wildt(&cfg, &["backup", copy.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1), "a backup overwrote a file");
    let restored_cfg = dir.path().join("restored.toml");
    std::fs::write(
        &restored_cfg,
        std::fs::read_to_string(&cfg).unwrap().replace(
            &dir.path().join("wildt.db").display().to_string(),
            &copy.display().to_string(),
        ),
    )
    .unwrap();
    let shown = wildt(&restored_cfg, &["game", "show", "1", "--json"]);
    assert!(shown.status.success(), "{}", text(&shown));
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(shown["moves"].as_array().map(Vec::len), Some(1), "{shown}");

    daemon.stop();
    let (code, v) = status(&cfg);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["daemon"]["running"], false);

    // A mail that failed for good needs the operator.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let url = format!("sqlite://{}", dir.path().join("wildt.db").display());
        let store = wildt::store::Store::open(&url).await.unwrap();
        sqlx::query(
            "UPDATE outbox SET failed_at = strftime('%s','now'), last_error = '550 5.1.1 no such user' \
             WHERE id = (SELECT MIN(id) FROM outbox)",
        )
        .execute(store.pool())
        .await
        .unwrap();
        store.close().await;
    });
    let (code, v) = status(&cfg);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(kinds(&v), ["failed_mail"]);
    assert_eq!(v["outbox"]["failed"], 1);
    assert!(
        v["problems"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("550 5.1.1 no such user"),
        "{v}"
    );
}

/// [`rig_config`] with `[receipts]`: copies to `address`, read from p52.
fn rig_config_with_receipts(dir: &Path, rig: &crate::support::rig::Rig, address: &str) -> PathBuf {
    let cfg = rig_config(dir, rig, "chess@club.example", "chesspw", "chesspw");
    let table = rig.receipts_toml(address, "p52@example.org", dir, 60);
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    text.push_str(&table);
    std::fs::write(&cfg, text).unwrap();
    cfg
}

/// `config check --connect` with `[receipts]` mails a probe to the
/// receipts address and sees it arrive in the receipts mailbox.
#[test]
fn config_check_connect_sees_a_copy_arrive_in_the_receipts_mailbox() {
    let rig = rig_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let cfg = rig_config_with_receipts(dir.path(), &rig, "p52@example.org");
    let (code, said) = connect(&cfg);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("ok   receipts: a copy sent to p52@example.org arrived in INBOX"),
        "{said}"
    );
}

/// A receipts address no mailbox answers to: the check fails and says to
/// fix `receipts.address`.
#[test]
fn config_check_connect_fails_a_receipts_address_whose_copy_never_arrives() {
    let rig = rig_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let cfg = rig_config_with_receipts(dir.path(), &rig, "no-such-receipts@club.example");
    let out = check(&cfg, &["--connect", "--wait", "5"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("FAIL receipts: "), "{said}");
    assert!(said.contains("no-such-receipts@club.example"), "{said}");
    assert!(said.contains("receipts.address"), "{said}");
}
