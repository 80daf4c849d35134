//! `wildt outbox list` and `wildt outbox retry`: see the mail waiting or
//! failed, and queue failed mail again (after a fixed address or relay).
//! Parsing and printing only; the work is in `wildt::store`. [IO: database,
//! prints]

use std::process::ExitCode;

use anyhow::bail;
use clap::Subcommand;
use wildt::store::Store;
use wildt::store::outbox::{ListFilter, Requeued};

use crate::ConfigArgs;

#[derive(Subcommand)]
pub enum OutboxCommand {
    /// List the mail not sent yet: waiting (with its next try), in doubt
    /// (a process died as it sent it; with receipts, looked for before it is
    /// sent again) and failed (with the relay's answer).
    List {
        /// Only the mail that failed for good.
        #[arg(long)]
        failed: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Queue mail again: failed mail is tried once more with a fresh backoff,
    /// waiting mail is tried now. Mail already sent is never sent twice.
    Retry {
        /// Outbox ids, as `wildt outbox list` shows them.
        #[arg(required_unless_present = "failed", conflicts_with = "failed")]
        ids: Vec<i64>,
        /// Every failed mail.
        #[arg(long)]
        failed: bool,
    },
}

pub async fn run(cmd: OutboxCommand, config: &ConfigArgs) -> anyhow::Result<ExitCode> {
    match cmd {
        OutboxCommand::List { failed, json } => {
            let store = Store::for_config(&config.load()?).await?;
            let filter = if failed {
                ListFilter::Failed
            } else {
                ListFilter::Unsent
            };
            let rows = store.outbox_list(filter).await?;
            store.close().await;
            if json {
                outln!("{}", serde_json::to_string_pretty(&rows)?)?;
                return Ok(ExitCode::SUCCESS);
            }
            if rows.is_empty() {
                outln!(
                    "{}",
                    if failed {
                        "no failed mail"
                    } else {
                        "nothing waiting or failed"
                    }
                )?;
            }
            let now = wildt::store::now_secs();
            for r in &rows {
                let game = r.game.map_or_else(|| "-".to_owned(), |g| g.to_string());
                let when = match (r.next_attempt_at, r.failed_at) {
                    (Some(t), _) if t <= now => "due now".to_owned(),
                    (Some(t), _) => format!("next try in {} s", t - now),
                    (None, Some(t)) => format!("failed {} s ago", now - t),
                    (None, None) => String::new(),
                };
                outln!(
                    "{:>6}  {:<8}  game {:<5} {:<15} {}  {} attempts, {}{}",
                    r.id,
                    r.state,
                    game,
                    r.event,
                    r.recipient,
                    r.attempts,
                    when,
                    r.last_error
                        .as_deref()
                        .map(|e| format!(": {e}"))
                        .unwrap_or_default()
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        OutboxCommand::Retry { ids, failed } => {
            let store = Store::for_config(&config.load()?).await?;
            let ids = if failed {
                store.failed_mail_ids().await?
            } else {
                ids
            };
            let mut missing = Vec::new();
            for id in &ids {
                match store.requeue_mail(*id).await? {
                    Requeued::Queued => outln!("{id}: queued again")?,
                    Requeued::Waiting => outln!("{id}: was waiting; due now")?,
                    Requeued::AlreadySent => outln!("{id}: already sent; not sent again")?,
                    Requeued::NotFound => missing.push(*id),
                }
            }
            store.close().await;
            if failed && ids.is_empty() {
                outln!("no failed mail")?;
            }
            if !missing.is_empty() {
                let list: Vec<String> = missing.iter().map(ToString::to_string).collect();
                bail!("no outbox mail with id {}", list.join(", "));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
