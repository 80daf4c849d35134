//! The mail rig (scripts/mail-rig): where it is, configurations pointing at
//! it, a plain SMTP sender and an IMAP reader that do not go through wildt's
//! own code, and a proxy whose connections a test can cut. [IO: network,
//! temp files]
//!
//! `Rig::from_env()` reads the `WILDT_RIG_*` variables that
//! `scripts/mail-rig/start.sh` writes to `$MAILROOT/env`. Without them a rig
//! test fails, unless `WILDT_SKIP_RIG=1` says to skip it (for developers
//! without the servers; CI never sets it).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures::TryStreamExt;
use lettre::address::Envelope;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use tempfile::TempDir;
use wildt::config::{Config, ImapConfig, InboxConfig, OutboxKind, SmtpConfig};

use super::fixtures::{REFEREE, unique};

/// Bound on anything that should be quick, so a broken test fails instead of hanging.
pub const HANG: Duration = Duration::from_secs(60);

/// `fut`, or a panic naming `what` if it takes longer than [`HANG`].
pub async fn bounded<T>(what: &str, fut: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(HANG, fut)
        .await
        .unwrap_or_else(|_| panic!("{what} did not finish within {HANG:?}"))
}

/// Where the rig listens.
#[derive(Debug, Clone)]
pub struct Rig {
    pub host: String,
    pub imap_port: u16,
    pub imaps_port: u16,
    pub smtp_port: u16,
    pub smtps_port: u16,
    /// The players' provider: submission with SASL; signs with DKIM and
    /// relays to `mx_port`.
    pub submit_port: u16,
    /// The club's MX: verifies DKIM and stamps `Authentication-Results`
    /// as `mx_authserv_id`, removing any copy that claims that id.
    pub mx_port: u16,
    pub mx_authserv_id: String,
    pub ca: PathBuf,
}

/// The rig, or return from the test when `WILDT_SKIP_RIG=1` (after saying so).
macro_rules! rig_or_skip {
    () => {
        match $crate::support::rig::Rig::from_env(module_path!()) {
            Some(rig) => rig,
            None => return,
        }
    };
}

impl Rig {
    /// `None` (with a line on stderr) when the rig is absent and
    /// `WILDT_SKIP_RIG=1`; panics when it is absent otherwise.
    pub fn from_env(test: &str) -> Option<Rig> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let Some(root) = var("WILDT_RIG_ROOT") else {
            if var("WILDT_SKIP_RIG").as_deref() == Some("1") {
                // The test harness names each test's thread after the test.
                let name = std::thread::current().name().unwrap_or(test).to_owned();
                eprintln!("SKIPPED {name}: no mail rig (WILDT_SKIP_RIG=1)");
                return None;
            }
            panic!(
                "this test needs the mail rig: run `scripts/mail-rig/start.sh` and \
                 `source $MAILROOT/env` (or use scripts/test.sh); \
                 set WILDT_SKIP_RIG=1 to skip the rig tests"
            );
        };
        let port = |name: &str| -> u16 {
            var(name)
                .unwrap_or_else(|| panic!("{name} is not set (rig root {root})"))
                .parse()
                .unwrap_or_else(|e| panic!("{name} is not a port: {e}"))
        };
        Some(Rig {
            host: var("WILDT_RIG_HOST").unwrap_or_else(|| "127.0.0.1".to_owned()),
            imap_port: port("WILDT_RIG_IMAP_PORT"),
            imaps_port: port("WILDT_RIG_IMAPS_PORT"),
            smtp_port: port("WILDT_RIG_SMTP_PORT"),
            smtps_port: port("WILDT_RIG_SMTPS_PORT"),
            submit_port: port("WILDT_RIG_SUBMIT_PORT"),
            mx_port: port("WILDT_RIG_MX_PORT"),
            mx_authserv_id: var("WILDT_RIG_MX_AUTHSERV_ID")
                .unwrap_or_else(|| panic!("WILDT_RIG_MX_AUTHSERV_ID is not set (rig root {root})")),
            ca: var("WILDT_RIG_CA")
                .unwrap_or_else(|| format!("{root}/cert.pem"))
                .into(),
        })
    }

    /// An inbox configuration for `username` (password `<local part>pw`).
    pub fn imap(&self, username: &str) -> ImapSetup {
        ImapSetup {
            rig: self.clone(),
            username: username.to_owned(),
            password: default_password(username),
            tls: "none",
            mailbox: "INBOX".to_owned(),
            processed_mailbox: None,
            idle: true,
            ca_file: true,
        }
    }

    /// A `[receipts]` table: the copies of the mail sent go to `address`
    /// and are read from the INBOX of `username` on the rig (its password
    /// file written in `dir`); a mail in doubt waits `wait_secs` for its
    /// copy.
    pub fn receipts_toml(
        &self,
        address: &str,
        username: &str,
        dir: &std::path::Path,
        wait_secs: u64,
    ) -> String {
        let password = dir.join(format!("{username}-receipts-password"));
        std::fs::write(&password, format!("{}\n", default_password(username)))
            .expect("receipts password file");
        format!(
            "\n[receipts]\naddress = {}\nhost = {}\nport = {}\ntls = \"none\"\n\
             username = {}\npassword_file = {}\nmailbox = \"INBOX\"\nwait_secs = {wait_secs}\n",
            toml_str(address),
            toml_str(&self.host),
            self.imap_port,
            toml_str(username),
            toml_str(&password.display().to_string()),
        )
    }

    /// An SMTP outbox configuration (no AUTH: the rig relays for loopback).
    pub fn smtp(&self, tls: &str) -> SmtpConfig {
        let port = if tls == "implicit" {
            self.smtps_port
        } else {
            self.smtp_port
        };
        let outbox = format!(
            "kind = \"smtp\"\nhost = {}\nport = {port}\ntls = {}\nca_file = {}\n",
            toml_str(&self.host),
            toml_str(tls),
            toml_str(&self.ca.display().to_string()),
        );
        let cfg = parse_config(&toml_inbox_maildir(), &outbox);
        let OutboxKind::Smtp(smtp) = cfg.outbox.kind else {
            panic!("not an SMTP outbox: {:?}", cfg.outbox.kind)
        };
        smtp
    }

    /// Sends a message through the rig's SMTP port with plain lettre.
    pub async fn send(&self, from: &str, to: &str, raw: &[u8]) {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&self.host)
            .port(self.smtp_port)
            .build();
        send_raw(&transport, from, to, raw).await;
    }

    /// Sends as anyone straight to the club's MX, as a server on the Internet
    /// would: no login, so no signature.
    pub async fn send_to_mx(&self, from: &str, to: &str, raw: &[u8]) {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&self.host)
            .port(self.mx_port)
            .build();
        send_raw(&transport, from, to, raw).await;
    }

    /// Sends as `user` (logged in with its password) through the players'
    /// provider, which signs the mail and relays it to the club's MX.
    pub async fn send_via_provider(&self, user: &str, to: &str, raw: &[u8]) {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&self.host)
            .port(self.submit_port)
            .credentials(lettre::transport::smtp::authentication::Credentials::new(
                user.to_owned(),
                default_password(user),
            ))
            .build();
        send_raw(&transport, user, to, raw).await;
    }

    /// A reader logged in as `username` over plain IMAP.
    pub async fn reader(&self, username: &str) -> Reader {
        Reader::login(self, username, &default_password(username)).await
    }
}

async fn send_raw(
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    from: &str,
    to: &str,
    raw: &[u8],
) {
    {
        let envelope = Envelope::new(
            Some(from.parse().expect("from address")),
            vec![to.parse().expect("to address")],
        )
        .expect("envelope");
        transport
            .send_raw(&envelope, raw)
            .await
            .unwrap_or_else(|e| panic!("test sender: SMTP to {to} failed: {e}"));
    }
}

/// Builder for an [`ImapConfig`] aimed at the rig; the password file lives
/// as long as the returned [`TestImap`].
#[derive(Debug, Clone)]
pub struct ImapSetup {
    rig: Rig,
    username: String,
    password: String,
    tls: &'static str,
    mailbox: String,
    processed_mailbox: Option<String>,
    idle: bool,
    ca_file: bool,
}

impl ImapSetup {
    /// "none" (port 10143), "starttls" (10143) or "implicit" (10993).
    pub fn tls(mut self, tls: &'static str) -> Self {
        self.tls = tls;
        self
    }
    pub fn mailbox(mut self, mailbox: &str) -> Self {
        self.mailbox = mailbox.to_owned();
        self
    }
    pub fn processed(mut self, mailbox: &str) -> Self {
        self.processed_mailbox = Some(mailbox.to_owned());
        self
    }
    pub fn idle(mut self, idle: bool) -> Self {
        self.idle = idle;
        self
    }
    pub fn password(mut self, password: &str) -> Self {
        self.password = password.to_owned();
        self
    }
    /// Trust the public roots instead of the rig's certificate.
    pub fn without_ca_file(mut self) -> Self {
        self.ca_file = false;
        self
    }

    pub fn build(self) -> TestImap {
        let dir = tempfile::tempdir().expect("temp dir");
        let pw = dir.path().join("imap-password");
        std::fs::write(&pw, format!("{}\n", self.password)).expect("write password file");
        let port = if self.tls == "implicit" {
            self.rig.imaps_port
        } else {
            self.rig.imap_port
        };
        let mut inbox = format!(
            "kind = \"imap\"\nhost = {}\nport = {port}\ntls = {}\nusername = {}\n\
             password_file = {}\nmailbox = {}\nidle = {}\npoll_interval_secs = 1\n",
            toml_str(&self.rig.host),
            toml_str(self.tls),
            toml_str(&self.username),
            toml_str(&pw.display().to_string()),
            toml_str(&self.mailbox),
            self.idle,
        );
        if self.ca_file {
            inbox.push_str(&format!(
                "ca_file = {}\n",
                toml_str(&self.rig.ca.display().to_string())
            ));
        }
        if let Some(p) = &self.processed_mailbox {
            inbox.push_str(&format!("processed_mailbox = {}\n", toml_str(p)));
        }
        let cfg = parse_config(&inbox, "kind = \"file\"\npath = \"var/outbox\"\n");
        let InboxConfig::Imap(config) = cfg.inbox else {
            panic!("not an IMAP inbox: {:?}", cfg.inbox)
        };
        TestImap { config, _dir: dir }
    }
}

/// An inbox configuration and the temp dir holding its password file.
#[derive(Debug)]
pub struct TestImap {
    pub config: ImapConfig,
    _dir: TempDir,
}

/// The rig's password for an account: its local part and `pw`.
pub fn default_password(username: &str) -> String {
    let local = username.split('@').next().unwrap_or(username);
    format!("{local}pw")
}

/// `s` as a TOML string, quotes and escapes included.
pub fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

fn toml_inbox_maildir() -> String {
    "kind = \"maildir\"\npath = \"var/mail\"\n".to_owned()
}

fn parse_config(inbox: &str, outbox: &str) -> Config {
    let text = format!(
        "[referee]\naddress = \"{REFEREE}\"\n\n[database]\nurl = \"sqlite::memory:\"\n\n\
         [inbox]\n{inbox}\n[outbox]\n{outbox}"
    );
    Config::parse(&text).unwrap_or_else(|e| panic!("test config does not parse: {e}\n{text}"))
}

/// One message as the test reader sees it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub uid: u32,
    pub seen_flag: bool,
    pub raw: Vec<u8>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<String> {
        let text = String::from_utf8_lossy(&self.raw);
        let head = text.split("\r\n\r\n").next().unwrap_or_default();
        head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }
}

/// An IMAP client for tests, independent of `wildt::mail::imap`: plain TCP,
/// one user.
pub struct Reader {
    session: async_imap::Session<tokio::net::TcpStream>,
}

impl Reader {
    pub async fn login(rig: &Rig, username: &str, password: &str) -> Reader {
        let tcp = tokio::net::TcpStream::connect((rig.host.as_str(), rig.imap_port))
            .await
            .unwrap_or_else(|e| panic!("test reader: connect {}:{}: {e}", rig.host, rig.imap_port));
        let mut client = async_imap::Client::new(tcp);
        client
            .read_response()
            .await
            .expect("test reader: greeting")
            .expect("test reader: greeting");
        let session = client
            .login(username, password)
            .await
            .unwrap_or_else(|(e, _)| panic!("test reader: login {username}: {e}"));
        Reader { session }
    }

    /// Creates a fresh folder with a unique name and returns the name.
    pub async fn new_folder(&mut self, prefix: &str) -> String {
        let name = unique(prefix);
        self.session
            .create(&name)
            .await
            .unwrap_or_else(|e| panic!("test reader: CREATE {name}: {e}"));
        name
    }

    pub async fn append(&mut self, folder: &str, raw: &[u8]) {
        self.session
            .append(folder, None, None, raw)
            .await
            .unwrap_or_else(|e| panic!("test reader: APPEND to {folder}: {e}"));
    }

    /// APPENDs `raw` with the INTERNALDATE `date` (`04-Oct-2026 10:00:00
    /// +0000`): as if the server had received it then.
    pub async fn append_at(&mut self, folder: &str, raw: &[u8], date: &str) {
        self.session
            .append(folder, None, Some(&format!("\"{date}\"")), raw)
            .await
            .unwrap_or_else(|e| panic!("test reader: APPEND to {folder} at {date}: {e}"));
    }

    /// Flags every message of `folder` `\Seen`, as another mail client
    /// (the organiser's phone) does when it opens them.
    pub async fn mark_all_seen(&mut self, folder: &str) {
        self.session
            .select(folder)
            .await
            .unwrap_or_else(|e| panic!("test reader: SELECT {folder}: {e}"));
        let updates: Vec<_> = self
            .session
            .store("1:*", "+FLAGS.SILENT (\\Seen)")
            .await
            .unwrap_or_else(|e| panic!("test reader: STORE in {folder}: {e}"))
            .try_collect()
            .await
            .unwrap_or_else(|e| panic!("test reader: STORE in {folder}: {e}"));
        assert!(updates.is_empty(), "silent STORE answered {updates:?}");
    }

    /// Creates a folder with exactly this name.
    pub async fn create(&mut self, folder: &str) {
        self.session
            .create(folder)
            .await
            .unwrap_or_else(|e| panic!("test reader: CREATE {folder}: {e}"));
    }

    /// Deletes a folder (its messages go with it).
    pub async fn delete(&mut self, folder: &str) {
        // Dovecot drops a session whose selected mailbox is deleted under it.
        self.session
            .examine("INBOX")
            .await
            .unwrap_or_else(|e| panic!("test reader: EXAMINE INBOX: {e}"));
        self.session
            .delete(folder)
            .await
            .unwrap_or_else(|e| panic!("test reader: DELETE {folder}: {e}"));
    }

    /// Empties a folder: every message flagged `\Deleted`, then EXPUNGE. For
    /// tests that own an INBOX and must start from nothing on a used rig.
    pub async fn clear(&mut self, folder: &str) {
        let mb = self
            .session
            .select(folder)
            .await
            .unwrap_or_else(|e| panic!("test reader: SELECT {folder}: {e}"));
        if mb.exists > 0 {
            let _flags: Vec<_> = self
                .session
                .store("1:*", "+FLAGS.SILENT (\\Deleted)")
                .await
                .unwrap_or_else(|e| panic!("test reader: STORE in {folder}: {e}"))
                .try_collect()
                .await
                .unwrap_or_else(|e| panic!("test reader: STORE in {folder}: {e}"));
            let _gone: Vec<_> = self
                .session
                .expunge()
                .await
                .unwrap_or_else(|e| panic!("test reader: EXPUNGE {folder}: {e}"))
                .try_collect()
                .await
                .unwrap_or_else(|e| panic!("test reader: EXPUNGE {folder}: {e}"));
        }
        self.session
            .close()
            .await
            .unwrap_or_else(|e| panic!("test reader: CLOSE {folder}: {e}"));
        let left = self.messages(folder).await.len();
        assert_eq!(
            left, 0,
            "{folder} still holds {left} messages after clearing"
        );
    }

    /// The folder's UIDVALIDITY.
    pub async fn uidvalidity(&mut self, folder: &str) -> u32 {
        let mb = self
            .session
            .examine(folder)
            .await
            .unwrap_or_else(|e| panic!("test reader: EXAMINE {folder}: {e}"));
        mb.uid_validity.expect("UIDVALIDITY")
    }

    /// Every message of the folder, in UID order, read without setting \Seen.
    pub async fn messages(&mut self, folder: &str) -> Vec<Seen> {
        let mb = self
            .session
            .examine(folder)
            .await
            .unwrap_or_else(|e| panic!("test reader: EXAMINE {folder}: {e}"));
        if mb.exists == 0 {
            return Vec::new();
        }
        let fetches: Vec<_> = self
            .session
            .fetch("1:*", "(UID FLAGS BODY.PEEK[])")
            .await
            .expect("test reader: FETCH")
            .try_collect()
            .await
            .expect("test reader: FETCH");
        let mut out: Vec<Seen> = fetches
            .iter()
            .filter_map(|f| {
                Some(Seen {
                    uid: f.uid?,
                    seen_flag: f
                        .flags()
                        .any(|flag| matches!(flag, async_imap::types::Flag::Seen)),
                    raw: f.body()?.to_vec(),
                })
            })
            .collect();
        out.sort_by_key(|m| m.uid);
        out
    }

    /// Polls (bounded: 20 s) until `count` messages of the folder contain
    /// `needle`; panics if they do not arrive.
    pub async fn wait_for(&mut self, folder: &str, needle: &str, count: usize) -> Vec<Seen> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let found: Vec<Seen> = self
                .messages(folder)
                .await
                .into_iter()
                .filter(|m| String::from_utf8_lossy(&m.raw).contains(needle))
                .collect();
            if found.len() >= count {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "{count} message(s) with {needle:?} did not arrive in {folder} within 20 s \
                 (found {})",
                found.len()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// A loopback port nothing listens on (bound, then released).
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// A TCP relay in front of a rig port whose open connections a test can cut,
/// to lose a session without disturbing the servers other tests use.
pub struct CuttableProxy {
    pub port: u16,
    live: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl CuttableProxy {
    pub async fn start(host: &str, upstream_port: u16) -> CuttableProxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("proxy bind");
        let port = listener.local_addr().expect("proxy addr").port();
        let live = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let upstream = (host.to_owned(), upstream_port);
        let conns = live.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let upstream = upstream.clone();
                let relay = tokio::spawn(async move {
                    if let Ok(mut server) =
                        tokio::net::TcpStream::connect((upstream.0.as_str(), upstream.1)).await
                    {
                        // Ends when either side closes; errors just end the relay.
                        if let Err(e) =
                            tokio::io::copy_bidirectional(&mut client, &mut server).await
                        {
                            eprintln!("proxy relay ended: {e}");
                        }
                    }
                });
                conns.lock().expect("proxy lock").push(relay);
            }
        });
        CuttableProxy { port, live, accept }
    }

    /// Closes every connection open through the proxy (new ones still work).
    pub fn cut(&self) {
        for relay in self.live.lock().expect("proxy lock").drain(..) {
            relay.abort();
        }
    }
}

impl Drop for CuttableProxy {
    fn drop(&mut self) {
        self.cut();
        self.accept.abort();
    }
}
