-- Each game's plies as one text, `iccf san` joined by commas in ply order
-- (`5254 e4,5755 e5`), appended to as moves are saved in the same batch as
-- the moves themselves: loading a game for its next move reads one row, not
-- every ply of the game (at ply 300 gathering the plies cost more SQLite
-- time than everything else a move does). `moves` stays the record of
-- truth; wildt checks the two agree when it loads a game and reads `moves`
-- when they do not. A table of its own, so that the games table, which
-- sweeps and lists read whole, stays small.
--
-- `window_keys`: the position keys (`moves.key`, 8 bytes each, little
-- endian) of the positions a repetition claim counts, those since the last
-- capture or pawn move, the position now last; the start position's key is
-- not in `moves`, so games from before this migration start with NULL
-- (counted from `moves` as before) until their next capture or pawn move.
CREATE TABLE records (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    plies       TEXT NOT NULL,
    window_keys BLOB
);
INSERT INTO records (game_id, plies)
SELECT game_id, group_concat(iccf || ' ' || san, ',' ORDER BY ply)
FROM moves
GROUP BY game_id;
