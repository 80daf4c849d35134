//! A player as an organiser writes them: `anna@x.example` or
//! `Anna Smith <anna@x.example>` -> the address (which identifies the player)
//! and the name (which only greets them). Anything that is not one address
//! is refused, with the reason. [pure: no IO]
//!
//! Deliberately narrow: a single address with an ASCII dot-atom local part
//! and a domain of letters, digits and hyphens, as players' addresses are.
//! Quoted local parts, comments, groups and address lists are refused rather
//! than guessed at.

use std::fmt;

/// A player's address, with the display name if one was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mailbox {
    /// The display name, trimmed, without surrounding quotes; never empty.
    pub name: Option<String>,
    /// The address, lower-cased: what the player is known and matched by.
    pub email: String,
}

/// Why a text is not one address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MailboxError {
    #[error("nothing was given")]
    Empty,
    #[error("there is no @")]
    NoAt,
    #[error("it holds more than one @ or more than one address")]
    Several,
    #[error("the part before the @ is missing or holds `{0}`")]
    BadLocal(String),
    #[error("the domain after the @ is missing or not a domain name")]
    BadDomain,
    #[error("a `<` is not closed by a `>` at the end")]
    Unclosed,
    #[error("the name holds a character that cannot stand in a mail header")]
    BadName,
}

/// `what` with the reason it is not an address, for the organiser.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not an e-mail address ({why}); write `anna@example.org` or `Anna Smith <anna@example.org>`"
)]
pub struct NotAnAddress {
    pub text: String,
    pub why: MailboxError,
}

/// Longest address accepted (RFC 5321's path limit).
const MAX_ADDRESS: usize = 254;
/// Longest display name accepted: room for any real name.
const MAX_NAME: usize = 200;

impl Mailbox {
    /// Parses `anna@x.example` or `Anna Smith <anna@x.example>` (the name may
    /// be in double quotes).
    ///
    /// ```
    /// use wildt::mailbox::Mailbox;
    /// let m = Mailbox::parse("Anna Smith <Anna@X.example>").unwrap();
    /// assert_eq!(m.name.as_deref(), Some("Anna Smith"));
    /// assert_eq!(m.email, "anna@x.example");
    /// assert!(Mailbox::parse("Anna Smith").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Mailbox, NotAnAddress> {
        parse(text).map_err(|why| NotAnAddress {
            text: text.to_owned(),
            why,
        })
    }
}

impl fmt::Display for Mailbox {
    /// `Anna Smith <anna@x.example>`, or the bare address without a name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{name} <{}>", self.email),
            None => f.write_str(&self.email),
        }
    }
}

fn parse(text: &str) -> Result<Mailbox, MailboxError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MailboxError::Empty);
    }
    let (name, address) = match text.find('<') {
        Some(open) => {
            let inner = text[open + 1..]
                .strip_suffix('>')
                .ok_or(MailboxError::Unclosed)?;
            if inner.contains(['<', '>']) {
                return Err(MailboxError::Several);
            }
            (name_of(&text[..open])?, inner.trim())
        }
        None if text.contains('>') => return Err(MailboxError::Unclosed),
        None => (None, text),
    };
    Ok(Mailbox {
        name,
        email: address_of(address)?,
    })
}

/// The display name before `<`: trimmed, outer quotes removed, `None` when
/// empty; refused when it could break a header (control characters).
fn name_of(raw: &str) -> Result<Option<String>, MailboxError> {
    let raw = raw.trim();
    let unquoted = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .map_or(raw, str::trim);
    if unquoted.chars().any(char::is_control) || unquoted.chars().count() > MAX_NAME {
        return Err(MailboxError::BadName);
    }
    if unquoted.contains('@') {
        return Err(MailboxError::Several);
    }
    Ok((!unquoted.is_empty()).then(|| unquoted.to_owned()))
}

fn address_of(raw: &str) -> Result<String, MailboxError> {
    let mut parts = raw.split('@');
    let (Some(local), Some(domain)) = (parts.next(), parts.next()) else {
        return Err(MailboxError::NoAt);
    };
    if parts.next().is_some() || raw.contains([',', ';']) {
        return Err(MailboxError::Several);
    }
    if raw.len() > MAX_ADDRESS {
        return Err(MailboxError::BadDomain);
    }
    if let Some(bad) = local_fault(local) {
        return Err(MailboxError::BadLocal(bad));
    }
    if !is_domain(domain) {
        return Err(MailboxError::BadDomain);
    }
    Ok(format!("{local}@{domain}").to_ascii_lowercase())
}

/// RFC 5322 atext: the characters of a dot-atom besides the dots.
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c)
}

/// What is wrong with a local part, or `None`: a dot-atom (no leading,
/// trailing or doubled dot).
fn local_fault(local: &str) -> Option<String> {
    if local.is_empty() {
        return Some(String::new());
    }
    if let Some(c) = local.chars().find(|c| *c != '.' && !is_atext(*c)) {
        return Some(c.to_string());
    }
    (local.starts_with('.') || local.ends_with('.') || local.contains("..")).then(|| ".".to_owned())
}

/// Labels of letters, digits and inner hyphens, joined by dots.
fn is_domain(domain: &str) -> bool {
    !domain.is_empty()
        && domain.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> (Option<String>, String) {
        let m = Mailbox::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        (m.name, m.email)
    }

    #[test]
    fn a_name_and_an_address_are_taken_apart() {
        for (text, name, email) in [
            (
                "Anna Smith <anna@x.example>",
                Some("Anna Smith"),
                "anna@x.example",
            ),
            (
                "\"Smith, Anna\" <Anna@X.Example>",
                Some("Smith, Anna"),
                "anna@x.example",
            ),
            (
                "  Anna   <anna@x.example>  ",
                Some("Anna"),
                "anna@x.example",
            ),
            ("<anna@x.example>", None, "anna@x.example"),
            ("\"\" <anna@x.example>", None, "anna@x.example"),
            (
                "anna.smith+chess@mail.x-y.example",
                None,
                "anna.smith+chess@mail.x-y.example",
            ),
            (
                "Ærø Ångström <ae@x.example>",
                Some("Ærø Ångström"),
                "ae@x.example",
            ),
        ] {
            assert_eq!(
                ok(text),
                (name.map(str::to_owned), email.to_owned()),
                "{text}"
            );
        }
    }

    #[test]
    fn what_is_not_one_address_is_refused_with_the_reason() {
        for (text, why) in [
            ("", MailboxError::Empty),
            ("Anna Smith", MailboxError::NoAt),
            ("Anna Smith <anna>", MailboxError::NoAt),
            ("Anna <anna@x.example", MailboxError::Unclosed),
            ("anna@x.example>", MailboxError::Unclosed),
            ("Anna <anna@x.example> ben", MailboxError::Unclosed),
            ("anna@x.example, ben@y.example", MailboxError::Several),
            ("a@b@x.example", MailboxError::Several),
            ("anna@x.example <ben@y.example>", MailboxError::Several),
            ("Anna <<anna@x.example>>", MailboxError::Several),
            ("@x.example", MailboxError::BadLocal(String::new())),
            ("an na@x.example", MailboxError::BadLocal(" ".into())),
            (".anna@x.example", MailboxError::BadLocal(".".into())),
            ("anna@", MailboxError::BadDomain),
            ("anna@x..example", MailboxError::BadDomain),
            ("anna@-x.example", MailboxError::BadDomain),
            ("anna@x.example.", MailboxError::BadDomain),
            (
                "Anna\r\nBcc: eve@evil.example <anna@x.example>",
                MailboxError::BadName,
            ),
        ] {
            assert_eq!(
                Mailbox::parse(text).map_err(|e| e.why),
                Err(why),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_error_names_the_text_and_the_form_to_use() {
        let e = Mailbox::parse("Anna Smith").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`Anna Smith` is not an e-mail address (there is no @); \
             write `anna@example.org` or `Anna Smith <anna@example.org>`"
        );
    }

    #[test]
    fn a_mailbox_is_written_back_as_read() {
        let m = Mailbox::parse("Anna Smith <anna@x.example>").unwrap();
        assert_eq!(m.to_string(), "Anna Smith <anna@x.example>");
        let bare = Mailbox::parse("anna@x.example").unwrap();
        assert_eq!(bare.to_string(), "anna@x.example");
    }
}
