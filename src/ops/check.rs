//! `wildt config check`: the offline checks of a configuration file. Every
//! key is validated (by `Config::parse`), a mistake is reported with its file
//! and line, the password and CA files are read. Each finding says what to
//! change. [IO: reads the configuration, password and CA files]

use std::path::{Path, PathBuf};

use crate::config::{Config, ConfigError, InboxConfig, OutboxKind, Secret};
use crate::ops::locate::{Line, line_of_key};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Checked and fine.
    Ok,
    /// Works, but probably not what the operator wants.
    Warning,
    /// wildt will not work until this is changed.
    Error,
}

/// One thing checked, what was found, and what to change.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    pub level: Level,
    /// What was found, with `file:line:` in front when it has a place.
    pub what: String,
    /// What to change; empty for [`Level::Ok`].
    pub fix: String,
}

impl Finding {
    pub fn ok(what: impl Into<String>) -> Finding {
        Finding {
            level: Level::Ok,
            what: what.into(),
            fix: String::new(),
        }
    }

    pub fn warning(what: impl Into<String>, fix: impl Into<String>) -> Finding {
        Finding {
            level: Level::Warning,
            what: what.into(),
            fix: fix.into(),
        }
    }

    pub fn error(what: impl Into<String>, fix: impl Into<String>) -> Finding {
        Finding {
            level: Level::Error,
            what: what.into(),
            fix: fix.into(),
        }
    }
}

/// The outcome of the offline checks: the configuration when it parsed, and
/// every finding.
#[derive(Debug)]
pub struct Offline {
    pub config: Option<Config>,
    pub findings: Vec<Finding>,
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.level == Level::Error)
}

/// `[tablebase] path`: the directories are listed, the tables counted and
/// the largest piece count named (the files themselves are read only when
/// a position is probed).
fn tablebase_finding(path: &Path, text: &str, tb: &crate::config::TablebaseConfig) -> Finding {
    let at = place(path, line_of_key(text, "tablebase.path"));
    match crate::tablebase::syzygy::inventory(&tb.paths) {
        Err(e) => Finding::error(
            format!("{at}{e}"),
            "point tablebase.path at the directories holding the Syzygy files              (*.rtbw, *.rtbz), or leave [tablebase] out",
        ),
        Ok(inv) if inv.wdl == 0 => Finding::error(
            format!(
                "{at}tablebase.path: no Syzygy table (*.rtbw) in {}",
                list_paths(&tb.paths)
            ),
            "download the Syzygy tables (the 3-4-5 piece set is about 1 GB) into that              directory, or leave [tablebase] out",
        ),
        Ok(inv) => {
            let what = format!(
                "{at}tablebase.path: {} WDL and {} DTZ tables, up to {} pieces, in {};                  adjudicate = \"{}\"",
                inv.wdl,
                inv.dtz,
                inv.max_pieces,
                list_paths(&tb.paths),
                tb.adjudicate.as_str()
            );
            if inv.max_pieces < 5 {
                Finding::warning(
                    what,
                    "claims are decided only up to that many pieces; the 3-4-5 piece                      set (about 1 GB) covers most endgames players claim",
                )
            } else {
                Finding::ok(what)
            }
        }
    }
}

fn list_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads and checks the configuration at `path`, then the files it names.
pub fn check_file(path: &Path) -> Offline {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            return Offline {
                config: None,
                findings: vec![Finding::error(
                    format!("cannot read {}: {e}", path.display()),
                    "write one with `wildt init --domain YOUR.DOMAIN --out FILE`, \
                     or name it with --config FILE",
                )],
            };
        }
    };
    check_text(path, &text)
}

/// Checks configuration `text` read from `path` (named in the findings).
pub fn check_text(path: &Path, text: &str) -> Offline {
    let config = match Config::parse(text) {
        Ok(config) => config,
        Err(e) => {
            return Offline {
                config: None,
                findings: vec![parse_finding(path, text, &e)],
            };
        }
    };
    let mut config = config;
    let mut findings = vec![Finding::ok(format!(
        "{}: every key is valid",
        path.display()
    ))];
    if std::env::var_os("CREDENTIALS_DIRECTORY").is_none() {
        findings.extend(credentials_from_source(
            &mut config,
            Path::new(CREDENTIAL_SOURCE),
        ));
    }
    for secret in secrets(&config) {
        findings.push(secret_finding(path, text, secret));
    }
    for (key, ca) in ca_files(&config) {
        findings.push(ca_finding(path, text, key, ca));
    }
    if let InboxConfig::Maildir { path: dir } = &config.inbox
        && !dir.join("new").is_dir()
    {
        findings.push(Finding::warning(
            format!(
                "{}inbox.path: {} has no new/ folder (yet)",
                place(path, line_of_key(text, "inbox.path")),
                dir.display()
            ),
            "point inbox.path at the Maildir your MTA delivers to",
        ));
    }
    if let Some(tb) = &config.tablebase {
        findings.push(tablebase_finding(path, text, tb));
    }
    if let Some(xfcc) = &config.xfcc {
        findings.push(xfcc_finding(path, text, xfcc));
    }
    if config.referee.domain.ends_with(".example") {
        findings.push(Finding::warning(
            format!(
                "{}referee.address: {} is an example domain",
                place(path, line_of_key(text, "referee.address")),
                config.referee.address
            ),
            "set referee.address to the club's real referee mailbox",
        ));
    }
    Offline {
        config: Some(config),
        findings,
    }
}

/// `file:line: ` (or `file: ` when the line is unknown).
fn place(path: &Path, line: Option<Line>) -> String {
    match line {
        Some(Line(n)) => format!("{}:{n}: ", path.display()),
        None => format!("{}: ", path.display()),
    }
}

fn parse_finding(path: &Path, text: &str, e: &ConfigError) -> Finding {
    match e {
        ConfigError::Toml(toml) => {
            let explained = crate::ops::explain::explain(text, toml);
            Finding::error(
                format!("{}{}", place(path, explained.line), explained.what),
                explained.fix,
            )
        }
        ConfigError::Invalid { key, why } => {
            let (table, name) = key.rsplit_once('.').unwrap_or(("", key));
            let fix = if is_written(text, key) {
                if why.starts_with("must") {
                    format!("change `{name}` at that line: it {why}")
                } else {
                    format!("change `{name}` at that line ({why})")
                }
            } else {
                format!("add `{name} = …` to [{table}] ({why})")
            };
            Finding::error(
                format!("{}{key}: {why}", place(path, line_of_key(text, key))),
                fix,
            )
        }
        other => Finding::error(
            format!("{}{other}", place(path, None)),
            "correct the configuration",
        ),
    }
}

/// The service's credentials folder (`LoadCredential=` in the unit) and the
/// folder its lines load them from.
pub const CREDENTIALS: &str = "/run/credentials/wildt.service";
pub const CREDENTIAL_SOURCE: &str = "/etc/wildt";

/// Outside the service its credentials folder does not exist: a password file
/// named there is read from its source instead (`LoadCredential=NAME:SOURCE/NAME`
/// in the shipped unit), when that file exists.
pub fn credentials_from_source(config: &mut Config, source: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut swap = |secret: &mut Secret| {
        let Ok(name) = secret.path().strip_prefix(CREDENTIALS) else {
            return;
        };
        let from = source.join(name);
        if secret.path().exists() || !from.exists() {
            return;
        }
        findings.push(Finding::ok(format!(
            "{}: outside the service, read from {} (the unit loads it from there)",
            secret.key(),
            from.display()
        )));
        *secret = secret.at(from);
    };
    if let InboxConfig::Imap(imap) = &mut config.inbox {
        swap(&mut imap.password);
    }
    if let OutboxKind::Smtp(smtp) = &mut config.outbox.kind
        && let Some(password) = &mut smtp.password
    {
        swap(password);
    }
    if let Some(password) = &mut config.database_password {
        swap(password);
    }
    findings
}

/// Whether `dotted_key` itself is written in `text` (not only its table).
fn is_written(text: &str, dotted_key: &str) -> bool {
    let Some((table, name)) = dotted_key.rsplit_once('.') else {
        return false;
    };
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|t| t.get(table)?.as_table()?.get(name).cloned())
        .is_some()
}

fn secrets(config: &Config) -> Vec<&Secret> {
    let mut out = Vec::new();
    if let InboxConfig::Imap(imap) = &config.inbox {
        out.push(&imap.password);
    }
    if let OutboxKind::Smtp(smtp) = &config.outbox.kind
        && let Some(password) = &smtp.password
    {
        out.push(password);
    }
    if let Some(password) = &config.database_password {
        out.push(password);
    }
    out
}

fn secret_finding(path: &Path, text: &str, secret: &Secret) -> Finding {
    let key = secret.key();
    let at = place(path, line_of_key(text, key));
    match secret.read() {
        Ok(password) if password.is_empty() => Finding::error(
            format!("{at}{key}: {} is empty", secret.path().display()),
            format!(
                "write the password on one line to {}",
                secret.path().display()
            ),
        ),
        Ok(_) => Finding::ok(format!("{key}: {} is readable", secret.path().display())),
        Err(e) => Finding::error(
            format!("{at}{e}"),
            format!(
                "write the password to {} (under systemd: to the file its \
                 LoadCredential= line names), or point {key} at the file that holds it",
                secret.path().display()
            ),
        ),
    }
}

/// `[xfcc]`: TLS files that the server could not load are an error; plain
/// HTTP on an address other than loopback is a warning, since passwords
/// would cross the network in clear.
fn xfcc_finding(path: &Path, text: &str, xfcc: &crate::config::XfccConfig) -> Finding {
    let url = |scheme: &str| format!("{scheme}://{}/xfccbasic.asmx", xfcc.listen);
    match &xfcc.tls {
        Some((cert, key)) => match crate::xfcc::server::acceptor(cert, key) {
            Ok(_) => Finding::ok(format!(
                "xfcc: serves TLS at {} ({} and {} load)",
                url("https"),
                cert.display(),
                key.display()
            )),
            Err(e) => Finding::error(
                format!("{}{e}", place(path, line_of_key(text, "xfcc.tls_cert"))),
                "point xfcc.tls_cert at the PEM certificate chain and xfcc.tls_key at its \
                 PEM private key, both readable by wildt",
            ),
        },
        None if !xfcc.listen.ip().is_loopback() => Finding::warning(
            format!(
                "{}xfcc.listen: {} serves plain HTTP beyond this machine: players' \
                 passwords would cross the network in clear",
                place(path, line_of_key(text, "xfcc.listen")),
                xfcc.listen
            ),
            "listen on 127.0.0.1 behind a reverse proxy that serves TLS (README, Xfcc), \
             or set xfcc.tls_cert and xfcc.tls_key",
        ),
        None => Finding::ok(format!(
            "xfcc: serves plain HTTP at {} for a reverse proxy with TLS in front",
            url("http")
        )),
    }
}

fn ca_files(config: &Config) -> Vec<(&'static str, &PathBuf)> {
    let mut out = Vec::new();
    if let InboxConfig::Imap(imap) = &config.inbox
        && let Some(ca) = &imap.ca_file
    {
        out.push(("inbox.ca_file", ca));
    }
    if let OutboxKind::Smtp(smtp) = &config.outbox.kind
        && let Some(ca) = &smtp.ca_file
    {
        out.push(("outbox.ca_file", ca));
    }
    out
}

fn ca_finding(path: &Path, text: &str, key: &'static str, ca: &Path) -> Finding {
    match std::fs::read(ca) {
        Ok(pem) if pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") => {
            Finding::ok(format!("{key}: {} holds a certificate", ca.display()))
        }
        Ok(_) => Finding::error(
            format!(
                "{}{key}: {} holds no PEM certificate",
                place(path, line_of_key(text, key)),
                ca.display()
            ),
            "point it at the CA certificate in PEM form, or remove the key to trust the public roots",
        ),
        Err(e) => Finding::error(
            format!(
                "{}{key}: cannot read {}: {e}",
                place(path, line_of_key(text, key)),
                ca.display()
            ),
            "point it at a readable CA certificate, or remove the key to trust the public roots",
        ),
    }
}

/// `config check --connect`: logs in to the configured PostgreSQL with the
/// password file and runs one query; a wrong password, an unreachable host
/// and a missing database each get their own sentence. SQLite has nothing
/// to log in to. [IO: network]
pub async fn database_login(config: &Config) -> Finding {
    use sqlx::ConnectOptions as _;
    use std::str::FromStr as _;
    if crate::store::Backend::of(&config.database_url) != Some(crate::store::Backend::Postgres) {
        return Finding::ok(format!(
            "database: SQLite ({}), nothing to log in to",
            config.database_url
        ));
    }
    let options = match sqlx::postgres::PgConnectOptions::from_str(&config.database_url) {
        Ok(o) => o,
        Err(e) => {
            return Finding::error(
                format!("database.url: {e}"),
                "write it as postgres://USER@HOST[:PORT]/DATABASE",
            );
        }
    };
    let options = match &config.database_password {
        Some(secret) => match secret.read() {
            Ok(password) => options.password(&password),
            Err(e) => {
                return Finding::error(
                    format!("database: not logged in: {e}"),
                    format!("write the password to {}", secret.path().display()),
                );
            }
        },
        None => options,
    };
    let (user, host, port, db) = (
        options.get_username().to_owned(),
        options.get_host().to_owned(),
        options.get_port(),
        options.get_database().unwrap_or_default().to_owned(),
    );
    let at = format!("{host}:{port}");
    let connected = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        let mut conn = options.connect().await?;
        sqlx::query("SELECT 1").execute(&mut conn).await?;
        sqlx::Connection::close(conn).await
    })
    .await;
    let password_file = config.database_password.as_ref().map_or_else(
        || "no password_file".to_owned(),
        |s| s.path().display().to_string(),
    );
    match connected {
        Ok(Ok(())) => Finding::ok(format!(
            "database: logged in to PostgreSQL at {at} as {user}, database {db}"
        )),
        Err(_) => Finding::error(
            format!("database: PostgreSQL at {at} did not answer within 10 seconds"),
            "check the host and port of [database] url, and that PostgreSQL listens there",
        ),
        Ok(Err(sqlx::Error::Database(e)))
            if matches!(e.code().as_deref(), Some("28P01" | "28000")) =>
        {
            Finding::error(
                format!(
                    "database: PostgreSQL at {at} refused the login of {user}: wrong password \
                     or user ({e})"
                ),
                format!(
                    "put {user}'s password on one line in {password_file}, or fix the user \
                     in [database] url"
                ),
            )
        }
        Ok(Err(sqlx::Error::Database(e))) if e.code().as_deref() == Some("3D000") => {
            Finding::error(
                format!("database: PostgreSQL at {at} has no database {db}"),
                format!("create it (createdb -O {user} {db}) or fix [database] url"),
            )
        }
        Ok(Err(e @ (sqlx::Error::Io(_) | sqlx::Error::Tls(_)))) => Finding::error(
            format!("database: cannot reach PostgreSQL at {at}: {e}"),
            "check the host and port of [database] url, and that PostgreSQL listens there",
        ),
        Ok(Err(e)) => Finding::error(
            format!("database: logging in to PostgreSQL at {at} as {user} failed: {e}"),
            "check [database] url and password_file",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only_error(text: &str) -> Finding {
        let out = check_text(Path::new("w.toml"), text);
        assert!(out.config.is_none(), "{:?}", out.findings);
        assert_eq!(out.findings.len(), 1);
        out.findings.into_iter().next().unwrap()
    }

    #[test]
    fn unknown_key_is_named_with_its_line() {
        let text = format!(
            "{}\n[limits]\nmax_mesage_bytes = 4\n",
            crate::config::LOCAL_TOML
        );
        let line = text.lines().count();
        let f = only_error(&text);
        assert_eq!(f.level, Level::Error);
        assert!(
            f.what
                .starts_with(&format!("w.toml:{line}: unknown field `max_mesage_bytes`")),
            "{}",
            f.what
        );
        assert!(f.fix.contains("spelling"), "{}", f.fix);
    }

    #[test]
    fn invalid_value_is_reported_at_its_key() {
        let text = crate::config::LOCAL_TOML.replace("kind = \"maildir\"", "kind = \"pop3\"");
        let line = text.lines().position(|l| l.contains("pop3")).unwrap() + 1;
        let f = only_error(&text);
        assert!(
            f.what
                .starts_with(&format!("w.toml:{line}: inbox.kind: `pop3`")),
            "{}",
            f.what
        );
        assert!(f.fix.starts_with("change `kind` at that line"), "{}", f.fix);
    }

    #[test]
    fn a_missing_key_says_where_to_add_it() {
        let text = crate::config::LOCAL_TOML.replace("path = \"var/mail\"", "");
        let line = text.lines().position(|l| l == "[inbox]").unwrap() + 1;
        let f = only_error(&text);
        assert!(
            f.what.starts_with(&format!("w.toml:{line}: inbox.path: ")),
            "{}",
            f.what
        );
        assert!(f.fix.starts_with("add `path = …` to [inbox]"), "{}", f.fix);
    }

    #[test]
    fn a_credential_is_read_from_its_source_outside_the_service() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("imap-password"), "pw\n").unwrap();
        let mut c = Config::parse(include_str!("../../config/example.toml")).unwrap();
        let found = credentials_from_source(&mut c, dir.path());
        let InboxConfig::Imap(imap) = &c.inbox else {
            panic!("not IMAP")
        };
        assert_eq!(imap.password.path(), dir.path().join("imap-password"));
        assert_eq!(imap.password.read().unwrap(), "pw");
        // No smtp-password in the source folder: that one stays as written.
        let OutboxKind::Smtp(smtp) = &c.outbox.kind else {
            panic!("not SMTP")
        };
        assert_eq!(
            smtp.password.as_ref().unwrap().path(),
            Path::new("/run/credentials/wildt.service/smtp-password")
        );
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn xfcc_tls_files_that_do_not_load_are_an_error_and_plain_http_beyond_loopback_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wildt.toml");
        let with = |table: &str| {
            check_text(
                &path,
                &format!("{}\n[xfcc]\n{table}\n", crate::config::LOCAL_TOML),
            )
            .findings
        };
        let missing = with(
            "listen = \"127.0.0.1:8080\"\ntls_cert = \"/nonexistent/c.pem\"\ntls_key = \"/nonexistent/k.pem\"",
        );
        let error = missing
            .iter()
            .find(|f| f.level == Level::Error)
            .expect("an error");
        assert!(error.what.contains("/nonexistent/c.pem"), "{error:?}");
        assert!(error.fix.contains("xfcc.tls_cert"), "{error:?}");
        let open = with("listen = \"0.0.0.0:8080\"");
        assert!(
            open.iter()
                .any(|f| f.level == Level::Warning && f.what.contains("in clear")),
            "{open:?}"
        );
        let proxied = with("listen = \"127.0.0.1:8080\"");
        assert!(
            proxied
                .iter()
                .any(|f| f.level == Level::Ok
                    && f.what.contains("http://127.0.0.1:8080/xfccbasic.asmx")),
            "{proxied:?}"
        );
    }

    #[test]
    fn missing_password_file_is_an_error_naming_the_file() {
        let text = include_str!("../../config/example.toml").replace(
            "/run/credentials/wildt.service/imap-password",
            "/nonexistent/imap-pw",
        );
        let out = check_text(Path::new("w.toml"), &text);
        let f = out
            .findings
            .iter()
            .find(|f| f.what.contains("/nonexistent/imap-pw"))
            .unwrap_or_else(|| panic!("{:?}", out.findings));
        assert_eq!(f.level, Level::Error);
        let line = text.lines().position(|l| l.contains("imap-pw")).unwrap() + 1;
        assert!(
            f.what.starts_with(&format!("w.toml:{line}: ")),
            "{}",
            f.what
        );
        assert!(f.fix.contains("LoadCredential"), "{}", f.fix);
    }

    /// A PostgreSQL store's password file is checked as the mail servers'
    /// are: missing, it is an error naming the file and its line.
    #[test]
    fn a_missing_database_password_file_is_an_error_naming_the_file() {
        let text = include_str!("../../config/example.toml")
            .replace(
                "[database]\n",
                "[database]\nurl = \"postgres://wildt@db.example/wildt\"\n\
                 password_file = \"/nonexistent/db-pw\"\n",
            )
            .replacen("url = \"sqlite://", "# url = \"sqlite://", 1);
        let out = check_text(Path::new("w.toml"), &text);
        let f = out
            .findings
            .iter()
            .find(|f| f.what.contains("/nonexistent/db-pw"))
            .unwrap_or_else(|| panic!("{:?}", out.findings));
        assert_eq!(f.level, Level::Error);
        let line = text.lines().position(|l| l.contains("db-pw")).unwrap() + 1;
        assert!(
            f.what.starts_with(&format!("w.toml:{line}: ")),
            "{}",
            f.what
        );
    }

    /// The example configuration with `from` replaced by `to`, and the
    /// line `to` is on.
    fn example_with(from: &str, to: &str) -> (String, usize) {
        let text = include_str!("../../config/example.toml").replacen(from, to, 1);
        assert!(text.contains(to), "{from} is not in the example");
        let first = to.lines().next().unwrap();
        let line = text.lines().position(|l| l.contains(first)).unwrap() + 1;
        (text, line)
    }

    #[test]
    fn a_string_where_a_port_goes_names_the_key_and_the_range() {
        let (text, line) = example_with("port = 993", "port = \"abc\"");
        let f = only_error(&text);
        assert_eq!(
            f.what,
            format!("w.toml:{line}: inbox.port must be a number from 1 to 65535, not \"abc\"")
        );
        assert_eq!(
            f.fix,
            "change `port` at that line to a number from 1 to 65535"
        );
    }

    #[test]
    fn a_value_with_a_unit_is_explained_as_not_toml() {
        let (text, line) = example_with("poll_interval_secs = 60", "poll_interval_secs = 60s");
        let f = only_error(&text);
        assert_eq!(
            f.what,
            format!(
                "w.toml:{line}: inbox.poll_interval_secs: the value 60s is not valid TOML; \
                 it must be a whole number of seconds, like 60"
            )
        );
        assert_eq!(
            f.fix,
            "change `poll_interval_secs` at that line to a whole number of seconds, like 60"
        );
        // A key wildt does not know: the value is still explained.
        let (text, line) = example_with("idle = true", "idle = true\nnap = 60s");
        let f = only_error(&text);
        assert_eq!(
            f.what,
            format!(
                "w.toml:{}: inbox.nap: the value 60s is not valid TOML; write a number (60) or \
                 a quoted string",
                line + 1
            )
        );
    }

    #[test]
    fn a_word_where_a_boolean_goes_says_true_or_false() {
        let (text, line) = example_with("idle = true", "idle = yes");
        let f = only_error(&text);
        assert_eq!(
            f.what,
            format!(
                "w.toml:{line}: inbox.idle: the value yes is not valid TOML; it must be true or false"
            )
        );
        let (text, line) = example_with("idle = true", "idle = \"yes\"");
        let f = only_error(&text);
        assert_eq!(
            f.what,
            format!("w.toml:{line}: inbox.idle must be true or false, not \"yes\"")
        );
    }

    #[test]
    fn an_unknown_key_names_its_table() {
        let (text, line) = example_with("idle = true", "idel = true");
        let f = only_error(&text);
        assert!(
            f.what.starts_with(&format!(
                "w.toml:{line}: unknown field `idel` in [inbox], expected one of `kind`"
            )),
            "{}",
            f.what
        );
        assert!(f.fix.contains("spelling"), "{}", f.fix);
    }

    #[test]
    fn a_missing_required_key_says_what_it_must_be() {
        let text = crate::config::LOCAL_TOML.replace("address = \"chess@club.example\"\n", "");
        let line = text.lines().position(|l| l == "[referee]").unwrap() + 1;
        let f = only_error(&text);
        assert_eq!(
            f.what,
            format!(
                "w.toml:{line}: referee.address is missing: it must be an address in quotes, \
                 like \"chess@club.example\""
            )
        );
        assert!(
            f.fix.starts_with("add `address = …` to [referee]"),
            "{}",
            f.fix
        );
        let text = crate::config::LOCAL_TOML.replace("[database]\n", "");
        let f = only_error(&text);
        assert!(f.what.contains("url"), "{}", f.what);
    }
}
