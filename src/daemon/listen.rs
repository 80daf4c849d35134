//! On PostgreSQL, the senders of every daemon wake when mail is queued
//! anywhere: migration 0027's trigger on `outbox` sends a notification on
//! [`CHANNEL`] when mail is queued or made due again (it arrives at the
//! commit), and each daemon listens for it besides its own wake-ups and
//! its timer. [IO: a PostgreSQL connection of its own]
//!
//! A lost connection is opened again (sqlx's listener reconnects on its
//! next receive); meanwhile the timer still sends what is due.

use std::str::FromStr as _;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};
use tokio::sync::Notify;
use tracing::{info, warn};

use super::Backoff;
use crate::config::Config;

/// The channel the trigger notifies.
pub const CHANNEL: &str = "wildt_outbox";

/// Starts listening for queued mail if the store is PostgreSQL, waking
/// `wake` at each notification; the task runs until aborted.
pub fn start(config: &Config, wake: Arc<Notify>) -> Option<tokio::task::JoinHandle<()>> {
    if crate::store::Backend::of(&config.database_url) != Some(crate::store::Backend::Postgres) {
        return None;
    }
    let mut options = match PgConnectOptions::from_str(&config.database_url) {
        Ok(o) => o,
        Err(e) => {
            warn!(error = %e, "outbox: not listening for queued mail (the database URL)");
            return None;
        }
    };
    if let Some(secret) = &config.database_password {
        match secret.read() {
            Ok(password) => options = options.password(&password),
            Err(e) => {
                warn!(error = %e, "outbox: not listening for queued mail (the password file)");
                return None;
            }
        }
    }
    Some(tokio::spawn(listen(options, wake)))
}

async fn listen(options: PgConnectOptions, wake: Arc<Notify>) {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        .connect_lazy_with(options);
    let mut backoff = Backoff::new(Duration::from_millis(500), Duration::from_secs(30));
    loop {
        let mut listener = match PgListener::connect_with(&pool).await {
            Ok(l) => l,
            Err(e) => {
                let delay = backoff.next_delay();
                warn!(error = %e, retry_in_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                      "outbox: cannot listen for queued mail; trying again");
                tokio::time::sleep(delay).await;
                continue;
            }
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            let delay = backoff.next_delay();
            warn!(error = %e, "outbox: LISTEN failed; trying again");
            tokio::time::sleep(delay).await;
            continue;
        }
        info!("outbox: listening for mail queued by any daemon");
        // Mail queued while this listener was not connected: look now.
        wake.notify_one();
        loop {
            match listener.try_recv().await {
                Ok(Some(_)) => {
                    backoff.reset();
                    wake.notify_one();
                }
                // The connection was lost; the next receive reconnects and
                // listens again. Mail queued meanwhile: look now.
                Ok(None) => {
                    info!("outbox: the listening connection was lost; listening again");
                    wake.notify_one();
                }
                Err(e) => {
                    let delay = backoff.next_delay();
                    warn!(error = %e, "outbox: listening for queued mail failed; reconnecting");
                    tokio::time::sleep(delay).await;
                    break;
                }
            }
        }
    }
}
