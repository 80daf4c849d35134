-- Conditional moves (issue 19): each seat's stored set of prepared answers,
-- one row per game and seat, read and written in the transaction of the
-- message that uses or changes it.
CREATE TABLE conditionals (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        TEXT NOT NULL CHECK (seat IN ('white', 'black')),
    -- The tree in its compact versioned text (`c1 w 12 7866:4143(...)`).
    tree        TEXT NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- A move played from a stored set the moment the opponent's move arrived:
-- it took no reflection time, so the clocks count it as free.
ALTER TABLE moves ADD COLUMN prepared INTEGER NOT NULL DEFAULT 0 CHECK (prepared IN (0, 1));
