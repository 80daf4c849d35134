//! The organiser's event use cases, each one transaction: create
//! a section with all its games and welcome mails, withdraw a player with
//! the rulings and the opponents' notices, and the standing that a
//! game-over mail of an event ends with. [IO: database]

use shakmaty::Color;
use sqlx::AnyConnection;

use super::{Mailing, NewGame, OrganiseError, create_game_in};
use crate::config::RefereeConfig;
use crate::decide::game_address;
use crate::event::{
    Crosstable, Cycles, EventGame, Player, Section, Standing, Withdrawal, WithdrawalRule, berger,
    crosstable, public_name, withdraw,
};
use crate::i18n::Lang;
use crate::mail::render::render;
use crate::reply::event::{
    EventGameLine, event_welcome, private_label, standing_line, withdrawal_notice,
};
use crate::reply::{MailKind, OutMail};
use crate::store::events::{self, StoredEvent};
use crate::store::{Store, StoreError, StoredGame, games, now_secs, outbox};

/// A section to create.
pub struct NewEvent<'a> {
    pub name: &'a str,
    /// In seat order (the Berger table's numbering).
    pub players: &'a [Player],
    pub cycles: Cycles,
    /// Every game's time control.
    pub time: crate::clock::TimeControl,
}

/// A created section: its id and its games with their rounds.
pub struct CreatedEvent {
    pub id: i64,
    pub games: Vec<(usize, StoredGame)>,
}

/// Creates the section, every game of its Berger table with fresh keys, each
/// game's own welcome, and one summary mail per player listing all their
/// games — all in one transaction: nobody is told of a section that was not
/// created, and no game exists that nobody was told of.
pub async fn create_event(
    store: &Store,
    referee: &RefereeConfig,
    games_per_player: u32,
    new: NewEvent<'_>,
    mailing: Mailing,
) -> Result<CreatedEvent, OrganiseError> {
    let rounds = berger(new.players.len(), new.cycles)?;
    let mut tx = store.begin().await?;
    let id = events::insert(&mut tx, new.name, new.cycles == Cycles::Double).await?;
    for (seat, p) in new.players.iter().enumerate() {
        events::insert_player(&mut tx, id, seat, p).await?;
    }
    // `Name <address>`: the games keep the names for their mails.
    let labels: Vec<String> = new.players.iter().map(private_label).collect();
    let mut created = Vec::new();
    for round in &rounds {
        for pairing in &round.games {
            let game = create_game_in(
                &mut tx,
                referee,
                games_per_player,
                NewGame {
                    white_lang: None,
                    black_lang: None,
                    white: &labels[pairing.white],
                    black: &labels[pairing.black],
                    fen: None,
                    event: Some(new.name),
                    time: new.time,
                },
                mailing,
            )
            .await?;
            events::link_game(&mut tx, id, game.view.id, round.number).await?;
            created.push((round.number, game));
        }
    }
    if mailing == Mailing::Mail {
        let now = now_secs();
        for player in new.players {
            let lines: Vec<EventGameLine> = created
                .iter()
                .filter_map(|(_, g)| {
                    let (colour, me, them) = if g.view.white.email == player.email {
                        (Color::White, &g.view.white, &g.view.black)
                    } else if g.view.black.email == player.email {
                        (Color::Black, &g.view.black, &g.view.white)
                    } else {
                        return None;
                    };
                    let opponent = new
                        .players
                        .iter()
                        .find(|p| p.email == them.email)
                        .map_or_else(|| them.email.clone(), private_label);
                    Some(EventGameLine {
                        game: g.view.id,
                        colour,
                        opponent,
                        address: game_address(referee, g.view.id, &me.key),
                    })
                })
                .collect();
            let lang = crate::store::players::lang(&mut tx, &player.email)
                .await?
                .map_or(Lang::En, |(l, _)| l);
            let mail = event_welcome(lang, new.name, new.players.len(), player, &lines);
            let r =
                render(&mail, referee, None, &[]).map_err(|source| OrganiseError::Unwritable {
                    to: mail.to.clone(),
                    source,
                })?;
            outbox::enqueue(&mut tx, None, &mail, &r, &referee.address, now).await?;
        }
    }
    tx.commit().await?;
    Ok(CreatedEvent { id, games: created })
}

/// An event with its games and crosstable, as read now.
pub struct EventState {
    pub event: StoredEvent,
    pub games: Vec<EventGame>,
    pub table: Crosstable,
}

pub async fn load_event(conn: &mut AnyConnection, id: i64) -> Result<EventState, OrganiseError> {
    let event = events::load(&mut *conn, id)
        .await?
        .ok_or(OrganiseError::NoEvent(id))?;
    let games = events::games(&mut *conn, id).await?;
    let table = crosstable(&event.players, &games)?;
    Ok(EventState {
        event,
        games,
        table,
    })
}

/// Withdraws `email` from event `id`: rules on their unfinished games
/// (forfeits, or annulments under `rule`), marks them withdrawn and mails
/// each opponent, in one transaction.
pub async fn withdraw_player(
    store: &Store,
    referee: &RefereeConfig,
    id: i64,
    email: &str,
    rule: WithdrawalRule,
) -> Result<Withdrawal, OrganiseError> {
    let email = email.trim().to_ascii_lowercase();
    let mut tx = store.begin().await?;
    let state = load_event(&mut tx, id).await?;
    let withdrawal = withdraw(&email, &state.games, rule)?;
    if !events::mark_withdrawn(&mut tx, id, &email).await? {
        return Err(OrganiseError::AlreadyWithdrawn(email));
    }
    let leaver = state
        .event
        .players
        .iter()
        .find(|p| p.email == email)
        .map_or_else(|| email.clone(), private_label);
    let now = now_secs();
    for &(game_id, outcome) in &withdrawal.rulings {
        if !events::set_ruling(&mut tx, game_id, outcome).await? {
            continue;
        }
        let g = games::load(&mut tx, game_id)
            .await?
            .ok_or(OrganiseError::NoGame(game_id))?;
        let opponent = if g.view.white.email == email {
            &g.view.black
        } else {
            &g.view.white
        };
        let mail = withdrawal_notice(
            opponent.lang,
            &state.event.name,
            game_id,
            &Player {
                email: opponent.email.clone(),
                name: opponent.name.clone(),
            },
            &game_address(referee, game_id, &opponent.key),
            &leaver,
            withdrawal.annulled,
        );
        let r = render(&mail, referee, Some(&g.thread_root), &[]).map_err(|source| {
            OrganiseError::Unwritable {
                to: mail.to.clone(),
                source,
            }
        })?;
        outbox::enqueue(&mut tx, None, &mail, &r, &referee.address, now).await?;
    }
    tx.commit().await?;
    Ok(withdrawal)
}

/// Appends the player's standing to each game-over mail of `game` when the
/// game belongs to an event (called inside the transaction that ended it,
/// after the result is saved, so the table counts it).
pub async fn add_standing(
    conn: &mut AnyConnection,
    game: i64,
    mails: &mut [OutMail],
) -> Result<(), StoreError> {
    if !mails.iter().any(|m| m.kind == MailKind::GameOver) {
        return Ok(());
    }
    let Some(id) = events::of_game(&mut *conn, game).await? else {
        return Ok(());
    };
    let Some(event) = events::load(&mut *conn, id).await? else {
        return Ok(());
    };
    let table = crosstable(&event.players, &events::games(&mut *conn, id).await?)?;
    let standing = Standing {
        event: event.name,
        players: event.players.len(),
        table,
    };
    append_standing(mails, &standing);
    Ok(())
}

/// The section game `game` belongs to, as its standings are counted; `None`
/// when it belongs to none.
pub async fn section_of(
    conn: &mut AnyConnection,
    game: i64,
) -> Result<Option<Section>, StoreError> {
    let Some(id) = events::of_game(&mut *conn, game).await? else {
        return Ok(None);
    };
    let Some(event) = events::load(&mut *conn, id).await? else {
        return Ok(None);
    };
    let games = events::games(&mut *conn, id).await?;
    Ok(Some(Section {
        name: event.name,
        players: event.players,
        games,
    }))
}

/// Ends each game-over mail among `mails` with its player's line of
/// `standing`.
pub fn append_standing(mails: &mut [OutMail], standing: &Standing) {
    for mail in mails.iter_mut().filter(|m| m.kind == MailKind::GameOver) {
        if let Some(row) = standing.table.row_of(&mail.to) {
            let line = standing_line(mail.lang, &standing.event, row, standing.players);
            mail.append(&format!("\n{line}\n"));
        }
    }
}

/// How a player of `event` is named in public.
pub fn public_label(event: &StoredEvent, email: &str) -> String {
    event.players.iter().find(|p| p.email == email).map_or_else(
        || {
            public_name(&Player {
                email: email.to_owned(),
                name: None,
            })
        },
        public_name,
    )
}
