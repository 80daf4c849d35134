//! The Maildir inbox (the embedded default): messages are taken from `new/` in
//! arrival order and moved to `cur/` with the Seen flag once their outcome is
//! committed. [IO]

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use maildir::Maildir;

use super::{Inbound, InboxError, InboxId};

pub struct MaildirInbox {
    dir: Maildir,
    path: PathBuf,
    /// Read at most this many bytes of a message, plus one.
    max_message_bytes: usize,
}

impl MaildirInbox {
    /// Opens the Maildir at `path`, creating `new/`, `cur/` and `tmp/` if missing.
    pub fn open(path: &Path) -> Result<MaildirInbox, InboxError> {
        let dir = Maildir::from(path.to_owned());
        dir.create_dirs().map_err(|source| InboxError::Maildir {
            path: path.to_owned(),
            source,
        })?;
        Ok(MaildirInbox {
            dir,
            path: path.to_owned(),
            max_message_bytes: crate::intake::DEFAULT_MAX_MESSAGE_BYTES,
        })
    }

    /// `[limits] max_message_bytes`: of a larger message only the first
    /// `bytes + 1` are read (enough for its headers and to know it is too
    /// large); `Inbound::size` still tells its real size.
    pub fn set_max_message_bytes(&mut self, bytes: usize) {
        self.max_message_bytes = bytes;
    }

    fn err(&self, source: std::io::Error) -> InboxError {
        InboxError::Maildir {
            path: self.path.clone(),
            source,
        }
    }

    /// Up to `limit` messages waiting in `new/`, oldest first (by the time they
    /// were delivered, then by name, which starts with the delivery time).
    pub fn fetch_waiting(&mut self, limit: usize) -> Result<Vec<Inbound>, InboxError> {
        let mut entries: Vec<(SystemTime, String, PathBuf)> = Vec::new();
        for entry in self.dir.list_new() {
            let entry = entry.map_err(|e| self.err(e))?;
            let modified = std::fs::metadata(entry.path())
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            entries.push((modified, entry.id().to_owned(), entry.path().clone()));
        }
        entries.sort();
        let mut out = Vec::with_capacity(entries.len().min(limit));
        for (modified, id, path) in entries.into_iter().take(limit) {
            match read_at_most(&path, self.max_message_bytes.saturating_add(1)) {
                Ok((raw, size)) => out.push(Inbound {
                    id: InboxId::Maildir { id },
                    raw,
                    size,
                    // The file's modification time: when it was delivered.
                    arrived: modified
                        .duration_since(SystemTime::UNIX_EPOCH)
                        .ok()
                        .and_then(|d| i64::try_from(d.as_secs()).ok())
                        .filter(|&t| t > 0),
                }),
                // Another reader took it between listing and reading.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(self.err(e)),
            }
        }
        Ok(out)
    }

    /// Moves a handled message to `cur/` with the Seen flag.
    pub fn mark_done(&mut self, id: &InboxId) -> Result<(), InboxError> {
        let InboxId::Maildir { id } = id else {
            return Ok(());
        };
        match self.dir.move_new_to_cur_with_flags(id, "S") {
            Ok(()) => Ok(()),
            // Already moved (e.g. by an earlier run that stopped after the move).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(self.err(e)),
        }
    }

    /// Waits for new mail: polls `new/` every 200 ms, up to `max`.
    pub async fn wait_for_mail(&mut self, max: Duration) {
        let deadline = tokio::time::Instant::now() + max;
        while tokio::time::Instant::now() < deadline {
            if self.dir.count_new() > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// The first `cap` bytes of the file at `path`, and the file's size.
fn read_at_most(path: &Path, cap: usize) -> std::io::Result<(Vec<u8>, usize)> {
    let file = std::fs::File::open(path)?;
    let size = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    let mut raw = Vec::with_capacity(size.min(cap));
    file.take(u64::try_from(cap).unwrap_or(u64::MAX))
        .read_to_end(&mut raw)?;
    Ok((raw, size))
}
