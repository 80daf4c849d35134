//! The IMAP inbox (async-imap over tokio-rustls). [IO]
