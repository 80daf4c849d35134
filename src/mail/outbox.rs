//! Outbox transports: where rendered mail goes. The file transport (embedded
//! default) writes one `.eml` per Message-ID, so a resend after a crash
//! overwrites the same file instead of adding a copy. [IO]

use std::path::{Path, PathBuf};

/// Why a mail was not handed over, and whether trying again may help.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("writing {path}: {source}")]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Smtp(#[from] super::smtp::SendError),
    #[error("sendmail: {0}")]
    Sendmail(String),
}

impl SendError {
    /// Trying again later may succeed (a full disk, a server away).
    pub fn is_transient(&self) -> bool {
        !self.is_permanent()
    }

    /// Trying again will not help (the server refused this mail for good).
    pub fn is_permanent(&self) -> bool {
        match self {
            SendError::Smtp(e) => e.is_permanent(),
            SendError::File { .. } | SendError::Sendmail(_) => false,
        }
    }
}

/// Writes `raw` to `dir/<message_id>.eml` atomically (temporary file, rename).
pub async fn write_file(dir: &Path, message_id: &str, raw: &[u8]) -> Result<(), SendError> {
    let safe: String = message_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.@".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{safe}.eml"));
    let tmp = dir.join(format!(".{safe}.tmp"));
    let io = |source| SendError::File {
        path: path.clone(),
        source,
    };
    tokio::fs::create_dir_all(dir).await.map_err(io)?;
    tokio::fs::write(&tmp, raw).await.map_err(io)?;
    tokio::fs::rename(&tmp, &path).await.map_err(io)?;
    Ok(())
}
