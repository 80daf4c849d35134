//! Placeholder of the intake's public shape while the intake branch is built;
//! replaced by it on merge. [pure]
use crate::command::Command;
use crate::notation::ParseError;

pub struct IntakeConfig {
    pub referee_local: String,
    pub referee_domain: String,
    pub max_message_bytes: usize,
}
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intake {
    pub message_id: Option<String>,
    pub from: Option<String>,
    pub subject: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub game_address: Option<GameAddress>,
    pub to_bare_referee: bool,
    pub disposition: Disposition,
}
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameAddress {
    pub game: i64,
    pub key: String,
}
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Disposition {
    Automatic(AutoReason),
    TooLarge { size: usize },
    Read(Reading),
}
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AutoReason {
    ListMail,
}
impl std::fmt::Display for AutoReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    Command(Command),
    Unclear(Unclear),
}
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unclear {
    NothingFound,
    NotAMove { text: String, error: ParseError },
}
impl std::fmt::Display for Unclear {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
pub fn read(_raw: &[u8], _cfg: &IntakeConfig) -> Intake {
    unimplemented!("intake branch")
}
