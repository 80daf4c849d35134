//! The order in which waiting messages are decided. [pure: no IO]
//!
//! Mail is decided in order of arrival, with one exception: a message may go
//! before older ones it cannot affect and that cannot affect it. A message
//! to a game address names its game; one from another sender to another
//! game is independent of it. So a player whose move arrives while a burst of
//! a thousand moves is being decided waits for one group, not for the whole
//! burst, and no game ever sees its mail in another order than it arrived.
//!
//! A message whose headers name no game address or no sender (mail to the
//! bare referee address, which may be about any game) is never passed, and
//! passes nothing.

use std::collections::HashMap;

use mail_parser::MessageParser;

use super::IntakeConfig;

/// What a waiting message must not pass, read from its headers: the game
/// its address names and its sender.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrderKeys {
    pub game: i64,
    pub from: String,
}

/// The header fields [`order_keys`] reads: an inbox need fetch only these
/// before a message's body.
pub const ORDER_HEADERS: &[&str] = &["From", "Delivered-To", "X-Original-To", "To", "Cc"];

/// The keys of a message from its header block (or the whole message), as
/// the intake will read the same message: the game of its game address and
/// its sender. `None` when it names no game address or no sender.
pub fn order_keys(headers: &[u8], cfg: &IntakeConfig) -> Option<OrderKeys> {
    let message = MessageParser::default().parse_headers(headers)?;
    let envelope = super::headers::envelope(&message, cfg);
    Some(OrderKeys {
        game: envelope.game_address?.game,
        from: base_address(&envelope.from?).into_owned(),
    })
}

/// `anna+chess@example.org` -> `anna@example.org`: a player writing from
/// several sub-addresses is still one sender, whose mail keeps its order
/// (and, in the outbox's lease, one recipient with mail waiting).
pub(crate) fn base_address(address: &str) -> std::borrow::Cow<'_, str> {
    match address.rsplit_once('@') {
        Some((local, domain)) => match local.split_once('+') {
            Some((base, _)) => format!("{base}@{domain}").into(),
            None => address.into(),
        },
        None => address.into(),
    }
}

/// The next group of at most `max` of the waiting messages, given oldest
/// first by their keys: indices into `keys`, in the order to decide them.
///
/// Up to half the group are messages that pass no older waiting message of
/// the same game or sender (and no older message without keys), those of the
/// senders with the fewest messages waiting first, then the oldest: a player
/// with one move waiting goes before the players of a burst. The rest are
/// the oldest. Every message of the group comes after every older one it
/// depends on, and the oldest keep draining, so each message is decided in
/// bounded time.
pub fn next_group(keys: &[Option<&OrderKeys>], max: usize) -> Vec<usize> {
    let n = keys.len();
    if n <= max {
        return (0..n).collect();
    }
    // Counts over keys[..i] as i walks down from the newest.
    let mut games: HashMap<i64, usize> = HashMap::new();
    let mut senders: HashMap<&str, usize> = HashMap::new();
    let mut unknown = 0usize;
    for k in keys {
        match k {
            Some(k) => {
                *games.entry(k.game).or_default() += 1;
                *senders.entry(&k.from).or_default() += 1;
            }
            None => unknown += 1,
        }
    }
    let waiting_from = senders.clone();
    let fresh_max = max / 2;
    // The oldest `max - fresh_max` are taken anyway: look above them only.
    let oldest = max - fresh_max;
    let mut passing: Vec<(usize, usize)> = Vec::new();
    for i in (oldest..n).rev() {
        match keys[i] {
            Some(k) => {
                *games.get_mut(&k.game).expect("counted") -= 1;
                *senders.get_mut(k.from.as_str()).expect("counted") -= 1;
                if unknown == 0 && games[&k.game] == 0 && senders[k.from.as_str()] == 0 {
                    passing.push((waiting_from[k.from.as_str()], i));
                }
            }
            None => unknown -= 1,
        }
    }
    passing.sort_unstable();
    let mut taken = vec![false; n];
    let mut group = Vec::with_capacity(max);
    for &(_, i) in passing.iter().take(fresh_max) {
        taken[i] = true;
        group.push(i);
    }
    for (i, t) in taken.iter_mut().enumerate() {
        if group.len() == max {
            break;
        }
        if !*t {
            *t = true;
            group.push(i);
        }
    }
    group.sort_unstable();
    group
}

/// [`next_group`] of at most `max` messages whose bytes (`sizes`, each
/// counted up to `read_cap`, what an inbox reads of a message) add up to at
/// most `max_bytes`: the group's mail is held in memory until its commit.
/// While the group picked is larger, the largest group that [`next_group`]
/// picks is halved, so fresh mail keeps its half of a smaller group. Never
/// empty while `keys` is not: one message is taken whatever its size.
pub fn next_group_within(
    keys: &[Option<&OrderKeys>],
    sizes: &[usize],
    read_cap: usize,
    max: usize,
    max_bytes: usize,
) -> Vec<usize> {
    let mut max = max.max(1);
    loop {
        let group = next_group(keys, max);
        let bytes: usize = group.iter().map(|&i| sizes[i].min(read_cap)).sum();
        if bytes <= max_bytes || max == 1 {
            return group;
        }
        max /= 2;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn keys(spec: &[Option<(i64, &str)>]) -> Vec<Option<OrderKeys>> {
        spec.iter()
            .map(|k| {
                k.map(|(game, from)| OrderKeys {
                    game,
                    from: from.to_owned(),
                })
            })
            .collect()
    }

    fn group(keys: &[Option<OrderKeys>], max: usize) -> Vec<usize> {
        let refs: Vec<Option<&OrderKeys>> = keys.iter().map(Option::as_ref).collect();
        next_group(&refs, max)
    }

    fn conflict(a: Option<&OrderKeys>, b: Option<&OrderKeys>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => a.game == b.game || a.from == b.from,
            _ => true,
        }
    }

    #[test]
    fn a_move_arriving_after_a_burst_of_other_games_is_in_the_next_group() {
        let mut spec: Vec<Option<(i64, &str)>> = (0..1000)
            .map(|i| Some((i % 500, if i % 2 == 0 { "w@x" } else { "b@x" })))
            .collect();
        // The burst's senders are two players here; the probe is a third.
        spec.push(Some((900, "probe@x")));
        let g = group(&keys(&spec), 64);
        assert_eq!(g.len(), 64);
        assert!(g.contains(&1000), "{g:?}");
        assert!(g.contains(&0), "the oldest keeps draining: {g:?}");
    }

    #[test]
    fn a_later_move_in_a_game_with_an_earlier_one_waiting_waits_for_it() {
        let mut spec: Vec<Option<(i64, &str)>> = (0..200).map(|i| Some((i, "burst@x"))).collect();
        spec[150] = Some((7, "anna@x"));
        spec.push(Some((7, "boris@x")));
        let g = group(&keys(&spec), 64);
        assert!(
            !g.contains(&200),
            "game 7's second move passed its first: {g:?}"
        );
    }

    #[test]
    fn a_lone_players_move_goes_before_a_burst_that_keeps_arriving() {
        // A backlog, the probe, then forty more players with two moves
        // each, all in games of their own: each of those forty could pass
        // too, but the probe's sender has the fewest messages waiting.
        let senders: Vec<String> = (0..70).map(|p| format!("p{p}@x")).collect();
        let mut spec: Vec<Option<(i64, &str)>> = (0..300)
            .map(|i| Some((i, senders[i as usize % 30].as_str())))
            .collect();
        spec.push(Some((900, "probe@x")));
        for i in 0..80 {
            spec.push(Some((1000 + i, senders[30 + (i as usize % 40)].as_str())));
        }
        let g = group(&keys(&spec), 64);
        assert!(g.contains(&300), "{g:?}");
    }

    #[test]
    fn sub_addresses_of_one_player_are_one_sender() {
        let cfg = IntakeConfig {
            referee_local: "chess".into(),
            referee_domain: "club.example".into(),
            max_message_bytes: 1024,
            max_commands: super::super::DEFAULT_MAX_COMMANDS,
        };
        let a = order_keys(
            b"From: p01+w3@example.org\r\nTo: chess+3-abcdefgh@club.example\r\n\r\n",
            &cfg,
        );
        assert_eq!(a.map(|k| k.from), Some("p01@example.org".to_owned()));
    }

    #[test]
    fn nothing_passes_a_message_to_the_bare_referee_address() {
        let mut spec: Vec<Option<(i64, &str)>> = (0..200)
            .map(|i| Some((i, if i % 2 == 0 { "a@x" } else { "b@x" })))
            .collect();
        spec[100] = None;
        spec.push(Some((900, "probe@x")));
        assert_eq!(group(&keys(&spec), 64), (0..64).collect::<Vec<_>>());
    }

    #[test]
    fn the_same_sender_in_another_game_is_not_passed() {
        let mut spec: Vec<Option<(i64, &str)>> = (0..200).map(|i| Some((i, "burst@x"))).collect();
        spec[120] = Some((500, "anna@x"));
        spec.push(Some((501, "anna@x")));
        assert!(!group(&keys(&spec), 64).contains(&200));
    }

    /// A burst of large mails makes smaller groups: what a group holds
    /// stays within the bytes allowed, counted as far as an inbox reads a
    /// message; the lone player's move still goes in the first group, and a
    /// single message larger than the allowance is still taken.
    #[test]
    fn a_group_of_large_mails_stays_within_the_bytes_allowed() {
        let mut spec: Vec<Option<(i64, &str)>> = (0..600)
            .map(|i| Some((i % 300, if i % 2 == 0 { "w@x" } else { "b@x" })))
            .collect();
        spec.push(Some((999, "anna@x")));
        let burst = keys(&spec);
        let refs: Vec<Option<&OrderKeys>> = burst.iter().map(Option::as_ref).collect();
        let small = vec![2_000; refs.len()];
        assert_eq!(
            next_group_within(&refs, &small, 1 << 20, 256, 64 << 20).len(),
            256
        );
        // 3 MiB each, read up to 1 MiB: 64 fit in 64 MiB, 256 would not.
        let large = vec![3 << 20; refs.len()];
        let group = next_group_within(&refs, &large, (1 << 20) + 1, 256, 64 << 20);
        assert!(!group.is_empty() && group.len() <= 64, "{}", group.len());
        assert!(group.contains(&600), "the lone move waits behind the burst");
        let huge = vec![900 << 20; 3];
        let few = keys(&[Some((1, "a@x")), Some((2, "b@x")), Some((3, "c@x"))]);
        let few: Vec<Option<&OrderKeys>> = few.iter().map(Option::as_ref).collect();
        assert_eq!(
            next_group_within(&few, &huge, usize::MAX, 256, 64 << 20),
            vec![0]
        );
    }

    #[test]
    fn what_fits_in_one_group_is_taken_in_arrival_order() {
        let spec: Vec<Option<(i64, &str)>> = (0..10).map(|i| Some((i, "a@x"))).collect();
        assert_eq!(group(&keys(&spec), 64), (0..10).collect::<Vec<_>>());
    }

    proptest! {
        /// Whatever waits, a group is full, ordered, and no message in it
        /// passes an older waiting message it depends on; the oldest is in it.
        #[test]
        fn no_group_lets_a_message_pass_one_it_depends_on(
            spec in proptest::collection::vec(
                proptest::option::weighted(0.95, (0i64..12, 0usize..6)), 0..300),
            max in 1usize..40,
        ) {
            let senders = ["a@x", "b@x", "c@x", "d@x", "e@x", "f@x"];
            let ks: Vec<Option<OrderKeys>> = spec
                .iter()
                .map(|k| k.map(|(game, s)| OrderKeys { game, from: senders[s].to_owned() }))
                .collect();
            let g = group(&ks, max);
            prop_assert_eq!(g.len(), ks.len().min(max));
            prop_assert!(g.windows(2).all(|w| w[0] < w[1]));
            if !ks.is_empty() {
                prop_assert_eq!(g[0], 0);
            }
            for &t in &g {
                for u in 0..t {
                    if !g.contains(&u) {
                        prop_assert!(
                            !conflict(ks[u].as_ref(), ks[t].as_ref()),
                            "{} passed {} ({:?} / {:?})", t, u, ks[t], ks[u]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn keys_come_from_the_envelope_game_address_and_the_sender() {
        let cfg = IntakeConfig {
            referee_local: "chess".into(),
            referee_domain: "club.example".into(),
            max_message_bytes: 1024,
            max_commands: super::super::DEFAULT_MAX_COMMANDS,
        };
        let headers = b"From: Anna <Anna@Example.org>\r\n\
            Delivered-To: chess+17-k3x9qp2m@club.example\r\n\
            To: chess+18-aaaabbbb@club.example\r\n\r\n";
        assert_eq!(
            order_keys(headers, &cfg),
            Some(OrderKeys {
                game: 17,
                from: "anna@example.org".into()
            })
        );
        let bare = b"From: anna@example.org\r\nTo: chess@club.example\r\n\r\n";
        assert_eq!(order_keys(bare, &cfg), None);
    }
}
