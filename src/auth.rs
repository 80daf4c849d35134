//! Sender authentication from `Authentication-Results` (RFC 8601), as stamped by
//! the deployment's own receiving mail server. [pure: no IO]
//!
//! Anyone can write any `From:`. When the operator names the `authserv-id` of
//! their MX, wildt reads only the topmost `Authentication-Results` header with
//! that id — the one the MX prepended on arrival; copies a sender forged further
//! down, and headers of other servers, are ignored — and asks for DMARC pass, or
//! a DKIM pass whose signing domain is aligned with the `From` domain.

use std::fmt;

/// Who may move, per deployment (`[security] policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// The secret key in the game address and the registered `From` (default).
    #[default]
    Key,
    /// The key, and the `From` authenticated by the trusted server.
    KeyAndAuth,
    /// The `From` authenticated by the trusted server; the key is not needed,
    /// only the game number in the address.
    Auth,
}

impl Policy {
    pub fn parse(text: &str) -> Option<Policy> {
        match text {
            "key" => Some(Policy::Key),
            "key+auth" => Some(Policy::KeyAndAuth),
            "auth" => Some(Policy::Auth),
            _ => None,
        }
    }

    pub fn needs_auth(self) -> bool {
        matches!(self, Policy::KeyAndAuth | Policy::Auth)
    }

    pub fn needs_key(self) -> bool {
        matches!(self, Policy::Key | Policy::KeyAndAuth)
    }
}

/// What the trusted server said about the sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthOutcome {
    /// DMARC passed for the `From` domain.
    DmarcPass,
    /// A DKIM signature passed for a domain aligned with `From`.
    DkimAligned { domain: String },
    /// The trusted server's header is there, but nothing passes.
    Failed { summary: String },
    /// No `Authentication-Results` from the trusted server at all.
    NoTrustedHeader,
}

impl AuthOutcome {
    pub fn passed(&self) -> bool {
        matches!(
            self,
            AuthOutcome::DmarcPass | AuthOutcome::DkimAligned { .. }
        )
    }
}

impl fmt::Display for AuthOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthOutcome::DmarcPass => write!(f, "DMARC pass"),
            AuthOutcome::DkimAligned { domain } => write!(f, "DKIM pass for {domain}"),
            AuthOutcome::Failed { summary } => write!(f, "not authenticated ({summary})"),
            AuthOutcome::NoTrustedHeader => {
                write!(f, "no Authentication-Results from the trusted server")
            }
        }
    }
}

/// The header block of a message, unfolded, in order (top first).
fn headers(raw: &[u8]) -> Vec<(String, String)> {
    // Headers end at the first empty line; cap the scan so a hostile message
    // costs nothing more than its first 256 KiB.
    let limit = raw.len().min(256 * 1024);
    let text = String::from_utf8_lossy(&raw[..limit]);
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            if let Some(last) = out.last_mut() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            out.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    out
}

/// Removes RFC 5322 comments `( … )`, which may appear anywhere in the header.
fn strip_comments(value: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether `signer` is aligned with `from_domain` (relaxed alignment: the same
/// domain, or one a parent of the other within the same organisation — here
/// approximated as a suffix on a label boundary).
fn aligned(signer: &str, from_domain: &str) -> bool {
    let s = signer.trim_end_matches('.').to_ascii_lowercase();
    let f = from_domain.trim_end_matches('.').to_ascii_lowercase();
    // Without a public-suffix list, a signer must at least have two labels, so
    // a signature by a bare top-level domain never aligns.
    s.contains('.') && (s == f || f.ends_with(&format!(".{s}")) || s.ends_with(&format!(".{f}")))
}

/// Reads the trusted server's verdict on `from_domain` from `raw`.
pub fn authenticate(raw: &[u8], trusted_authserv_id: &str, from_domain: &str) -> AuthOutcome {
    let trusted = trusted_authserv_id.to_ascii_lowercase();
    let Some(value) = headers(raw)
        .into_iter()
        .filter(|(name, _)| name == "authentication-results")
        .map(|(_, v)| strip_comments(&v))
        .find(|v| {
            let id = v
                .split(';')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("");
            id.eq_ignore_ascii_case(&trusted)
        })
    else {
        return AuthOutcome::NoTrustedHeader;
    };
    let mut summary = Vec::new();
    for resinfo in value.split(';').skip(1) {
        let mut words = resinfo.split_whitespace();
        let Some(method_result) = words.next() else {
            continue;
        };
        let Some((method, result)) = method_result.split_once('=') else {
            continue;
        };
        let method = method.to_ascii_lowercase();
        let result = result.to_ascii_lowercase();
        summary.push(format!("{method}={result}"));
        let props: Vec<(String, String)> = words
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_ascii_lowercase(), v.trim_matches('"').to_owned()))
            .collect();
        let prop = |key: &str| {
            props
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        match (method.as_str(), result.as_str()) {
            // The header.from the MX evaluated must be our From's domain.
            ("dmarc", "pass")
                if prop("header.from").is_none_or(|d| d.eq_ignore_ascii_case(from_domain)) =>
            {
                return AuthOutcome::DmarcPass;
            }
            ("dkim", "pass") => {
                let signer = prop("header.d")
                    .or_else(|| prop("header.i").map(|i| i.rsplit('@').next().unwrap_or(i)));
                if let Some(d) = signer
                    && aligned(d, from_domain)
                {
                    return AuthOutcome::DkimAligned {
                        domain: d.to_ascii_lowercase(),
                    };
                }
            }
            _ => {}
        }
    }
    AuthOutcome::Failed {
        summary: if summary.is_empty() {
            "no results".to_owned()
        } else {
            summary.join(", ")
        },
    }
}

/// The trusted server's verdict on a message's sender, as the daemon asks for
/// it: `None` when the deployment names no trusted server, or the message has
/// no `From` to check.
pub fn sender_verdict(
    raw: &[u8],
    trusted_authserv_id: Option<&str>,
    from: Option<&str>,
) -> Option<AuthOutcome> {
    let (id, from) = (trusted_authserv_id?, from?);
    Some(authenticate(raw, id, from.rsplit('@').next().unwrap_or("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(headers: &str) -> Vec<u8> {
        format!("{headers}From: anna@example.org\r\nTo: chess@club.example\r\n\r\n5254\r\n")
            .into_bytes()
    }

    #[test]
    fn dmarc_pass_from_trusted_server_authenticates() {
        let raw = msg(
            "Authentication-Results: mx.club.example;\r\n dkim=pass header.d=example.org;\r\n dmarc=pass (p=none) header.from=example.org\r\n",
        );
        assert_eq!(
            authenticate(&raw, "mx.club.example", "example.org"),
            AuthOutcome::DkimAligned {
                domain: "example.org".into()
            }
        );
        let raw =
            msg("Authentication-Results: mx.club.example; dmarc=pass header.from=example.org\r\n");
        assert_eq!(
            authenticate(&raw, "mx.club.example", "example.org"),
            AuthOutcome::DmarcPass
        );
    }

    #[test]
    fn results_from_other_servers_are_ignored() {
        let raw =
            msg("Authentication-Results: evil.example; dmarc=pass header.from=example.org\r\n");
        assert_eq!(
            authenticate(&raw, "mx.club.example", "example.org"),
            AuthOutcome::NoTrustedHeader
        );
    }

    #[test]
    fn forged_copy_below_the_trusted_one_is_ignored() {
        // The MX prepends its own header on top; the sender's forgery sits below.
        let raw = msg(
            "Authentication-Results: mx.club.example; dkim=none; dmarc=fail header.from=example.org\r\nAuthentication-Results: mx.club.example; dmarc=pass header.from=example.org\r\n",
        );
        assert!(matches!(
            authenticate(&raw, "mx.club.example", "example.org"),
            AuthOutcome::Failed { .. }
        ));
    }

    #[test]
    fn dkim_pass_for_an_unaligned_domain_does_not_authenticate() {
        let raw = msg(
            "Authentication-Results: mx.club.example; dkim=pass header.d=bulkmailer.example; dmarc=fail header.from=example.org\r\n",
        );
        let out = authenticate(&raw, "mx.club.example", "example.org");
        assert!(!out.passed(), "{out:?}");
    }

    #[test]
    fn dmarc_pass_for_another_domain_does_not_authenticate() {
        let raw = msg(
            "Authentication-Results: mx.club.example; dmarc=pass header.from=other.example\r\n",
        );
        assert!(!authenticate(&raw, "mx.club.example", "example.org").passed());
    }

    #[test]
    fn comments_and_folding_are_understood() {
        let raw = msg(
            "Authentication-Results: mx.club.example (Postfix 3.7);\r\n\tdkim=pass (2048-bit key) header.d=mail.example.org header.s=s1;\r\n\tspf=pass smtp.mailfrom=example.org\r\n",
        );
        assert_eq!(
            authenticate(&raw, "MX.CLUB.EXAMPLE", "example.org"),
            AuthOutcome::DkimAligned {
                domain: "mail.example.org".into()
            }
        );
    }

    #[test]
    fn signature_by_a_bare_top_level_domain_never_aligns() {
        assert!(!aligned("org", "example.org"));
        assert!(aligned("example.org", "mail.example.org"));
    }

    #[test]
    fn sender_verdict_is_asked_only_with_a_trusted_server_and_a_sender() {
        let raw =
            msg("Authentication-Results: mx.club.example; dmarc=pass header.from=example.org\r\n");
        assert_eq!(
            sender_verdict(&raw, Some("mx.club.example"), Some("anna@example.org")),
            Some(AuthOutcome::DmarcPass)
        );
        assert_eq!(
            sender_verdict(&raw, Some("mx.club.example"), Some("anna@other.example")),
            Some(AuthOutcome::Failed {
                summary: "dmarc=pass".into()
            })
        );
        assert_eq!(sender_verdict(&raw, None, Some("anna@example.org")), None);
        assert_eq!(sender_verdict(&raw, Some("mx.club.example"), None), None);
    }

    #[test]
    fn policy_words_parse() {
        assert_eq!(Policy::parse("key"), Some(Policy::Key));
        assert_eq!(Policy::parse("key+auth"), Some(Policy::KeyAndAuth));
        assert_eq!(Policy::parse("auth"), Some(Policy::Auth));
        assert_eq!(Policy::parse("none"), None);
    }
}
