-- Xfcc accounts: a player's password for chess GUIs (XfccBasic), keyed by
-- the lower-cased address like `players`. Only the Argon2id hash (a PHC
-- string: salt and parameters included) is kept.
CREATE TABLE xfcc_accounts (
    email TEXT PRIMARY KEY NOT NULL,
    password_hash TEXT NOT NULL,
    set_at INTEGER NOT NULL
);

-- A player's last note to the opponent, sent with a move by Xfcc
-- (`myMessage`): the opponent's GetMyGames shows it as `message`.
CREATE TABLE xfcc_notes (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat TEXT NOT NULL CHECK (seat IN ('white', 'black')),
    note TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
