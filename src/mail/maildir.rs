//! The Maildir inbox (the embedded default): messages are taken from `new/` in
//! arrival order and moved to `cur/` with the Seen flag once their outcome is
//! committed, never over a file there; one that cannot be handled goes to a
//! Maildir++ subfolder (the quarantine). [IO]

use std::collections::{HashMap, HashSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use maildir::Maildir;
use tracing::warn;

use super::{Inbound, InboxError, InboxId, Waiting};

pub struct MaildirInbox {
    path: PathBuf,
    /// Read at most this many bytes of a message, plus one.
    max_message_bytes: usize,
    /// Names in `new/` skipped as not messages (warned about once).
    skipped: HashSet<String>,
    /// The base names (before `:`) taken in `cur/`: read from the folder
    /// once, at the first move, then kept up to date by this inbox, so a
    /// move costs a lookup instead of a listing of every message ever seen.
    cur_names: Option<HashSet<String>>,
    /// The files of `new/` at the last listing, with their delivery time and
    /// size: a file keeps both while it waits (it is delivered whole, by
    /// rename), so a listing looks up only the names it has not seen.
    listed: HashMap<String, (SystemTime, usize)>,
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
            path: path.to_owned(),
            max_message_bytes: crate::intake::DEFAULT_MAX_MESSAGE_BYTES,
            skipped: HashSet::new(),
            cur_names: None,
            listed: HashMap::new(),
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
    ///
    /// An entry that is not a message (a directory, a file that cannot be
    /// read) is skipped with a warning, once per entry, and never stops the
    /// others; it is tried again on each fetch, and [`Self::wait_for_mail`]
    /// does not count it as mail.
    pub fn fetch_waiting(&mut self, limit: usize) -> Result<Vec<Inbound>, InboxError> {
        let mut out = Vec::new();
        for w in self.list_waiting(usize::MAX)? {
            if out.len() >= limit {
                break;
            }
            if let Some(m) = self.fetch_one(&w.id)? {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// Up to `limit` message files waiting in `new/`, oldest first, with
    /// their sizes; entries that are not files are skipped (see
    /// [`Self::fetch_waiting`]).
    pub fn list_waiting(&mut self, limit: usize) -> Result<Vec<Waiting>, InboxError> {
        let mut entries: Vec<(SystemTime, String, usize)> = Vec::new();
        let new = self.path.join("new");
        let mut present = HashSet::new();
        for entry in std::fs::read_dir(&new).map_err(|e| self.err(e))? {
            let entry = entry.map_err(|e| self.err(e))?;
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                self.skip(&entry.path(), "a name that is not UTF-8", None);
                continue;
            };
            // Maildir readers ignore names starting with a dot.
            if name.starts_with('.') {
                continue;
            }
            present.insert(name.clone());
            if let Some(&(modified, size)) = self.listed.get(&name) {
                entries.push((modified, name, size));
                continue;
            }
            let meta = match entry.metadata() {
                Ok(m) => m,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    self.skip_entry(&name, "cannot be read", Some(&e));
                    continue;
                }
            };
            if !meta.is_file() {
                self.skip_entry(&name, "not a message file", None);
                continue;
            }
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            let size = usize::try_from(meta.len()).unwrap_or(usize::MAX);
            self.listed.insert(name.clone(), (modified, size));
            entries.push((modified, name, size));
        }
        // Forget entries that are gone, so a name used again is warned about
        // (and looked up again).
        self.skipped.retain(|n| present.contains(n));
        self.listed.retain(|n, _| present.contains(n));
        entries.sort();
        // A file that could not be read is listed again (it may be readable
        // now): only its warning is not repeated.
        Ok(entries
            .into_iter()
            .take(limit)
            .map(|(_, id, size)| Waiting {
                id: InboxId::Maildir { id },
                size,
                headers: None,
            })
            .collect())
    }

    /// One message of `new/`, at most `max_message_bytes + 1` bytes of it;
    /// `None` when another reader took it, or it cannot be read (skipped
    /// with a warning).
    pub fn fetch_one(&mut self, id: &InboxId) -> Result<Option<Inbound>, InboxError> {
        let InboxId::Maildir { id: name } = id else {
            return Err(InboxError::ForeignId(id.clone()));
        };
        let path = self.path.join("new").join(name);
        match read_at_most(&path, self.max_message_bytes.saturating_add(1)) {
            Ok((raw, size, arrived)) => {
                self.skipped.remove(name);
                Ok(Some(Inbound {
                    id: id.clone(),
                    raw,
                    size,
                    arrived,
                }))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => {
                self.skip_entry(name, "cannot be read", Some(&e));
                Ok(None)
            }
        }
    }

    fn skip_entry(&mut self, name: &str, why: &str, error: Option<&std::io::Error>) {
        if self.skipped.insert(name.to_owned()) {
            let path = self.path.join("new").join(name);
            self.skip(&path, why, error);
        }
    }

    fn skip(&self, path: &Path, why: &str, error: Option<&std::io::Error>) {
        match error {
            Some(e) => warn!(path = %path.display(), error = %e, "skipped: {why}"),
            None => warn!(path = %path.display(), "skipped: {why}"),
        }
    }

    /// Moves a handled message to `cur/` with the Seen flag, never over a
    /// file there: a name seen before gets a unique suffix.
    pub fn mark_done(&mut self, id: &InboxId) -> Result<(), InboxError> {
        let InboxId::Maildir { id } = id else {
            return Err(InboxError::ForeignId(id.clone()));
        };
        let from = self.path.join("new").join(id);
        let cur = self.path.join("cur");
        if self.cur_names.is_none() {
            self.cur_names = Some(base_names(&cur).map_err(|e| self.err(e))?);
        }
        let taken = self.cur_names.get_or_insert_default();
        match move_without_overwriting(&from, &cur, id, ":2,S", taken) {
            Ok(_) => Ok(()),
            // Already moved (e.g. by an earlier run that stopped after the move).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(self.err(e)),
        }
    }

    /// Moves a message that could not be handled to the Maildir++ subfolder
    /// `.{folder}` (created if missing), into its `cur/`, not Seen: a mail
    /// client shows it as the folder `folder`, unread. Returns where it went.
    pub fn quarantine(&mut self, id: &InboxId, folder: &str) -> Result<PathBuf, InboxError> {
        let InboxId::Maildir { id } = id else {
            return Err(InboxError::ForeignId(id.clone()));
        };
        let sub = self.path.join(format!(".{folder}"));
        Maildir::from(sub.clone())
            .create_dirs()
            .map_err(|e| self.err(e))?;
        let from = self.path.join("new").join(id);
        let to = sub.join("cur");
        let mut taken = base_names(&to).map_err(|e| self.err(e))?;
        move_without_overwriting(&from, &to, id, ":2,", &mut taken).map_err(|e| self.err(e))
    }

    /// Waits for new mail: polls `new/` every 200 ms, up to `max`. Entries
    /// skipped as not messages do not count.
    pub async fn wait_for_mail(&mut self, max: Duration) {
        let deadline = tokio::time::Instant::now() + max;
        while tokio::time::Instant::now() < deadline {
            if self.waiting() > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// How many entries of `new/` may be mail: all but dot-files and those
    /// skipped.
    fn waiting(&self) -> usize {
        let Ok(rd) = std::fs::read_dir(self.path.join("new")) else {
            return 0;
        };
        rd.filter_map(Result::ok)
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| !n.starts_with('.') && !self.skipped.contains(n))
            })
            .count()
    }
}

/// Moves `from` into the folder `to` as `{id}{info}`, or, if a file of that
/// name (or of that id with other flags) is there already, as
/// `{id}.{n}{info}` with the first free `n`, never replacing a file: a
/// rename that refuses to replace (`RENAME_NOREPLACE`), or where the file
/// system does not offer that, a hard link and then removing the source.
fn move_without_overwriting(
    from: &Path,
    to: &Path,
    id: &str,
    info: &str,
    taken: &mut HashSet<String>,
) -> std::io::Result<PathBuf> {
    for n in 0u32.. {
        let candidate = if n == 0 {
            id.to_owned()
        } else {
            format!("{id}.{n}")
        };
        if taken.contains(&candidate) {
            continue;
        }
        let target = to.join(format!("{candidate}{info}"));
        match rename_without_replacing(from, &target) {
            Ok(()) => {
                taken.insert(candidate);
                return Ok(target);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                taken.insert(candidate);
            }
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free name"))
}

/// Renames `from` to `to` unless `to` exists (`AlreadyExists` then). One
/// system call where the file system has `RENAME_NOREPLACE` (ext4, XFS,
/// Btrfs, tmpfs): two fewer than a link and an unlink, and one change to
/// the directories instead of two. Elsewhere the link and the unlink.
fn rename_without_replacing(from: &Path, to: &Path) -> std::io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(()),
        Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {
            std::fs::hard_link(from, to)?;
            std::fs::remove_file(from)
        }
        Err(e) => Err(e.into()),
    }
}

/// The base names (what comes before the `:` of the flags) of the files in
/// `dir`: a name taken with any flags is taken.
fn base_names(dir: &Path) -> std::io::Result<HashSet<String>> {
    let mut names = HashSet::new();
    for e in std::fs::read_dir(dir)? {
        let name = e?.file_name();
        let name = name.to_string_lossy();
        let base = name.split_once(':').map_or(&*name, |(base, _)| base);
        names.insert(base.to_owned());
    }
    Ok(names)
}

/// The file's modification time, when it was delivered (Unix seconds).
fn delivered_at(modified: std::io::Result<SystemTime>) -> Option<i64> {
    modified
        .ok()?
        .duration_since(SystemTime::UNIX_EPOCH)
        .ok()
        .and_then(|d| i64::try_from(d.as_secs()).ok())
        .filter(|&t| t > 0)
}

/// The first `cap` bytes of the file at `path`, the file's size, and when
/// it was delivered (its modification time), all from the one open file.
fn read_at_most(path: &Path, cap: usize) -> std::io::Result<(Vec<u8>, usize, Option<i64>)> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let size = usize::try_from(meta.len()).unwrap_or(usize::MAX);
    let mut raw = Vec::with_capacity(size.min(cap));
    file.take(u64::try_from(cap).unwrap_or(u64::MAX))
        .read_to_end(&mut raw)?;
    Ok((raw, size, delivered_at(meta.modified())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_into_cur_never_replaces_a_file_and_takes_the_next_free_name() {
        let dir = tempfile::tempdir().unwrap();
        let (new, cur) = (dir.path().join("new"), dir.path().join("cur"));
        std::fs::create_dir_all(&new).unwrap();
        std::fs::create_dir_all(&cur).unwrap();
        std::fs::write(cur.join("m1:2,S"), "the first").unwrap();
        std::fs::write(new.join("m1"), "the second").unwrap();

        // The name seen taken by a listing, and one the listing missed.
        let mut taken = HashSet::from(["m1".to_owned()]);
        let moved =
            move_without_overwriting(&new.join("m1"), &cur, "m1", ":2,S", &mut taken).unwrap();
        assert_eq!(moved, cur.join("m1.1:2,S"));
        std::fs::write(new.join("m2"), "the third").unwrap();
        std::fs::write(cur.join("m2:2,S"), "already there").unwrap();
        let moved =
            move_without_overwriting(&new.join("m2"), &cur, "m2", ":2,S", &mut taken).unwrap();
        assert_eq!(moved, cur.join("m2.1:2,S"));

        let read = |p: &Path| std::fs::read_to_string(p).unwrap();
        assert_eq!(read(&cur.join("m1:2,S")), "the first");
        assert_eq!(read(&cur.join("m1.1:2,S")), "the second");
        assert_eq!(read(&cur.join("m2:2,S")), "already there");
        assert_eq!(read(&cur.join("m2.1:2,S")), "the third");
        assert_eq!(
            std::fs::read_dir(&new).unwrap().count(),
            0,
            "the sources are gone"
        );
    }

    #[test]
    fn a_rename_onto_an_existing_file_is_refused_and_keeps_both() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, "a").unwrap();
        std::fs::write(&b, "b").unwrap();
        let err = rename_without_replacing(&a, &b).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "b");
    }
}
