//! The Maildir inbox: new/ in arrival order, moved to cur/ once handled. [IO]
