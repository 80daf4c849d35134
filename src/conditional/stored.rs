//! The stored form of a conditional tree: one compact, versioned line of text
//! per game and seat. [pure: no IO]
//!
//! ```text
//! c1 w 12 7866:4143(2836:1214),2836:6152(7866:4143+o),5755:+a
//! ```
//! `c1` is the format version; `w`/`b` the seat whose answers these are; `12`
//! the move number of the opponent's first move (its side is the opponent's);
//! then the branches: `opponent:answer`, `+o` (offer draw) or `+a` (accept
//! draw) at the end of a branch, and the opponent's next moves in brackets.
//! A text that does not read back is a damaged database
//! ([`StoredFormatError`]), never a player's mistake.

use shakmaty::Color;

use crate::command::MoveNumber;
use crate::notation::IccfMove;

use super::{Branch, ConditionalTree, DrawAction, Reply};

/// The format version written by [`ConditionalTree::to_stored`].
pub(super) const VERSION: u32 = 1;

/// Deepest nesting read back: far beyond any set a message can hold (the
/// intake's move limit), and shallow enough never to exhaust the stack.
const MAX_DEPTH: usize = 2_000;

/// Why a stored text is not a conditional tree: the database is damaged or
/// was written by a newer wildt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoredFormatError {
    #[error("stored conditional moves have format `{found}`; this wildt reads `c{VERSION}`")]
    UnknownVersion { found: String },
    #[error("stored conditional moves are damaged at byte {at}: {what}")]
    Damaged { at: usize, what: &'static str },
}

impl ConditionalTree {
    /// The compact stored form (see the module doc); [`Self::from_stored`]
    /// reads it back to an equal tree.
    pub fn to_stored(&self) -> String {
        let seat = match self.seat {
            Color::White => 'w',
            Color::Black => 'b',
        };
        let mut out = format!("c{VERSION} {seat} {} ", self.first.number);
        write_branches(&self.branches, &mut out);
        out
    }

    /// Reads [`Self::to_stored`]'s text back.
    pub fn from_stored(text: &str) -> Result<ConditionalTree, StoredFormatError> {
        let mut parts = text.splitn(4, ' ');
        let version = parts.next().unwrap_or_default();
        if version != format!("c{VERSION}") {
            return Err(StoredFormatError::UnknownVersion {
                found: version.chars().take(16).collect(),
            });
        }
        let damaged = |at, what| StoredFormatError::Damaged { at, what };
        let seat = match parts.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            _ => return Err(damaged(version.len() + 1, "the seat is not w or b")),
        };
        let number: u32 = parts
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| damaged(version.len() + 3, "the move number is missing"))?;
        let body = parts
            .next()
            .ok_or_else(|| damaged(text.len(), "no branches"))?;
        let offset = text.len() - body.len();
        let mut r = Reader {
            b: body.as_bytes(),
            i: 0,
            offset,
        };
        let branches = r.branches(0)?;
        if r.i != r.b.len() {
            return Err(r.err("text after the last branch"));
        }
        if branches.is_empty() {
            return Err(r.err("no branches"));
        }
        Ok(ConditionalTree {
            seat,
            first: MoveNumber {
                number,
                black: seat == Color::White,
            },
            branches,
        })
    }
}

fn write_branches(branches: &[Branch], out: &mut String) {
    for (i, b) in branches.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&b.opponent.to_string());
        out.push(':');
        if let Some(mv) = b.reply.mv {
            out.push_str(&mv.to_string());
        }
        match b.reply.draw {
            Some(DrawAction::Offer) => out.push_str("+o"),
            Some(DrawAction::Accept) => out.push_str("+a"),
            None => {}
        }
        if !b.then.is_empty() {
            out.push('(');
            write_branches(&b.then, out);
            out.push(')');
        }
    }
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
    offset: usize,
}

impl Reader<'_> {
    fn err(&self, what: &'static str) -> StoredFormatError {
        StoredFormatError::Damaged {
            at: self.offset + self.i,
            what,
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.b.get(self.i) == Some(&c);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn mv(&mut self) -> Result<Option<IccfMove>, StoredFormatError> {
        let len = self.b[self.i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if len == 0 {
            return Ok(None);
        }
        let digits = std::str::from_utf8(&self.b[self.i..self.i + len])
            .map_err(|_| self.err("not a move"))?;
        let mv = digits.parse().map_err(|_| self.err("not a move"))?;
        self.i += len;
        Ok(Some(mv))
    }

    fn branches(&mut self, depth: usize) -> Result<Vec<Branch>, StoredFormatError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deep"));
        }
        let mut out = Vec::new();
        loop {
            let opponent = self.mv()?.ok_or_else(|| self.err("a move expected"))?;
            if !self.eat(b':') {
                return Err(self.err("`:` expected"));
            }
            let mv = self.mv()?;
            let draw = if self.eat(b'+') {
                if self.eat(b'o') {
                    Some(DrawAction::Offer)
                } else if self.eat(b'a') {
                    Some(DrawAction::Accept)
                } else {
                    return Err(self.err("`+o` or `+a` expected"));
                }
            } else {
                None
            };
            if mv.is_none() && draw != Some(DrawAction::Accept) {
                return Err(self.err("an answer expected"));
            }
            let then = if self.eat(b'(') {
                let then = self.branches(depth + 1)?;
                if !self.eat(b')') {
                    return Err(self.err("`)` expected"));
                }
                then
            } else {
                Vec::new()
            };
            if draw.is_some() && !then.is_empty() {
                return Err(self.err("a draw action before further branches"));
            }
            out.push(Branch {
                opponent,
                reply: Reply { mv, draw },
                then,
            });
            if !self.eat(b',') {
                return Ok(out);
            }
        }
    }
}
