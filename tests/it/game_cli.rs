//! The admin CLI as an organiser uses it: the real binary, a real database.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::support::cli::{json_of, temp_config, wildt};

#[test]
fn organiser_creates_plays_shows_and_exports_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let created = json_of(&wildt(
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
    ));
    let id = created["id"].as_i64().unwrap();
    let white_addr = created["white"]["address"].as_str().unwrap();
    let black_addr = created["black"]["address"].as_str().unwrap();
    assert!(
        white_addr.starts_with(&format!("chess+{id}-")),
        "{white_addr}"
    );
    assert!(white_addr.ends_with("@club.example"));
    assert_ne!(white_addr, black_addr);
    assert_eq!(created["white"]["email"], "anna@example.org");

    let id_s = id.to_string();
    let out = wildt(&cfg, &["game", "move", &id_s, "5254", "--as", "white"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Wrong turn: refused with the reason, exit code 2, nothing recorded.
    let out = wildt(&cfg, &["game", "move", &id_s, "4244", "--as", "white"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("it is Black's move"));
    let out = wildt(&cfg, &["game", "move", &id_s, "5755", "--as", "black"]);
    assert!(out.status.success());

    let shown = json_of(&wildt(&cfg, &["game", "show", &id_s, "--json"]));
    assert_eq!(shown["status"], "active");
    assert_eq!(shown["result"], "*");
    assert_eq!(
        shown["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    let moves = shown["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["iccf"], "5254");
    assert_eq!(moves[0]["san"], "e4");
    assert_eq!(moves[1]["ply"], 2);
    assert_eq!(moves[1]["san"], "e5");

    let text = wildt(&cfg, &["game", "show", &id_s]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("     1 2 3 4 5 6 7 8"), "{text}");
    assert!(text.contains("Record: 1. 5254 (e4) 5755 (e5)"), "{text}");
    assert!(text.contains("White to move (2.)"), "{text}");

    let out = wildt(&cfg, &["game", "move", &id_s, "resign", "--as", "black"]);
    assert!(out.status.success());
    let shown = json_of(&wildt(&cfg, &["game", "show", &id_s, "--json"]));
    assert_eq!(shown["status"], "finished");
    assert_eq!(shown["result"], "1-0");

    let pgn = wildt(&cfg, &["game", "pgn", &id_s]);
    let pgn = String::from_utf8_lossy(&pgn.stdout);
    assert!(pgn.contains("[White \"anna@example.org\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 {5254} e5 {5755} 1-0"), "{pgn}");

    let list = json_of(&wildt(&cfg, &["game", "list", "--json"]));
    assert_eq!(list.as_array().unwrap().len(), 1);
}

#[test]
fn missing_config_file_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["game", "list", "--config", "/nonexistent/wildt.toml"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/wildt.toml"), "{err}");
}

/// Runs `sql` on the database of the configuration in `dir`.
fn sql(dir: &Path, sql: &str) {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = crate::support::cli::store_of(&dir.join("wildt.toml")).await;
        sqlx::raw_sql(sql).execute(store.pool()).await.unwrap();
        store.close().await;
    });
}

/// Regression: `game new` committed the game, then queued the welcome mails
/// in a second transaction, so a failure (or crash) between the two left a
/// game whose players never learnt their addresses. With the outbox refusing
/// every insert, `game new` now fails and leaves no game behind.
#[test]
fn a_game_whose_welcome_mails_cannot_be_queued_is_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    json_of(&wildt(&cfg, &["game", "list", "--json"]));
    sql(
        dir.path(),
        if crate::support::cli::on_postgres() {
            "CREATE FUNCTION refuse_mail() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN RAISE EXCEPTION 'the outbox refuses mail'; END $$;
             CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox
             FOR EACH ROW EXECUTE FUNCTION refuse_mail()"
        } else {
            "CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox
             BEGIN SELECT RAISE(ABORT, 'the outbox refuses mail'); END"
        },
    );
    let out = wildt(
        &cfg,
        &[
            "game",
            "new",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "game new succeeded: {stderr}");
    assert!(stderr.contains("the outbox refuses mail"), "{stderr}");
    let games = json_of(&wildt(&cfg, &["game", "list", "--json"]));
    assert_eq!(games, Value::Array(Vec::new()), "{games}");

    // Without the welcome mails nothing is queued, and the game is created.
    let created = json_of(&wildt(
        &cfg,
        &[
            "game",
            "new",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--no-mail",
            "--json",
        ],
    ));
    let games = json_of(&wildt(&cfg, &["game", "list", "--json"]));
    let ids: Vec<&Value> = games.as_array().unwrap().iter().map(|g| &g["id"]).collect();
    assert_eq!(ids, [&created["id"]], "{games}");
}

/// Regression: `wildt --config FILE game list` was refused. The
/// options every subcommand takes are accepted before the subcommand too,
/// and `--local` there picks the embedded default.
#[test]
fn shared_options_are_accepted_before_the_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    json_of(&wildt(
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
    ));
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(args)
            .current_dir(dir.path())
            .env_remove("WILDT_CONFIG")
            .output()
            .unwrap()
    };
    let cfg_s = cfg.display().to_string();
    let before = json_of(&run(&["--config", &cfg_s, "game", "list", "--json"]));
    assert_eq!(before.as_array().unwrap().len(), 1, "{before}");
    let between = json_of(&run(&["game", "--config", &cfg_s, "list", "--json"]));
    assert_eq!(before, between);
    let status = run(&["--config", &cfg_s, "status", "--json"]);
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    let database = if crate::support::cli::on_postgres() {
        "postgres://"
    } else {
        "wildt.db"
    };
    assert!(
        status["database"].as_str().unwrap().contains(database),
        "{status}"
    );
    // `--local` before the subcommand: the embedded default's database under
    // the working directory, which holds no game.
    let local = json_of(&run(&["--local", "game", "list", "--json"]));
    assert_eq!(local.as_array().unwrap().len(), 0, "{local}");
    assert!(dir.path().join("var/wildt.db").exists());
}

/// A `[database]` on PostgreSQL that cannot be used is one line at start:
/// a refused password names the password file, a server that cannot be
/// reached is named as such, and neither shows the password.
#[test]
fn a_postgres_store_that_refuses_the_password_or_cannot_be_reached_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong-password");
    std::fs::write(&wrong, "not-the-password\n").unwrap();
    let rig = crate::support::pg::url();
    let (base, _) = rig.rsplit_once('/').unwrap();
    let (host_base, _) = base.rsplit_once(':').unwrap();
    let cases = [
        (rig.clone(), wrong.clone(), "refused the login"),
        // Port 1 on loopback: nothing listens there.
        (
            format!("{host_base}:1/wildt"),
            crate::support::pg::password_file(),
            "cannot reach PostgreSQL at",
        ),
    ];
    for (url, password_file, said) in cases {
        let cfg = dir.path().join("wildt.toml");
        let text = wildt::config::LOCAL_TOML
            .replace(
                "[database]\nurl = \"sqlite://var/wildt.db\"\n",
                &format!(
                    "[database]\nurl = \"{url}\"\npassword_file = \"{}\"\n",
                    password_file.display()
                ),
            )
            .replace("var/", &format!("{}/", dir.path().display()));
        std::fs::write(&cfg, text).unwrap();
        let out = wildt(&cfg, &["game", "list", "--json"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{url}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{url}: {stderr}");
        assert!(stderr.contains(said) && stderr.contains(&url), "{stderr}");
        assert_eq!(stderr.matches(said).count(), 1, "said twice: {stderr}");
        assert!(!stderr.contains("not-the-password"), "{stderr}");
    }
}
