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

use lettre::address::{Address, AddressError, Envelope};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::transport::smtp::{AsyncSmtpTransport, PoolConfig};
use lettre::{AsyncTransport, Tokio1Executor};

use crate::config::{ConfigError, SmtpConfig, Tls as TlsMode};

/// Bound on each SMTP command (lettre's own timeout, connection included).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// Pooled connections kept open to the relay.
const POOL_SIZE: u32 = 4;

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
            | SmtpError::Config(_) => false,
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

/// Sends raw RFC 5322 messages to one relay over a small connection pool.
#[derive(Clone)]
pub struct SmtpTransport {
    server: String,
    inner: AsyncSmtpTransport<Tokio1Executor>,
}

impl std::fmt::Debug for SmtpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpTransport")
            .field("server", &self.server)
            .finish()
    }
}

impl SmtpTransport {
    /// Builds the transport (reads the password and CA files; opens no connection).
    pub fn new(cfg: &SmtpConfig) -> Result<SmtpTransport, SmtpError> {
        let server = format!("{}:{}", cfg.host, cfg.port);
        let tls = match cfg.tls {
            TlsMode::None => Tls::None,
            TlsMode::StartTls => Tls::Required(tls_parameters(cfg, &server)?),
            TlsMode::Implicit => Tls::Wrapper(tls_parameters(cfg, &server)?),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&cfg.host)
            .port(cfg.port)
            .tls(tls)
            .timeout(Some(COMMAND_TIMEOUT))
            .pool_config(PoolConfig::new().max_size(POOL_SIZE));
        if let (Some(username), Some(password)) = (&cfg.username, &cfg.password) {
            builder = builder.credentials(Credentials::new(username.clone(), password.read()?));
        }
        Ok(SmtpTransport {
            server,
            inner: builder.build(),
        })
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
        self.inner
            .send_raw(&envelope, raw)
            .await
            .map_err(|source| self.error(source))?;
        Ok(())
    }

    /// Connects (or takes a pooled connection) and sends NOOP: `Ok(true)` if
    /// the relay answered.
    pub async fn test_connection(&self) -> Result<bool, SmtpError> {
        self.inner
            .test_connection()
            .await
            .map_err(|source| self.error(source))
    }

    fn error(&self, source: lettre::transport::smtp::Error) -> SmtpError {
        SmtpError::Smtp {
            server: self.server.clone(),
            source,
        }
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
