//! Xfcc passwords: Argon2id hashes, the check, random passwords, and the
//! limit on failed logins per user and per peer address. [IO: the OS CSPRNG]
//!
//! A password is never logged: it is read into a [`Credentials`], whose
//! `Debug` hides it, hashed or checked, and dropped.
//!
//! [`Credentials`]: super::soap::Credentials

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// Why a password could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("a password must be at least {MIN_PASSWORD_LEN} characters")]
    TooShort,
    #[error("hashing the password failed: {0}")]
    Hash(String),
}

/// The shortest password taken.
pub const MIN_PASSWORD_LEN: usize = 8;

/// The PHC string of `password`'s Argon2id hash with a fresh salt
/// (the crate's defaults: 19 MiB, 2 passes, as OWASP recommends).
pub fn hash_password(password: &str) -> Result<String, PasswordError> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(PasswordError::TooShort);
    }
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hash(e.to_string()))
}

/// Whether `password` matches the stored `hash` (the crate compares the
/// digests in constant time). A hash that cannot be read matches nothing.
pub fn verify(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash of a password nobody has, checked when the user has no account,
/// so that an unknown user takes as long to refuse as a wrong password.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        hash_password(&random_password()).unwrap_or_else(|_| String::from("$argon2id$v=19$"))
    })
}

/// A new random password: 16 characters of an alphabet without look-alikes
/// (about 82 bits), easy to type from a mail into a GUI.
pub fn random_password() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    // The thread's CSPRNG, seeded from the OS.
    let mut rng = rand::rng();
    (0..16)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// Failed logins in the last hour, per user and per peer address: past the
/// limit, every login of that user (or from that address) fails without
/// being checked, until the oldest failure is an hour old.
pub struct FailedLogins {
    limit: usize,
    window: Duration,
    by_user: Mutex<HashMap<String, Vec<Instant>>>,
    by_peer: Mutex<HashMap<IpAddr, Vec<Instant>>>,
}

impl FailedLogins {
    pub fn new(limit: u32) -> FailedLogins {
        FailedLogins {
            limit: limit as usize,
            window: Duration::from_secs(3600),
            by_user: Mutex::default(),
            by_peer: Mutex::default(),
        }
    }

    /// Whether `user` or `peer` is over the limit now.
    pub fn blocked(&self, user: &str, peer: IpAddr) -> bool {
        let now = Instant::now();
        let over = |times: Option<&mut Vec<Instant>>, window: Duration, limit: usize| {
            times.is_some_and(|t| {
                t.retain(|at| now.duration_since(*at) < window);
                t.len() >= limit
            })
        };
        let user = user.to_ascii_lowercase();
        let u = over(lock(&self.by_user).get_mut(&user), self.window, self.limit);
        let p = over(lock(&self.by_peer).get_mut(&peer), self.window, self.limit);
        u || p
    }

    /// Counts a failed login of `user` from `peer`.
    pub fn failed(&self, user: &str, peer: IpAddr) {
        let now = Instant::now();
        let window = self.window;
        let mut users = lock(&self.by_user);
        // Forget users whose failures are all old, so the map stays small
        // under a spray of made-up names.
        if users.len() > 10_000 {
            users.retain(|_, t| t.iter().any(|at| now.duration_since(*at) < window));
        }
        users
            .entry(user.to_ascii_lowercase())
            .or_default()
            .push(now);
        drop(users);
        let mut peers = lock(&self.by_peer);
        if peers.len() > 10_000 {
            peers.retain(|_, t| t.iter().any(|at| now.duration_since(*at) < window));
        }
        peers.entry(peer).or_default().push(now);
    }
}

/// A poisoned lock still holds good counts (a push never panics half-way).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_and_no_other() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse", &h));
        assert!(!verify("correct horsE", &h));
        assert!(!verify("correct horse", "not a hash"));
        assert!(matches!(
            hash_password("short"),
            Err(PasswordError::TooShort)
        ));
    }

    #[test]
    fn random_passwords_are_long_and_differ() {
        let a = random_password();
        assert_eq!(a.len(), 16);
        assert_ne!(a, random_password());
    }

    #[test]
    fn failures_past_the_limit_block_the_user_and_the_peer() {
        let f = FailedLogins::new(3);
        let peer: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        for _ in 0..3 {
            assert!(!f.blocked("Anna@x.example", peer));
            f.failed("anna@x.example", peer);
        }
        assert!(
            f.blocked("ANNA@x.example", other),
            "the user is blocked anywhere"
        );
        assert!(
            f.blocked("ben@x.example", peer),
            "the peer is blocked for anyone"
        );
        assert!(!f.blocked("ben@x.example", other));
    }
}

/// The password an organiser sets for a player.
pub enum NewPassword {
    /// Given (read from a file): set, not mailed.
    Given(String),
    /// Made at random, and mailed to the player through the outbox.
    Random,
}

/// Why a password was not set.
#[derive(Debug, thiserror::Error)]
pub enum SetPasswordError {
    #[error(transparent)]
    Password(#[from] PasswordError),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error("the password mail could not be written: {0}")]
    Render(String),
}

/// Sets the Xfcc password of `email` in one transaction; a random one is
/// queued in the outbox to the player, in their language, in the same
/// transaction (no password set that nobody is told of).
pub async fn set_password(
    store: &crate::store::Store,
    referee: &crate::config::RefereeConfig,
    email: &str,
    new: NewPassword,
) -> Result<(), SetPasswordError> {
    let email = crate::store::players::key(email);
    let (password, mail) = match new {
        NewPassword::Given(p) => (p, false),
        NewPassword::Random => (random_password(), true),
    };
    let hash = {
        let p = password.clone();
        tokio::task::spawn_blocking(move || hash_password(&p))
            .await
            .map_err(|e| PasswordError::Hash(e.to_string()))??
    };
    let now = crate::store::now_secs();
    let mut tx = store.begin().await?;
    crate::store::xfcc::set_password_hash(&mut tx, &email, &hash, now).await?;
    if mail {
        queue_password_mail(&mut tx, referee, &email, &password, now).await?;
    }
    tx.commit().await.map_err(crate::store::StoreError::from)?;
    Ok(())
}

/// Queues the mail that tells `email` their new password.
pub async fn queue_password_mail(
    conn: &mut sqlx::AnyConnection,
    referee: &crate::config::RefereeConfig,
    email: &str,
    password: &str,
    now: i64,
) -> Result<(), SetPasswordError> {
    let lang = crate::store::players::lang(conn, email)
        .await?
        .map_or(crate::i18n::Lang::En, |(l, _)| l);
    let mail = crate::reply::xfcc::password_mail(email, None, lang, password);
    let rendered = crate::mail::render::render(&mail, referee, None, &[])
        .map_err(|e| SetPasswordError::Render(e.to_string()))?;
    crate::store::outbox::enqueue(conn, None, &mail, &rendered, &referee.address, now).await?;
    Ok(())
}
