//! What wildt's logs say of mail in doubt after a crash, read from the
//! `.log` files of a folder (the runs' stderr). [IO: files]

use std::path::Path;

/// The doubts of the runs whose logs are in a folder.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Doubts {
    /// Times the leases of a process that was gone were taken back.
    pub released: usize,
    /// Mails in doubt marked sent because their receipt came.
    pub by_receipt: usize,
    /// Mails in doubt sent after no receipt came.
    pub resent: usize,
}

/// Adds up what the `.log` files in `dir` say.
pub fn doubts(dir: &Path) -> Doubts {
    let count = |line: &str| {
        line.split("count=")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0)
    };
    let mut d = Doubts::default();
    for entry in std::fs::read_dir(dir).expect("the logs' folder") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "log") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap_or_default().lines() {
            if line.contains("releasing the leases of a process that is gone")
                || line.contains("released the leases of daemons no longer seen")
            {
                d.released += 1;
            } else if line.contains("its receipt came") {
                d.by_receipt += count(line);
            } else if line.contains("no receipt came") {
                d.resent += count(line);
            }
        }
    }
    d
}
