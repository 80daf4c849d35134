//! The IMAP inbox (async-imap over tokio-rustls). [IO]
//!
//! One session per [`ImapInbox`]. Messages are read with `BODY.PEEK[]`, so
//! fetching never marks them: only [`ImapInbox::mark_done`] sets `\Seen` and
//! the keyword [`DONE_KEYWORD`] (and moves them to `processed_mailbox`), and the
//! daemon calls it after its commit. Waiting messages are those without the
//! keyword, whether or not another client has read them.
//! A message the daemon never finished is therefore fetched again.
//!
//! Connection loss: every method runs its commands on a session it takes out
//! of the inbox and puts back only when the step completed. If a step fails on
//! the wire, times out, or its future is dropped, the session is gone and the
//! next call opens a new one (so the caller only needs to wait, with the
//! daemon's `Backoff`, and call again).

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::error::Error as ImapError;
use async_imap::extensions::idle::IdleResponse;
use async_imap::types::{Fetch, UnsolicitedResponse};
use futures::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

use crate::config::{ImapConfig, Tls};
use crate::mail::{Inbound, InboxError, InboxId, TlsError, Waiting};

mod probe;
mod receipts;

/// At most this many messages per [`ImapInbox::fetch_waiting`].
pub const FETCH_BATCH: usize = 200;
/// At most this many messages per [`ImapInbox::list_waiting`] (the oldest):
/// their sizes and order headers are kept while they wait (a few hundred
/// bytes each), so a fresh message can pass a backlog of this many.
pub const LIST_MAX: usize = 2000;
/// At most this many bytes of bodies per `UID FETCH` of a group's messages.
pub const GROUP_FETCH_BYTES: usize = 8 * 1024 * 1024;
/// UIDs per `UID FETCH` of sizes and order headers.
const LIST_FETCH_CHUNK: usize = 500;
/// Bound on connecting, TLS and login together.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// Bound on one step (a fetch of a batch, a flag change, entering or leaving IDLE).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);
/// RFC 2177: re-issue IDLE before the server's 30-minute inactivity logout.
const MAX_IDLE: Duration = Duration::from_secs(25 * 60);

type Session = async_imap::Session<Stream>;

/// A listed message's size and order header fields (see [`Waiting`]).
type Listed = (usize, Option<Arc<[u8]>>);

/// Whether the receiver of a session's unsolicited responses holds news of
/// new mail (EXISTS or RECENT); empties it either way. (A macro because the
/// receiver's type belongs to a crate we do not name.)
macro_rules! drain_announces_mail {
    ($rx:expr) => {{
        let mut new_mail = false;
        while let Ok(r) = $rx.try_recv() {
            if matches!(
                r,
                UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
            ) {
                new_mail = true;
            }
        }
        new_mail
    }};
}

/// A TCP stream, encrypted or not: async-imap wants one stream type for both.
#[derive(Debug)]
enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// What the server offers, as far as this inbox cares.
#[derive(Debug, Clone, Copy, Default)]
struct Caps {
    idle: bool,
    moves: bool,
    uidplus: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Selected {
    mailbox: String,
    uidvalidity: u32,
    /// PERMANENTFLAGS allows new keywords (`\*`): [`DONE_KEYWORD`] is kept.
    keywords: bool,
}

/// The private keyword on a message the daemon has handled. What was handled
/// is tracked by it (and in the database by UIDVALIDITY + UID), not by
/// `\Seen`: a message read by another client (the organiser's phone) before
/// the daemon fetched it is still taken.
pub const DONE_KEYWORD: &str = "$wildt-done";

/// The referee's IMAP mailbox.
pub struct ImapInbox {
    cfg: ImapConfig,
    /// `host:port`, for error messages and logs.
    server: String,
    session: Option<Session>,
    caps: Caps,
    selected: Option<Selected>,
    /// The last UIDVALIDITY seen per mailbox, to log when it changes.
    uidvalidity: HashMap<String, u32>,
    /// The last fetch left unseen messages beyond its batch.
    more_pending: bool,
    /// Fetch at most this many bytes of a message, plus one.
    max_message_bytes: usize,
    /// Size and order headers of the messages listed so far, by UID, for
    /// the mailbox and UIDVALIDITY they were listed in: each is fetched once.
    listed: HashMap<u32, Listed>,
    listed_in: Option<(String, u32)>,
}

impl fmt::Debug for ImapInbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapInbox")
            .field("server", &self.server)
            .field("username", &self.cfg.username)
            .field("mailbox", &self.cfg.mailbox)
            .field("connected", &self.session.is_some())
            .finish()
    }
}

impl ImapInbox {
    /// Connects, logs in, and creates `processed_mailbox` if it is missing.
    pub async fn connect(cfg: &ImapConfig) -> Result<ImapInbox, InboxError> {
        let mut inbox = ImapInbox {
            cfg: cfg.clone(),
            server: format!("{}:{}", cfg.host, cfg.port),
            session: None,
            caps: Caps::default(),
            selected: None,
            uidvalidity: HashMap::new(),
            more_pending: false,
            max_message_bytes: crate::intake::DEFAULT_MAX_MESSAGE_BYTES,
            listed: HashMap::new(),
            listed_in: None,
        };
        let session = inbox.take_session().await?;
        inbox.session = Some(session);
        Ok(inbox)
    }

    /// `[limits] max_message_bytes`: of a larger message only the first
    /// `bytes + 1` are fetched (a partial `BODY.PEEK[]<0.n>`), enough for its
    /// headers and to know it is too large; `Inbound::size` still tells its
    /// real size (`RFC822.SIZE`).
    pub fn set_max_message_bytes(&mut self, bytes: usize) {
        self.max_message_bytes = bytes;
    }

    /// The unseen, undeleted messages of the configured mailbox, in UID order,
    /// at most [`FETCH_BATCH`] of them (the oldest). Does not set `\Seen`.
    /// When more were waiting, the next [`ImapInbox::wait_for_mail`] returns
    /// at once, so a plain wait-fetch loop drains a backlog.
    pub async fn fetch_waiting(&mut self) -> Result<Vec<Inbound>, InboxError> {
        let mut session = self.take_session().await?;
        let result = tokio::time::timeout(COMMAND_TIMEOUT, self.fetch_in(&mut session)).await;
        self.finish(session, "fetch", result)
    }

    /// The waiting messages' ids, sizes and order headers, oldest first, at
    /// most [`LIST_MAX`] (without their bodies): the daemon then takes one
    /// body at a time, so memory holds one message, not a batch.
    pub async fn list_waiting(&mut self) -> Result<Vec<Waiting>, InboxError> {
        let mut session = self.take_session().await?;
        let result = tokio::time::timeout(COMMAND_TIMEOUT, self.list_in(&mut session)).await;
        self.finish(session, "list", result)
    }

    /// The bodies of several listed messages of one mailbox, in the order
    /// asked, with one `UID FETCH` per [`GROUP_FETCH_BYTES`] of them (by
    /// their listed sizes, each counted up to `max_message_bytes + 1`): a
    /// group costs one round trip, not one per message. A message gone
    /// meanwhile is left out.
    pub async fn fetch_many(&mut self, waiting: &[Waiting]) -> Result<Vec<Inbound>, InboxError> {
        let mut session = self.take_session().await?;
        let result =
            tokio::time::timeout(COMMAND_TIMEOUT, self.bodies_in(&mut session, waiting)).await;
        self.finish(session, "fetch", result)
    }

    /// Whether the server announced new mail (`EXISTS`, `RECENT`) since the
    /// last listing; also `true` without a session (the next listing
    /// reconnects). Consumes the announcements: the listing that follows
    /// sees the mail.
    pub fn mail_announced(&mut self) -> bool {
        match self.session.as_mut() {
            Some(session) => drain_announces_mail!(session.unsolicited_responses),
            None => true,
        }
    }

    /// The body of one message listed by [`Self::list_waiting`]; `None` if
    /// someone else expunged it meanwhile.
    pub async fn fetch_one(&mut self, id: &InboxId) -> Result<Option<Inbound>, InboxError> {
        let mut session = self.take_session().await?;
        let one = [Waiting {
            id: id.clone(),
            size: 0,
            headers: None,
        }];
        let result =
            tokio::time::timeout(COMMAND_TIMEOUT, self.bodies_in(&mut session, &one)).await;
        self.finish(session, "fetch", result)
            .map(|found| found.into_iter().next())
    }

    /// Marks a message handled: `\Seen`, then a move to `processed_mailbox` if
    /// one is configured. Call it only once the daemon has committed the message.
    /// Marking a message that is already marked or moved is not an error.
    pub async fn mark_done(&mut self, id: &InboxId) -> Result<(), InboxError> {
        self.mark_done_all(std::slice::from_ref(id)).await
    }

    /// [`Self::mark_done`] for several messages: those of one mailbox and
    /// UIDVALIDITY with one `UID STORE` (and one `UID MOVE`) over their UID
    /// set.
    pub async fn mark_done_all(&mut self, ids: &[InboxId]) -> Result<(), InboxError> {
        let mut by_box: Vec<(&str, u32, Vec<u32>)> = Vec::new();
        for id in ids {
            let InboxId::Imap {
                mailbox,
                uidvalidity,
                uid,
            } = id
            else {
                return Err(InboxError::ForeignId(id.clone()));
            };
            match by_box
                .iter_mut()
                .find(|(m, v, _)| *m == mailbox.as_str() && v == uidvalidity)
            {
                Some((_, _, uids)) => uids.push(*uid),
                None => by_box.push((mailbox, *uidvalidity, vec![*uid])),
            }
        }
        for (mailbox, uidvalidity, mut uids) in by_box {
            uids.sort_unstable();
            let set = uid_set(&uids);
            let mut session = self.take_session().await?;
            let result = tokio::time::timeout(
                COMMAND_TIMEOUT,
                self.mark_set_in(&mut session, mailbox, uidvalidity, &set),
            )
            .await;
            self.finish(session, "mark done", result)?;
        }
        Ok(())
    }

    /// Moves a message that could not be handled to the folder `folder`
    /// (created if missing), unflagged, so that the inbox goes on without it.
    pub async fn quarantine(&mut self, id: &InboxId, folder: &str) -> Result<(), InboxError> {
        let InboxId::Imap {
            mailbox,
            uidvalidity,
            uid,
        } = id
        else {
            return Err(InboxError::ForeignId(id.clone()));
        };
        let mut session = self.take_session().await?;
        let result = tokio::time::timeout(
            COMMAND_TIMEOUT,
            self.quarantine_in(&mut session, mailbox, *uidvalidity, *uid, folder),
        )
        .await;
        self.finish(session, "quarantine", result)
    }

    /// Waits until mail may have arrived in the configured mailbox, or `max`.
    ///
    /// With `idle = true` and a server that offers IDLE, this sits in IDLE and
    /// returns on the server's first untagged response (new mail, but also a
    /// flag change or expunge by another client), after ending IDLE with DONE
    /// so the session stays usable. Otherwise it sleeps `poll_interval` (or
    /// `max`, if shorter). It returns at once when the last fetch left messages
    /// beyond its batch, when new mail was announced since the last fetch, or
    /// when it had to open a new session.
    ///
    /// Dropping this future (shutdown) is safe: while polling, nothing is lost;
    /// in IDLE, the session is dropped with the future (the TCP connection is
    /// closed without DONE, which servers accept) and the next call reconnects.
    /// No message is ever touched here.
    pub async fn wait_for_mail(&mut self, max: Duration) -> Result<(), InboxError> {
        if self.more_pending || max.is_zero() {
            return Ok(());
        }
        let reconnect = self.session.is_none();
        let session = self.take_session().await?;
        if reconnect || self.selected.as_ref().map(|s| &s.mailbox) != Some(&self.cfg.mailbox) {
            // Whatever arrived while we were not looking is waiting now.
            self.session = Some(session);
            return Ok(());
        }
        if drain_announces_mail!(session.unsolicited_responses) {
            self.session = Some(session);
            return Ok(());
        }
        if !(self.cfg.idle && self.caps.idle) {
            self.session = Some(session);
            tokio::time::sleep(self.cfg.poll_interval.min(max)).await;
            return Ok(());
        }

        let unsolicited = session.unsolicited_responses.clone();
        let mut handle = session.idle();
        match tokio::time::timeout(COMMAND_TIMEOUT, handle.init()).await {
            Ok(Ok(())) => {}
            Ok(Err(source)) => return Err(self.step_error("IDLE", source)),
            Err(_) => return Err(self.timeout_error("IDLE", COMMAND_TIMEOUT)),
        }
        // Mail announced before the server acknowledged IDLE is in the channel.
        let early = drain_announces_mail!(unsolicited);
        if !early {
            let wait_for = max.min(MAX_IDLE);
            let (wait, stop) = handle.wait_with_timeout(wait_for);
            // The outer bound counts from now; the inner one restarts with each
            // "still here" from the server.
            let outcome = tokio::time::timeout(wait_for, wait).await;
            drop(stop);
            match outcome {
                Ok(Ok(IdleResponse::NewData(data))) => {
                    tracing::debug!(server = %self.server, response = ?data.parsed(), "IDLE woke");
                }
                Ok(Ok(IdleResponse::Timeout | IdleResponse::ManualInterrupt)) | Err(_) => {}
                Ok(Err(source)) => return Err(self.step_error("IDLE wait", source)),
            }
        }
        match tokio::time::timeout(COMMAND_TIMEOUT, handle.done()).await {
            Ok(Ok(session)) => {
                self.session = Some(session);
                Ok(())
            }
            Ok(Err(source)) => Err(self.step_error("IDLE DONE", source)),
            Err(_) => Err(self.timeout_error("IDLE DONE", COMMAND_TIMEOUT)),
        }
    }

    /// Logs out cleanly (for shutdown). The inbox is consumed.
    pub async fn logout(mut self) -> Result<(), InboxError> {
        let Some(mut session) = self.session.take() else {
            return Ok(());
        };
        match tokio::time::timeout(COMMAND_TIMEOUT, session.logout()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(source)) => Err(self.step_error("LOGOUT", source)),
            Err(_) => Err(self.timeout_error("LOGOUT", COMMAND_TIMEOUT)),
        }
    }

    /// Drops the current session (if the caller gave up on it); the next call
    /// opens a new one.
    pub fn drop_session(&mut self) {
        self.session = None;
    }

    /// The session, opened anew if the last one was lost.
    async fn take_session(&mut self) -> Result<Session, InboxError> {
        if let Some(session) = self.session.take() {
            return Ok(session);
        }
        self.selected = None;
        let (mut session, caps) = match tokio::time::timeout(CONNECT_TIMEOUT, self.open()).await {
            Ok(opened) => opened?,
            Err(_) => return Err(self.timeout_error("connect and login", CONNECT_TIMEOUT)),
        };
        self.caps = caps;
        if let Some(processed) = self.cfg.processed_mailbox.clone() {
            match tokio::time::timeout(
                COMMAND_TIMEOUT,
                self.ensure_mailbox(&mut session, &processed),
            )
            .await
            {
                Ok(done) => done?,
                Err(_) => {
                    return Err(self.timeout_error("create processed mailbox", COMMAND_TIMEOUT));
                }
            }
        }
        tracing::info!(server = %self.server, username = %self.cfg.username, idle = caps.idle, "IMAP session open");
        Ok(session)
    }

    /// TCP, TLS as configured, greeting, LOGIN, CAPABILITY.
    async fn open(&self) -> Result<(Session, Caps), InboxError> {
        let cfg = &self.cfg;
        let tcp = TcpStream::connect((cfg.host.as_str(), cfg.port))
            .await
            .map_err(|source| InboxError::Connect {
                host: cfg.host.clone(),
                port: cfg.port,
                source,
            })?;
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(server = %self.server, error = %e, "TCP_NODELAY not set");
        }
        let client = match cfg.tls {
            Tls::None => {
                let mut client = async_imap::Client::new(Stream::Plain(tcp));
                self.greeting(&mut client).await?;
                client
            }
            Tls::Implicit => {
                let tls = self.tls_handshake(tcp).await?;
                let mut client = async_imap::Client::new(Stream::Tls(Box::new(tls)));
                self.greeting(&mut client).await?;
                client
            }
            Tls::StartTls => {
                let mut client = async_imap::Client::new(Stream::Plain(tcp));
                self.greeting(&mut client).await?;
                match client.run_command_and_check_ok("STARTTLS", None).await {
                    Ok(()) => {}
                    Err(ImapError::No(reason) | ImapError::Bad(reason)) => {
                        return Err(InboxError::StartTlsRefused {
                            server: self.server.clone(),
                            reason,
                        });
                    }
                    Err(source) => return Err(self.step_error("STARTTLS", source)),
                }
                let Stream::Plain(tcp) = client.into_inner() else {
                    unreachable!("the stream before STARTTLS is plain TCP")
                };
                let tls = self.tls_handshake(tcp).await?;
                // No greeting after STARTTLS: the session goes on.
                async_imap::Client::new(Stream::Tls(Box::new(tls)))
            }
        };
        let password = cfg.password.read()?;
        let mut session = match client.login(&cfg.username, &password).await {
            Ok(session) => session,
            Err((ImapError::No(reason), _)) => {
                return Err(InboxError::Login {
                    server: self.server.clone(),
                    username: cfg.username.clone(),
                    reason,
                });
            }
            Err((source, _)) => return Err(self.step_error("LOGIN", source)),
        };
        let caps = session
            .capabilities()
            .await
            .map_err(|source| self.step_error("CAPABILITY", source))?;
        let caps = Caps {
            idle: caps.has_str("IDLE"),
            moves: caps.has_str("MOVE"),
            uidplus: caps.has_str("UIDPLUS"),
        };
        Ok((session, caps))
    }

    async fn greeting(&self, client: &mut async_imap::Client<Stream>) -> Result<(), InboxError> {
        use async_imap::imap_proto::{Response, Status};
        let greeting = client
            .read_response()
            .await
            .map_err(|source| self.step_error("greeting", source.into()))?
            .ok_or_else(|| self.step_error("greeting", ImapError::ConnectionLost))?;
        match greeting.parsed() {
            Response::Data {
                status: Status::Ok | Status::PreAuth,
                ..
            } => Ok(()),
            other => Err(self.step_error(
                "greeting",
                ImapError::Bad(format!("unexpected greeting {other:?}")),
            )),
        }
    }

    async fn tls_handshake(&self, tcp: TcpStream) -> Result<TlsStream<TcpStream>, InboxError> {
        let connector = TlsConnector::from(Arc::new(tls_config(self.cfg.ca_file.as_deref())?));
        let name =
            ServerName::try_from(self.cfg.host.clone()).map_err(|source| TlsError::ServerName {
                host: self.cfg.host.clone(),
                source,
            })?;
        connector
            .connect(name, tcp)
            .await
            .map_err(|source| InboxError::TlsHandshake {
                server: self.server.clone(),
                source,
            })
    }

    async fn ensure_mailbox(&self, session: &mut Session, name: &str) -> Result<(), InboxError> {
        let names: Vec<_> = session
            .list(Some(""), Some(&quote(name)))
            .await
            .map_err(|source| self.step_error("LIST mailbox", source))?
            .try_collect()
            .await
            .map_err(|source| self.step_error("LIST mailbox", source))?;
        if names.iter().any(|n| n.name() == name) {
            return Ok(());
        }
        session
            .create(name)
            .await
            .map_err(|source| self.step_error("CREATE mailbox", source))?;
        tracing::info!(server = %self.server, mailbox = name, "created a mailbox");
        Ok(())
    }

    /// SELECTs `mailbox` unless it is selected already; returns its UIDVALIDITY.
    /// Selects `mailbox` and checks it is still the one whose UIDs the
    /// caller holds: a changed UIDVALIDITY means they name other messages.
    async fn select_expecting(
        &mut self,
        session: &mut Session,
        mailbox: &str,
        uidvalidity: u32,
    ) -> Result<(), InboxError> {
        let found = self.select(session, mailbox).await?;
        if found != uidvalidity {
            return Err(InboxError::UidValidityChanged {
                mailbox: mailbox.to_owned(),
                expected: uidvalidity,
                found,
            });
        }
        Ok(())
    }

    async fn select(&mut self, session: &mut Session, mailbox: &str) -> Result<u32, InboxError> {
        if let Some(sel) = &self.selected
            && sel.mailbox == mailbox
        {
            return Ok(sel.uidvalidity);
        }
        self.selected = None;
        let mb = session
            .select(mailbox)
            .await
            .map_err(|source| self.step_error("SELECT", source))?;
        let uidvalidity = mb.uid_validity.ok_or_else(|| InboxError::NoUidValidity {
            server: self.server.clone(),
            mailbox: mailbox.to_owned(),
        })?;
        if let Some(old) = self.uidvalidity.insert(mailbox.to_owned(), uidvalidity)
            && old != uidvalidity
        {
            tracing::warn!(server = %self.server, mailbox, old, new = uidvalidity,
                "UIDVALIDITY changed: the mailbox was recreated; its messages will be fetched again");
        }
        let keywords = mb
            .permanent_flags
            .contains(&async_imap::types::Flag::MayCreate);
        self.selected = Some(Selected {
            mailbox: mailbox.to_owned(),
            uidvalidity,
            keywords,
        });
        Ok(uidvalidity)
    }

    fn keywords_kept(&self) -> bool {
        self.selected.as_ref().is_some_and(|s| s.keywords)
    }

    async fn fetch_in(&mut self, session: &mut Session) -> Result<Vec<Inbound>, InboxError> {
        let mut waiting = self.list_in(session).await?;
        if waiting.len() > FETCH_BATCH {
            waiting.truncate(FETCH_BATCH);
            self.more_pending = true;
        }
        self.bodies_in(session, &waiting).await
    }

    /// The waiting messages' ids and sizes, oldest first, at most a batch:
    /// no body is read.
    async fn list_in(&mut self, session: &mut Session) -> Result<Vec<Waiting>, InboxError> {
        let mailbox = self.cfg.mailbox.clone();
        // Re-select every time: the fresh SELECT gives the current state even
        // if unsolicited updates were missed.
        self.selected = None;
        let uidvalidity = self.select(session, &mailbox).await?;
        // What was announced so far is covered by the search below.
        drain_announces_mail!(session.unsolicited_responses);
        // Without keywords (a server that keeps none) only `\\Seen` can say
        // what was handled.
        let query = if self.keywords_kept() {
            format!("UNDELETED UNKEYWORD {DONE_KEYWORD}")
        } else {
            "UNSEEN UNDELETED".to_owned()
        };
        let mut uids: Vec<u32> = session
            .uid_search(&query)
            .await
            .map_err(|source| self.step_error("UID SEARCH", source))?
            .into_iter()
            .collect();
        uids.sort_unstable();
        self.more_pending = uids.len() > LIST_MAX;
        uids.truncate(LIST_MAX);
        let here = (mailbox.clone(), uidvalidity);
        if self.listed_in.as_ref() != Some(&here) {
            self.listed.clear();
            self.listed_in = Some(here);
        }
        self.listed.retain(|uid, _| uids.binary_search(uid).is_ok());
        let unlisted: Vec<u32> = uids
            .iter()
            .copied()
            .filter(|uid| !self.listed.contains_key(uid))
            .collect();
        // Sizes and the order headers, once per message: a burst of a
        // thousand is a few hundred kilobytes, read while the first groups
        // are decided.
        let items = format!(
            "(UID RFC822.SIZE BODY.PEEK[HEADER.FIELDS ({})])",
            crate::intake::order::ORDER_HEADERS.join(" ").to_uppercase()
        );
        for chunk in unlisted.chunks(LIST_FETCH_CHUNK) {
            let fetches: Vec<Fetch> = session
                .uid_fetch(uid_set(chunk), &items)
                .await
                .map_err(|source| self.step_error("UID FETCH sizes", source))?
                .try_collect()
                .await
                .map_err(|source| self.step_error("UID FETCH sizes", source))?;
            for f in &fetches {
                if let (Some(uid), Some(size)) = (f.uid, f.size) {
                    self.listed
                        .insert(uid, (size as usize, f.header().map(Arc::from)));
                }
            }
        }
        // A message expunged by someone else between SEARCH and FETCH is skipped.
        Ok(uids
            .into_iter()
            .filter_map(|uid| {
                self.listed.get(&uid).map(|(size, headers)| Waiting {
                    id: InboxId::Imap {
                        mailbox: mailbox.clone(),
                        uidvalidity,
                        uid,
                    },
                    size: *size,
                    headers: headers.clone(),
                })
            })
            .collect())
    }

    async fn bodies_in(
        &mut self,
        session: &mut Session,
        waiting: &[Waiting],
    ) -> Result<Vec<Inbound>, InboxError> {
        let cap = self.max_message_bytes.saturating_add(1);
        let mut out = Vec::with_capacity(waiting.len());
        let mut rest = waiting;
        while let Some(first) = rest.first() {
            let InboxId::Imap {
                mailbox,
                uidvalidity,
                ..
            } = &first.id
            else {
                return Err(InboxError::ForeignId(first.id.clone()));
            };
            // One fetch: the same mailbox, up to GROUP_FETCH_BYTES.
            let mut bytes = 0usize;
            let mut uids = Vec::new();
            let mut n = 0;
            for w in rest {
                let InboxId::Imap {
                    mailbox: m,
                    uidvalidity: v,
                    uid,
                } = &w.id
                else {
                    return Err(InboxError::ForeignId(w.id.clone()));
                };
                let size = w.size.min(cap);
                if m != mailbox || v != uidvalidity || (n > 0 && bytes + size > GROUP_FETCH_BYTES) {
                    break;
                }
                bytes += size;
                uids.push(*uid);
                n += 1;
            }
            let (chunk, after) = rest.split_at(n);
            rest = after;
            self.select_expecting(session, mailbox, *uidvalidity)
                .await?;
            let mut sorted = uids.clone();
            sorted.sort_unstable();
            let items = format!(
                "(UID RFC822.SIZE INTERNALDATE BODY.PEEK[]<0.{}>)",
                cap.min(u32::MAX as usize)
            );
            let fetches: Vec<Fetch> = session
                .uid_fetch(uid_set(&sorted), &items)
                .await
                .map_err(|source| self.step_error("UID FETCH", source))?
                .try_collect()
                .await
                .map_err(|source| self.step_error("UID FETCH", source))?;
            let mut by_uid: HashMap<u32, &Fetch> =
                fetches.iter().filter_map(|f| Some((f.uid?, f))).collect();
            for (w, uid) in chunk.iter().zip(&uids) {
                let Some(f) = by_uid.remove(uid) else {
                    continue;
                };
                let Some(body) = f.body() else {
                    continue;
                };
                out.push(Inbound {
                    id: w.id.clone(),
                    raw: body.to_vec(),
                    size: f.size.map_or(body.len(), |s| s as usize),
                    arrived: f.internal_date().map(|d| d.timestamp()),
                });
            }
        }
        Ok(out)
    }

    /// Marks the messages of the UID set `set` handled (see [`Self::mark_done`]).
    async fn mark_set_in(
        &mut self,
        session: &mut Session,
        mailbox: &str,
        uidvalidity: u32,
        set: &str,
    ) -> Result<(), InboxError> {
        self.select_expecting(session, mailbox, uidvalidity).await?;
        let flags = if self.keywords_kept() {
            format!("+FLAGS.SILENT (\\Seen {DONE_KEYWORD})")
        } else {
            "+FLAGS.SILENT (\\Seen)".to_owned()
        };
        self.store(session, set, &flags).await?;
        let Some(processed) = self.cfg.processed_mailbox.clone() else {
            return Ok(());
        };
        self.move_uid(session, set, &processed).await
    }

    /// Moves the selected mailbox's message `uid` to `target` (UID MOVE, or
    /// COPY + \Deleted + EXPUNGE where MOVE is not offered).
    async fn move_uid(
        &mut self,
        session: &mut Session,
        uid: &str,
        target: &str,
    ) -> Result<(), InboxError> {
        if self.caps.moves {
            session
                .uid_mv(uid, target)
                .await
                .map_err(|source| self.step_error("UID MOVE", source))?;
            return Ok(());
        }
        session
            .uid_copy(uid, target)
            .await
            .map_err(|source| self.step_error("UID COPY", source))?;
        self.store(session, uid, "+FLAGS.SILENT (\\Deleted)")
            .await?;
        if self.caps.uidplus {
            let expunged: Vec<u32> = session
                .uid_expunge(uid)
                .await
                .map_err(|source| self.step_error("UID EXPUNGE", source))?
                .try_collect()
                .await
                .map_err(|source| self.step_error("UID EXPUNGE", source))?;
            tracing::debug!(count = expunged.len(), "expunged");
        } else {
            // Without UIDPLUS, EXPUNGE removes every \Deleted message of the
            // mailbox; the referee's inbox holds no others on purpose.
            let expunged: Vec<u32> = session
                .expunge()
                .await
                .map_err(|source| self.step_error("EXPUNGE", source))?
                .try_collect()
                .await
                .map_err(|source| self.step_error("EXPUNGE", source))?;
            tracing::debug!(count = expunged.len(), "expunged");
        }
        Ok(())
    }

    async fn quarantine_in(
        &mut self,
        session: &mut Session,
        mailbox: &str,
        uidvalidity: u32,
        uid: u32,
        folder: &str,
    ) -> Result<(), InboxError> {
        self.ensure_mailbox(session, folder).await?;
        // LIST/CREATE may leave the mailbox selected; select it again for the UID.
        self.selected = None;
        self.select_expecting(session, mailbox, uidvalidity).await?;
        self.move_uid(session, &uid.to_string(), folder).await
    }

    async fn store(&self, session: &mut Session, uid: &str, what: &str) -> Result<(), InboxError> {
        let updates: Vec<Fetch> = session
            .uid_store(uid, what)
            .await
            .map_err(|source| self.step_error("UID STORE", source))?
            .try_collect()
            .await
            .map_err(|source| self.step_error("UID STORE", source))?;
        tracing::trace!(count = updates.len(), "store answered");
        Ok(())
    }

    /// Puts the session back unless the step broke it.
    fn finish<T>(
        &mut self,
        session: Session,
        step: &'static str,
        result: Result<Result<T, InboxError>, tokio::time::error::Elapsed>,
    ) -> Result<T, InboxError> {
        match result {
            Ok(Ok(value)) => {
                self.session = Some(session);
                Ok(value)
            }
            Ok(Err(e)) => {
                // A NO or BAD leaves the connection sound (but maybe nothing selected).
                if let InboxError::ImapStep {
                    source: ImapError::No(_) | ImapError::Bad(_),
                    ..
                } = &e
                {
                    self.selected = None;
                    self.session = Some(session);
                }
                Err(e)
            }
            Err(_) => Err(self.timeout_error(step, COMMAND_TIMEOUT)),
        }
    }

    fn step_error(&self, step: &'static str, source: ImapError) -> InboxError {
        InboxError::ImapStep {
            server: self.server.clone(),
            step,
            source,
        }
    }

    fn timeout_error(&self, step: &'static str, after: Duration) -> InboxError {
        InboxError::Timeout {
            server: self.server.clone(),
            step,
            after,
        }
    }
}

/// The rustls client config: the CA file's certificates if given, else the
/// public web PKI roots.
pub(crate) fn tls_config(ca_file: Option<&std::path::Path>) -> Result<ClientConfig, TlsError> {
    let mut roots = RootCertStore::empty();
    match ca_file {
        Some(path) => {
            let pem = std::fs::read(path).map_err(|source| TlsError::CaFileRead {
                path: path.to_owned(),
                source,
            })?;
            let certs: Vec<CertificateDer<'static>> = rustls_pemfile::certs(&mut pem.as_slice())
                .collect::<Result<_, _>>()
                .map_err(|source| TlsError::CaFilePem {
                    path: path.to_owned(),
                    source,
                })?;
            if certs.is_empty() {
                return Err(TlsError::CaFileEmpty {
                    path: path.to_owned(),
                });
            }
            for cert in certs {
                roots
                    .add(cert)
                    .map_err(|source| TlsError::CaFileCertificate {
                        path: path.to_owned(),
                        source,
                    })?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(TlsError::Protocol)?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// A mailbox name as an IMAP quoted string (for LIST, which async-imap sends raw).
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Sorted UIDs as an IMAP sequence set with ranges: `1:3,7,9:10`.
fn uid_set(sorted: &[u32]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        if !out.is_empty() {
            out.push(',');
        }
        if start == end {
            out.push_str(&start.to_string());
        } else {
            out.push_str(&format!("{start}:{end}"));
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_set_compresses_runs() {
        assert_eq!(uid_set(&[1, 2, 3, 7, 9, 10]), "1:3,7,9:10");
        assert_eq!(uid_set(&[5]), "5");
        assert_eq!(uid_set(&[]), "");
    }

    #[test]
    fn a_missing_ca_file_is_a_tls_error_naming_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("missing.pem");
        let err = tls_config(Some(&path)).expect_err("no such file");
        assert!(
            matches!(&err, TlsError::CaFileRead { path: p, .. } if *p == path),
            "{err:?}"
        );
    }

    #[test]
    fn a_ca_file_without_a_certificate_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("empty.pem");
        std::fs::write(&path, "not a certificate\n").expect("write");
        let err = tls_config(Some(&path)).expect_err("no certificate in it");
        assert!(
            matches!(&err, TlsError::CaFileEmpty { path: p } if *p == path),
            "{err:?}"
        );
        assert!(
            err.to_string().contains("holds no PEM certificate"),
            "{err}"
        );
    }

    #[test]
    fn quote_escapes_quotes_and_backslashes() {
        assert_eq!(quote(r#"a"b\c"#), r#""a\"b\\c""#);
    }
}
