//! `wildt init`: a commented starting configuration for a domain, with every
//! value it can default derived from the domain (IMAP and SMTP hosts, the
//! referee address, the credential files of the systemd unit). [pure]

/// What `wildt init` was told; `None` means "derive it from the domain".
#[derive(Debug, Clone, Default)]
pub struct InitOptions {
    /// The club's mail domain (`club.example`).
    pub domain: String,
    /// The referee mailbox (default `chess@DOMAIN`).
    pub address: Option<String>,
    /// Display name on every mail (default `DOMAIN chess referee`).
    pub name: Option<String>,
    /// IMAP server (default `imap.DOMAIN`, implicit TLS on 993).
    pub imap_host: Option<String>,
    /// SMTP submission server (default `smtp.DOMAIN`, STARTTLS on 587).
    pub smtp_host: Option<String>,
    /// Login for both servers (default: the referee address).
    pub username: Option<String>,
    /// The authserv-id of the club's MX, if known.
    pub authserv_id: Option<String>,
    /// SQLite URL (default `sqlite:///var/lib/wildt/wildt.db`).
    pub database_url: Option<String>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InitError {
    #[error("`{0}` is not a mail domain (like club.example)")]
    Domain(String),
}

/// Where the systemd unit puts the password files it loads as credentials.
pub const IMAP_PASSWORD_FILE: &str = "/run/credentials/wildt.service/imap-password";
pub const SMTP_PASSWORD_FILE: &str = "/run/credentials/wildt.service/smtp-password";

/// Every value the configuration shows, derived from the domain where not
/// given, each already written as TOML.
struct Values {
    domain: String,
    address: String,
    name: String,
    database: String,
    imap_host: String,
    smtp_host: String,
    username: String,
    /// The `trusted_authserv_id` line, commented out when not given.
    authserv: String,
}

impl Values {
    fn of(o: &InitOptions) -> Result<Values, InitError> {
        let domain = o.domain.trim().trim_end_matches('.').to_ascii_lowercase();
        let valid = domain.contains('.')
            && domain
                .split('.')
                .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        if !valid {
            return Err(InitError::Domain(o.domain.clone()));
        }
        let or = |given: &Option<String>, derived: String| given.clone().unwrap_or(derived);
        let address = or(&o.address, format!("chess@{domain}"));
        let authserv = match &o.authserv_id {
            Some(id) => format!("trusted_authserv_id = {}", q(id)),
            None => format!("# trusted_authserv_id = {}", q(&format!("mx.{domain}"))),
        };
        Ok(Values {
            name: q(&or(&o.name, format!("{domain} chess referee"))),
            imap_host: q(&or(&o.imap_host, format!("imap.{domain}"))),
            smtp_host: q(&or(&o.smtp_host, format!("smtp.{domain}"))),
            username: q(&or(&o.username, address.clone())),
            database: q(&or(
                &o.database_url,
                "sqlite:///var/lib/wildt/wildt.db".to_owned(),
            )),
            address: q(&address),
            authserv,
            domain,
        })
    }
}

/// The configuration text.
pub fn render(o: &InitOptions) -> Result<String, InitError> {
    let Values {
        domain,
        address,
        name,
        database,
        imap_host,
        smtp_host,
        username,
        authserv,
    } = Values::of(o)?;
    let (imap_pw, smtp_pw) = (q(IMAP_PASSWORD_FILE), q(SMTP_PASSWORD_FILE));
    Ok(format!(
        r#"# wildt configuration for {domain}, written by `wildt init`.
# Check it with `wildt config check`, and the servers with
# `wildt config check --connect`. Passwords live in files, never here: put them
# in /etc/wildt/imap-password and /etc/wildt/smtp-password (mode 0600); the
# systemd unit hands them to wildt as credentials under /run/credentials.

[referee]
# From of every mail wildt sends. Game addresses add +<game>-<key> to it, so
# the mail server must deliver sub-addresses to this mailbox.
address = {address}
name = {name}

[database]
# Under systemd, StateDirectory=wildt gives /var/lib/wildt.
url = {database}

[inbox]
kind = "imap"
host = {imap_host}
port = 993
tls = "implicit"                   # "implicit" | "starttls" | "none" (loopback only)
# ca_file = "/etc/wildt/ca.pem"    # trust a private CA (default: public roots)
username = {username}
password_file = {imap_pw}
mailbox = "INBOX"
# processed_mailbox = "Processed"  # move handled messages here (default: flag \Seen only)
idle = true
poll_interval_secs = 60

[outbox]
kind = "smtp"
host = {smtp_host}
port = 587
tls = "starttls"
# ca_file = "/etc/wildt/ca.pem"
username = {username}
password_file = {smtp_pw}
retry_initial_secs = 5
retry_max_secs = 600

[limits]
max_message_bytes = 1048576
replies_per_sender_per_hour = 60
games_per_player = 50
commands_per_message = 600

[security]
# The authserv-id your MX writes in Authentication-Results; `wildt config check
# --connect` shows the ones it finds on a probe mail.
{authserv}
# "key" (the secret game address and the registered From), "key+auth" or "auth"
# (these two need trusted_authserv_id).
policy = "key"
"#
    ))
}

/// A TOML basic string.
fn q(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, InboxConfig, OutboxKind};

    #[test]
    fn defaults_derive_from_the_domain_and_parse() {
        let text = render(&InitOptions {
            domain: "Chess.Club.Example".to_owned(),
            ..InitOptions::default()
        })
        .unwrap();
        let c = Config::parse(&text).unwrap();
        assert_eq!(c.referee.address, "chess@chess.club.example");
        let InboxConfig::Imap(imap) = c.inbox else {
            panic!("not IMAP")
        };
        assert_eq!(imap.host, "imap.chess.club.example");
        assert_eq!(imap.password.path().to_str(), Some(IMAP_PASSWORD_FILE));
        let OutboxKind::Smtp(smtp) = c.outbox.kind else {
            panic!("not SMTP")
        };
        assert_eq!(smtp.host, "smtp.chess.club.example");
        assert_eq!(c.security.trusted_authserv_id, None);
    }

    #[test]
    fn flags_override_and_quotes_are_escaped() {
        let text = render(&InitOptions {
            domain: "club.example".to_owned(),
            name: Some("The \"Club\" referee".to_owned()),
            authserv_id: Some("mx.club.example".to_owned()),
            imap_host: Some("mail.host.example".to_owned()),
            ..InitOptions::default()
        })
        .unwrap();
        let c = Config::parse(&text).unwrap();
        assert_eq!(c.referee.name, "The \"Club\" referee");
        assert_eq!(
            c.security.trusted_authserv_id.as_deref(),
            Some("mx.club.example")
        );
        assert!(matches!(c.inbox, InboxConfig::Imap(ref i) if i.host == "mail.host.example"));
    }

    #[test]
    fn a_word_without_a_dot_is_not_a_domain() {
        assert_eq!(
            render(&InitOptions {
                domain: "localhost".to_owned(),
                ..InitOptions::default()
            }),
            Err(InitError::Domain("localhost".to_owned()))
        );
    }
}
