//! What the daemon tells systemd: READY, its status, and the watchdog's
//! pings, which stop while the outbox worker is stuck. [IO]

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tracing::{debug, error, info};

pub(super) fn notify(state: &[sd_notify::NotifyState<'_>]) {
    // Without NOTIFY_SOCKET this is a no-op. The datagram is sent without
    // blocking: a notify socket nobody reads (its queue holds only a few
    // datagrams) must never stall the referee, and a blocking send froze
    // the whole loop after ten pings. A dropped ping is logged; missing
    // the watchdog is systemd's to judge, not a reason to hang.
    if let Err(e) = notify_nonblocking(state) {
        debug!(error = %e, "sd_notify");
    }
}

fn notify_nonblocking(state: &[sd_notify::NotifyState<'_>]) -> std::io::Result<()> {
    use std::os::unix::net::{SocketAddr, UnixDatagram};
    let Some(path) = std::env::var_os("NOTIFY_SOCKET") else {
        return Ok(());
    };
    let addr = match path.to_str().and_then(|p| p.strip_prefix('@')) {
        Some(name) => {
            use std::os::linux::net::SocketAddrExt as _;
            SocketAddr::from_abstract_name(name.as_bytes())?
        }
        None => SocketAddr::from_pathname(&path)?,
    };
    let msg: String = state.iter().map(|s| format!("{s}\n")).collect();
    let sock = UnixDatagram::unbound()?;
    sock.set_nonblocking(true)?;
    sock.send_to_addr(msg.as_bytes(), &addr)?;
    Ok(())
}

/// How often the loop pings the watchdog: half its interval, or every ten
/// seconds without one.
pub(super) fn watchdog_interval() -> Duration {
    let mut usec = 0u64;
    if sd_notify::watchdog_enabled(false, &mut usec) && usec > 0 {
        Duration::from_micros(usec / 2).max(Duration::from_millis(100))
    } else {
        Duration::from_secs(10)
    }
}

/// Whether the outbox worker is getting anywhere: since when its rounds
/// have failed, and why.
#[derive(Default)]
pub(super) struct WorkerHealth {
    failing: Mutex<Option<(Instant, String)>>,
    /// Told once per stall, not at every ping.
    reported: AtomicBool,
}

impl WorkerHealth {
    pub(super) fn ok(&self) {
        *self.failing.lock().unwrap_or_else(|p| p.into_inner()) = None;
        if self.reported.swap(false, Ordering::Relaxed) {
            info!("outbox worker is making progress again; pinging the watchdog");
        }
    }

    pub(super) fn failed(&self, why: String) {
        let mut failing = self.failing.lock().unwrap_or_else(|p| p.into_inner());
        match &mut *failing {
            Some((_, reason)) => *reason = why,
            None => *failing = Some((Instant::now(), why)),
        }
    }

    /// Why the worker has been stuck for longer than `limit`, if it has.
    fn stalled(&self, limit: Duration) -> Option<(Duration, String)> {
        let failing = self.failing.lock().unwrap_or_else(|p| p.into_inner());
        failing
            .as_ref()
            .map(|(since, why)| (since.elapsed(), why.clone()))
            .filter(|(for_, _)| *for_ >= limit)
    }
}

/// Pings the watchdog unless the outbox worker has been stuck for longer
/// than `stall_after`: then systemd is left to restart the daemon, and the
/// journal says why.
pub(super) fn watchdog_ping(health: &WorkerHealth, stall_after: Duration) {
    match health.stalled(stall_after) {
        None => notify(&[sd_notify::NotifyState::Watchdog]),
        Some((for_, why)) => {
            if !health.reported.swap(true, Ordering::Relaxed) {
                error!(
                    stalled_secs = for_.as_secs(),
                    error = %why,
                    "outbox worker has made no progress for {} s; no longer pinging the watchdog so that systemd restarts wildt",
                    for_.as_secs()
                );
            }
            let status = format!("outbox stuck: {why}");
            notify(&[sd_notify::NotifyState::Status(&status)]);
        }
    }
}
