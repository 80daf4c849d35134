//! Crash points for the tests that kill the daemon at a chosen instant.
//!
//! `WILDT_FAILPOINT=<name>:<n>` makes a debug build abort (as `kill -9`
//! would end it: no destructor, no flush) when [`hit`] is called with that
//! name and count, e.g. `group-handled:3` after the third message of a group
//! was decided inside the group's transaction, before the commit. Release
//! builds compile every call away.

/// Aborts the process if `WILDT_FAILPOINT` names this point and count.
#[cfg(debug_assertions)]
pub fn hit(name: &str, count: usize) {
    use std::sync::OnceLock;
    static SET: OnceLock<Option<(String, usize)>> = OnceLock::new();
    let set = SET.get_or_init(|| {
        let value = std::env::var("WILDT_FAILPOINT").ok()?;
        let (point, n) = value.rsplit_once(':')?;
        Some((point.to_owned(), n.parse().ok()?))
    });
    if let Some((point, n)) = set
        && point == name
        && *n == count
    {
        eprintln!("wildt: failpoint {name}:{count} reached; aborting");
        std::process::abort();
    }
}

/// Release builds have no crash points.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn hit(_name: &str, _count: usize) {}

/// Sleeps if `WILDT_PAUSE` names this point (`<name>:<milliseconds>`): the
/// tests widen a race window with it, e.g. `lock-probe:20` keeps `status`
/// between its look at the daemon's lock and closing the file.
#[cfg(debug_assertions)]
pub fn pause(name: &str) {
    use std::sync::OnceLock;
    static SET: OnceLock<Option<(String, u64)>> = OnceLock::new();
    let set = SET.get_or_init(|| {
        let value = std::env::var("WILDT_PAUSE").ok()?;
        let (point, ms) = value.rsplit_once(':')?;
        Some((point.to_owned(), ms.parse().ok()?))
    });
    if let Some((point, ms)) = set
        && point == name
    {
        std::thread::sleep(std::time::Duration::from_millis(*ms));
    }
}

/// Release builds have no pauses.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn pause(_name: &str) {}

/// A group's time ([`crate::daemon::GROUP_TIME`] given as `default`), or
/// the milliseconds `WILDT_GROUP_MS` sets in a debug build: the tests of a
/// group's commit make a first group of several messages with it where a
/// fresh process's first message alone takes longer (on PostgreSQL).
#[cfg(debug_assertions)]
pub fn group_time(default: std::time::Duration) -> std::time::Duration {
    std::env::var("WILDT_GROUP_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(default, std::time::Duration::from_millis)
}

/// Release builds keep the group's time.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn group_time(default: std::time::Duration) -> std::time::Duration {
    default
}
