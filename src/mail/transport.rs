//! Where rendered mail goes: one [`Transport`] over the file, SMTP and
//! sendmail transports, and [`TransportError`], which tells the outbox worker
//! whether to try a mail again. [IO]
//!
//! The file transport (the embedded default) writes one `.eml` per
//! Message-ID, so a resend after a crash overwrites the same file instead of
//! adding a copy.

use std::path::{Path, PathBuf};

use lettre::address::{AddressError, Envelope};
use lettre::{AsyncSendmailTransport, AsyncTransport as _, Tokio1Executor};

use super::smtp::{SmtpError, SmtpTransport};
use crate::config::{OutboxConfig, OutboxKind};

/// Why a transport could not be opened or a mail was not handed over.
///
/// As in lettre, exactly one of [`TransportError::is_transient`] and
/// [`TransportError::is_permanent`] holds: the outbox worker keeps a
/// transient failure for a later try and records a permanent one for good.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The outbox folder of the file transport cannot be created.
    #[error("{path}: {source}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing {path}: {source}")]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Smtp(#[from] SmtpError),
    #[error("sendmail: {address}: {source}")]
    SendmailAddress {
        address: String,
        source: AddressError,
    },
    #[error("sendmail: {0}")]
    SendmailEnvelope(lettre::error::Error),
    #[error("sendmail: {0}")]
    Sendmail(lettre::transport::sendmail::Error),
}

impl TransportError {
    /// Trying again later may succeed (a full disk, a server away).
    pub fn is_transient(&self) -> bool {
        !self.is_permanent()
    }

    /// Trying again will not help (the server refused this recipient or
    /// mail for good). Only SMTP tells the two apart; every file and
    /// sendmail failure is treated as transient, as the outbox always has.
    pub fn is_permanent(&self) -> bool {
        match self {
            TransportError::Smtp(e) => e.is_permanent(),
            TransportError::Folder { .. }
            | TransportError::File { .. }
            | TransportError::SendmailAddress { .. }
            | TransportError::SendmailEnvelope(_)
            | TransportError::Sendmail(_) => false,
        }
    }

    /// The SMTP relay refused the login: the password file is wrong or stale.
    pub fn is_login_refused(&self) -> bool {
        matches!(self, TransportError::Smtp(e) if e.is_login_refused())
    }
}

/// Where mail goes, as configured in `[outbox]`.
pub enum Transport {
    File(PathBuf),
    /// The relay, and the receipts address each mail is copied to, if any
    /// (`[receipts] address`, an envelope recipient only).
    Smtp(SmtpTransport, Option<String>),
    Sendmail(AsyncSendmailTransport<Tokio1Executor>),
}

impl Transport {
    /// Opens the configured transport: creates the file outbox's folder, or
    /// reads the SMTP password and CA files (no connection is opened).
    pub async fn open(config: &OutboxConfig) -> Result<Transport, TransportError> {
        match &config.kind {
            OutboxKind::File { path } => {
                tokio::fs::create_dir_all(path)
                    .await
                    .map_err(|source| TransportError::Folder {
                        path: path.clone(),
                        source,
                    })?;
                Ok(Transport::File(path.clone()))
            }
            OutboxKind::Smtp(cfg) => Ok(Transport::Smtp(
                SmtpTransport::new(cfg)?,
                config.receipts.as_ref().map(|r| r.address.clone()),
            )),
            OutboxKind::Sendmail { command } => Ok(Transport::Sendmail(match command {
                Some(c) => AsyncSendmailTransport::new_with_command(c.as_os_str()),
                None => AsyncSendmailTransport::new(),
            })),
        }
    }

    /// How many mails may be handed over at once to good effect: one per
    /// pooled SMTP connection; one at a time to a file or to sendmail.
    pub fn parallelism(&self) -> usize {
        match self {
            Transport::Smtp(smtp, _) => smtp.parallelism(),
            Transport::File(_) | Transport::Sendmail(_) => 1,
        }
    }

    /// Hands `raw` over with envelope sender `from` and recipient `to`;
    /// the file transport names the file after `message_id`.
    pub async fn send(
        &self,
        message_id: &str,
        from: &str,
        to: &str,
        raw: &[u8],
    ) -> Result<(), TransportError> {
        match self {
            Transport::File(dir) => write_file(dir, message_id, raw).await,
            // One transaction for the player and the receipt: the relay
            // takes both or neither, so the receipt tells whether it took
            // the player's.
            Transport::Smtp(smtp, None) => Ok(smtp.send_raw(from, &[to.to_owned()], raw).await?),
            Transport::Smtp(smtp, Some(receipt)) => {
                let both = [to.to_owned(), receipt.clone()];
                match smtp.send_raw(from, &both, raw).await {
                    // Refused for good, and nothing sent: the player's
                    // address or the receipts address. The player's mail
                    // alone tells which; a wrong receipts address must not
                    // fail every mail.
                    Err(e) if e.is_permanent() => {
                        let alone = smtp.send_raw(from, &[to.to_owned()], raw).await;
                        if alone.is_ok() {
                            tracing::error!(receipts = %receipt, error = %e,
                                "the relay refuses the receipts address: this mail went without \
                                 its copy (a crash right after sending it could send it twice); \
                                 check [receipts] address");
                        }
                        Ok(alone?)
                    }
                    sent => Ok(sent?),
                }
            }
            Transport::Sendmail(sendmail) => {
                let parse = |address: &str| {
                    address.parse::<lettre::Address>().map_err(|source| {
                        TransportError::SendmailAddress {
                            address: address.to_owned(),
                            source,
                        }
                    })
                };
                let envelope = Envelope::new(Some(parse(from)?), vec![parse(to)?])
                    .map_err(TransportError::SendmailEnvelope)?;
                sendmail
                    .send_raw(&envelope, raw)
                    .await
                    .map_err(TransportError::Sendmail)
            }
        }
    }
}

/// Writes `raw` to `dir/<message_id>.eml` atomically and durably: it
/// appears whole or not at all (an unnamed file linked in when written, or
/// a temporary file renamed), its data synced before it is named and the
/// folder synced before this returns, so a mail reported written survives
/// a power cut.
pub async fn write_file(dir: &Path, message_id: &str, raw: &[u8]) -> Result<(), TransportError> {
    let mail = vec![(message_id.to_owned(), raw.to_owned())];
    let mut written = write_files(dir, mail).await;
    written.pop().flatten().unwrap_or(Ok(()))
}

/// Writes each `(message_id, raw)` as [`write_file`] does, all with one hop
/// to tokio's blocking pool: the file outbox writes a leased batch at
/// once, split over a few threads. After a failure the rest of that
/// thread's part are not tried (`None`), as after a transient failure of
/// any transport; the results are in the order of `mails`.
pub async fn write_files(
    dir: &Path,
    mails: Vec<(String, Vec<u8>)>,
) -> Vec<Option<Result<(), TransportError>>> {
    let dir = dir.to_owned();
    let n = mails.len();
    if n == 0 {
        return Vec::new();
    }
    tokio::task::spawn_blocking(move || {
        let mut out = Vec::with_capacity(mails.len());
        // The folder once for the batch, not once per mail.
        if let Err(source) = std::fs::create_dir_all(&dir) {
            out.push(Some(Err(TransportError::File {
                path: dir.clone(),
                source,
            })));
            out.resize_with(n, || None);
            return out;
        }
        // The folder's descriptor for unnamed files; without one (or once
        // the file system refuses them) each mail takes the rename path.
        let folder = rustix::fs::open(
            &dir,
            rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .ok();
        // Each file's data is synced before it is named, and a sync waits
        // for the disk: the batch is split over a few threads, whose syncs
        // the file system commits together, rather than waiting for one
        // sync after another.
        let threads = n.div_ceil(FILES_PER_THREAD).clamp(1, WRITER_THREADS);
        let per_thread = n.div_ceil(threads);
        let mails: Vec<Vec<(String, Vec<u8>)>> = {
            let mut it = mails.into_iter();
            (0..threads)
                .map(|_| it.by_ref().take(per_thread).collect())
                .collect()
        };
        std::thread::scope(|scope| {
            let writers: Vec<_> = mails
                .into_iter()
                .map(|chunk| {
                    let (dir, folder, len) = (&dir, folder.as_ref(), chunk.len());
                    (len, scope.spawn(move || write_chunk(dir, folder, chunk)))
                })
                .collect();
            for (len, writer) in writers {
                let written = writer.join().unwrap_or_else(|_| {
                    let mut failed: Vec<_> = (0..len).map(|_| None).collect();
                    if let Some(first) = failed.first_mut() {
                        *first = Some(Err(TransportError::File {
                            path: dir.clone(),
                            source: std::io::Error::other("a file writer panicked"),
                        }));
                    }
                    failed
                });
                out.extend(written);
            }
        });
        // The names linked in are on the disk only once the folder is
        // synced: until then a power cut may lose a mail the outbox is
        // about to mark sent. One sync for the batch; if it fails, none of
        // the batch counts as written.
        if out.iter().any(|w| matches!(w, Some(Ok(()))))
            && let Err(source) = sync_folder(&dir, folder.as_ref())
        {
            for w in out.iter_mut().filter(|w| matches!(w, Some(Ok(())))) {
                *w = Some(Err(TransportError::File {
                    path: dir.clone(),
                    source: std::io::Error::new(source.kind(), source.to_string()),
                }));
            }
        }
        out
    })
    .await
    .unwrap_or_else(|e| {
        let mut out: Vec<Option<Result<(), TransportError>>> = (0..n).map(|_| None).collect();
        if let Some(first) = out.first_mut() {
            *first = Some(Err(TransportError::File {
                path: PathBuf::new(),
                source: std::io::Error::other(e),
            }));
        }
        out
    })
}

/// Files a writer thread of [`write_files`] takes at least, and the most
/// threads a batch is split over.
const FILES_PER_THREAD: usize = 8;
const WRITER_THREADS: usize = 32;

/// One writer thread's part of a batch, in order: after a failure the rest
/// are not tried (`None`).
fn write_chunk(
    dir: &Path,
    folder: Option<&std::os::fd::OwnedFd>,
    mails: Vec<(String, Vec<u8>)>,
) -> Vec<Option<Result<(), TransportError>>> {
    let mut folder = folder;
    let mut failed = false;
    mails
        .into_iter()
        .map(|(message_id, raw)| {
            if failed {
                return None;
            }
            let written = write_now(dir, &mut folder, &message_id, &raw);
            failed = written.is_err();
            Some(written)
        })
        .collect()
}

/// The blocking body of [`write_files`] for one mail: as an unnamed file
/// (`O_TMPFILE`) given its name when whole, one change to the folder
/// instead of two; else (no such files here, no `/proc`, or the name
/// taken: a resend, which replaces it) under a temporary name, renamed.
/// A failure of the first way sets `folder` to `None`, so the rest of the
/// batch goes the second way, unless it was only the name being taken.
fn write_now(
    dir: &Path,
    folder: &mut Option<&std::os::fd::OwnedFd>,
    message_id: &str,
    raw: &[u8],
) -> Result<(), TransportError> {
    let safe: String = message_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.@".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = format!("{safe}.eml");
    if let Some(fd) = *folder {
        match link_unnamed(fd, &name, raw) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                tracing::debug!(error = %e, "file outbox: no unnamed files here; writing by rename");
                *folder = None;
            }
        }
    }
    let path = dir.join(&name);
    let tmp = dir.join(format!(".{safe}.tmp"));
    let written = write_synced(&tmp, raw).and_then(|()| std::fs::rename(&tmp, &path));
    written.map_err(|source| TransportError::File { path, source })
}

/// Writes `raw` to a new file at `path` and syncs its data, so that the
/// rename that names it never names an empty or partly written file after
/// a power cut.
fn write_synced(path: &Path, raw: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::File::create(path)?;
    file.write_all(raw)?;
    file.sync_data()
}

/// Syncs the folder `dir` (its open descriptor when there is one): the
/// names linked or renamed into it reach the disk.
fn sync_folder(dir: &Path, folder: Option<&std::os::fd::OwnedFd>) -> std::io::Result<()> {
    match folder {
        Some(fd) => rustix::fs::fsync(fd).map_err(std::io::Error::from),
        None => std::fs::File::open(dir)?.sync_all(),
    }
}

/// Writes `raw` into an unnamed file in `folder` and links it in as
/// `name` (through `/proc/self/fd`, which needs no privilege, where
/// `AT_EMPTY_PATH` would).
fn link_unnamed(folder: &std::os::fd::OwnedFd, name: &str, raw: &[u8]) -> std::io::Result<()> {
    use rustix::fs::{AtFlags, CWD, Mode, OFlags, linkat, openat};
    use std::io::Write as _;
    use std::os::fd::AsRawFd as _;
    let fd = openat(
        folder,
        ".",
        OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o666),
    )?;
    let mut file = std::fs::File::from(fd);
    file.write_all(raw)?;
    // Synced before it has a name: a name never points at bytes a power
    // cut could still take.
    file.sync_data()?;
    let by_fd = format!("/proc/self/fd/{}", file.as_raw_fd());
    linkat(CWD, by_fd.as_str(), folder, name, AtFlags::SYMLINK_FOLLOW)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn file_transport_writes_one_eml_per_message_id_and_a_resend_overwrites_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let outbox = dir.path().join("outbox");
        let transport = Transport::File(outbox.clone());
        let id = "wildt-1/2@club.example";
        transport
            .send(id, "chess@club.example", "anna@example.org", b"first")
            .await
            .expect("written");
        transport
            .send(id, "chess@club.example", "anna@example.org", b"again")
            .await
            .expect("written again");
        let mut names: Vec<String> = std::fs::read_dir(&outbox)
            .expect("outbox folder")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["wildt-1_2@club.example.eml"]);
        let written = std::fs::read(outbox.join(&names[0])).expect("the mail");
        assert_eq!(written, b"again");
    }

    #[test]
    fn an_unnamed_file_is_linked_in_whole_with_the_usual_mode_and_never_over_another() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = rustix::fs::open(
            dir.path(),
            rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::RDONLY,
            rustix::fs::Mode::empty(),
        )
        .expect("the folder");
        link_unnamed(&folder, "a.eml", b"the mail").expect("linked");
        assert_eq!(
            std::fs::read(dir.path().join("a.eml")).unwrap(),
            b"the mail"
        );
        // The same mode a plain write gives (0666 less the umask).
        std::fs::write(dir.path().join("plain"), b"x").unwrap();
        let mode = |name: &str| {
            std::fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode()
        };
        assert_eq!(mode("a.eml"), mode("plain"));
        // A name taken is refused and the file there kept: the caller then
        // replaces it by rename, as a resend must.
        let taken = link_unnamed(&folder, "a.eml", b"other").expect_err("name taken");
        assert_eq!(taken.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(
            std::fs::read(dir.path().join("a.eml")).unwrap(),
            b"the mail"
        );
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["a.eml", "plain"], "no other file left behind");
    }

    #[tokio::test]
    async fn a_batch_of_mails_is_written_one_file_each_with_no_temporary_file_left() {
        let dir = tempfile::tempdir().expect("temp dir");
        let outbox = dir.path().join("outbox");
        let mails: Vec<(String, Vec<u8>)> = (0..5)
            .map(|i| {
                (
                    format!("m{i}@club.example"),
                    format!("mail {i}").into_bytes(),
                )
            })
            .collect();
        let written = write_files(&outbox, mails).await;
        assert!(
            written.iter().all(|w| matches!(w, Some(Ok(())))),
            "{written:?}"
        );
        let mut names: Vec<String> = std::fs::read_dir(&outbox)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let expected: Vec<String> = (0..5).map(|i| format!("m{i}@club.example.eml")).collect();
        assert_eq!(names, expected);
        for i in 0..5 {
            let body = std::fs::read(outbox.join(format!("m{i}@club.example.eml"))).unwrap();
            assert_eq!(body, format!("mail {i}").into_bytes());
        }
    }

    #[tokio::test]
    async fn a_file_outbox_that_cannot_be_written_is_a_transient_failure() {
        let dir = tempfile::tempdir().expect("temp dir");
        // A file where the outbox folder should be: the folder cannot be made.
        let blocked = dir.path().join("outbox");
        std::fs::write(&blocked, b"").expect("blocking file");
        let err = Transport::File(blocked)
            .send(
                "m@club.example",
                "chess@club.example",
                "a@example.org",
                b"x",
            )
            .await
            .expect_err("nothing can be written under a file");
        assert!(matches!(err, TransportError::File { .. }), "{err:?}");
        assert!(err.is_transient() && !err.is_permanent(), "{err:?}");
    }

    #[tokio::test]
    async fn a_sendmail_recipient_that_is_no_address_fails_before_running_sendmail() {
        // A command that does not exist: reaching it would be another error.
        let transport = Transport::Sendmail(AsyncSendmailTransport::new_with_command(
            "/nonexistent/sendmail",
        ));
        let err = transport
            .send(
                "m@club.example",
                "chess@club.example",
                "not an address",
                b"x",
            )
            .await
            .expect_err("no envelope");
        assert!(
            matches!(&err, TransportError::SendmailAddress { address, .. } if address == "not an address"),
            "{err:?}"
        );
    }
}
