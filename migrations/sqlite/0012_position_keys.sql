-- The Zobrist key of the position after each ply: what a repetition claim
-- counts, so that a game is judged from its stored last position without
-- replaying its moves. Rows from before are filled in by wildt when it
-- opens the database (SQL cannot compute the key).
ALTER TABLE moves ADD COLUMN key INTEGER;
-- Finds those rows at once (and costs nothing once they are filled in).
CREATE INDEX moves_unkeyed ON moves (game_id) WHERE key IS NULL;
