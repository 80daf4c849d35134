//! `wildt publish` and the daemon's refresh: reads events and games from
//! the store, renders the site ([`crate::site`]) and replaces the published
//! tree atomically. [IO: database, files]
//!
//! The tree is written whole into a new folder beside the target; the
//! target is a symbolic link that is then renamed over (one `rename`), so a
//! web server sees the old site or the new one, never a half-written one.
//! Older trees are removed afterwards.

use std::path::{Path, PathBuf};

use shakmaty::ByColor;

use crate::clock::{ClockRules, ClockState, Date, clock_state};
use crate::deadlines::TimedGame;
use crate::event::public_name;
use crate::now::now_secs;
use crate::organise::event::{load_event, public_label};
use crate::site::{SideClock, SiteClock, SiteEvent, SiteGame, render};
use crate::store::{Store, StoreError, events, games};

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Event(#[from] crate::organise::OrganiseError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} is a folder that is not a published site; remove it or choose another path")]
    NotASite(PathBuf),
}

impl From<sqlx::Error> for PublishError {
    fn from(e: sqlx::Error) -> PublishError {
        PublishError::Store(StoreError::Sql(e))
    }
}

/// What was written.
#[derive(Debug, Clone, Copy, Default)]
pub struct PublishReport {
    pub pages: usize,
    pub pgn: usize,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PublishError + '_ {
    move |source| PublishError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Renders the site from the store and replaces the tree at `out`.
/// The instant `secs` as `2027-01-05 12:00 UTC`.
fn instant_text(secs: i64) -> String {
    let s = secs.rem_euclid(86_400);
    format!(
        "{} {:02}:{:02} UTC",
        Date::of_instant(secs),
        s / 3_600,
        s % 3_600 / 60
    )
}

/// A timed game's clocks as the site shows them, read at `now` (a finished
/// game's at its end), and as each ply arrived.
fn site_clock(timed: &TimedGame, rules: &ClockRules, now: i64) -> Option<SiteClock> {
    if !timed.clock.control.is_limited() {
        return None;
    }
    let state = timed.state(rules, now);
    let sides = |s: &ClockState| ByColor {
        white: SideClock::from(&s.clocks.white),
        black: SideClock::from(&s.clocks.black),
    };
    let input = timed.input(rules);
    let plies = &timed.clock.plies;
    let after = (0..=plies.len())
        .map(|k| {
            let at = k
                .checked_sub(1)
                .map_or(timed.clock.started, |i| plies[i].arrived);
            let mut before = input;
            before.plies = &plies[..k];
            let mut s = sides(&clock_state(&before, at));
            // Leave at a past instant would hint at its dates: only the
            // current clocks say who is on leave.
            s.white.on_leave = false;
            s.black.on_leave = false;
            s
        })
        .collect();
    let over = timed.game.view.record.is_over();
    Some(SiteClock {
        control: timed.clock.control.to_string(),
        as_of: instant_text(timed.clock.ended_at.unwrap_or(now).min(now)),
        to_move: (!over).then_some(state.to_move),
        now: sides(&state),
        charges: state.charges,
        after,
    })
}

/// Renders the site from the store and replaces the tree at `out`; timed
/// games' clocks are read at [`now_secs`] under `rules`.
pub async fn publish(
    store: &Store,
    rules: &ClockRules,
    out: &Path,
) -> Result<PublishReport, PublishError> {
    let mut conn = store.pool().acquire().await?;
    let mut site_events = Vec::new();
    let mut stored_events = Vec::new();
    for id in events::ids(&mut conn).await? {
        let s = load_event(&mut conn, id).await?;
        let names = s.event.players.iter().map(public_name).collect();
        site_events.push(SiteEvent {
            id,
            name: s.event.name.clone(),
            table: s.table,
            games: s.games.clone(),
            names,
        });
        stored_events.push((s.event, s.games));
    }
    let mut stored: Vec<TimedGame> = Vec::new();
    for id in games::ids(&mut conn).await? {
        if let Some(g) = TimedGame::load(&mut conn, id).await? {
            stored.push(g);
        }
    }
    drop(conn);
    let now = now_secs();
    let site_games: Vec<SiteGame<'_>> = stored
        .iter()
        .map(|timed| {
            let g = &timed.game;
            let in_event = stored_events
                .iter()
                .find_map(|(e, gs)| gs.iter().find(|x| x.id == g.view.id).map(|x| (e, x)));
            let label = |email: &str| match in_event {
                Some((e, _)) => public_label(e, email),
                None => public_name(&crate::event::Player {
                    email: email.to_owned(),
                    name: None,
                }),
            };
            SiteGame {
                id: g.view.id,
                white: label(&g.view.white.email),
                black: label(&g.view.black.email),
                event: in_event.map(|(e, _)| (e.id, e.name.clone())),
                record: &g.view.record,
                result: match in_event {
                    Some((_, x)) => x.outcome.code().to_owned(),
                    None => g
                        .view
                        .record
                        .end
                        .map_or("*", |e| e.result_text())
                        .to_owned(),
                },
                date: crate::game::pgn_date(g.created_at),
                clock: site_clock(timed, rules, now),
            }
        })
        .collect();
    let files = render(&site_events, &site_games);
    let report = PublishReport {
        pages: files.iter().filter(|f| f.path.ends_with(".html")).count(),
        pgn: files.iter().filter(|f| f.path.ends_with(".pgn")).count(),
    };
    let out = out.to_owned();
    tokio::task::spawn_blocking(move || write_tree(&out, &files))
        .await
        .map_err(|e| PublishError::Io {
            path: PathBuf::new(),
            source: std::io::Error::other(e),
        })??;
    Ok(report)
}

/// Writes `files` into a new tree beside `out` and points `out` at it.
fn write_tree(out: &Path, files: &[crate::site::SiteFile]) -> Result<(), PublishError> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let base = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "site".to_owned());
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let tree_name = format!(".{base}.tree-{stamp}-{}", std::process::id());
    let tree = parent.join(&tree_name);
    for f in files {
        let path = tree.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        std::fs::write(&path, &f.bytes).map_err(io(&path))?;
    }
    match std::fs::symlink_metadata(out) {
        Ok(m) if !m.file_type().is_symlink() => {
            std::fs::remove_dir_all(&tree).map_err(io(&tree))?;
            return Err(PublishError::NotASite(out.to_owned()));
        }
        _ => {}
    }
    let link = parent.join(format!(".{base}.link-{stamp}"));
    std::os::unix::fs::symlink(&tree_name, &link).map_err(io(&link))?;
    std::fs::rename(&link, out).map_err(io(out))?;
    // Older trees: no longer pointed at.
    let prefix = format!(".{base}.tree-");
    for entry in std::fs::read_dir(&parent).map_err(io(&parent))?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name != tree_name {
            let old = entry.path();
            if let Err(e) = std::fs::remove_dir_all(&old) {
                tracing::warn!(path = %old.display(), error = %e, "old site tree not removed");
            }
        }
    }
    Ok(())
}

/// The daemon's refresh after a batch of decisions: publishes when
/// `[publish] path` is set. A failure is logged, never fatal: refereeing
/// goes on without a fresh site.
pub async fn refresh(
    store: &Store,
    rules: &ClockRules,
    config: Option<&crate::config::PublishConfig>,
) {
    if let Some(c) = config {
        match publish(store, rules, &c.path).await {
            Ok(r) => tracing::debug!(pages = r.pages, "site published"),
            Err(e) => tracing::error!(error = %e, path = %c.path.display(), "site not published"),
        }
    }
}
