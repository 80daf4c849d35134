//! The players of a section: the list an organiser writes (a file, one or
//! more per line, or `--players a@x,b@y`), and the name a player shows on
//! the public site. [pure: no IO]
//!
//! An entry is `Anna Smith <anna@x.example>`, `"Smith, Anna" <anna@x.example>`,
//! `<anna@x.example>` or a bare `anna@x.example`. Entries are separated by
//! newlines and by commas outside quotes; blank entries and lines starting
//! with `#` are skipped. Addresses are kept in lower case, as `game new`
//! keeps them, so that one player cannot be listed twice in two spellings.

use std::collections::HashMap;

/// A player of a section: the address games are played from, and the name
/// they gave, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub email: String,
    pub name: Option<String>,
}

/// Why a player list cannot be used. `line` counts from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerListError {
    #[error("the player list is empty")]
    Empty,
    #[error("line {line}: `{entry}` is not an e-mail address")]
    NotAnAddress { line: usize, entry: String },
    #[error("line {line}: `{entry}` has an unclosed quote or angle bracket")]
    Unbalanced { line: usize, entry: String },
    #[error("line {line}: the name in `{entry}` may not contain @, < or >")]
    BadName { line: usize, entry: String },
    #[error("line {line}: {email} is already listed on line {first_line}")]
    Duplicate {
        email: String,
        first_line: usize,
        line: usize,
    },
}

/// Parses a player list, refusing it whole at its first bad entry.
pub fn parse_players(text: &str) -> Result<Vec<Player>, PlayerListError> {
    let mut players = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim_start().starts_with('#') {
            continue;
        }
        for entry in split_entries(line, line_no)? {
            let player = parse_entry(entry, line_no)?;
            if let Some(&first) = first_line.get(&player.email) {
                return Err(PlayerListError::Duplicate {
                    email: player.email,
                    first_line: first,
                    line: line_no,
                });
            }
            first_line.insert(player.email.clone(), line_no);
            players.push(player);
        }
    }
    if players.is_empty() {
        return Err(PlayerListError::Empty);
    }
    Ok(players)
}

/// Parses one entry: `Name <address>`, `<address>` or `address`.
pub fn parse_player(entry: &str) -> Result<Player, PlayerListError> {
    parse_entry(entry.trim(), 1)
}

/// The entries of a line: split at commas outside quotes and angle brackets.
fn split_entries(line: &str, line_no: usize) -> Result<Vec<&str>, PlayerListError> {
    let mut entries = Vec::new();
    let (mut start, mut quoted, mut angled) = (0, false, false);
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' if !angled => quoted = !quoted,
            '<' if !quoted => angled = true,
            '>' if !quoted => angled = false,
            ',' if !quoted && !angled => {
                entries.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted || angled {
        return Err(PlayerListError::Unbalanced {
            line: line_no,
            entry: line.trim().to_owned(),
        });
    }
    entries.push(&line[start..]);
    Ok(entries
        .into_iter()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect())
}

fn parse_entry(entry: &str, line: usize) -> Result<Player, PlayerListError> {
    let unbalanced = || PlayerListError::Unbalanced {
        line,
        entry: entry.to_owned(),
    };
    let not_address = || PlayerListError::NotAnAddress {
        line,
        entry: entry.to_owned(),
    };
    let (name, address) = match entry.rfind('<') {
        Some(open) => {
            let address = entry[open + 1..].strip_suffix('>').ok_or_else(unbalanced)?;
            (
                unquote(entry[..open].trim()).ok_or_else(unbalanced)?,
                address,
            )
        }
        None if entry.contains('>') => return Err(unbalanced()),
        None => (String::new(), entry),
    };
    if !is_address(address) {
        return Err(not_address());
    }
    if name
        .chars()
        .any(|c| matches!(c, '@' | '<' | '>') || c.is_control())
    {
        return Err(PlayerListError::BadName {
            line,
            entry: entry.to_owned(),
        });
    }
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    Ok(Player {
        email: address.to_ascii_lowercase(),
        name: (!name.is_empty()).then_some(name),
    })
}

/// `"Smith, Anna"` -> `Smith, Anna`; an unquoted name as it is; `None` for a
/// quote left open or text after the closing quote.
fn unquote(name: &str) -> Option<String> {
    let Some(inner) = name.strip_prefix('"') else {
        return (!name.contains('"')).then(|| name.to_owned());
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return chars.as_str().trim().is_empty().then_some(out),
            c => out.push(c),
        }
    }
    None
}

/// An address wildt can mail: `local@domain`, no spaces or the characters
/// that delimit addresses in a header, a domain of non-empty labels.
pub fn is_address(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && local.chars().all(|c| {
            c.is_ascii_graphic()
                && !matches!(
                    c,
                    '<' | '>' | '(' | ')' | '[' | ']' | '\\' | ',' | ';' | ':' | '"' | '@'
                )
        });
    let domain_ok = !domain.is_empty()
        && domain.len() <= 253
        && domain.split('.').all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    local_ok && domain_ok
}

/// How a player appears on the public site: their name, or else the local
/// part of their address masked (`anna@x.example` -> `a***a`). Never the
/// domain, and never a name that holds an address.
pub fn public_name(player: &Player) -> String {
    match player.name.as_deref().map(str::trim) {
        Some(name) if !name.is_empty() && !name.contains('@') => name.to_owned(),
        _ => mask_local_part(&player.email),
    }
}

/// `anna@x.example` -> `a***a`; `ab@x` -> `a***`. Always three stars, so
/// the mask does not tell the length; the last letter only when at least one
/// letter stays hidden.
fn mask_local_part(email: &str) -> String {
    let local = email.split('@').next().unwrap_or_default();
    let chars: Vec<char> = local.chars().collect();
    match chars.as_slice() {
        [] => "***".to_owned(),
        [first] | [first, _] => format!("{first}***"),
        [first, .., last] => format!("{first}***{last}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(email: &str, name: Option<&str>) -> Player {
        Player {
            email: email.to_owned(),
            name: name.map(str::to_owned),
        }
    }

    #[test]
    fn file_with_names_bare_addresses_comments_and_blank_lines() {
        let text = "# Club championship 2027\n\
                    Anna Smith <anna@x.example>\n\
                    \n\
                    ben@y.example\n\
                    <Cleo@Z.Example>\n\
                    \"Smith, A.\" <dora@x.example>\n";
        assert_eq!(
            parse_players(text).unwrap(),
            [
                player("anna@x.example", Some("Anna Smith")),
                player("ben@y.example", None),
                player("cleo@z.example", None),
                player("dora@x.example", Some("Smith, A.")),
            ]
        );
    }

    #[test]
    fn comma_separated_list_with_and_without_names() {
        assert_eq!(
            parse_players("anna@x.example, Ben K. <ben@y.example>,cleo@z.example,").unwrap(),
            [
                player("anna@x.example", None),
                player("ben@y.example", Some("Ben K.")),
                player("cleo@z.example", None),
            ]
        );
    }

    #[test]
    fn quoted_name_keeps_escaped_quotes_and_squeezes_spaces() {
        assert_eq!(
            parse_player(r#""Anna \"The Rook\"   Smith" <anna@x.example>"#).unwrap(),
            player("anna@x.example", Some(r#"Anna "The Rook" Smith"#))
        );
    }

    #[test]
    fn the_same_address_twice_is_refused_whatever_its_case() {
        assert_eq!(
            parse_players("anna@x.example\nben@y.example, Anna <ANNA@x.example>"),
            Err(PlayerListError::Duplicate {
                email: "anna@x.example".into(),
                first_line: 1,
                line: 2,
            })
        );
    }

    #[test]
    fn unquoted_comma_in_a_name_is_an_error_not_a_new_player() {
        assert_eq!(
            parse_players("Smith, Anna <anna@x.example>"),
            Err(PlayerListError::NotAnAddress {
                line: 1,
                entry: "Smith".into()
            })
        );
    }

    #[test]
    fn malformed_entries_are_refused_with_their_line() {
        assert_eq!(
            parse_players("anna@x.example\nBen <ben@y.example"),
            Err(PlayerListError::Unbalanced {
                line: 2,
                entry: "Ben <ben@y.example".into()
            })
        );
        assert_eq!(
            parse_players("\"Anna <anna@x.example>"),
            Err(PlayerListError::Unbalanced {
                line: 1,
                entry: "\"Anna <anna@x.example>".into()
            })
        );
        assert_eq!(
            parse_player("ben>"),
            Err(PlayerListError::Unbalanced {
                line: 1,
                entry: "ben>".into()
            })
        );
        for bad in [
            "anna",
            "anna@",
            "@x.example",
            "an na@x.example",
            "a@b@c",
            "a@x..example",
            "a@-x.example",
        ] {
            assert_eq!(
                parse_player(bad),
                Err(PlayerListError::NotAnAddress {
                    line: 1,
                    entry: bad.into()
                }),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_name_holding_an_address_is_refused_so_it_cannot_be_published() {
        assert_eq!(
            parse_player("anna@x.example <anna@x.example>"),
            Err(PlayerListError::BadName {
                line: 1,
                entry: "anna@x.example <anna@x.example>".into()
            })
        );
    }

    #[test]
    fn an_empty_list_is_refused() {
        assert_eq!(parse_players(""), Err(PlayerListError::Empty));
        assert_eq!(
            parse_players("# nobody yet\n , \n"),
            Err(PlayerListError::Empty)
        );
    }

    #[test]
    fn public_name_is_the_display_name_when_given() {
        assert_eq!(
            public_name(&player("anna@x.example", Some("Anna Smith"))),
            "Anna Smith"
        );
    }

    #[test]
    fn public_name_masks_the_local_part_and_never_shows_the_domain() {
        let cases = [
            ("anna@x.example", "a***a"),
            ("anna.smith+chess@x.example", "a***s"),
            ("ab@x.example", "a***"),
            ("a@x.example", "a***"),
        ];
        for (email, masked) in cases {
            let shown = public_name(&player(email, None));
            assert_eq!(shown, masked);
            assert!(
                !shown.contains("example") && !shown.contains('@'),
                "{shown}"
            );
        }
        assert_eq!(public_name(&player("anna@x.example", Some("  "))), "a***a");
        assert_eq!(
            public_name(&player("anna@x.example", Some("anna@x.example"))),
            "a***a"
        );
    }
}
