//! The SMTP outbox transport (lettre, pooled, over tokio-rustls). [IO]
//!
//! [`SmtpError`] tells a retry loop what to do: [`SmtpError::is_transient`]
//! means "keep the message and try later" (no connection, timeout, TLS
//! trouble, a 4xx answer), [`SmtpError::is_permanent`] means "this message
//! will never go" (a 5xx answer such as an unknown recipient, an address that
//! does not parse). Exactly one of the two holds for every error.

use std::time::Duration;

use lettre::address::{Address, AddressError, Envelope};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::transport::smtp::response::Severity;
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

impl SmtpError {
    /// Worth retrying later: nothing listening, a timeout, a TLS failure, a
    /// lost connection, or a 4xx answer.
    pub fn is_transient(&self) -> bool {
        match self {
            SmtpError::Smtp { source, .. } => match source.status() {
                Some(code) => code.severity == Severity::TransientNegativeCompletion,
                // No SMTP answer: the network, the connection, TLS, a garbled
                // reply, a pool shutting down. Only lettre's own refusal to
                // build the transaction (a client error) will not get better.
                None => !source.is_client(),
            },
            SmtpError::Address { .. }
            | SmtpError::Envelope(_)
            | SmtpError::TlsSetup { .. }
            | SmtpError::CaFileRead { .. }
            | SmtpError::CaFilePem { .. }
            | SmtpError::Config(_) => false,
        }
    }

    /// Will fail the same way every time: a 5xx answer (unknown recipient,
    /// but also refused credentials), an invalid address or envelope, broken
    /// configuration.
    pub fn is_permanent(&self) -> bool {
        !self.is_transient()
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
