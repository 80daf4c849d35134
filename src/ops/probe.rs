//! `wildt config check --connect`: logs in to the IMAP inbox and the SMTP
//! relay the configuration names, tells whether IDLE is offered, and sends the
//! referee a probe at `local+probe-<random>@domain` to see that sub-addressed
//! mail reaches the mailbox (then deletes it) and whether the trusted MX's
//! `Authentication-Results` is on it. Each failure says what to change. [IO]

use std::time::{Duration, Instant};

use rand::Rng as _;

use crate::config::{Config, ImapConfig, InboxConfig, OutboxKind, ReceiptsConfig, SmtpConfig};
use crate::mail::InboxError;
use crate::mail::imap::ImapInbox;
use crate::mail::smtp::{SmtpError, SmtpTransport};
use crate::ops::check::Finding;

/// Runs the online checks; `wait` bounds how long the probe may take to arrive.
pub async fn connect_checks(config: &Config, wait: Duration) -> Vec<Finding> {
    let mut findings = vec![super::check::database_login(config).await];
    let imap = match &config.inbox {
        InboxConfig::Imap(cfg) => imap_login(cfg, &mut findings).await,
        InboxConfig::Maildir { path } => {
            findings.push(Finding::ok(format!(
                "inbox: Maildir {}, nothing to log in to",
                path.display()
            )));
            None
        }
    };
    let smtp = match &config.outbox.kind {
        OutboxKind::Smtp(cfg) => smtp_login(cfg, &mut findings).await,
        OutboxKind::File { .. } | OutboxKind::Sendmail { .. } => {
            findings.push(Finding::ok(
                "outbox: not SMTP, nothing to log in to".to_owned(),
            ));
            None
        }
    };
    if let Some(receipts) = &config.outbox.receipts {
        findings.push(receipts_check(config, receipts, smtp.as_ref(), wait).await);
    }
    match (imap, smtp) {
        (Some(mut inbox), Some(transport)) => {
            probe(config, &mut inbox, &transport, wait, &mut findings).await;
            if let Err(e) = inbox.logout().await {
                tracing::debug!(error = %e, "IMAP logout after the checks");
            }
        }
        (Some(inbox), None) => {
            if matches!(config.outbox.kind, OutboxKind::Smtp(_)) {
                findings.push(Finding::warning(
                    "sub-addressing not checked: the SMTP login failed",
                    "fix the SMTP settings above, then check again",
                ));
            } else {
                findings.push(Finding::warning(
                    "sub-addressing not checked: it needs an SMTP outbox to send the probe",
                    "send a mail to the referee's address with +probe before the @ \
                     and look for it in the inbox",
                ));
            }
            if let Err(e) = inbox.logout().await {
                tracing::debug!(error = %e, "IMAP logout after the checks");
            }
        }
        (None, _) => {
            if matches!(config.inbox, InboxConfig::Imap(_)) {
                findings.push(Finding::warning(
                    "sub-addressing not checked: the IMAP login failed",
                    "fix the IMAP settings above, then check again",
                ));
            }
        }
    }
    findings
}

async fn imap_login(cfg: &ImapConfig, findings: &mut Vec<Finding>) -> Option<ImapInbox> {
    let server = format!("{}:{}", cfg.host, cfg.port);
    match ImapInbox::connect(cfg).await {
        Ok(inbox) => {
            findings.push(Finding::ok(format!(
                "IMAP {server}: logged in as {}",
                cfg.username
            )));
            findings.push(match (inbox.offers_idle(), cfg.idle) {
                (true, true) => Finding::ok(format!("IMAP {server}: IDLE offered; wildt answers at once")),
                (true, false) => Finding::warning(
                    format!("IMAP {server}: IDLE offered but inbox.idle = false"),
                    "set inbox.idle = true so wildt answers as mail arrives, not every poll_interval_secs",
                ),
                (false, _) => Finding::warning(
                    format!("IMAP {server}: IDLE not offered; wildt polls every {} s", cfg.poll_interval.as_secs()),
                    "lower inbox.poll_interval_secs for quicker answers, or ask the provider for IDLE",
                ),
            });
            Some(inbox)
        }
        Err(e) => {
            findings.push(Finding::error(e.to_string(), imap_fix(&e, cfg)));
            None
        }
    }
}

/// Logs in to the receipts mailbox and, with an SMTP relay to send it,
/// mails a probe to the receipts address and waits up to `wait` for it
/// there: the round trip every copy makes. The probe stays there, deleted
/// with the old copies.
async fn receipts_check(
    config: &Config,
    receipts: &ReceiptsConfig,
    transport: Option<&SmtpTransport>,
    wait: Duration,
) -> Finding {
    let cfg = &receipts.imap;
    let server = format!("{}:{}", cfg.host, cfg.port);
    let fix_login = |e: &InboxError| {
        imap_fix(e, cfg)
            .replace("inbox.", "receipts.")
            .replace("[inbox]", "[receipts]")
    };
    let mut mailbox = match ImapInbox::connect(cfg).await {
        Ok(m) => m,
        Err(e) => return Finding::error(format!("receipts: {e}"), fix_login(&e)),
    };
    let finding = match transport {
        None => Finding::warning(
            format!(
                "receipts: logged in to IMAP {server} as {}; the round trip of a copy to {} \
                 not checked: the SMTP login failed",
                cfg.username, receipts.address
            ),
            "fix the SMTP settings above, then check again",
        ),
        Some(transport) => receipts_round_trip(config, receipts, transport, &mut mailbox, wait)
            .await
            .unwrap_or_else(|finding| finding),
    };
    if let Err(e) = mailbox.logout().await {
        tracing::debug!(error = %e, "receipts mailbox: logout after the checks");
    }
    finding
}

async fn receipts_round_trip(
    config: &Config,
    receipts: &ReceiptsConfig,
    transport: &SmtpTransport,
    mailbox: &mut ImapInbox,
    wait: Duration,
) -> Result<Finding, Finding> {
    let address = &receipts.address;
    let token: String = {
        let mut rng = rand::rng();
        (0..12)
            .map(|_| char::from(b"abcdefghijklmnopqrstuvwxyz0123456789"[rng.random_range(0..36)]))
            .collect()
    };
    let message_id = format!("wildt-receipts-probe-{token}@{}", config.referee.domain);
    let raw = probe_mail(config, address, &message_id, &token).map_err(|e| {
        Finding::error(
            format!("receipts: cannot write the probe to {address}: {e}"),
            "check referee.address and referee.name",
        )
    })?;
    transport
        .send_raw(&config.referee.address, std::slice::from_ref(address), &raw)
        .await
        .map_err(|e| {
            let fix = if e.is_permanent() {
                "check receipts.address: the relay must deliver mail to it"
            } else {
                "try again; if it persists, read the relay's answer above"
            };
            Finding::error(
                format!("receipts: the relay did not take a mail to {address}: {e}"),
                fix,
            )
        })?;
    let started = Instant::now();
    loop {
        let found = mailbox
            .receipts_found(std::slice::from_ref(&message_id))
            .await
            .map_err(|e| {
                Finding::error(
                    format!("receipts: looking for the probe failed: {e}"),
                    "check receipts.mailbox",
                )
            })?;
        if !found.is_empty() {
            return Ok(Finding::ok(format!(
                "receipts: a copy sent to {address} arrived in {} of {} in {:.1} s",
                receipts.imap.mailbox,
                receipts.imap.username,
                started.elapsed().as_secs_f64()
            )));
        }
        if started.elapsed() >= wait {
            return Err(Finding::error(
                format!(
                    "receipts: a copy sent to {address} did not reach {} of {} within {} s",
                    receipts.imap.mailbox,
                    receipts.imap.username,
                    wait.as_secs()
                ),
                "deliver the mail for receipts.address to receipts.mailbox of receipts.username",
            ));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

fn imap_fix(e: &InboxError, cfg: &ImapConfig) -> String {
    match e {
        InboxError::Login { .. } => format!(
            "check inbox.username ({}) and the password in {}",
            cfg.username,
            cfg.password.path().display()
        ),
        InboxError::Connect { .. } | InboxError::Timeout { .. } => {
            "check inbox.host and inbox.port, and that this machine may reach them".to_owned()
        }
        InboxError::Tls(_)
        | InboxError::TlsHandshake { .. }
        | InboxError::StartTlsRefused { .. } => {
            "check inbox.tls (implicit on 993, starttls on 143) and inbox.ca_file".to_owned()
        }
        InboxError::Config(_) => {
            format!("make {} readable", cfg.password.path().display())
        }
        _ => "check the [inbox] settings".to_owned(),
    }
}

async fn smtp_login(cfg: &SmtpConfig, findings: &mut Vec<Finding>) -> Option<SmtpTransport> {
    let server = format!("{}:{}", cfg.host, cfg.port);
    let transport = match SmtpTransport::new(cfg) {
        Ok(t) => t,
        Err(e) => {
            findings.push(Finding::error(
                format!("SMTP {server}: {e}"),
                smtp_fix(&e, cfg),
            ));
            return None;
        }
    };
    match transport.test_connection().await {
        Ok(true) => {
            let who = match &cfg.username {
                Some(u) => format!("logged in as {u}"),
                None => "connected (no login configured)".to_owned(),
            };
            findings.push(Finding::ok(format!("SMTP {server}: {who}")));
            Some(transport)
        }
        Ok(false) => {
            findings.push(Finding::error(
                format!("SMTP {server}: the relay did not answer NOOP"),
                "check outbox.host and outbox.port",
            ));
            None
        }
        Err(e) => {
            findings.push(Finding::error(format!("{e}"), smtp_fix(&e, cfg)));
            None
        }
    }
}

fn smtp_fix(e: &SmtpError, cfg: &SmtpConfig) -> String {
    match (e.smtp_code(), &cfg.password) {
        (Some(535 | 534 | 530), Some(pw)) => format!(
            "check outbox.username and the password in {}",
            pw.path().display()
        ),
        (Some(530), None) => {
            "the relay wants a login: set outbox.username and outbox.password_file".to_owned()
        }
        (Some(_), _) => "read the relay's answer above".to_owned(),
        (None, _) => "check outbox.host, outbox.port, outbox.tls (starttls on 587, \
                      implicit on 465) and outbox.ca_file"
            .to_owned(),
    }
}

/// Sends the probe, waits for it, and reports whose `Authentication-Results`
/// it carries.
async fn probe(
    config: &Config,
    inbox: &mut ImapInbox,
    transport: &SmtpTransport,
    wait: Duration,
    findings: &mut Vec<Finding>,
) {
    let token: String = {
        let mut rng = rand::rng();
        (0..12)
            .map(|_| char::from(b"abcdefghijklmnopqrstuvwxyz0123456789"[rng.random_range(0..36)]))
            .collect()
    };
    let referee = &config.referee;
    let to = format!("{}+probe-{token}@{}", referee.local, referee.domain);
    let message_id = format!("wildt-probe-{token}@{}", referee.domain);
    let subaddr_fix = format!(
        "game addresses are {}+<game>-<key>@{}: turn on sub-addressing with `+` for \
         this mailbox (Postfix: recipient_delimiter = +; Dovecot: \
         recipient_delimiter = +), or use a provider that delivers them",
        referee.local, referee.domain
    );
    if let Err(finding) =
        send_probe(config, transport, &to, &message_id, &token, &subaddr_fix).await
    {
        findings.push(finding);
        return;
    }
    let started = Instant::now();
    let header = match await_probe(inbox, &message_id, wait).await {
        Ok(header) => header,
        Err(finding) => {
            findings.push(finding);
            return;
        }
    };
    let Some(header) = header else {
        findings.push(Finding::error(
            format!(
                "sub-addressing: the probe to {to} did not reach {} within {} s",
                mailbox_name(config),
                wait.as_secs()
            ),
            format!("{subaddr_fix}; if it arrived elsewhere (a spam folder, a filter), deliver it to the inbox"),
        ));
        return;
    };
    findings.push(Finding::ok(format!(
        "sub-addressing: the probe to {to} arrived in {:.1} s (and is deleted)",
        started.elapsed().as_secs_f64()
    )));
    findings.push(authserv_finding(config, &header));
}

/// Writes the probe and hands it to the relay; the finding when that fails.
async fn send_probe(
    config: &Config,
    transport: &SmtpTransport,
    to: &str,
    message_id: &str,
    token: &str,
    subaddr_fix: &str,
) -> Result<(), Finding> {
    let raw = probe_mail(config, to, message_id, token).map_err(|e| {
        Finding::error(
            format!("sub-addressing: cannot write the probe to {to}: {e}"),
            "check referee.address and referee.name",
        )
    })?;
    let from = &config.referee.address;
    transport
        .send_raw(from, &[to.to_owned()], &raw)
        .await
        .map_err(|e| {
            let fix = if e.is_permanent() {
                subaddr_fix.to_owned()
            } else {
                "try again; if it persists, read the relay's answer above".to_owned()
            };
            Finding::error(
                format!("sub-addressing: sending the probe to {to} failed: {e}"),
                fix,
            )
        })
}

/// Looks for the probe in the inbox every half second for up to `wait`:
/// its header, `None` when it did not come, the finding when looking failed.
async fn await_probe(
    inbox: &mut ImapInbox,
    message_id: &str,
    wait: Duration,
) -> Result<Option<Vec<u8>>, Finding> {
    let started = Instant::now();
    loop {
        match inbox.take_probe(message_id).await {
            Ok(Some(header)) => return Ok(Some(header)),
            Ok(None) if started.elapsed() < wait => {
                tokio::time::sleep(Duration::from_millis(500)).await
            }
            Ok(None) => return Ok(None),
            Err(e) => {
                return Err(Finding::error(
                    format!("sub-addressing: looking for the probe failed: {e}"),
                    "check the [inbox] mailbox settings",
                ));
            }
        }
    }
}

/// Whether the trusted MX stamped `Authentication-Results` on the probe
/// whose header is `header`.
fn authserv_finding(config: &Config, header: &[u8]) -> Finding {
    let found = authserv_ids(header);
    let listed = if found.is_empty() {
        "none".to_owned()
    } else {
        found.join(", ")
    };
    match &config.security.trusted_authserv_id {
        Some(id) if found.iter().any(|f| f.eq_ignore_ascii_case(id)) => Finding::ok(format!(
            "security.trusted_authserv_id: {id} stamped Authentication-Results on the probe"
        )),
        Some(id) => Finding::error(
            format!(
                "security.trusted_authserv_id: no Authentication-Results from {id} on the probe \
                 (found: {listed})"
            ),
            "set security.trusted_authserv_id to the authserv-id your MX writes (one of those found), \
             or have the MX add Authentication-Results",
        ),
        None if found.is_empty() => Finding::ok(
            "security: no Authentication-Results on the probe; policy \"key\" needs none"
                .to_owned(),
        ),
        None => Finding::ok(format!(
            "security: the probe carries Authentication-Results from {listed}; \
             trusted_authserv_id could name your MX among them"
        )),
    }
}

/// The probe: from and to the referee, marked auto-generated so that a
/// running daemon that sees it first does not answer it.
fn probe_mail(
    config: &Config,
    to: &str,
    message_id: &str,
    token: &str,
) -> Result<Vec<u8>, lettre::error::Error> {
    use lettre::message::Mailbox;
    use lettre::message::header::{ContentType, HeaderName, HeaderValue};
    let address = |a: &str| {
        a.parse().map_err(|e: lettre::address::AddressError| {
            lettre::error::Error::Io(std::io::Error::other(e))
        })
    };
    let message = lettre::Message::builder()
        .from(Mailbox::new(
            Some(config.referee.name.clone()),
            address(&config.referee.address)?,
        ))
        .to(Mailbox::new(None, address(to)?))
        .subject(format!("wildt configuration probe {token}"))
        .message_id(Some(format!("<{message_id}>")))
        .date_now()
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-generated".to_owned(),
        ))
        .header(ContentType::TEXT_PLAIN)
        .body(
            "Sent by `wildt config check --connect` to see that sub-addressed mail\n\
             reaches this mailbox. It deletes this message when it finds it.\n"
                .to_owned(),
        )?;
    Ok(message.formatted())
}

fn mailbox_name(config: &Config) -> String {
    match &config.inbox {
        InboxConfig::Imap(i) => i.mailbox.clone(),
        InboxConfig::Maildir { path } => path.display().to_string(),
    }
}

/// The authserv-ids of every `Authentication-Results` header in `header`. [pure]
pub fn authserv_ids(header: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(header);
    let mut fields: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some(last) = fields.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        } else if line.is_empty() {
            break;
        } else {
            fields.push(line.to_owned());
        }
    }
    fields
        .iter()
        .filter_map(|f| {
            let (name, value) = f.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("authentication-results")
                .then(|| {
                    value
                        .split(';')
                        .next()?
                        .split_whitespace()
                        .next()
                        .map(str::to_owned)
                })?
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authserv_ids_reads_folded_headers() {
        let h = b"Subject: x\r\nAuthentication-Results: mx.club.example;\r\n\tdkim=none\r\n\
                  authentication-results:  other.example 1; spf=pass\r\n\r\nbody\r\n";
        assert_eq!(authserv_ids(h), vec!["mx.club.example", "other.example"]);
        assert!(authserv_ids(b"Subject: x\r\n\r\n").is_empty());
    }
}
