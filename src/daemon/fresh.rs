//! The bodies of mails this process has just committed to the outbox, kept
//! in memory for its own sender: a reply written a moment ago is sent from
//! here instead of being read back from SQLite and unpacked. [pure + a lock]
//!
//! Only a cache: every body is in `outbox_bodies` too, written in the
//! transaction that committed it, and a mail whose body is not here (sent
//! by another process's lease, after a restart, or pushed out by newer
//! ones) is read from there. Bodies go in only after their
//! transaction committed, so nothing here was rolled back.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// How many bytes of bodies are kept at most: a backlog the sender cannot
/// keep up with (a burst answered through a slow relay) does not grow the
/// process; the oldest bodies give way and are read from the database when
/// their turn comes.
pub const FRESH_MAX_BYTES: usize = 32 << 20;

/// Bodies by Message-ID (unique per outbox row), oldest first out.
#[derive(Debug)]
pub struct FreshBodies {
    max_bytes: usize,
    inner: Mutex<Fresh>,
}

#[derive(Debug, Default)]
struct Fresh {
    bodies: HashMap<String, Vec<u8>>,
    /// The order bodies came in; a Message-ID whose body was taken stays
    /// until it reaches the front or the queue is compacted.
    order: VecDeque<String>,
    bytes: usize,
}

impl Default for FreshBodies {
    fn default() -> Self {
        FreshBodies::with_limit(FRESH_MAX_BYTES)
    }
}

impl FreshBodies {
    pub fn with_limit(max_bytes: usize) -> FreshBodies {
        FreshBodies {
            max_bytes,
            inner: Mutex::new(Fresh::default()),
        }
    }

    /// Keeps the body `raw` of the committed outbox row `message_id`. A body
    /// larger than the whole limit is not kept.
    pub fn keep(&self, message_id: &str, raw: Vec<u8>) {
        if raw.len() > self.max_bytes {
            return;
        }
        let mut f = self.lock();
        while f.bytes + raw.len() > self.max_bytes {
            let Some(oldest) = f.order.pop_front() else {
                break;
            };
            if let Some(body) = f.bodies.remove(&oldest) {
                f.bytes -= body.len();
            }
        }
        let len = raw.len();
        if let Some(old) = f.bodies.insert(message_id.to_owned(), raw) {
            f.bytes -= old.len();
        } else {
            f.order.push_back(message_id.to_owned());
        }
        f.bytes += len;
    }

    /// The body of `message_id` if it is kept; it is kept no longer.
    pub fn take(&self, message_id: &str) -> Option<Vec<u8>> {
        let mut f = self.lock();
        let body = f.bodies.remove(message_id)?;
        f.bytes -= body.len();
        // Taken Message-IDs left in the queue are dropped once they are
        // most of it: the queue stays within twice the bodies kept.
        if f.order.len() > 64 && f.order.len() > 2 * f.bodies.len() {
            let Fresh { bodies, order, .. } = &mut *f;
            order.retain(|id| bodies.contains_key(id));
        }
        Some(body)
    }

    /// Bytes of bodies kept now.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Fresh> {
        // A panic while holding the lock leaves a consistent map (every
        // change above completes before it could panic): go on with it.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_body_is_taken_once() {
        let fresh = FreshBodies::default();
        fresh.keep("a@x", b"body a".to_vec());
        assert_eq!(fresh.take("a@x").as_deref(), Some(&b"body a"[..]));
        assert_eq!(fresh.take("a@x"), None);
        assert_eq!(fresh.bytes(), 0);
    }

    #[test]
    fn the_oldest_bodies_give_way_to_new_ones_past_the_limit() {
        let fresh = FreshBodies::with_limit(10);
        fresh.keep("1", b"aaaa".to_vec());
        fresh.keep("2", b"bbbb".to_vec());
        fresh.keep("3", b"cccc".to_vec());
        assert_eq!(fresh.take("1"), None, "the oldest gave way");
        assert_eq!(fresh.take("2").as_deref(), Some(&b"bbbb"[..]));
        assert_eq!(fresh.take("3").as_deref(), Some(&b"cccc"[..]));
        assert_eq!(fresh.bytes(), 0);
    }

    #[test]
    fn a_body_larger_than_the_limit_is_not_kept_and_pushes_nothing_out() {
        let fresh = FreshBodies::with_limit(10);
        fresh.keep("small", b"abc".to_vec());
        fresh.keep("huge", vec![b'x'; 11]);
        assert_eq!(fresh.take("huge"), None);
        assert_eq!(fresh.take("small").as_deref(), Some(&b"abc"[..]));
    }

    #[test]
    fn taken_ids_do_not_pile_up_in_the_queue() {
        let fresh = FreshBodies::with_limit(1 << 20);
        for i in 0..10_000 {
            let id = i.to_string();
            fresh.keep(&id, b"body".to_vec());
            fresh.take(&id);
        }
        let f = fresh.lock();
        assert!(
            f.order.len() <= 65,
            "{} ids left in the queue",
            f.order.len()
        );
        assert_eq!(f.bytes, 0);
    }

    #[test]
    fn a_body_kept_again_under_its_id_is_counted_once() {
        let fresh = FreshBodies::with_limit(10);
        fresh.keep("a", b"12345678".to_vec());
        fresh.keep("a", b"12345678".to_vec());
        assert_eq!(fresh.bytes(), 8);
        fresh.keep("b", b"12".to_vec());
        assert_eq!(fresh.take("a").as_deref(), Some(&b"12345678"[..]));
    }
}
