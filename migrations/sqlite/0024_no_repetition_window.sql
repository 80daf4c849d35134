-- `records.window_keys` held the Zobrist key of each position since the
-- last capture or pawn move, read with every move and rewritten by it. Only
-- a draw claim counts repetitions, and it now reads the keys from
-- `moves.key` when it is made. In a game that goes a long way without a
-- capture or pawn move the window filled most of a page (2.4 KB at ply 300),
-- written to the log with every move; a finished game kept its last one.
ALTER TABLE records DROP COLUMN window_keys;
