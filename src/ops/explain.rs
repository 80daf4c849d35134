//! A TOML error in the operator's words: the line, the dotted key it is
//! about (`inbox.port`), what its value must be, and what to write instead.
//! serde and the TOML parser report a byte span and a message in their own
//! terms (`invalid type: string "abc", expected u16`, `expected newline,
//! `#``); the key is found from the span's line and the table header above
//! it, and the words from [`key_value_words`]. [pure]

use crate::config::key_value_words;
use crate::ops::locate::{Line, line_of_offset};

/// A TOML error explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// Where it is, when the parser said.
    pub line: Option<Line>,
    /// What is wrong, naming the key (no place in front).
    pub what: String,
    /// What to change.
    pub fix: String,
}

/// Explains `e`, an error from parsing the configuration `text`.
pub fn explain(text: &str, e: &toml::de::Error) -> Explained {
    let message = e.message().trim_end();
    let span = e.span();
    let line = span.as_ref().map(|s| line_of_offset(text, s.start));
    let at = line.map(|l| KeyAt::of(text, l));
    let written = span
        .as_ref()
        .and_then(|s| text.get(s.clone()))
        .unwrap_or_default();
    let (what, fix) = if toml::from_str::<toml::Table>(text).is_err() {
        not_toml(message, at.as_ref())
    } else if let Some(rest) = message.strip_prefix("unknown field ") {
        unknown_key(rest, at.as_ref())
    } else if let Some(rest) = message.strip_prefix("missing field ") {
        missing_key(rest, at.as_ref())
    } else if message.starts_with("invalid type: ") || message.starts_with("invalid value: ") {
        wrong_type(message, written, at.as_ref())
    } else {
        (
            message.to_owned(),
            "correct the TOML at that line".to_owned(),
        )
    };
    // A table missing from the file has no line: the parser points at the
    // whole document.
    let line = if message.starts_with("missing field ") && !at.as_ref().is_some_and(|a| a.header) {
        None
    } else {
        line
    };
    Explained { line, what, fix }
}

/// The key written on a line, and the table it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
struct KeyAt {
    /// The `[table]` the line is under (`inbox`), or empty at the top.
    table: String,
    /// The `[table]` header itself is on the line.
    header: bool,
    /// The key before `=` on the line, if any.
    key: Option<String>,
    /// The text after `=`, without a trailing comment.
    value: Option<String>,
}

impl KeyAt {
    fn of(text: &str, Line(n): Line) -> KeyAt {
        let lines: Vec<&str> = text.lines().collect();
        let here = lines.get(n.saturating_sub(1)).copied().unwrap_or_default();
        let header_of = |l: &str| {
            let l = l.trim();
            l.starts_with('[')
                .then(|| l.trim_start_matches('[').split(']').next())
                .flatten()
                .map(|t| t.trim().to_owned())
        };
        let table = lines[..n.min(lines.len())]
            .iter()
            .rev()
            .find_map(|l| header_of(l))
            .unwrap_or_default();
        let (key, value) = match here.split_once('=') {
            Some((k, v)) if header_of(here).is_none() => {
                let key = k.trim().trim_matches(['"', '\'']).to_owned();
                (Some(key), Some(without_comment(v).trim().to_owned()))
            }
            _ => (None, None),
        };
        KeyAt {
            table,
            header: header_of(here).is_some(),
            key,
            value,
        }
    }

    /// `inbox.port` (or `port` at the top).
    fn dotted(&self, key: &str) -> String {
        if self.table.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.table)
        }
    }

    /// The dotted key written on the line.
    fn dotted_key(&self) -> Option<String> {
        self.key.as_deref().map(|k| self.dotted(k))
    }
}

/// `v` up to a `#` outside quotes.
fn without_comment(v: &str) -> &str {
    let mut quote = None;
    for (i, c) in v.char_indices() {
        match (c, quote) {
            ('"' | '\'', None) => quote = Some(c),
            (c, Some(q)) if c == q => quote = None,
            ('#', None) => return &v[..i],
            _ => {}
        }
    }
    v
}

/// The text is not TOML at all: say which value (or line) is not, and what
/// to write.
fn not_toml(message: &str, at: Option<&KeyAt>) -> (String, String) {
    let said = message.replace('\n', "; ");
    let Some(at) = at else {
        return (
            format!("not valid TOML: {said}"),
            "correct the TOML at that line".to_owned(),
        );
    };
    if at.header {
        return (
            format!("the table header [{}] is not valid: {said}", at.table),
            "write each [table] header once, as [name]".to_owned(),
        );
    }
    let (Some(key), Some(value)) = (at.dotted_key(), at.value.as_deref()) else {
        let table = if at.table.is_empty() {
            String::new()
        } else {
            format!(" (in [{}])", at.table)
        };
        return (
            format!("this line is not valid TOML{table}: {said}"),
            "write `key = value`, or a [table] header, on each line".to_owned(),
        );
    };
    if toml::from_str::<toml::Table>(&format!("x = {value}")).is_ok() {
        // The value is fine: the mistake is in the key or around it.
        return (
            format!("{key}: {said}"),
            "correct the TOML at that line".to_owned(),
        );
    }
    let number: String = value.chars().take_while(char::is_ascii_digit).collect();
    let write = if !number.is_empty() {
        format!("write a number ({number}) or a quoted string")
    } else {
        "write a number, true or false, or a quoted string".to_owned()
    };
    match key_value_words(&key) {
        Some(words) => {
            let name = key.rsplit('.').next().unwrap_or(&key);
            (
                format!("{key}: the value {value} is not valid TOML; it must be {words}"),
                format!("change `{name}` at that line to {words}"),
            )
        }
        None => (
            format!("{key}: the value {value} is not valid TOML; {write}"),
            format!("{write} at that line"),
        ),
    }
}

/// `unknown field `x`, expected one of …`: name the table it was found in.
fn unknown_key(rest: &str, at: Option<&KeyAt>) -> (String, String) {
    let what = match at.filter(|a| !a.table.is_empty()) {
        Some(a) => match rest.split_once(", ") {
            Some((field, expected)) => {
                format!("unknown field {field} in [{}], {expected}", a.table)
            }
            None => format!("unknown field {rest} in [{}]", a.table),
        },
        None => format!("unknown field {rest}"),
    };
    (
        what,
        "remove the key or correct its spelling (every key is shown in the example \
         configuration)"
            .to_owned(),
    )
}

/// `missing field `x``: the key (or table) that must be added, and what it
/// must be.
fn missing_key(rest: &str, at: Option<&KeyAt>) -> (String, String) {
    let field = rest.trim().trim_matches('`');
    // The parser points at the table that lacks the key (its header); at the
    // top, a missing table.
    let table = at
        .filter(|a| a.header)
        .map(|a| a.table.clone())
        .unwrap_or_default();
    if table.is_empty() {
        return (
            format!("the [{field}] table is missing"),
            format!("add a [{field}] table (every key is shown in the example configuration)"),
        );
    }
    let key = format!("{table}.{field}");
    let words = key_value_words(&key).map_or(String::new(), |w| format!(": it must be {w}"));
    (
        format!("{key} is missing{words}"),
        format!("add `{field} = …` to [{table}] (every key is shown in the example configuration)"),
    )
}

/// serde's `invalid type: string "abc", expected u16`: the key, what its
/// value must be, and the value as written.
fn wrong_type(message: &str, written: &str, at: Option<&KeyAt>) -> (String, String) {
    let expected = message
        .rsplit_once(", expected ")
        .map_or("", |(_, e)| e.trim());
    let key = at.and_then(KeyAt::dotted_key);
    let words = key
        .as_deref()
        .and_then(key_value_words)
        .map_or_else(|| expected_words(expected), str::to_owned);
    let written = written.trim();
    let not = if written.is_empty() {
        String::new()
    } else {
        format!(", not {written}")
    };
    match key {
        Some(key) => {
            let name = key.rsplit('.').next().unwrap_or(&key).to_owned();
            (
                format!("{key} must be {words}{not}"),
                format!("change `{name}` at that line to {words}"),
            )
        }
        None => (
            format!("a value must be {words}{not}"),
            format!("change the value at that line to {words}"),
        ),
    }
}

/// serde's name of a type, in words.
fn expected_words(expected: &str) -> String {
    match expected {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number".to_owned(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a number".to_owned(),
        "a boolean" => "true or false".to_owned(),
        "a string" | "path string" => "a string in quotes".to_owned(),
        "a sequence" => "a list in brackets, like [7, 14]".to_owned(),
        e if e.starts_with("struct ") => "a table".to_owned(),
        e => e.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explained(text: &str) -> Explained {
        let e = toml::from_str::<toml::Table>(text)
            .err()
            .or_else(|| crate::config::Config::parse(text).err().and_then(toml_of))
            .expect("an error");
        explain(text, &e)
    }

    fn toml_of(e: crate::config::ConfigError) -> Option<toml::de::Error> {
        match e {
            crate::config::ConfigError::Toml(t) => Some(t),
            _ => None,
        }
    }

    #[test]
    fn a_comment_after_a_value_is_not_part_of_it() {
        assert_eq!(without_comment(" 60s # every minute"), " 60s ");
        assert_eq!(without_comment(" \"a#b\" # x"), " \"a#b\" ");
    }

    #[test]
    fn the_key_of_a_line_is_found_under_its_table() {
        let text = "[inbox]\n# x\nport = \"abc\" # the port\n";
        assert_eq!(
            KeyAt::of(text, Line(3)),
            KeyAt {
                table: "inbox".to_owned(),
                header: false,
                key: Some("port".to_owned()),
                value: Some("\"abc\"".to_owned()),
            }
        );
        assert!(KeyAt::of(text, Line(1)).header);
    }

    #[test]
    fn a_missing_table_has_no_line() {
        let text =
            crate::config::LOCAL_TOML.replace("[database]\nurl = \"sqlite://var/wildt.db\"\n", "");
        let e = explained(&text);
        assert_eq!(e.line, None);
        assert_eq!(e.what, "the [database] table is missing");
    }

    #[test]
    fn a_table_written_twice_is_named() {
        let text = format!(
            "{}\n[inbox]\nkind = \"maildir\"\n",
            crate::config::LOCAL_TOML
        );
        let e = explained(&text);
        assert!(
            e.what
                .starts_with("the table header [inbox] is not valid: "),
            "{}",
            e.what
        );
    }

    #[test]
    fn a_bad_line_without_a_key_is_explained_in_words() {
        let text = "[inbox]\nkind \"imap\"\n";
        let e = explained(text);
        assert_eq!(e.line, Some(Line(2)));
        assert!(
            e.what
                .starts_with("this line is not valid TOML (in [inbox])"),
            "{}",
            e.what
        );
    }
}
