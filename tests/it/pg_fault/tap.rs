//! A tap in front of the rig's SMTP port: each daemon process sends through
//! a tap of its own, which relays every byte and writes down the Message-ID
//! of each mail the process handed over (the header block after `DATA`).
//! A Message-ID delivered twice can then be told apart: handed once by a
//! process later killed with `kill -9` (it could not record that the relay
//! took the mail, and its successor sent it again) or handed twice by
//! processes that lived (a mail sent again for no reason). [IO: network]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// One mail handed to the relay: by which process (its incarnation number)
/// and when, in the order of every event of the run ([`Clock`]).
#[derive(Debug, Clone)]
pub struct Handed {
    pub at: u64,
    pub incarnation: usize,
    pub message_id: String,
}

/// The order of the run's events (mails handed, processes killed): one
/// counter shared by the taps and the test.
#[derive(Debug, Clone, Default)]
pub struct Clock(Arc<AtomicU64>);

impl Clock {
    pub fn tick(&self) -> u64 {
        self.0.fetch_add(1, Ordering::SeqCst)
    }
}

/// Every mail handed through any tap, shared by them all.
pub type Ledger = Arc<Mutex<Vec<Handed>>>;

/// A listening tap; relays to `upstream` until dropped.
pub struct Tap {
    pub port: u16,
    accept: JoinHandle<()>,
}

impl Tap {
    pub async fn start(
        host: &str,
        upstream: u16,
        incarnation: usize,
        clock: Clock,
        ledger: Ledger,
    ) -> Tap {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("tap: bind");
        let port = listener.local_addr().expect("tap: address").port();
        let host = host.to_owned();
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (host, clock, ledger) = (host.clone(), clock.clone(), ledger.clone());
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect((host.as_str(), upstream)).await else {
                        // The daemon sees its connection closed and retries.
                        return;
                    };
                    relay(client, server, incarnation, clock, ledger).await;
                });
            }
        });
        Tap { port, accept }
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// Copies both ways; the client's side is read line by line for the
/// Message-IDs. Ends when either side closes (a killed daemon's socket
/// closes with it); what was already written still reaches the relay.
async fn relay(
    client: TcpStream,
    server: TcpStream,
    incarnation: usize,
    clock: Clock,
    ledger: Ledger,
) {
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let down = tokio::spawn(async move {
        // A failed copy only ends the session, as a cut connection would.
        tokio::io::copy(&mut server_read, &mut client_write)
            .await
            .ok();
        client_write.shutdown().await.ok();
    });
    let mut reader = SmtpReader::default();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match client_read.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for id in reader.feed(&buf[..n]) {
            let at = clock.tick();
            ledger.lock().expect("ledger lock").push(Handed {
                at,
                incarnation,
                message_id: id,
            });
        }
        if server_write.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    server_write.shutdown().await.ok();
    down.await.ok();
}

/// Where the client's side of an SMTP session is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Part {
    #[default]
    Commands,
    /// After `DATA`: the mail's header block.
    Headers,
    /// After the header block, until the line `.`.
    Body,
}

/// Reads the client's side of an SMTP session line by line.
#[derive(Debug, Default)]
struct SmtpReader {
    part: Part,
    line: Vec<u8>,
    /// A `Message-ID:` header whose value is on the next (folded) line.
    folded: bool,
}

impl SmtpReader {
    /// The Message-IDs of the mails whose headers end in `bytes`.
    fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut found = Vec::new();
        for &b in bytes {
            if b != b'\n' {
                self.line.push(b);
                continue;
            }
            let line = std::mem::take(&mut self.line);
            let line = line.strip_suffix(b"\r").unwrap_or(&line);
            if let Some(id) = self.take_line(line) {
                found.push(id);
            }
        }
        found
    }

    fn take_line(&mut self, line: &[u8]) -> Option<String> {
        match self.part {
            Part::Commands => {
                if line.eq_ignore_ascii_case(b"DATA") {
                    self.part = Part::Headers;
                }
                None
            }
            Part::Headers if line.is_empty() => {
                self.part = Part::Body;
                None
            }
            Part::Headers => {
                let text = String::from_utf8_lossy(line);
                let value = if self.folded && text.starts_with([' ', '\t']) {
                    self.folded = false;
                    Some(text.as_ref())
                } else {
                    self.folded = false;
                    text.split_once(':')
                        .filter(|(name, _)| name.trim().eq_ignore_ascii_case("message-id"))
                        .map(|(_, value)| value)
                };
                let value = value?;
                let id = value
                    .trim()
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_owned();
                if id.is_empty() {
                    self.folded = true;
                    return None;
                }
                Some(id)
            }
            Part::Body => {
                if line == b"." {
                    self.part = Part::Commands;
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SmtpReader;

    #[test]
    fn the_message_ids_of_the_mails_in_a_session_are_read_from_their_headers() {
        let mut r = SmtpReader::default();
        let session = "EHLO x\r\nMAIL FROM:<a@x>\r\nRCPT TO:<b@x>\r\nDATA\r\n\
            Subject: one\r\nMessage-ID: <1@x>\r\n\r\nMessage-ID: <not@x>\r\n.\r\n\
            MAIL FROM:<a@x>\r\nDATA\r\nmessage-id:\r\n <2@x>\r\n\r\nbody\r\n.\r\nQUIT\r\n";
        // Fed in pieces that cut lines anywhere.
        let mut ids = Vec::new();
        for piece in session.as_bytes().chunks(7) {
            ids.extend(r.feed(piece));
        }
        assert_eq!(ids, ["1@x", "2@x"]);
    }
}
