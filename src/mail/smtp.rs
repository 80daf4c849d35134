//! The SMTP outbox transport (lettre, pooled, over tokio-rustls). [IO]
//!
//! [`SmtpError`] tells a retry loop what to do: [`SmtpError::is_permanent`]
//! means "this mail will never go to this recipient" and holds only for a
//! refusal of the recipient or of this mail (550, 551, 552, 553, 554, 556) or
//! an address that does not parse. Everything else is transient — no
//! connection, a timeout, TLS trouble, a 4xx answer, and refused credentials
//! (530, 534, 535, 538): a rotated password must not drop every relay.
//! Exactly one of the two holds for every error.

use std::time::Duration;

use std::time::Instant;

use lettre::address::{Address, AddressError, Envelope};
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{
    AsyncSmtpConnection, AsyncTokioStream, Certificate, CertificateStore, TlsParameters,
};
use lettre::transport::smtp::commands::{Data, Ehlo, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use lettre::transport::smtp::response::Response;
use tokio_rustls::rustls::pki_types::ServerName;

use crate::config::{ConfigError, SmtpConfig, Tls as TlsMode};

/// Bound on each SMTP command (lettre's own timeout, connection included).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// Connections kept open to the relay, each carrying one mail at a time.

#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    /// The relay, the connection or TLS failed, or the relay said no.
    #[error("SMTP {server}: {source}")]
    Smtp {
        server: String,
        source: lettre::transport::smtp::Error,
    },
    #[error("address {address:?} is not valid: {source}")]
    Address {
        address: String,
        source: AddressError,
    },
    #[error("no envelope: {0}")]
    Envelope(lettre::error::Error),
    #[error("SMTP {server}: TLS setup: {source}")]
    TlsSetup {
        server: String,
        source: lettre::transport::smtp::Error,
    },
    #[error("SMTP CA file {path}: {source}")]
    CaFileRead {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("SMTP CA file {path}: {source}")]
    CaFilePem {
        path: std::path::PathBuf,
        source: lettre::transport::smtp::Error,
    },
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// No TCP connection (or no TLS over it) to the relay.
    #[error("SMTP {server}: cannot connect: {source}")]
    Connect {
        server: String,
        source: std::io::Error,
    },
    #[error("SMTP {server}: {source}")]
    Tls {
        server: String,
        source: crate::mail::TlsError,
    },
    #[error("SMTP {server}: no answer in time")]
    Timeout { server: String },
    #[error("SMTP {server}: the transport is closed")]
    Closed { server: String },
}

/// Reply codes that refuse a recipient or this mail for good (RFC 5321,
/// 4.2.2/4.2.3): unknown or moved mailbox, over quota, bad address,
/// transaction refused, domain takes no mail.
const PERMANENT_CODES: [u16; 6] = [550, 551, 552, 553, 554, 556];

/// Reply codes that refuse the login (RFC 4954): authentication required,
/// mechanism too weak, credentials invalid, encryption required.
const LOGIN_REFUSED_CODES: [u16; 4] = [530, 534, 535, 538];

impl SmtpError {
    /// Worth retrying later: everything but a refusal of this recipient or
    /// mail ([`SmtpError::is_permanent`]).
    pub fn is_transient(&self) -> bool {
        !self.is_permanent()
    }

    /// Will fail the same way every time for this recipient: the relay
    /// refused it or this mail with a permanent code, or the address does
    /// not parse. A refused login, a broken TLS setup or configuration is
    /// not: the operator can fix those, and the mail should go then.
    pub fn is_permanent(&self) -> bool {
        match self {
            SmtpError::Smtp { source, .. } => {
                source.is_permanent()
                    && self
                        .smtp_code()
                        .is_some_and(|c| PERMANENT_CODES.contains(&c))
            }
            SmtpError::Address { .. } | SmtpError::Envelope(_) => true,
            SmtpError::TlsSetup { .. }
            | SmtpError::CaFileRead { .. }
            | SmtpError::CaFilePem { .. }
            | SmtpError::Config(_)
            | SmtpError::Connect { .. }
            | SmtpError::Tls { .. }
            | SmtpError::Timeout { .. }
            | SmtpError::Closed { .. } => false,
        }
    }

    /// The relay refused the login (wrong user name or password, or it
    /// wants TLS first): the password file is the first thing to check.
    pub fn is_login_refused(&self) -> bool {
        self.smtp_code()
            .is_some_and(|c| LOGIN_REFUSED_CODES.contains(&c))
    }

    /// The relay's reply code, when it answered with an error.
    pub fn smtp_code(&self) -> Option<u16> {
        match self {
            SmtpError::Smtp { source, .. } => source
                .status()
                .and_then(|code| code.to_string().parse().ok()),
            _ => None,
        }
    }
}

/// Sends raw RFC 5322 messages to one relay over a small pool of
/// connections, each opened by wildt itself with `TCP_NODELAY` and handed
/// to lettre's SMTP client.
///
/// lettre's own connector leaves Nagle's algorithm on, and it writes a
/// message's data and the closing `.` in two writes: the `.` then waits for
/// the relay's delayed ACK, 40-55 ms per mail on loopback. Up to
/// `connections` mails are in flight at once, each on its own connection.
#[derive(Clone)]
pub struct SmtpTransport {
    inner: std::sync::Arc<Relay>,
}

struct Relay {
    server: String,
    host: String,
    port: u16,
    tls: TlsMode,
    tls_parameters: Option<TlsParameters>,
    /// For implicit TLS, which wildt sets up itself (tokio-rustls).
    rustls: Option<std::sync::Arc<tokio_rustls::rustls::ClientConfig>>,
    credentials: Option<Credentials>,
    hello: ClientId,
    idle: std::sync::Mutex<Vec<(Session, Instant)>>,
    slots: tokio::sync::Semaphore,
    /// `[outbox] connections`: the most kept open and in flight at once.
    connections: usize,
}

impl std::fmt::Debug for SmtpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpTransport")
            .field("server", &self.inner.server)
            .finish()
    }
}

/// A pooled connection idle longer than this is asked (NOOP) whether it is
/// still open before it carries a mail.
const CHECK_IDLE_AFTER: Duration = Duration::from_secs(5);

impl SmtpTransport {
    /// Builds the transport (reads the password and CA files; opens no connection).
    pub fn new(cfg: &SmtpConfig) -> Result<SmtpTransport, SmtpError> {
        let server = format!("{}:{}", cfg.host, cfg.port);
        let tls_parameters = match cfg.tls {
            TlsMode::None | TlsMode::Implicit => None,
            TlsMode::StartTls => Some(tls_parameters(cfg, &server)?),
        };
        let rustls = match cfg.tls {
            TlsMode::Implicit => Some(std::sync::Arc::new(
                crate::mail::imap::tls_config(cfg.ca_file.as_deref()).map_err(|source| {
                    SmtpError::Tls {
                        server: server.clone(),
                        source,
                    }
                })?,
            )),
            _ => None,
        };
        let credentials = match (&cfg.username, &cfg.password) {
            (Some(username), Some(password)) => {
                Some(Credentials::new(username.clone(), password.read()?))
            }
            _ => None,
        };
        Ok(SmtpTransport {
            inner: std::sync::Arc::new(Relay {
                server,
                host: cfg.host.clone(),
                port: cfg.port,
                tls: cfg.tls,
                tls_parameters,
                rustls,
                credentials,
                hello: ClientId::default(),
                idle: std::sync::Mutex::new(Vec::new()),
                slots: tokio::sync::Semaphore::new(cfg.connections.max(1)),
                connections: cfg.connections.max(1),
            }),
        })
    }

    /// How many mails may be handed to [`SmtpTransport::send_raw`] at once
    /// to good effect: one per pooled connection.
    pub fn parallelism(&self) -> usize {
        self.inner.connections
    }

    /// Sends `raw` as is, with envelope sender `from` and recipients `to`
    /// (the headers are not consulted). All recipients are accepted or none.
    pub async fn send_raw(&self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SmtpError> {
        let from = parse_address(from)?;
        let to = to
            .iter()
            .map(|a| parse_address(a))
            .collect::<Result<Vec<_>, _>>()?;
        let envelope = Envelope::new(Some(from), to).map_err(SmtpError::Envelope)?;
        let relay = &self.inner;
        let _slot = relay.slots.acquire().await.map_err(|_| SmtpError::Closed {
            server: relay.server.clone(),
        })?;
        let mut session = relay.connection().await?;
        // A whole mail (MAIL, RCPT, DATA, the data, its answer) within the
        // command timeout, twice over.
        let pipelined = session.pipelining && envelope_is_ascii(&envelope);
        let sent = tokio::time::timeout(2 * COMMAND_TIMEOUT, async {
            if pipelined {
                send_pipelined(&mut session.conn, &envelope, raw).await
            } else {
                let sent = session.conn.send(&envelope, raw).await;
                sent.map_err(Refused::Said)
            }
        })
        .await;
        match sent {
            Ok(Ok(_)) => {
                relay.give_back(session);
                Ok(())
            }
            Ok(Err(Refused::InData(source))) => {
                // Closed without QUIT, which the relay would take as part of
                // the mail: a mail cut off before its `.` is never sent on.
                drop(session);
                Err(relay.error(source))
            }
            Ok(Err(Refused::Said(source))) => {
                // A refusal closed the connection (lettre's `abort`); an
                // error before any command was written (a relay without
                // 8BITMIME for a mail that needs it) leaves it good.
                if session.conn.has_broken() {
                    session.conn.abort().await;
                } else {
                    relay.give_back(session);
                }
                Err(relay.error(source))
            }
            Err(_) => {
                session.conn.abort().await;
                Err(SmtpError::Timeout {
                    server: relay.server.clone(),
                })
            }
        }
    }

    /// Connects (or takes a pooled connection) and sends NOOP: `Ok(true)` if
    /// the relay answered.
    pub async fn test_connection(&self) -> Result<bool, SmtpError> {
        let relay = &self.inner;
        let mut session = relay.connection().await?;
        let answered = session.conn.test_connected().await;
        if answered {
            relay.give_back(session);
        }
        Ok(answered)
    }
}

impl Relay {
    /// A pooled connection that still answers, or a new one.
    async fn connection(&self) -> Result<Session, SmtpError> {
        loop {
            let pooled = self
                .idle
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .pop();
            let Some((mut session, since)) = pooled else {
                break;
            };
            if session.conn.has_broken() {
                continue;
            }
            if since.elapsed() < CHECK_IDLE_AFTER || session.conn.test_connected().await {
                return Ok(session);
            }
            session.conn.abort().await;
        }
        // Boxed: the handshake's state (TLS above all) is most of the size
        // of a send's future, which is moved whole on each hand-over (into
        // the sender's set of mails in flight), though a pooled connection
        // never needs it.
        tokio::time::timeout(COMMAND_TIMEOUT, Box::pin(self.connect()))
            .await
            .map_err(|_| SmtpError::Timeout {
                server: self.server.clone(),
            })?
    }

    /// Opens a connection: TCP with `TCP_NODELAY`, implicit TLS or
    /// STARTTLS as configured (STARTTLS required when configured), EHLO,
    /// and the login when credentials are set.
    async fn connect(&self) -> Result<Session, SmtpError> {
        let io = |source| SmtpError::Connect {
            server: self.server.clone(),
            source,
        };
        let tcp = open_tcp(&self.host, self.port).await.map_err(io)?;
        let mut conn = match &self.rustls {
            Some(config) => {
                let name =
                    ServerName::try_from(self.host.clone()).map_err(|_| SmtpError::Connect {
                        server: self.server.clone(),
                        source: std::io::Error::other(format!(
                            "{} is not a valid TLS server name",
                            self.host
                        )),
                    })?;
                let tls = tokio_rustls::TlsConnector::from(config.clone())
                    .connect(name, tcp)
                    .await
                    .map_err(io)?;
                AsyncSmtpConnection::connect_with_transport(Box::new(ImplicitTls(tls)), &self.hello)
                    .await
            }
            None => AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &self.hello).await,
        }
        .map_err(|source| self.error(source))?;
        if let (TlsMode::StartTls, Some(params)) = (self.tls, &self.tls_parameters) {
            conn.starttls(params.clone(), &self.hello)
                .await
                .map_err(|source| self.error(source))?;
        }
        // lettre keeps only the EHLO keywords it uses, and PIPELINING is not
        // one: asked again (before AUTH, which a new EHLO may undo). A relay
        // that refuses a second EHLO gets its mail a command at a time.
        let pipelining = match conn.command(Ehlo::new(self.hello.clone())).await {
            Ok(ehlo) => offers_pipelining(&ehlo),
            Err(e) => {
                tracing::debug!(server = %self.server, error = %e,
                    "a second EHLO was refused: mail goes a command at a time");
                false
            }
        };
        if let Some(credentials) = &self.credentials {
            conn.auth(&[Mechanism::Plain, Mechanism::Login], credentials)
                .await
                .map_err(|source| self.error(source))?;
        }
        Ok(Session { conn, pipelining })
    }

    fn give_back(&self, session: Session) {
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if idle.len() < self.connections {
            idle.push((session, Instant::now()));
        }
    }

    fn error(&self, source: lettre::transport::smtp::Error) -> SmtpError {
        SmtpError::Smtp {
            server: self.server.clone(),
            source,
        }
    }
}

/// A connection to the relay and what its EHLO offered that lettre does not
/// keep.
struct Session {
    conn: AsyncSmtpConnection,
    /// The relay offered PIPELINING (RFC 2920).
    pipelining: bool,
}

/// Whether an EHLO answer lists the PIPELINING keyword (RFC 2920).
fn offers_pipelining(ehlo: &Response) -> bool {
    ehlo.message().skip(1).any(|line| {
        line.split_ascii_whitespace()
            .next()
            .is_some_and(|k| k.eq_ignore_ascii_case("PIPELINING"))
    })
}

/// Whether every address of `envelope` is ASCII (else SMTPUTF8, which
/// lettre's own send negotiates).
fn envelope_is_ascii(envelope: &Envelope) -> bool {
    let ascii = |a: &Address| AsRef::<str>::as_ref(a).is_ascii();
    envelope.from().is_none_or(ascii) && envelope.to().iter().all(ascii)
}

/// MAIL, every RCPT and DATA written at once, as PIPELINING allows
/// (DATA last in the group, RFC 2920 3.1).
struct Transaction<'a> {
    mail: Mail,
    rcpts: &'a [Address],
}

impl std::fmt::Display for Transaction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.mail)?;
        for to in self.rcpts {
            write!(f, "{}", Rcpt::new(to.clone(), Vec::new()))?;
        }
        write!(f, "{Data}")
    }
}

/// A mail's data as the DATA phase carries it (RFC 5321 4.5.2): a `.`
/// that starts a line (after CRLF, or first) doubled, then the line with
/// a lone `.` that ends it. Line starts are found with memchr, where
/// lettre's `message` pushes a byte at a time into a growing buffer (its
/// codec is the largest single function in a profile of wildt sending
/// 2,000 replies of 11 KB). Unlike lettre, a mail that ends with CRLF (as
/// every rendered reply does) gets no empty line added before the end.
struct DataPhase<'a>(&'a str);

impl std::fmt::Display for DataPhase<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rest = self.0;
        if rest.starts_with('.') {
            f.write_str(".")?;
        }
        // Built once: a searcher costs more to make than a mail to search.
        static LINE_DOT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\r\n."));
        while let Some(at) = LINE_DOT.find(rest.as_bytes()) {
            let (line, after) = rest.split_at(at + 3);
            f.write_str(line)?;
            f.write_str(".")?;
            rest = after;
        }
        f.write_str(rest)?;
        if self.0.ends_with("\r\n") {
            f.write_str(".\r\n")
        } else {
            f.write_str("\r\n.\r\n")
        }
    }
}

/// Why a mail was not sent.
enum Refused {
    /// The relay's answer or the connection's failure; the connection was
    /// closed with QUIT where it still answered (lettre's `abort`).
    Said(lettre::transport::smtp::Error),
    /// A refusal after which the relay is waiting for the mail's data (it
    /// accepted DATA for the recipients it took): the connection must be
    /// dropped without another word.
    InData(lettre::transport::smtp::Error),
}

/// Sends `raw` over a relay that offered PIPELINING: MAIL, RCPT and DATA
/// in one write and their answers read after, then the data: two round
/// trips a mail instead of four. Any refusal leaves the mail unsent to
/// every recipient ("all or none", as lettre's own send) and the
/// connection closed; the first refusal is the error (its code tells a
/// retry loop what to do).
async fn send_pipelined(
    conn: &mut AsyncSmtpConnection,
    envelope: &Envelope,
    raw: &[u8],
) -> Result<Response, Refused> {
    let mut parameters = Vec::new();
    if !raw.is_ascii() {
        if !conn.server_info().supports_feature(Extension::EightBitMime) {
            // lettre's send says why and sends nothing.
            return conn.send(envelope, raw).await.map_err(Refused::Said);
        }
        parameters.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    let transaction = Transaction {
        mail: Mail::new(envelope.from().cloned(), parameters),
        rcpts: envelope.to(),
    };
    // Every answer is read, refused or not, so none is taken for the
    // answer to what comes after: MAIL's, each RCPT's, then DATA's.
    let mut first_error = conn.command(transaction).await.err();
    for _ in envelope.to() {
        if let Err(e) = conn.read_response().await {
            first_error.get_or_insert(e);
        }
    }
    let data = conn.read_response().await;
    match (first_error, data) {
        (None, Ok(_)) => {}
        // DATA accepted for the recipients that were: a QUIT now would be
        // read as the mail's first line.
        (Some(e), Ok(_)) => return Err(Refused::InData(e)),
        (Some(e), Err(_)) | (None, Err(e)) => {
            conn.abort().await;
            return Err(Refused::Said(e));
        }
    }
    // Written as one "command" whose answer is the mail's: lettre has no
    // other way to write prepared bytes. Text that is not UTF-8 (only an
    // 8BITMIME body could be) goes through lettre's own codec.
    let sent = match std::str::from_utf8(raw) {
        Ok(text) => conn.command(DataPhase(text)).await,
        Err(_) => conn.message(raw).await,
    };
    match sent {
        Ok(answer) => Ok(answer),
        Err(e) => {
            conn.abort().await;
            Err(Refused::Said(e))
        }
    }
}

/// A TCP connection to the relay with Nagle's algorithm off: each write
/// (the closing `.` of a mail above all) leaves at once instead of waiting
/// for the relay's ACK of the one before.
async fn open_tcp(host: &str, port: u16) -> std::io::Result<tokio::net::TcpStream> {
    let tcp = tokio::net::TcpStream::connect((host, port)).await?;
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// A TLS stream wildt opened itself (implicit TLS), as lettre's client
/// takes a stream.
#[derive(Debug)]
struct ImplicitTls(tokio_rustls::client::TlsStream<tokio::net::TcpStream>);

impl AsyncTokioStream for ImplicitTls {
    fn peer_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.0.get_ref().0.peer_addr()
    }
}

impl tokio::io::AsyncRead for ImplicitTls {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for ImplicitTls {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

fn parse_address(address: &str) -> Result<Address, SmtpError> {
    address.parse().map_err(|source| SmtpError::Address {
        address: address.to_owned(),
        source,
    })
}

/// TLS checked against the CA file alone when one is set, else the public roots.
fn tls_parameters(cfg: &SmtpConfig, server: &str) -> Result<TlsParameters, SmtpError> {
    let mut builder = TlsParameters::builder(cfg.host.clone());
    if let Some(path) = &cfg.ca_file {
        let pem = std::fs::read(path).map_err(|source| SmtpError::CaFileRead {
            path: path.clone(),
            source,
        })?;
        let cert = Certificate::from_pem(&pem).map_err(|source| SmtpError::CaFilePem {
            path: path.clone(),
            source,
        })?;
        builder = builder
            .certificate_store(CertificateStore::None)
            .add_root_certificate(cert);
    }
    builder.build().map_err(|source| SmtpError::TlsSetup {
        server: server.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dot_that_starts_a_line_is_doubled_and_the_data_ends_with_a_lone_dot() {
        let cases = [
            ("", "\r\n.\r\n"),
            // A mail that ends its last line gets no empty line added.
            ("Hello\r\n", "Hello\r\n.\r\n"),
            (".first", "..first\r\n.\r\n"),
            ("a\r\n.\r\nb", "a\r\n..\r\nb\r\n.\r\n"),
            ("a\r\n..b\r\n.c", "a\r\n...b\r\n..c\r\n.\r\n"),
            // Only CRLF starts a line, as lettre's codec reads it: a dot
            // after a bare LF or CR stays single.
            ("a\n.b\r.c", "a\n.b\r.c\r\n.\r\n"),
            ("mid.dle\r\nend.", "mid.dle\r\nend.\r\n.\r\n"),
        ];
        for (raw, sent) in cases {
            assert_eq!(DataPhase(raw).to_string(), sent, "{raw:?}");
        }
    }

    proptest::proptest! {
        /// What the relay reads back (RFC 5321 4.5.2: the lines before the
        /// lone dot, each with a leading dot taken off) is the mail, its
        /// last line ended by CRLF if it was not; no line before is a lone
        /// dot.
        #[test]
        fn the_data_phase_reads_back_as_the_mail(raw in "([.a\r\n]|\r\n){0,40}") {
            let sent = DataPhase(&raw).to_string();
            let content = sent.strip_suffix(".\r\n").expect("the end line");
            proptest::prop_assert!(content.ends_with("\r\n"), "no line ends before the dot: {:?}", sent);
            let lines: Vec<&str> = content.split_terminator("\r\n").collect();
            proptest::prop_assert!(lines.iter().all(|l| *l != "."), "a lone dot in {:?}", sent);
            let back: String = lines
                .iter()
                .map(|l| format!("{}\r\n", l.strip_prefix('.').unwrap_or(l)))
                .collect();
            let expected = if raw.ends_with("\r\n") { raw.clone() } else { format!("{raw}\r\n") };
            proptest::prop_assert_eq!(back, expected);
        }
    }

    fn ehlo(lines: &[&str]) -> Response {
        use lettre::transport::smtp::response::{Category, Code, Detail, Severity};
        Response::new(
            Code::new(
                Severity::PositiveCompletion,
                Category::MailSystem,
                Detail::Zero,
            ),
            lines.iter().map(|l| (*l).to_owned()).collect(),
        )
    }

    #[test]
    fn pipelining_is_used_only_when_the_ehlo_lists_it_as_a_keyword() {
        let postfix = ehlo(&["mx.example", "PIPELINING", "SIZE 10240000", "8BITMIME"]);
        assert!(offers_pipelining(&postfix));
        assert!(offers_pipelining(&ehlo(&["mx.example", "pipelining"])));
        // Not offered: absent, only the greeting naming it, or a keyword
        // that merely starts with it.
        assert!(!offers_pipelining(&ehlo(&[
            "mx.example",
            "SIZE 1000",
            "8BITMIME"
        ])));
        assert!(!offers_pipelining(&ehlo(&[
            "PIPELINING.example greets you"
        ])));
        assert!(!offers_pipelining(&ehlo(&["mx.example", "PIPELININGX"])));
    }

    #[test]
    fn the_pipelined_group_is_mail_every_rcpt_then_data() {
        let from: Address = "ref@club.example".parse().unwrap();
        let to: Vec<Address> = vec![
            "a@example.org".parse().unwrap(),
            "b@example.net".parse().unwrap(),
        ];
        let group = Transaction {
            mail: Mail::new(Some(from), Vec::new()),
            rcpts: &to,
        };
        assert_eq!(
            group.to_string(),
            "MAIL FROM:<ref@club.example>\r\nRCPT TO:<a@example.org>\r\n\
             RCPT TO:<b@example.net>\r\nDATA\r\n"
        );
    }

    /// The connection handed to lettre has TCP_NODELAY set: without it, the
    /// closing `.` of every mail waited for the relay's delayed ACK.
    #[tokio::test]
    async fn the_relay_connection_is_opened_with_nagle_off() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a local port");
        let port = listener.local_addr().expect("its address").port();
        let tcp = open_tcp("127.0.0.1", port).await.expect("connected");
        assert!(tcp.nodelay().expect("the socket option"));
    }
}
