-- Indexes for the lookups done on every message and every new game, which
-- otherwise scan whole tables (cost growing with the history; see BENCHMARKS.md):
-- the security-notice check joins a game's messages to their outbox rows, and
-- game creation counts a player's active games.
CREATE INDEX messages_game ON messages (game_id, outcome);
CREATE INDEX outbox_message ON outbox (message);
CREATE INDEX games_white ON games (white_email, status);
CREATE INDEX games_black ON games (black_email, status);
-- The outbox is read oldest first among pending rows; without this the ORDER BY
-- id walks every row ever sent (raw mail included) on each flush.
CREATE INDEX outbox_due ON outbox (id) WHERE sent_at IS NULL AND failed_at IS NULL;
