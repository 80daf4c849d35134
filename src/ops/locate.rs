//! Where in a configuration file a mistake is: the line of a dotted key
//! (`inbox.host`), or of its table when the key is missing, or of the byte
//! offset a TOML error points at. [pure]

/// A 1-based line in the configuration text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line(pub usize);

/// The line holding byte `offset` of `text`.
pub fn line_of_offset(text: &str, offset: usize) -> Line {
    let offset = offset.min(text.len());
    Line(
        text.as_bytes()[..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1,
    )
}

/// The line of `dotted_key` (`table.key`) in `text`: the key itself when it is
/// written, else the `[table]` header, else `None` (no such table, or the text
/// does not parse).
pub fn line_of_key(text: &str, dotted_key: &str) -> Option<Line> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut table = doc.as_table();
    let mut parts = dotted_key.split('.').peekable();
    let mut best = None;
    while let Some(part) = parts.next() {
        let Some((key, item)) = table.get_key_value(part) else {
            return best;
        };
        let span = if parts.peek().is_none() {
            key.span()
        } else {
            item.as_table().and_then(toml_edit::Table::span)
        };
        if let Some(span) = span {
            best = Some(line_of_offset(text, span.start));
        }
        match item.as_table() {
            Some(t) => table = t,
            None => return best,
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# comment\n[referee]\naddress = \"a@b.example\"\n\n[inbox]\nkind = \"imap\"\n  host = \"x\"\n";

    #[test]
    fn a_written_key_is_found_on_its_own_line() {
        assert_eq!(line_of_key(TEXT, "inbox.host"), Some(Line(7)));
        assert_eq!(line_of_key(TEXT, "referee.address"), Some(Line(3)));
    }

    #[test]
    fn a_missing_key_points_at_its_table() {
        assert_eq!(line_of_key(TEXT, "inbox.username"), Some(Line(5)));
    }

    #[test]
    fn a_missing_table_has_no_line() {
        assert_eq!(line_of_key(TEXT, "outbox.host"), None);
    }

    #[test]
    fn offsets_count_lines_from_one() {
        assert_eq!(line_of_offset(TEXT, 0), Line(1));
        assert_eq!(line_of_offset(TEXT, TEXT.find("[inbox]").unwrap()), Line(5));
    }
}
