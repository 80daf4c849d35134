//! The Xfcc listener: HTTP/1.1 (hyper), optionally TLS (rustls), one
//! endpoint, `/xfccbasic.asmx`. It reads a call ([`super::soap`]), checks
//! the password, and answers: GetMyGames from the store, MakeAMove through
//! the path of a mail ([`crate::handle::handle_xfcc_move`]). [IO]
//!
//! Hostile input is bounded before it is read: at most `max_connections`
//! connections are served at once (the rest wait in the kernel's backlog),
//! a request's head and body must arrive within `request_timeout`, a body
//! larger than `max_request_bytes` is refused unread (413), and the XML
//! reader refuses DTDs and entities. A request that cannot be answered is
//! answered with a SOAP fault or a 4xx status; no request ends the server.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HOST};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use shakmaty::Color;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, watch};
use tracing::{debug, error, info, warn};

use super::account::{FailedLogins, decoy_hash, verify};
use super::soap::{self, Call, Credentials, FaultCode, MoveResult, XfccGame};
use super::view::{GameFacts, xfcc_game};
use crate::config::{Rules, XfccConfig};
use crate::handle::{Handled, handle_xfcc_move};
use crate::store::{Store, StoreError, now_secs, xfcc};

/// The service's path, as ASMX names it.
pub const PATH: &str = "/xfccbasic.asmx";

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("xfcc: cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("xfcc: cannot read the TLS {what} {path}: {why}")]
    Tls {
        what: &'static str,
        path: String,
        why: String,
    },
}

/// What every request is answered with.
struct State {
    store: Store,
    rules: Rules,
    config: XfccConfig,
    failures: FailedLogins,
    /// Wakes the outbox worker once a move's mails are committed.
    wake: Arc<Notify>,
    tls: bool,
    /// Password checks run at once: each takes Argon2's 19 MiB, so a burst
    /// of logins waits here instead of taking the machine's memory.
    checks: Semaphore,
}

/// Password checks run at once (see [`State::checks`]).
const CHECKS_AT_ONCE: usize = 4;

/// A bound listener, not yet serving.
pub struct Server {
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    state: Arc<State>,
}

impl Server {
    /// Binds `config.listen` and reads the TLS files, so that a mistake in
    /// them stops `wildt serve` at its start, not later.
    pub async fn bind(
        config: &XfccConfig,
        store: Store,
        rules: Rules,
        wake: Arc<Notify>,
    ) -> Result<Server, ServerError> {
        let state = Arc::new(State {
            store,
            rules,
            failures: FailedLogins::new(config.failed_logins_per_hour),
            config: config.clone(),
            wake,
            tls: config.tls.is_some(),
            checks: Semaphore::new(CHECKS_AT_ONCE),
        });
        Server::listen(state).await
    }

    /// Binds the address and reads the TLS files of `state`'s configuration.
    async fn listen(state: Arc<State>) -> Result<Server, ServerError> {
        let config = &state.config;
        let tls = match &config.tls {
            Some((cert, key)) => Some(acceptor(cert, key)?),
            None => None,
        };
        let listener =
            TcpListener::bind(config.listen)
                .await
                .map_err(|source| ServerError::Bind {
                    addr: config.listen,
                    source,
                })?;
        Ok(Server {
            listener,
            tls,
            state,
        })
    }

    /// Runs the server until `stop` turns true, as the daemon's other tasks
    /// run: should the accept loop ever panic, it is logged and the server
    /// listens again after a pause that doubles up to a minute, instead of
    /// Xfcc ending silently while mail goes on.
    pub async fn supervise(self, stop: watch::Receiver<bool>) {
        let state = self.state.clone();
        let mut next = Some(self);
        let mut pause = Duration::from_secs(1);
        loop {
            let server = match next.take() {
                Some(s) => s,
                None => match Server::listen(state.clone()).await {
                    Ok(s) => s,
                    Err(e) => {
                        error!(error = %e, "xfcc: cannot listen again; retrying");
                        if wait_or_stop(pause, &stop).await {
                            return;
                        }
                        pause = (pause * 2).min(Duration::from_secs(60));
                        continue;
                    }
                },
            };
            match tokio::spawn(server.run(stop.clone())).await {
                Ok(()) => return,
                Err(e) => error!(error = %e, "xfcc: the server failed; listening again"),
            }
            if wait_or_stop(pause, &stop).await {
                return;
            }
            pause = (pause * 2).min(Duration::from_secs(60));
        }
    }

    /// The address listened on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `stop` turns true, then waits (a bounded time) for the
    /// requests in hand to be answered. An error accepting a connection
    /// (out of file descriptors) is logged and waited out, never the end.
    pub async fn run(self, mut stop: watch::Receiver<bool>) {
        let Server {
            listener,
            tls,
            state,
        } = self;
        let limit = state.config.max_connections;
        let slots = Arc::new(Semaphore::new(limit));
        let mut pause = Duration::from_millis(10);
        info!(addr = ?listener.local_addr().ok(), tls = state.tls, "xfcc: listening");
        loop {
            let permit = tokio::select! {
                _ = stop.wait_for(|s| *s) => break,
                p = slots.clone().acquire_owned() => match p {
                    Ok(p) => p,
                    Err(_) => break,
                },
            };
            let accepted = tokio::select! {
                _ = stop.wait_for(|s| *s) => break,
                a = listener.accept() => a,
            };
            let (stream, peer) = match accepted {
                Ok(a) => {
                    pause = Duration::from_millis(10);
                    a
                }
                Err(e) => {
                    warn!(error = %e, "xfcc: accept failed; waiting");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                    continue;
                }
            };
            let state = state.clone();
            let tls = tls.clone();
            tokio::spawn(async move {
                serve_connection(stream, peer, tls, state).await;
                drop(permit);
            });
        }
        drop(listener);
        // The requests in hand finish: a move being committed is never cut.
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        let drained =
            tokio::time::timeout(Duration::from_secs(10), slots.acquire_many(limit)).await;
        if drained.is_err() {
            warn!("xfcc: stopped with connections still open");
        }
        info!("xfcc: stopped");
    }
}

/// Waits `pause`; true when a stop was asked for meanwhile (or before).
async fn wait_or_stop(pause: Duration, stop: &watch::Receiver<bool>) -> bool {
    let mut watching = stop.clone();
    tokio::select! {
        _ = watching.wait_for(|s| *s) => true,
        () = tokio::time::sleep(pause) => *stop.borrow(),
    }
}

fn acceptor(cert: &Path, key: &Path) -> Result<tokio_rustls::TlsAcceptor, ServerError> {
    let tls_err = |what, path: &Path, why: String| ServerError::Tls {
        what,
        path: path.display().to_string(),
        why,
    };
    let cert_pem = std::fs::read(cert).map_err(|e| tls_err("certificate", cert, e.to_string()))?;
    let key_pem = std::fs::read(key).map_err(|e| tls_err("key", key, e.to_string()))?;
    let certs = rustls_pemfile::certs(&mut cert_pem.as_slice())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| tls_err("certificate", cert, e.to_string()))?;
    let key_der = rustls_pemfile::private_key(&mut key_pem.as_slice())
        .map_err(|e| tls_err("key", key, e.to_string()))?
        .ok_or_else(|| tls_err("key", key, "no private key in it".into()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_err("certificate", cert, e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key_der)
        .map_err(|e| tls_err("certificate", cert, e.to_string()))?;
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    tls: Option<tokio_rustls::TlsAcceptor>,
    state: Arc<State>,
) {
    let timeout = state.config.request_timeout;
    let service = service_fn(move |req| {
        let state = state.clone();
        async move { Ok::<_, Infallible>(answer(req, peer.ip(), &state).await) }
    });
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .max_buf_size(64 * 1024);
    let served = match tls {
        None => http.serve_connection(TokioIo::new(stream), service).await,
        Some(acceptor) => match tokio::time::timeout(timeout, acceptor.accept(stream)).await {
            Ok(Ok(s)) => http.serve_connection(TokioIo::new(s), service).await,
            Ok(Err(e)) => {
                debug!(%peer, error = %e, "xfcc: TLS handshake failed");
                return;
            }
            Err(_) => {
                debug!(%peer, "xfcc: TLS handshake timed out");
                return;
            }
        },
    };
    if let Err(e) = served {
        debug!(%peer, error = %e, "xfcc: connection ended with an error");
    }
}

type Answer = Response<Full<Bytes>>;

fn respond(status: StatusCode, content_type: &str, body: String) -> Answer {
    let len = body.len();
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    let h = r.headers_mut();
    if let Ok(v) = content_type.parse() {
        h.insert(CONTENT_TYPE, v);
    }
    h.insert(CONTENT_LENGTH, len.into());
    r
}

const XML: &str = "text/xml; charset=utf-8";

fn xml(body: String) -> Answer {
    respond(StatusCode::OK, XML, body)
}

/// A SOAP fault, with HTTP 500 as SOAP 1.1 answers one.
fn fault(code: FaultCode, text: &str) -> Answer {
    respond(
        StatusCode::INTERNAL_SERVER_ERROR,
        XML,
        soap::fault(code, text),
    )
}

fn plain(status: StatusCode, text: &str) -> Answer {
    respond(status, "text/plain; charset=utf-8", format!("{text}\n"))
}

async fn answer(req: Request<Incoming>, peer: IpAddr, state: &State) -> Answer {
    if !req.uri().path().eq_ignore_ascii_case(PATH) {
        return plain(
            StatusCode::NOT_FOUND,
            "not found: the service is at /xfccbasic.asmx",
        );
    }
    let wsdl = req
        .uri()
        .query()
        .is_some_and(|q| q.eq_ignore_ascii_case("wsdl"));
    match *req.method() {
        Method::GET if wsdl => {
            let host = host(&req, state);
            let scheme = if state.tls { "https" } else { "http" };
            let location = format!("{scheme}://{host}{PATH}");
            return xml(super::WSDL.replace("XFCC_LOCATION", &location));
        }
        Method::POST => {}
        _ => {
            return plain(
                StatusCode::METHOD_NOT_ALLOWED,
                "POST a SOAP call, or GET /xfccbasic.asmx?wsdl",
            );
        }
    }
    let max = state.config.max_request_bytes;
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return too_large(max);
    }
    let body = Limited::new(req.into_body(), max);
    let bytes = match tokio::time::timeout(state.config.request_timeout, body.collect()).await {
        Ok(Ok(b)) => b.to_bytes(),
        Ok(Err(e)) => {
            if e.is::<http_body_util::LengthLimitError>() {
                return too_large(max);
            }
            return plain(
                StatusCode::BAD_REQUEST,
                "the request body could not be read",
            );
        }
        Err(_) => {
            return plain(
                StatusCode::REQUEST_TIMEOUT,
                "the request body came too slowly",
            );
        }
    };
    let call = match soap::parse(&bytes) {
        Ok(c) => c,
        Err(e) => {
            debug!(%peer, error = %e, "xfcc: a request that is not a call");
            return fault(FaultCode::Client, &e.to_string());
        }
    };
    let user = call.credentials().username.clone();
    let authenticated = match authenticate(state, call.credentials(), peer).await {
        Ok(ok) => ok,
        Err(e) => {
            error!(error = %e, "xfcc: the store failed");
            return fault(FaultCode::Server, "ServerError");
        }
    };
    match call {
        Call::GetMyGames(_) if !authenticated => fault(FaultCode::Client, "AuthenticationFailed"),
        Call::MakeAMove(_) if !authenticated => {
            xml(soap::move_response(MoveResult::AuthenticationFailed))
        }
        Call::GetMyGames(_) => match games(state, &user).await {
            Ok(games) => xml(soap::games_response(&games)),
            Err(e) => {
                error!(error = %e, "xfcc: GetMyGames failed");
                fault(FaultCode::Server, "ServerError")
            }
        },
        Call::MakeAMove(m) => {
            let handled = handle_xfcc_move(
                &state.store,
                &state.rules,
                &user,
                &m,
                state.config.confirm_by_mail,
            )
            .await;
            let result = match handled {
                Ok(h) => {
                    if matches!(&h.handled, Some(Handled::Decided { mails, .. }) if !mails.is_empty())
                    {
                        state.wake.notify_one();
                    }
                    info!(
                        game = m.game_id,
                        result = h.result.as_str(),
                        "xfcc: MakeAMove"
                    );
                    h.result
                }
                Err(e) => {
                    error!(game = m.game_id, error = %e, "xfcc: MakeAMove failed");
                    MoveResult::ServerError
                }
            };
            xml(soap::move_response(result))
        }
    }
}

fn too_large(max: usize) -> Answer {
    respond(
        StatusCode::PAYLOAD_TOO_LARGE,
        XML,
        soap::fault(
            FaultCode::Client,
            &format!("the request is larger than {max} bytes"),
        ),
    )
}

/// The request's `Host`, when it is a plain host name or address with an
/// optional port; else the address listened on.
fn host(req: &Request<Incoming>, state: &State) -> String {
    req.headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        })
        .map_or_else(|| state.config.listen.to_string(), str::to_owned)
}

/// Whether `c` names an account and its password. A user or a peer over
/// the failed-login limit fails unchecked (and uncounted: the block ends
/// an hour after the failures that set it); an unknown user is checked
/// against a decoy hash, so that both take the time of a real check.
async fn authenticate(state: &State, c: &Credentials, peer: IpAddr) -> Result<bool, StoreError> {
    if state.failures.blocked(&c.username, peer) {
        debug!(%peer, "xfcc: login refused unchecked: over the failed-login limit");
        return Ok(false);
    }
    let stored = {
        let mut conn = state.store.pool().acquire().await?;
        xfcc::password_hash(&mut conn, &c.username).await?
    };
    let known = stored.is_some();
    let hash = stored.unwrap_or_else(|| decoy_hash().to_owned());
    let password = c.password.clone();
    // The semaphore is never closed.
    let permit = state.checks.acquire().await.ok();
    // Argon2 takes tens of milliseconds of CPU: off the async threads.
    let ok = tokio::task::spawn_blocking(move || verify(&password, &hash))
        .await
        .unwrap_or(false)
        && known
        && !c.username.is_empty();
    drop(permit);
    if !ok {
        // For the organiser's log (and fail2ban): who and from where, never
        // the password; the name quoted and cut, as it is the client's text.
        let user: String = c.username.chars().take(100).collect();
        warn!(user = ?user, %peer, "xfcc: a login failed");
        state.failures.failed(&c.username, peer);
    }
    Ok(ok)
}

/// The games of `user` as XfccGames.
async fn games(state: &State, user: &str) -> Result<Vec<XfccGame>, StoreError> {
    let mut conn = state.store.pool().acquire().await?;
    let ids = xfcc::games_of(&mut conn, user).await?;
    let now = now_secs();
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let Some(timed) = crate::deadlines::TimedGame::load(&mut conn, id).await? else {
            continue;
        };
        let view = &timed.game.view;
        let Some(seat) = [Color::White, Color::Black]
            .into_iter()
            .find(|c| view.player(*c).email.eq_ignore_ascii_case(user))
        else {
            continue;
        };
        let state_now = timed
            .clock
            .control
            .is_limited()
            .then(|| timed.state(&state.rules.clock, now));
        let message = xfcc::note(&mut conn, id, seat.other())
            .await?
            .filter(|n| !n.is_empty());
        let facts = GameFacts {
            view,
            event: timed.game.event.as_deref(),
            created_at: timed.game.created_at,
            time_control: timed.game.time_control,
            clocks: state_now.as_ref(),
            message,
            site: &state.rules.referee.domain,
        };
        out.push(xfcc_game(&facts, seat));
    }
    Ok(out)
}
