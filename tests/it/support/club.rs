//! The Maildir club of the `serve` tests: `wildt serve --once` as a process
//! on the embedded kind of setup (Maildir in, file outbox out), with a game
//! made by the CLI. [IO: processes, temp files]

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::cli::{temp_config, wildt};

/// A club on the embedded kind of setup: its configuration and everything
/// it writes live in one temp dir.
pub struct Club {
    pub dir: tempfile::TempDir,
    pub cfg: PathBuf,
}

/// A game as `wildt game new --json` printed it: its id and the two seats'
/// game addresses.
pub struct Game {
    pub id: i64,
    pub white: String,
    pub black: String,
}

impl Club {
    pub fn new() -> Club {
        let dir = tempfile::tempdir().unwrap();
        let cfg = temp_config(dir.path());
        Club { dir, cfg }
    }

    /// A game whose opening mails are not sent, so tests count only replies.
    pub fn new_game(&self) -> Game {
        self.new_game_with(&[])
    }

    /// As [`Club::new_game`], with more arguments for `game new`
    /// (`--white-lang de`).
    pub fn new_game_with(&self, extra: &[&str]) -> Game {
        let mut args = vec![
            "game",
            "new",
            "--no-mail",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = wildt(&self.cfg, &args);
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        Game {
            id: v["id"].as_i64().unwrap(),
            white: v["white"]["address"].as_str().unwrap().to_owned(),
            black: v["black"]["address"].as_str().unwrap().to_owned(),
        }
    }

    /// Puts `raw` into the Maildir's `new/` as `name`, as a delivery would.
    pub fn deliver(&self, name: &str, raw: &str) {
        let new = self.dir.path().join("mail/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join(name), raw).unwrap();
    }

    /// `wildt serve --once`: its stdout (the counts line).
    pub fn serve_once(&self) -> String {
        let out = wildt(&self.cfg, &["serve", "--once"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Every mail in the file outbox, in file-name order.
    pub fn outbox(&self) -> Vec<String> {
        let dir = self.dir.path().join("outbox");
        let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
            Ok(rd) => rd.map(|e| e.unwrap().path()).collect(),
            Err(_) => Vec::new(),
        };
        files.sort();
        files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "eml"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    }

    /// `wildt game show ID --json`.
    pub fn show(&self, id: i64) -> Value {
        let out = wildt(&self.cfg, &["game", "show", &id.to_string(), "--json"]);
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// How many messages the Maildir's `sub` folder (`new`, `cur`) holds.
    pub fn maildir_count(&self, sub: &str) -> usize {
        count(&self.dir.path().join("mail").join(sub))
    }
}

fn count(p: &Path) -> usize {
    std::fs::read_dir(p).map(|rd| rd.count()).unwrap_or(0)
}

/// A player's plain-text move mail with Message-ID `id`.
pub fn mail(from: &str, to: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <{id}>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
}
