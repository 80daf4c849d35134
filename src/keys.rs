//! Secret game keys and random Message-ID parts from the operating system's
//! CSPRNG. [IO: reads the OS random source]
//!
//! Its own small module so that both the organiser's use cases (new games,
//! rekeys) and the mail renderer (Message-IDs) draw from it without one
//! depending on the other.

use rand::Rng;

/// Letters and digits for keys: lower case, so addresses survive any client.
const KEY_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
pub const KEY_LEN: usize = 10;

/// A fresh secret key from the operating system's CSPRNG.
pub fn new_key() -> String {
    let mut rng = rand::rngs::OsRng;
    let mut bytes = [0u8; KEY_LEN];
    rand::TryRngCore::try_fill_bytes(&mut rng, &mut bytes).unwrap_or_else(|_| {
        // The OS generator failing is not recoverable; fall back to the
        // thread generator, itself seeded from the OS.
        rand::rng().fill(&mut bytes);
    });
    bytes
        .iter()
        .map(|b| char::from(KEY_ALPHABET[usize::from(*b) % KEY_ALPHABET.len()]))
        .collect()
}
