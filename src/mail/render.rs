//! Turns a reply (plain data) into RFC 5322 bytes with lettre's builder: the
//! headers players filter and thread on, and a fixed Message-ID, so a resend
//! after a crash is the very same mail. [no IO, but at the edge: uses lettre]

use lettre::Message;
use lettre::message::Mailbox;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};

use crate::config::RefereeConfig;
use crate::keys::new_key;
use crate::reply::OutMail;

/// Why a mail could not be written: an address lettre cannot parse, or a
/// message it cannot build.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("referee address: {0}")]
    Referee(lettre::address::AddressError),
    #[error("recipient {to}: {source}")]
    Recipient {
        to: String,
        source: lettre::address::AddressError,
    },
    #[error("reply-to {reply_to}: {source}")]
    ReplyTo {
        reply_to: String,
        source: lettre::address::AddressError,
    },
    #[error("building the mail: {0}")]
    Build(#[from] lettre::error::Error),
}

/// A rendered mail: what the outbox stores and the transport sends.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// Without the angle brackets.
    pub message_id: String,
    pub to: String,
    pub raw: Vec<u8>,
}

fn random_id() -> String {
    new_key() + &new_key()
}

fn angle(id: &str) -> String {
    format!("<{}>", id.trim_matches(|c| c == '<' || c == '>'))
}

/// Renders `mail` from the referee. `thread_root` is the game's thread id;
/// `references` are the references of the message being answered.
pub fn render(
    mail: &OutMail,
    referee: &RefereeConfig,
    thread_root: Option<&str>,
    references: &[String],
) -> Result<Rendered, RenderError> {
    let message_id = format!("wildt-{}@{}", random_id(), referee.domain);
    let from = Mailbox::new(
        Some(referee.name.clone()),
        referee.address.parse().map_err(RenderError::Referee)?,
    );
    let to = Mailbox::new(
        mail.to_name.clone(),
        mail.to.parse().map_err(|source| RenderError::Recipient {
            to: mail.to.clone(),
            source,
        })?,
    );
    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .message_id(Some(angle(&message_id)))
        .date_now();
    if let Some(reply_to) = &mail.reply_to {
        builder = builder.reply_to(reply_to.parse().map_err(|source| RenderError::ReplyTo {
            reply_to: reply_to.clone(),
            source,
        })?);
    }
    // Thread: the game's root first, then what the player's client referenced.
    let mut refs: Vec<String> = Vec::new();
    if let Some(root) = thread_root {
        refs.push(angle(root));
    }
    if mail.in_reply_to.is_some() {
        for r in references.iter().rev().take(8).rev() {
            let r = angle(r);
            if !refs.contains(&r) {
                refs.push(r);
            }
        }
    }
    let parent = mail
        .in_reply_to
        .as_deref()
        .map(angle)
        .or_else(|| thread_root.map(angle));
    if let Some(parent) = &parent {
        if !refs.contains(parent) {
            refs.push(parent.clone());
        }
        builder = builder.in_reply_to(parent.clone());
    }
    if !refs.is_empty() {
        builder = builder.references(refs.join(" "));
    }
    builder = builder
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-replied".to_owned(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Wildt-Event"),
            mail.event.as_str().to_owned(),
        ));
    if let Some(game) = mail.game {
        builder = builder.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Wildt-Game"),
            game.to_string(),
        ));
    }
    let message = builder
        .header(ContentType::TEXT_PLAIN)
        .body(mail.body.clone())?;
    Ok(Rendered {
        message_id,
        to: mail.to.clone(),
        raw: message.formatted(),
    })
}
