//! Configuration: TOML text -> raw serde structs -> a validated [`Config`].
//! [pure, except `Config::load` and `Secret::read`, which read files]
//!
//! Relative paths in the file are relative to the working directory, as the
//! embedded default (`config/local.toml`) expects. Secrets never live in the TOML:
//! it names files (systemd credentials) that hold them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// The embedded default configuration: Maildir in, file outbox, SQLite in `var/`.
pub const LOCAL_TOML: &str = include_str!("../config/local.toml");

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the configuration is not valid TOML or has an unknown key: {0}")]
    Toml(#[from] toml::de::Error),
    #[error("configuration key `{key}`: {why}")]
    Invalid { key: &'static str, why: String },
    #[error("cannot read the secret file {path} (from `{key}`): {source}")]
    Secret {
        key: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    referee: RawReferee,
    database: RawDatabase,
    inbox: RawInbox,
    outbox: RawOutbox,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    security: RawSecurity,
    #[serde(default)]
    clock: RawClock,
    publish: Option<RawPublish>,
    tablebase: Option<RawTablebase>,
    xfcc: Option<RawXfcc>,
    receipts: Option<RawReceipts>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClock {
    default_time: Option<String>,
    double_after_days: Option<u32>,
    leave_days_per_year: Option<u32>,
    reminder_after_days: Option<Vec<u32>>,
    warn_days_left: Option<u32>,
}

/// `[tablebase]`: one directory (`path = "…"`) or several (`path = […]`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTablebase {
    path: RawPaths,
    adjudicate: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawPaths {
    One(std::path::PathBuf),
    Many(Vec<std::path::PathBuf>),
}

/// `[tablebase]`: the Syzygy directories, and whether the referee ends
/// games by them on its own (`auto`) or only on a player's claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablebaseConfig {
    pub paths: Vec<std::path::PathBuf>,
    pub adjudicate: crate::tablebase::Adjudicate,
}

fn tablebase(raw: Option<RawTablebase>) -> Result<Option<TablebaseConfig>, ConfigError> {
    let Some(raw) = raw else { return Ok(None) };
    let paths = match raw.path {
        RawPaths::One(p) => vec![p],
        RawPaths::Many(p) => p,
    };
    if paths.is_empty() {
        return Err(invalid(
            "tablebase.path",
            "names no directory (leave [tablebase] out to turn tablebases off)",
        ));
    }
    let adjudicate = match raw.adjudicate.as_deref() {
        None | Some("claim") => crate::tablebase::Adjudicate::Claim,
        Some("auto") => crate::tablebase::Adjudicate::Auto,
        Some(other) => {
            return Err(invalid(
                "tablebase.adjudicate",
                format!("{other:?}: must be \"claim\" or \"auto\""),
            ));
        }
    };
    Ok(Some(TablebaseConfig { paths, adjudicate }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPublish {
    path: std::path::PathBuf,
}

/// `[publish]`: where the daemon keeps the public site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishConfig {
    pub path: std::path::PathBuf,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecurity {
    trusted_authserv_id: Option<String>,
    policy: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReferee {
    address: String,
    #[serde(default = "default_name")]
    name: String,
    organiser: Option<String>,
}

fn default_name() -> String {
    "wildt referee".to_owned()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDatabase {
    url: String,
    password_file: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInbox {
    kind: String,
    path: Option<PathBuf>,
    host: Option<String>,
    port: Option<u16>,
    tls: Option<String>,
    ca_file: Option<PathBuf>,
    username: Option<String>,
    password_file: Option<PathBuf>,
    mailbox: Option<String>,
    processed_mailbox: Option<String>,
    idle: Option<bool>,
    poll_interval_secs: Option<u64>,
    quarantine: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutbox {
    kind: String,
    path: Option<PathBuf>,
    host: Option<String>,
    port: Option<u16>,
    tls: Option<String>,
    ca_file: Option<PathBuf>,
    username: Option<String>,
    password_file: Option<PathBuf>,
    command: Option<PathBuf>,
    connections: Option<usize>,
    send_rate: Option<u32>,
    retry_initial_secs: Option<u64>,
    retry_max_secs: Option<u64>,
    stall_after_secs: Option<u64>,
}

/// The `[receipts]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReceipts {
    address: String,
    host: String,
    port: Option<u16>,
    tls: Option<String>,
    ca_file: Option<PathBuf>,
    username: String,
    password_file: PathBuf,
    mailbox: Option<String>,
    wait_secs: Option<u64>,
    keep_days: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    max_message_bytes: Option<usize>,
    replies_per_sender_per_hour: Option<u32>,
    games_per_player: Option<u32>,
    commands_per_message: Option<usize>,
}

/// What the value of each key must be, in words, for `wildt config check`:
/// every field of the raw tables above, by its dotted key. A test holds it
/// to the fields serde knows.
const KEY_VALUES: &[(&str, &str)] = &[
    (
        "referee.address",
        "an address in quotes, like \"chess@club.example\"",
    ),
    ("referee.name", "a name in quotes, like \"Club referee\""),
    (
        "referee.organiser",
        "an address in quotes, like \"organiser@club.example\"",
    ),
    (
        "database.url",
        "an SQLite or PostgreSQL URL in quotes, like \"sqlite:///var/lib/wildt/wildt.db\" or \"postgres://wildt@db.club.example/wildt\"",
    ),
    ("database.password_file", PATH),
    ("inbox.kind", "\"maildir\" or \"imap\""),
    ("inbox.path", PATH),
    ("inbox.host", HOST),
    ("inbox.port", PORT),
    ("inbox.tls", TLS),
    ("inbox.ca_file", PATH),
    ("inbox.username", "a user name in quotes"),
    ("inbox.password_file", PATH),
    (
        "inbox.mailbox",
        "an IMAP folder name in quotes, like \"INBOX\"",
    ),
    (
        "inbox.processed_mailbox",
        "an IMAP folder name in quotes, like \"Processed\"",
    ),
    ("inbox.idle", BOOLEAN),
    ("inbox.poll_interval_secs", SECONDS),
    (
        "inbox.quarantine",
        "a folder name in quotes, like \"wildt-failed\"",
    ),
    ("outbox.kind", "\"file\", \"smtp\" or \"sendmail\""),
    ("outbox.path", PATH),
    ("outbox.host", HOST),
    ("outbox.port", PORT),
    ("outbox.tls", TLS),
    ("outbox.ca_file", PATH),
    ("outbox.username", "a user name in quotes"),
    ("outbox.password_file", PATH),
    ("outbox.command", PATH),
    ("outbox.connections", "a number from 1 to 32"),
    (
        "outbox.send_rate",
        "a number of mails a second from 1 to 10000",
    ),
    ("outbox.retry_initial_secs", SECONDS),
    ("outbox.retry_max_secs", SECONDS),
    ("outbox.stall_after_secs", SECONDS),
    (
        "limits.max_message_bytes",
        "a whole number of bytes, like 1048576",
    ),
    (
        "limits.replies_per_sender_per_hour",
        "a whole number, like 60",
    ),
    ("limits.games_per_player", "a whole number, like 50"),
    (
        "limits.commands_per_message",
        "a whole number from 1 up, like 600",
    ),
    (
        "security.trusted_authserv_id",
        "a host name in quotes, like \"mx.club.example\"",
    ),
    ("security.policy", "\"key\", \"key+auth\" or \"auth\""),
    (
        "clock.default_time",
        "a time control in quotes: \"10/50\", \"30+3\" or \"none\"",
    ),
    (
        "clock.double_after_days",
        "a whole number of days from 1 up",
    ),
    (
        "clock.leave_days_per_year",
        "a whole number of days, like 45",
    ),
    (
        "clock.reminder_after_days",
        "a list of whole numbers of days, like [7, 14]",
    ),
    ("clock.warn_days_left", "a whole number of days, like 5"),
    ("publish.path", PATH),
    (
        "receipts.address",
        "an address in quotes, like \"receipts@club.example\"",
    ),
    ("receipts.host", HOST),
    ("receipts.port", PORT),
    ("receipts.tls", TLS),
    ("receipts.ca_file", PATH),
    ("receipts.username", "a user name in quotes"),
    ("receipts.password_file", PATH),
    (
        "receipts.mailbox",
        "an IMAP mailbox name in quotes, like \"INBOX\"",
    ),
    (
        "receipts.wait_secs",
        "a whole number of seconds from 10 up, like 300",
    ),
    (
        "receipts.keep_days",
        "a whole number of days from 1 up, like 7",
    ),
];

const PATH: &str = "a path in quotes, like \"/var/lib/wildt/site\"";
const HOST: &str = "a host name in quotes, like \"mail.club.example\"";
const PORT: &str = "a number from 1 to 65535";
const TLS: &str = "\"implicit\", \"starttls\" or \"none\"";
const BOOLEAN: &str = "true or false";
const SECONDS: &str = "a whole number of seconds, like 60";

/// What the value of `dotted_key` (`inbox.port`) must be, in words; `None`
/// for a key wildt does not know.
pub fn key_value_words(dotted_key: &str) -> Option<&'static str> {
    KEY_VALUES
        .iter()
        .find(|(key, _)| *key == dotted_key)
        .map(|(_, words)| *words)
}

/// How a connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tls {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Implicit,
    /// Plain connection upgraded with STARTTLS.
    StartTls,
    /// No TLS: for loopback only.
    None,
}

/// A file holding a secret (a password). Read when needed; never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret {
    key: &'static str,
    path: PathBuf,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({})", self.path.display())
    }
}

impl Secret {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The configuration key that names the file (`inbox.password_file`).
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// The same secret read from another file (`wildt config check` run
    /// outside the service reads a credential from its source).
    pub fn at(&self, path: PathBuf) -> Secret {
        Secret {
            key: self.key,
            path,
        }
    }

    /// The secret's text, without a trailing newline.
    pub fn read(&self) -> Result<String, ConfigError> {
        let text = std::fs::read_to_string(&self.path).map_err(|source| ConfigError::Secret {
            key: self.key,
            path: self.path.clone(),
            source,
        })?;
        Ok(text.trim_end_matches(['\r', '\n']).to_owned())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImapConfig {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    pub ca_file: Option<PathBuf>,
    pub username: String,
    pub password: Secret,
    pub mailbox: String,
    pub processed_mailbox: Option<String>,
    pub idle: bool,
    pub poll_interval: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InboxConfig {
    Maildir { path: PathBuf },
    Imap(ImapConfig),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    pub ca_file: Option<PathBuf>,
    pub username: Option<String>,
    pub password: Option<Secret>,
    /// `connections`: mails in flight at once, each on its own connection
    /// (default [`DEFAULT_SMTP_CONNECTIONS`], 1 to [`MAX_SMTP_CONNECTIONS`]).
    /// A provider may limit how many a sender may open.
    pub connections: usize,
    /// `send_rate`: mails handed to the server per second at most (1 to
    /// [`MAX_SEND_RATE`]); `None`, as fast as it takes them. Mail beyond it
    /// waits in the outbox (a relay's or a provider's sending limit).
    pub send_rate: Option<u32>,
}

/// Highest `[outbox] send_rate` accepted (mails per second).
pub const MAX_SEND_RATE: u32 = 10_000;

/// Default `[outbox] connections`: what most providers allow one sender.
pub const DEFAULT_SMTP_CONNECTIONS: usize = 4;
/// Highest `[outbox] connections` accepted.
pub const MAX_SMTP_CONNECTIONS: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutboxKind {
    File { path: PathBuf },
    Smtp(SmtpConfig),
    Sendmail { command: Option<PathBuf> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxConfig {
    pub kind: OutboxKind,
    /// First wait after a transient failure; doubled up to `retry_max`.
    pub retry_initial: Duration,
    pub retry_max: Duration,
    /// How long the outbox worker may fail to reach the database before the
    /// daemon stops pinging the watchdog (default 15 min), so that systemd
    /// restarts it.
    pub stall_after: Duration,
    /// `[receipts]`: the copies of sent mail that settle a mail in doubt.
    pub receipts: Option<ReceiptsConfig>,
}

/// `[receipts]`: every mail sent over SMTP names one more envelope
/// recipient, `address`, in the same SMTP transaction, so the relay takes
/// both or neither; the copies arrive in an IMAP mailbox wildt reads. When
/// a process dies between the relay's "250 OK" and marking the mail sent,
/// the next sender finds the mail's copy there and marks it sent instead
/// of sending it twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptsConfig {
    pub address: String,
    /// The mailbox the copies arrive in.
    pub imap: ImapConfig,
    /// How long a mail in doubt waits for its copy before it is sent again.
    pub wait: Duration,
    /// How long a copy is kept before wildt deletes it.
    pub keep: Duration,
}

/// Default `[receipts] wait_secs`.
pub const DEFAULT_RECEIPT_WAIT_SECS: u64 = 300;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Messages above this are not parsed (default 1 MiB).
    pub max_message_bytes: usize,
    /// Answers to one sender's own messages in an hour (default 60);
    /// relays of an opponent's moves do not count.
    pub replies_per_sender_per_hour: u32,
    /// Unfinished games one address may play at once (default 50).
    pub games_per_player: u32,
    /// Moves and command words one message may hold (default 600); a
    /// whole-record echo counts each move. Above it the text is not read.
    pub commands_per_message: usize,
}

/// Who may move, and whose word on the sender wildt trusts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Security {
    /// The `authserv-id` of the deployment's own MX (RFC 8601).
    pub trusted_authserv_id: Option<String>,
    pub policy: crate::auth::Policy,
}

/// The referee's own mailbox: `local@domain`; game addresses are
/// `local+<game>-<key>@domain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefereeConfig {
    pub address: String,
    pub local: String,
    pub domain: String,
    pub name: String,
    /// Who is told when a mail to a player fails for good, and when an
    /// inbox message is put in the quarantine.
    pub organiser: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub referee: RefereeConfig,
    pub database_url: String,
    /// `[database] password_file`: PostgreSQL's password (SQLite has none).
    pub database_password: Option<Secret>,
    pub inbox: InboxConfig,
    /// `[inbox] quarantine`: the Maildir subfolder or IMAP folder where a
    /// message that failed to be handled [`QUARANTINE_AFTER`] times goes.
    pub quarantine: String,
    pub outbox: OutboxConfig,
    pub limits: Limits,
    pub security: Security,
    pub clock: ClockConfig,
    pub publish: Option<PublishConfig>,
    /// `[tablebase]`; `None`: off.
    pub tablebase: Option<TablebaseConfig>,
    /// `[xfcc]`: the Xfcc (SOAP) server for chess GUIs; off when absent.
    pub xfcc: Option<XfccConfig>,
}

/// The `[clock]` table: the control of a new game unless `game new --time`
/// says otherwise, and the club's clock rules.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClockConfig {
    pub default_time: crate::clock::TimeControl,
    pub rules: crate::clock::ClockRules,
}

/// The default `[inbox] quarantine`.
pub const DEFAULT_QUARANTINE: &str = "wildt-failed";

/// A message whose handling failed this many times is put aside.
pub const QUARANTINE_AFTER: u32 = 3;

impl Config {
    /// Reads and validates the file at `path`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        Config::parse(&text)
    }

    /// Validates configuration text.
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text)?;
        let referee = referee(raw.referee)?;
        let database_password = database(&raw.database)?;
        let quarantine = quarantine(raw.inbox.quarantine.as_deref())?;
        Ok(Config {
            referee,
            database_url: raw.database.url,
            database_password,
            inbox: inbox(raw.inbox)?,
            quarantine,
            outbox: outbox(raw.outbox, raw.receipts)?,
            limits: Limits {
                max_message_bytes: raw
                    .limits
                    .max_message_bytes
                    .unwrap_or(crate::intake::DEFAULT_MAX_MESSAGE_BYTES),
                replies_per_sender_per_hour: raw.limits.replies_per_sender_per_hour.unwrap_or(60),
                games_per_player: raw.limits.games_per_player.unwrap_or(50),
                commands_per_message: match raw.limits.commands_per_message {
                    None => crate::intake::DEFAULT_MAX_COMMANDS,
                    Some(0) => {
                        return Err(invalid(
                            "limits.commands_per_message",
                            "must be at least 1: a message holds at least one command",
                        ));
                    }
                    Some(n) => n,
                },
            },
            security: security(raw.security)?,
            clock: clock(raw.clock)?,
            publish: raw.publish.map(|p| PublishConfig { path: p.path }),
            tablebase: tablebase(raw.tablebase)?,
            xfcc: raw.xfcc.map(xfcc).transpose()?,
        })
    }
}

fn clock(raw: RawClock) -> Result<ClockConfig, ConfigError> {
    let default_time = match raw.default_time {
        None => crate::clock::TimeControl::None,
        Some(t) => t.parse().map_err(|e| {
            invalid(
                "clock.default_time",
                format!("{e} (e.g. \"10/50\", \"30+3\" or \"none\")"),
            )
        })?,
    };
    let d = crate::clock::ClockRules::default();
    let mut reminders = raw.reminder_after_days.unwrap_or(d.reminder_after_days);
    if reminders.contains(&0) {
        return Err(invalid(
            "clock.reminder_after_days",
            "days must be at least 1",
        ));
    }
    reminders.sort_unstable();
    reminders.dedup();
    let double_after_days = raw.double_after_days.unwrap_or(d.double_after_days);
    if double_after_days == 0 {
        return Err(invalid("clock.double_after_days", "must be at least 1"));
    }
    Ok(ClockConfig {
        default_time,
        rules: crate::clock::ClockRules {
            double_after_days,
            leave_days_per_year: raw.leave_days_per_year.unwrap_or(d.leave_days_per_year),
            reminder_after_days: reminders,
            warn_days_left: raw.warn_days_left.unwrap_or(d.warn_days_left),
        },
    })
}

/// Everything deciding a message needs from the configuration, built once
/// from it: the referee's address, how the intake reads, the limits, and
/// whom wildt trusts about senders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub referee: RefereeConfig,
    pub intake: crate::intake::IntakeConfig,
    pub limits: Limits,
    pub security: Security,
    pub clock: crate::clock::ClockRules,
    /// The tablebases' mode and, once the edge has opened them, the tables.
    pub tablebase: crate::tablebase::TablebaseRules,
}

impl Config {
    /// The rules a message is decided by under this configuration.
    pub fn rules(&self) -> Rules {
        Rules {
            referee: self.referee.clone(),
            intake: crate::intake::IntakeConfig {
                referee_local: self.referee.local.clone(),
                referee_domain: self.referee.domain.clone(),
                max_message_bytes: self.limits.max_message_bytes,
                max_commands: self.limits.commands_per_message,
            },
            limits: self.limits.clone(),
            security: self.security.clone(),
            clock: self.clock.rules.clone(),
            // The tables are files: the edge opens them and sets them here.
            tablebase: crate::tablebase::TablebaseRules {
                adjudicate: self
                    .tablebase
                    .as_ref()
                    .map(|t| t.adjudicate)
                    .unwrap_or_default(),
                tables: None,
            },
        }
    }
}

fn invalid(key: &'static str, why: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        key,
        why: why.into(),
    }
}

fn referee(raw: RawReferee) -> Result<RefereeConfig, ConfigError> {
    let address = raw.address.trim().to_ascii_lowercase();
    let (local, domain) = address
        .split_once('@')
        .filter(|(l, d)| !l.is_empty() && d.contains('.') && !d.contains('@'))
        .ok_or_else(|| {
            invalid(
                "referee.address",
                "must be an address like chess@club.example",
            )
        })?;
    if local.contains('+') {
        return Err(invalid(
            "referee.address",
            "must not contain `+`: game addresses add `+<game>-<key>` to it",
        ));
    }
    let organiser = match raw.organiser {
        None => None,
        Some(o) => {
            let o = o.trim().to_ascii_lowercase();
            if !crate::event::is_address(&o) {
                return Err(invalid(
                    "referee.organiser",
                    "must be an address like organiser@club.example",
                ));
            }
            Some(o)
        }
    };
    Ok(RefereeConfig {
        local: local.to_owned(),
        domain: domain.to_owned(),
        address: address.clone(),
        name: raw.name,
        organiser,
    })
}

fn quarantine(raw: Option<&str>) -> Result<String, ConfigError> {
    let name = raw.map_or(DEFAULT_QUARANTINE, str::trim);
    // A Maildir subfolder is `.NAME` in the Maildir: no path separators, no
    // leading dot (which would nest it), and IMAP needs a name at all.
    if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\', '\0']) {
        return Err(invalid(
            "inbox.quarantine",
            format!("`{name}` is not a folder name like wildt-failed"),
        ));
    }
    Ok(name.to_owned())
}

fn security(raw: RawSecurity) -> Result<Security, ConfigError> {
    let policy = match raw.policy.as_deref() {
        None => crate::auth::Policy::Key,
        Some(p) => crate::auth::Policy::parse(p).ok_or_else(|| {
            invalid(
                "security.policy",
                format!("`{p}` is not one of key, key+auth, auth"),
            )
        })?,
    };
    let trusted_authserv_id = raw
        .trusted_authserv_id
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    if policy.needs_auth() && trusted_authserv_id.is_none() {
        return Err(invalid(
            "security.trusted_authserv_id",
            "policy key+auth or auth needs the authserv-id of your MX",
        ));
    }
    Ok(Security {
        trusted_authserv_id,
        policy,
    })
}

fn tls(key: &'static str, value: Option<String>, default: Tls) -> Result<Tls, ConfigError> {
    match value.as_deref() {
        None => Ok(default),
        Some("implicit") => Ok(Tls::Implicit),
        Some("starttls") => Ok(Tls::StartTls),
        Some("none") => Ok(Tls::None),
        Some(other) => Err(invalid(
            key,
            format!("`{other}` is not one of implicit, starttls, none"),
        )),
    }
}

/// Which database engine a store URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// One file beside the daemon (`sqlite://PATH`), the embedded default.
    Sqlite,
    /// A PostgreSQL server (`postgres://USER@HOST[:PORT]/DB`), which several
    /// daemons can share.
    Postgres,
}

impl Backend {
    /// The backend a store URL names, if it names one wildt knows.
    pub fn of(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

/// Checks `[database]`: an SQLite URL, or a PostgreSQL one whose password
/// is in `password_file` (never in the URL, which logs and `ps` may show).
fn database(raw: &RawDatabase) -> Result<Option<Secret>, ConfigError> {
    match Backend::of(&raw.url) {
        Some(Backend::Sqlite) => match raw.password_file {
            Some(_) => Err(invalid(
                "database.password_file",
                "an SQLite database has no password; leave password_file out",
            )),
            None => Ok(None),
        },
        Some(Backend::Postgres) => {
            let after_scheme = raw.url.split_once("://").map_or("", |(_, rest)| rest);
            let userinfo = after_scheme.split(['/', '?']).next().unwrap_or("");
            if userinfo
                .rsplit_once('@')
                .is_some_and(|(user, _)| user.contains(':'))
            {
                return Err(invalid(
                    "database.url",
                    "holds a password; put it in a file named by password_file instead",
                ));
            }
            Ok(secret("database.password_file", raw.password_file.clone()))
        }
        None => Err(invalid(
            "database.url",
            "must start with sqlite: or postgres://",
        )),
    }
}

fn secret(key: &'static str, path: Option<PathBuf>) -> Option<Secret> {
    path.map(|path| Secret { key, path })
}

fn inbox(raw: RawInbox) -> Result<InboxConfig, ConfigError> {
    match raw.kind.as_str() {
        "maildir" => Ok(InboxConfig::Maildir {
            path: raw
                .path
                .ok_or_else(|| invalid("inbox.path", "a maildir inbox needs a path"))?,
        }),
        "imap" => {
            let tls = tls("inbox.tls", raw.tls, Tls::Implicit)?;
            let default_port = if tls == Tls::Implicit { 993 } else { 143 };
            Ok(InboxConfig::Imap(ImapConfig {
                host: raw
                    .host
                    .ok_or_else(|| invalid("inbox.host", "an IMAP inbox needs a host"))?,
                port: raw.port.unwrap_or(default_port),
                tls,
                ca_file: raw.ca_file,
                username: raw
                    .username
                    .ok_or_else(|| invalid("inbox.username", "an IMAP inbox needs a username"))?,
                password: secret("inbox.password_file", raw.password_file).ok_or_else(|| {
                    invalid("inbox.password_file", "an IMAP inbox needs a password file")
                })?,
                mailbox: raw.mailbox.unwrap_or_else(|| "INBOX".to_owned()),
                processed_mailbox: raw.processed_mailbox,
                idle: raw.idle.unwrap_or(true),
                poll_interval: Duration::from_secs(raw.poll_interval_secs.unwrap_or(60).max(1)),
            }))
        }
        other => Err(invalid(
            "inbox.kind",
            format!("`{other}` is not one of maildir, imap"),
        )),
    }
}

fn receipts(raw: RawReceipts) -> Result<ReceiptsConfig, ConfigError> {
    if !crate::event::is_address(&raw.address) {
        return Err(invalid(
            "receipts.address",
            format!("`{}` is not a mail address", raw.address),
        ));
    }
    let tls = tls("receipts.tls", raw.tls, Tls::Implicit)?;
    let default_port = if tls == Tls::Implicit { 993 } else { 143 };
    let wait_secs = raw.wait_secs.unwrap_or(DEFAULT_RECEIPT_WAIT_SECS);
    if wait_secs < 10 {
        return Err(invalid(
            "receipts.wait_secs",
            format!(
                "{wait_secs} seconds is too short for a relay to deliver a copy: give 10 or more"
            ),
        ));
    }
    let keep_days = raw.keep_days.unwrap_or(7);
    if keep_days == 0 {
        return Err(invalid(
            "receipts.keep_days",
            "must be at least 1: a copy is looked for after a crash",
        ));
    }
    Ok(ReceiptsConfig {
        address: raw.address,
        imap: ImapConfig {
            host: raw.host,
            port: raw.port.unwrap_or(default_port),
            tls,
            ca_file: raw.ca_file,
            username: raw.username,
            password: Secret {
                key: "receipts.password_file",
                path: raw.password_file,
            },
            mailbox: raw.mailbox.unwrap_or_else(|| "INBOX".to_owned()),
            processed_mailbox: None,
            idle: false,
            poll_interval: Duration::from_secs(60),
        },
        wait: Duration::from_secs(wait_secs),
        keep: Duration::from_secs(keep_days * 86_400),
    })
}

fn outbox(raw: RawOutbox, raw_receipts: Option<RawReceipts>) -> Result<OutboxConfig, ConfigError> {
    let kind = match raw.kind.as_str() {
        "file" => OutboxKind::File {
            path: raw
                .path
                .ok_or_else(|| invalid("outbox.path", "a file outbox needs a path"))?,
        },
        "sendmail" => OutboxKind::Sendmail {
            command: raw.command,
        },
        "smtp" => {
            let tls = tls("outbox.tls", raw.tls, Tls::StartTls)?;
            let default_port = match tls {
                Tls::Implicit => 465,
                Tls::StartTls => 587,
                Tls::None => 25,
            };
            let password = secret("outbox.password_file", raw.password_file);
            if raw.username.is_some() != password.is_some() {
                return Err(invalid(
                    "outbox.username",
                    "username and password_file go together",
                ));
            }
            OutboxKind::Smtp(SmtpConfig {
                host: raw
                    .host
                    .ok_or_else(|| invalid("outbox.host", "an SMTP outbox needs a host"))?,
                port: raw.port.unwrap_or(default_port),
                tls,
                ca_file: raw.ca_file,
                username: raw.username,
                password,
                connections: match raw.connections {
                    None => DEFAULT_SMTP_CONNECTIONS,
                    Some(n @ 1..=MAX_SMTP_CONNECTIONS) => n,
                    Some(n) => {
                        return Err(invalid(
                            "outbox.connections",
                            format!("{n} is not between 1 and {MAX_SMTP_CONNECTIONS}"),
                        ));
                    }
                },
                send_rate: match raw.send_rate {
                    None => None,
                    Some(n @ 1..=MAX_SEND_RATE) => Some(n),
                    Some(n) => {
                        return Err(invalid(
                            "outbox.send_rate",
                            format!("{n} mails per second is not between 1 and {MAX_SEND_RATE}"),
                        ));
                    }
                },
            })
        }
        other => {
            return Err(invalid(
                "outbox.kind",
                format!("`{other}` is not one of file, smtp, sendmail"),
            ));
        }
    };
    let retry_initial = Duration::from_secs(raw.retry_initial_secs.unwrap_or(5).max(1));
    let retry_max = Duration::from_secs(raw.retry_max_secs.unwrap_or(600)).max(retry_initial);
    let stall_after = Duration::from_secs(raw.stall_after_secs.unwrap_or(900).max(1));
    let receipts = raw_receipts.map(receipts).transpose()?;
    if receipts.is_some() && !matches!(kind, OutboxKind::Smtp(_)) {
        return Err(invalid(
            "receipts.address",
            "receipts are copies sent over SMTP: [receipts] needs [outbox] kind = \"smtp\"",
        ));
    }
    Ok(OutboxConfig {
        kind,
        retry_initial,
        retry_max,
        stall_after,
        receipts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[receipts]` goes with an SMTP outbox only; its address must be a
    /// mail address, its wait at least 10 s and its keep at least a day;
    /// the mailbox defaults to INBOX, the wait to 300 s, the keep to 7 days.
    #[test]
    fn receipts_are_read_and_checked() {
        let table = |extra: &str| {
            format!(
                "\n[receipts]\naddress = \"receipts@club.example\"\nhost = \"imap.club.example\"\n\
                 username = \"receipts\"\npassword_file = \"/etc/wildt/receipts\"\n{extra}"
            )
        };
        let smtp = LOCAL_TOML.replace(
            "kind = \"file\"\npath = \"var/outbox\"",
            "kind = \"smtp\"\nhost = \"smtp.club.example\"",
        );
        assert_ne!(smtp, LOCAL_TOML, "the local example's outbox changed");
        let r = Config::parse(&format!("{smtp}{}", table("")))
            .unwrap()
            .outbox
            .receipts
            .unwrap();
        assert_eq!(r.address, "receipts@club.example");
        assert_eq!((r.imap.mailbox.as_str(), r.imap.port), ("INBOX", 993));
        assert_eq!(r.wait, Duration::from_secs(DEFAULT_RECEIPT_WAIT_SECS));
        assert_eq!(r.keep, Duration::from_secs(7 * 86_400));
        let refused = |text: String, key: &str| match Config::parse(&text) {
            Err(e) => assert!(e.to_string().contains(key), "{e}"),
            Ok(_) => panic!("taken: {text}"),
        };
        refused(format!("{LOCAL_TOML}{}", table("")), "receipts.address");
        refused(
            format!("{smtp}{}", table("wait_secs = 3\n")),
            "receipts.wait_secs",
        );
        refused(
            format!("{smtp}{}", table("keep_days = 0\n")),
            "receipts.keep_days",
        );
        refused(
            format!("{smtp}{}", table("")).replace("receipts@club.example", "no address"),
            "receipts.address",
        );
    }

    /// `[tablebase]` takes one directory or several, `adjudicate` is
    /// `claim` (the default) or `auto`; without it tablebases are off.
    #[test]
    fn tablebase_paths_and_mode_are_read_and_checked() {
        use crate::tablebase::Adjudicate;
        assert_eq!(Config::parse(LOCAL_TOML).unwrap().tablebase, None);
        let with = |block: &str| Config::parse(&format!("{LOCAL_TOML}\n[tablebase]\n{block}\n"));
        let one = with("path = \"tb\"").unwrap().tablebase.unwrap();
        assert_eq!(one.paths, [std::path::PathBuf::from("tb")]);
        assert_eq!(one.adjudicate, Adjudicate::Claim);
        let many = with("path = [\"a\", \"b\"]\nadjudicate = \"auto\"")
            .unwrap()
            .tablebase
            .unwrap();
        assert_eq!(many.paths.len(), 2);
        assert_eq!(many.adjudicate, Adjudicate::Auto);
        assert_eq!(
            Config::parse(&format!(
                "{LOCAL_TOML}\n[tablebase]\npath = \"tb\"\nadjudicate = \"auto\"\n"
            ))
            .unwrap()
            .rules()
            .tablebase
            .adjudicate,
            Adjudicate::Auto
        );
        for bad in ["path = []", "path = \"tb\"\nadjudicate = \"always\""] {
            assert!(
                matches!(with(bad), Err(ConfigError::Invalid { .. })),
                "{bad}"
            );
        }
    }

    /// `[xfcc]` is off when absent; present, its limits default and are
    /// checked, and the TLS files come as a pair.
    #[test]
    fn xfcc_is_off_by_default_and_read_with_its_defaults() {
        assert_eq!(Config::parse(LOCAL_TOML).unwrap().xfcc, None);
        let with = |table: &str| Config::parse(&format!("{LOCAL_TOML}\n[xfcc]\n{table}\n"));
        let x = with("listen = \"127.0.0.1:8080\"").unwrap().xfcc.unwrap();
        assert_eq!(x.listen, "127.0.0.1:8080".parse().unwrap());
        assert!(x.confirm_by_mail);
        assert_eq!(x.tls, None);
        assert_eq!(x.max_request_bytes, DEFAULT_XFCC_MAX_REQUEST_BYTES);
        let x = with("listen = \"[::1]:9000\"\nconfirm_by_mail = false\nmax_connections = 8")
            .unwrap()
            .xfcc
            .unwrap();
        assert!(!x.confirm_by_mail);
        assert_eq!(x.max_connections, 8);
        for (table, key) in [
            ("listen = \"localhost\"", "xfcc.listen"),
            (
                "listen = \"127.0.0.1:1\"\ntls_cert = \"c.pem\"",
                "xfcc.tls_cert",
            ),
            (
                "listen = \"127.0.0.1:1\"\nmax_request_bytes = 0",
                "xfcc.max_request_bytes",
            ),
        ] {
            assert!(
                matches!(with(table), Err(ConfigError::Invalid { key: k, .. }) if k == key),
                "{table}"
            );
        }
        assert!(with("listen = \"127.0.0.1:1\"\nport = 2").is_err());
    }

    /// `[inbox] quarantine` defaults to wildt-failed and must be a plain
    /// folder name (it becomes the Maildir subfolder `.NAME`);
    /// `[referee] organiser` is optional and must be an address.
    #[test]
    fn quarantine_and_organiser_are_read_and_checked() {
        let c = Config::parse(LOCAL_TOML).unwrap();
        assert_eq!(c.quarantine, DEFAULT_QUARANTINE);
        assert_eq!(c.referee.organiser, None);
        let with = |referee_line: &str, inbox_line: &str| {
            Config::parse(
                &LOCAL_TOML
                    .replace("[referee]\n", &format!("[referee]\n{referee_line}\n"))
                    .replace("[inbox]\n", &format!("[inbox]\n{inbox_line}\n")),
            )
        };
        let c = with("organiser = \"Org@Club.example\"", "quarantine = \"held\"").unwrap();
        assert_eq!(c.quarantine, "held");
        assert_eq!(c.referee.organiser.as_deref(), Some("org@club.example"));
        for bad in ["", "../x", ".hidden", "a/b"] {
            let e = with("", &format!("quarantine = \"{bad}\"")).unwrap_err();
            assert!(
                matches!(
                    e,
                    ConfigError::Invalid {
                        key: "inbox.quarantine",
                        ..
                    }
                ),
                "{bad:?}: {e}"
            );
        }
        let e = with("organiser = \"nobody\"", "").unwrap_err();
        assert!(
            matches!(
                e,
                ConfigError::Invalid {
                    key: "referee.organiser",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn embedded_default_is_maildir_and_file_outbox() {
        let c = Config::parse(LOCAL_TOML).unwrap();
        assert_eq!(
            c.inbox,
            InboxConfig::Maildir {
                path: "var/mail".into()
            }
        );
        assert_eq!(
            c.outbox.kind,
            OutboxKind::File {
                path: "var/outbox".into()
            }
        );
        assert_eq!(c.database_url, "sqlite://var/wildt.db");
    }

    #[test]
    fn example_config_is_imap_and_smtp() {
        let c = Config::parse(include_str!("../config/example.toml")).unwrap();
        let InboxConfig::Imap(imap) = c.inbox else {
            panic!("example inbox is not IMAP: {:?}", c.inbox)
        };
        assert_eq!(imap.tls, Tls::Implicit);
        assert!(matches!(c.outbox.kind, OutboxKind::Smtp(_)));
        assert_eq!(
            c.referee.organiser.as_deref(),
            Some("organiser@club.example")
        );
        assert_eq!(c.outbox.stall_after, Duration::from_secs(900));
    }

    /// `[outbox] send_rate`: unlimited unless said, 1 to 10,000 mails per
    /// second, anything else a clear refusal naming the key.
    #[test]
    fn smtp_send_rate_is_unlimited_unless_said_and_bounded() {
        let example = include_str!("../config/example.toml");
        let rate = |text: &str| match Config::parse(text).map(|c| c.outbox.kind) {
            Ok(OutboxKind::Smtp(smtp)) => Ok(smtp.send_rate),
            Ok(other) => panic!("not SMTP: {other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(rate(example).unwrap(), None);
        let with = |n: &str| example.replace("# send_rate = 100 ", &format!("send_rate = {n} "));
        assert_eq!(rate(&with("150")).unwrap(), Some(150));
        for bad in ["0", "10001"] {
            let err = rate(&with(bad)).unwrap_err();
            assert!(
                matches!(
                    &err,
                    ConfigError::Invalid {
                        key: "outbox.send_rate",
                        ..
                    }
                ),
                "{bad}: {err:?}"
            );
            assert!(err.to_string().contains("between 1 and 10000"), "{err}");
        }
    }

    /// The example's `[receipts]`, uncommented, is taken as written: what
    /// it shows as defaults are the defaults.
    #[test]
    fn the_examples_receipts_table_uncommented_is_valid_with_its_defaults() {
        let example = include_str!("../config/example.toml");
        let start = example.find("# [receipts]").expect("a [receipts] example");
        let block: String = example[start..]
            .lines()
            .take_while(|l| l.starts_with("# "))
            .map(|l| format!("{}\n", &l[2..]))
            .collect();
        let c = Config::parse(&format!("{example}\n{block}")).unwrap();
        let r = c.outbox.receipts.expect("receipts");
        assert_eq!(r.address, "chess-receipts@club.example");
        assert_eq!((r.imap.port, r.imap.tls), (993, Tls::Implicit));
        assert_eq!(r.wait, Duration::from_secs(DEFAULT_RECEIPT_WAIT_SECS));
        assert_eq!(r.keep, Duration::from_secs(7 * 86_400));
        assert_eq!(Config::parse(example).unwrap().outbox.receipts, None);
    }

    /// `[outbox] connections`: 4 unless said, 1 to 32, anything else a
    /// clear refusal naming the key.
    #[test]
    fn smtp_connections_default_to_four_and_are_bounded() {
        let example = include_str!("../config/example.toml");
        let connections = |text: &str| match Config::parse(text).map(|c| c.outbox.kind) {
            Ok(OutboxKind::Smtp(smtp)) => Ok(smtp.connections),
            Ok(other) => panic!("not SMTP: {other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(connections(example).unwrap(), DEFAULT_SMTP_CONNECTIONS);
        let with = |n: &str| example.replace("# connections = 4 ", &format!("connections = {n} "));
        assert_eq!(connections(&with("8")).unwrap(), 8);
        for bad in ["0", "33"] {
            let err = connections(&with(bad)).unwrap_err();
            assert!(
                matches!(
                    &err,
                    ConfigError::Invalid {
                        key: "outbox.connections",
                        ..
                    }
                ),
                "{bad}: {err:?}"
            );
            assert!(err.to_string().contains("between 1 and 32"), "{err}");
        }
    }

    #[test]
    fn an_organiser_that_is_no_address_is_refused() {
        let text = LOCAL_TOML.replace(
            "name = \"Club referee\"",
            "name = \"Club referee\"\norganiser = \"the organiser\"",
        );
        let err = Config::parse(&text).unwrap_err();
        assert!(matches!(
            err,
            ConfigError::Invalid {
                key: "referee.organiser",
                ..
            }
        ));
    }

    #[test]
    fn plus_in_referee_address_is_refused() {
        let text = LOCAL_TOML.replace("chess@club.example", "chess+x@club.example");
        let err = Config::parse(&text).unwrap_err();
        assert!(matches!(
            err,
            ConfigError::Invalid {
                key: "referee.address",
                ..
            }
        ));
    }

    #[test]
    fn auth_policy_without_trusted_server_is_refused() {
        let text = format!("{LOCAL_TOML}\n[security]\npolicy = \"key+auth\"\n");
        assert!(matches!(
            Config::parse(&text).unwrap_err(),
            ConfigError::Invalid {
                key: "security.trusted_authserv_id",
                ..
            }
        ));
        let text = format!(
            "{LOCAL_TOML}\n[security]\npolicy = \"key+auth\"\ntrusted_authserv_id = \"mx.club.example\"\n"
        );
        let c = Config::parse(&text).unwrap();
        assert_eq!(c.security.policy, crate::auth::Policy::KeyAndAuth);
    }

    #[test]
    fn unknown_key_is_refused() {
        let text = format!("{LOCAL_TOML}\n[extra]\nx = 1\n");
        assert!(matches!(
            Config::parse(&text).unwrap_err(),
            ConfigError::Toml(_)
        ));
    }

    #[test]
    fn limits_have_defaults_and_keys() {
        let c = Config::parse(LOCAL_TOML).unwrap();
        assert_eq!(
            c.limits,
            Limits {
                max_message_bytes: 1024 * 1024,
                replies_per_sender_per_hour: 60,
                games_per_player: 50,
                commands_per_message: 600,
            }
        );
        let text = format!(
            "{LOCAL_TOML}\n[limits]\nmax_message_bytes = 4096\nreplies_per_sender_per_hour = 3\n\
             games_per_player = 2\ncommands_per_message = 5\n"
        );
        assert_eq!(
            Config::parse(&text).unwrap().limits,
            Limits {
                max_message_bytes: 4096,
                replies_per_sender_per_hour: 3,
                games_per_player: 2,
                commands_per_message: 5,
            }
        );
        let zero = format!("{LOCAL_TOML}\n[limits]\ncommands_per_message = 0\n");
        assert!(matches!(
            Config::parse(&zero).unwrap_err(),
            ConfigError::Invalid {
                key: "limits.commands_per_message",
                ..
            }
        ));
    }

    /// The words for every key name exactly the keys serde reads: an unknown
    /// key in each table makes serde list that table's fields.
    #[test]
    fn every_key_has_words_and_every_word_a_key() {
        let tables = [
            "referee", "database", "inbox", "outbox", "limits", "security", "clock", "publish",
            "receipts",
        ];
        let mut known = Vec::new();
        for table in tables {
            let text = LOCAL_TOML.replace(
                &format!("[{table}]\n"),
                &format!("[{table}]\nno_such_key = 1\n"),
            );
            let text = if text.contains("no_such_key") {
                text
            } else {
                format!("{text}\n[{table}]\nno_such_key = 1\n")
            };
            let Err(ConfigError::Toml(e)) = Config::parse(&text) else {
                panic!("[{table}] took an unknown key");
            };
            let (_, fields) = e
                .message()
                .split_once("expected ")
                .unwrap_or_else(|| panic!("{}", e.message()));
            // `a`, `a` or `b`, one of `a`, `b`, `c`: the names in backquotes.
            for field in fields.split('`').skip(1).step_by(2) {
                let key = format!("{table}.{field}");
                assert!(key_value_words(&key).is_some(), "no words for {key}");
                known.push(key);
            }
        }
        for (key, _) in KEY_VALUES {
            assert!(known.iter().any(|k| k == key), "{key} is no field");
        }
    }
}

/// The `[xfcc]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawXfcc {
    listen: String,
    confirm_by_mail: Option<bool>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    max_request_bytes: Option<usize>,
    max_connections: Option<usize>,
    request_timeout_secs: Option<u64>,
    failed_logins_per_hour: Option<u32>,
}

/// `[xfcc]`: where the Xfcc server listens and its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XfccConfig {
    pub listen: std::net::SocketAddr,
    /// The mover also gets the usual confirmation mail.
    pub confirm_by_mail: bool,
    /// PEM files: TLS served directly (else plain HTTP, for a proxy in front).
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Larger request bodies are refused (413) unread.
    pub max_request_bytes: usize,
    /// Connections served at once; more wait to be accepted.
    pub max_connections: usize,
    /// How long reading a request's head and body may take.
    pub request_timeout: std::time::Duration,
    /// Failed logins allowed per user and per peer address in an hour.
    pub failed_logins_per_hour: u32,
}

/// Default `[xfcc] max_request_bytes`: a MakeAMove with a long message is a
/// few kilobytes.
pub const DEFAULT_XFCC_MAX_REQUEST_BYTES: usize = 64 * 1024;

fn xfcc(raw: RawXfcc) -> Result<XfccConfig, ConfigError> {
    let listen = raw.listen.parse().map_err(|_| {
        invalid(
            "xfcc.listen",
            "must be an address and port, e.g. \"127.0.0.1:8080\"",
        )
    })?;
    let tls = match (raw.tls_cert, raw.tls_key) {
        (Some(c), Some(k)) => Some((c, k)),
        (None, None) => None,
        _ => {
            return Err(invalid(
                "xfcc.tls_cert",
                "tls_cert and tls_key are given together or not at all",
            ));
        }
    };
    let positive = |key: &'static str, v: Option<usize>, default: usize| match v {
        Some(0) => Err(invalid(key, "must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(default),
    };
    Ok(XfccConfig {
        listen,
        confirm_by_mail: raw.confirm_by_mail.unwrap_or(true),
        tls,
        max_request_bytes: positive(
            "xfcc.max_request_bytes",
            raw.max_request_bytes,
            DEFAULT_XFCC_MAX_REQUEST_BYTES,
        )?,
        max_connections: positive("xfcc.max_connections", raw.max_connections, 64)?,
        request_timeout: std::time::Duration::from_secs(positive(
            "xfcc.request_timeout_secs",
            raw.request_timeout_secs.map(|n| n as usize),
            10,
        )? as u64),
        failed_logins_per_hour: raw.failed_logins_per_hour.unwrap_or(10),
    })
}
