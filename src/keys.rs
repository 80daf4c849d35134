//! Secret game keys from the operating system's CSPRNG, and random
//! Message-ID parts from the thread's generator seeded from it. [IO: reads
//! the OS random source]
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

/// A random part for a Message-ID, from the thread's CSPRNG (seeded from
/// the operating system's): unique, not secret, and drawn without a system
/// call per mail, where [`new_key`] asks the kernel each time.
pub fn message_key() -> String {
    let mut rng = rand::rng();
    (0..2 * KEY_LEN)
        .map(|_| char::from(KEY_ALPHABET[rng.random_range(0..KEY_ALPHABET.len())]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_keys_are_twenty_key_letters_and_do_not_repeat() {
        let keys: std::collections::HashSet<String> = (0..10_000).map(|_| message_key()).collect();
        assert_eq!(keys.len(), 10_000);
        assert!(
            keys.iter()
                .all(|k| k.len() == 2 * KEY_LEN && k.bytes().all(|b| KEY_ALPHABET.contains(&b)))
        );
    }

    #[test]
    fn game_keys_are_ten_key_letters() {
        let k = new_key();
        assert_eq!(k.len(), KEY_LEN);
        assert!(k.bytes().all(|b| KEY_ALPHABET.contains(&b)));
    }
}
