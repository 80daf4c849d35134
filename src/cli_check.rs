//! `wildt check FILE.eml`: what the daemon would do with a message, by the
//! daemon's own handling (`handle_message`) rolled back, printed as text or
//! JSON. [IO: database, reads the file, prints]

use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};
use wildt::handle::{Handled, Mode, Source, handle_message};

use crate::cli_game::color_key;
use crate::{ConfigArgs, print_json};

/// `wildt check FILE.eml`: the daemon's own handling, rolled back.
pub async fn run(args: &ConfigArgs, file: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let o = args.open().await?;
    let raw = std::fs::read(file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let handled = handle_message(
        &o.store,
        &wildt::tablebase::syzygy::open_rules(&o.config)?,
        &Source::Cli,
        &raw,
        raw.len(),
        Mode::DryRun,
    )
    .await?;
    o.store.close().await;
    match handled {
        Handled::Duplicate { outcome } if json => {
            print_json(&json!({"duplicate": true, "outcome": outcome}))?;
        }
        Handled::Duplicate { outcome } => {
            outln!("Already processed (outcome: {outcome}); the daemon would not decide it again.")?
        }
        Handled::Decided {
            intake,
            decision,
            letters,
            mails: _,
        } => {
            let checked = Checked {
                intake: &intake,
                decision: &decision,
                letters: &letters,
                summary: intake.summary(),
            };
            if json {
                print_json(&checked.json())?;
            } else {
                checked.print(o.config.security.trusted_authserv_id.as_deref())?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A message `check` decided, as it prints it.
struct Checked<'a> {
    intake: &'a wildt::intake::Intake,
    decision: &'a wildt::decide::Decision,
    letters: &'a wildt::reply::Letters,
    summary: wildt::intake::Summary,
}

impl Checked<'_> {
    /// The command read, in words (`play 5254 (offers a draw)`, `resign`),
    /// or `None` when nothing clear was read.
    fn command(&self) -> Option<String> {
        let summary = &self.summary;
        match (&summary.line, summary.outcome) {
            (line, "claim_tablebase") => Some(format!(
                "claim {} by tablebase{}",
                summary.tablebase_claim.unwrap_or("?"),
                line.as_ref()
                    .map(|l| format!(" with {} (not played)", l.join(" ")))
                    .unwrap_or_default()
            )),
            (Some(line), _) => Some(format!(
                "play {}{}",
                line.join(" "),
                if summary.offer_draw == Some(true) {
                    " (offers a draw)"
                } else {
                    ""
                }
            )),
            (None, "unclear" | "automatic" | "too_large") => None,
            (None, other) => Some(other.to_owned()),
        }
    }

    fn seat(&self) -> Option<&'static str> {
        self.decision.seat.map(color_key)
    }

    fn json(&self) -> Value {
        let (intake, decision, summary) = (self.intake, self.decision, &self.summary);
        let replies: Vec<Value> = self
            .letters
            .mails
            .iter()
            .map(|m| json!({"to": m.to, "subject": m.subject, "event": m.kind.as_str(), "body": m.body}))
            .collect();
        json!({
            "message_id": intake.message_id,
            "from": intake.from,
            "game": decision.game,
            "seat": self.seat(),
            "command": self.command(),
            "reading": summary.outcome,
            "reading_kind": summary.kind.or(summary.reason),
            "outcome": decision.outcome.as_str(),
            "detail": decision.detail,
            "rate_limited": self.letters.rate_limited,
            "conditionals": conditionals_json(decision),
            "tablebase": tablebase_json(decision),
            "sender_auth": decision.auth.as_ref().map(|a| json!({
                "passed": a.passed(),
                "verdict": a.to_string(),
            })),
            "replies": replies,
        })
    }

    /// The text report; `trusted` is the authserv-id wildt believes.
    fn print(&self, trusted: Option<&str>) -> std::io::Result<()> {
        let decision = self.decision;
        outln!(
            "From:     {}",
            self.intake.from.as_deref().unwrap_or("(none)")
        )?;
        outln!(
            "Game:     {}",
            decision.game.map_or("(none)".to_owned(), |g| g.to_string())
        )?;
        outln!("Player:   {}", self.seat().unwrap_or("(none)"))?;
        outln!(
            "Sender:   {}",
            match (&decision.auth, trusted) {
                (Some(a), Some(id)) => format!("{a}, says {id}"),
                (_, None) => "not checked ([security] trusted_authserv_id is not set)".to_owned(),
                (None, Some(_)) => "not checked (no From)".to_owned(),
            }
        )?;
        outln!(
            "Read:     {}",
            self.command().unwrap_or_else(|| self
                .summary
                .explanation
                .clone()
                .unwrap_or_else(|| self.summary.outcome.to_owned()))
        )?;
        outln!("Outcome:  {} - {}", decision.outcome, decision.detail)?;
        if let Some(text) = conditionals_text(decision) {
            outln!("Conditional moves: {text}")?;
        }
        if self.letters.mails.is_empty() {
            outln!("Replies:  none")?;
        }
        for m in &self.letters.mails {
            outln!(
                "\n--- reply to {} ({}) ---\nSubject: {}\n\n{}",
                m.to,
                m.kind.as_str(),
                m.subject,
                m.body
            )?;
        }
        Ok(())
    }
}

/// `check`'s view of the message's conditional moves: the parsed tree as
/// stored, or why it was refused.
fn conditionals_json(decision: &wildt::decide::Decision) -> Value {
    use wildt::decide::conditional::SetChange;
    match &decision.conditional {
        None => Value::Null,
        Some(SetChange::Replaced(tree)) => json!({"change": "replaced", "tree": tree}),
        Some(SetChange::Cancelled) => json!({"change": "cancelled"}),
        Some(SetChange::Rejected(why)) => json!({"change": "rejected", "reason": why.to_string()}),
        Some(SetChange::Unreadable(why)) => {
            json!({"change": "unreadable", "reason": why.to_string()})
        }
        Some(SetChange::NotConsidered) => json!({"change": "not_considered"}),
    }
}

fn conditionals_text(decision: &wildt::decide::Decision) -> Option<String> {
    use wildt::decide::conditional::SetChange;
    Some(match decision.conditional.as_ref()? {
        SetChange::Replaced(tree) => {
            let mut s = "stored (replacing any earlier set):".to_owned();
            for (i, l) in tree.lines().iter().enumerate() {
                s.push_str(&format!("\n  {}. {l}", i + 1));
            }
            s
        }
        SetChange::Cancelled => "cancelled".to_owned(),
        SetChange::Rejected(why) => format!("refused: {why}"),
        SetChange::Unreadable(why) => format!("refused: {why}"),
        SetChange::NotConsidered => {
            "not looked at (the rest of the message is not one clear command)".to_owned()
        }
    })
}

/// What the tables made of a tablebase claim in the message: upheld or
/// refused, and what they say (or why they cannot say); `null` for any
/// other message.
fn tablebase_json(decision: &wildt::decide::Decision) -> Value {
    use wildt::referee::{Rejection, Verdict};
    match &decision.verdict {
        Some(Verdict::TablebaseClaimed {
            claim,
            said,
            end,
            proposed,
            ..
        }) => json!({
            "claim": claim.as_str(),
            "upheld": true,
            "says": said.to_string(),
            "result": end.result_text(),
            "proposed": proposed.as_ref().map(|p| p.ply.iccf.to_string()),
        }),
        Some(Verdict::Rejected(
            why @ Rejection::TablebaseClaimRefused {
                claim,
                said,
                proposed,
            },
        )) => json!({
            "claim": claim.as_str(),
            "upheld": false,
            "says": said.as_ref().ok().map(ToString::to_string),
            "undecided": said.as_ref().err().map(ToString::to_string),
            "answer": why.to_string(),
            "proposed": proposed.as_ref().map(|p| p.ply.iccf.to_string()),
        }),
        _ => Value::Null,
    }
}
