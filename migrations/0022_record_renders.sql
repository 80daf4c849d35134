-- A reply carries the game's whole record, in its text part and as the
-- HTML part's table: at ply 300, rendering those plies was the largest
-- part of what a long game's move costs more than a short one's. When a
-- part of the record is sealed (`record_parts`), its plies so far are
-- rendered once per language of the game's players and kept here, packed
-- (LZ4); a reply then writes only the plies after them. A row is used only
-- while its plies are the game's sealed plies and the build renders as it
-- did (both checked by hashes inside the packed row); otherwise the reply
-- renders the whole record, as before. Rows are made from the next part
-- sealed on: games stored before have none until then.
CREATE TABLE record_renders (
    game_id INTEGER NOT NULL REFERENCES games (id),
    lang    TEXT NOT NULL,
    packed  BLOB NOT NULL,
    PRIMARY KEY (game_id, lang)
) WITHOUT ROWID;
