-- A reply carries the game's whole record, in its text part and as the
-- HTML part's table: at ply 300, rendering those plies was the largest
-- part of what a long game's move costs more than a short one's. When a
-- part of the record is sealed (`record_parts`), its plies so far are
-- rendered once per language of the game's players and kept here; a
-- reply then writes only the plies after them. A row is used only while
-- its plies are the game's sealed plies and the build renders as it did
-- (both checked by hashes at the row's start); otherwise the reply renders
-- the whole record, as before. Rows are made when a part is sealed, and at
-- the next move of a game that has none in a player's language or one this
-- build does not use (games stored before, an upgrade that renders
-- otherwise); they are deleted when the game ends. A table with rowids: in a WITHOUT ROWID table a row is its key's
-- cell, and a search that met a row of several KB read it whole (overflow
-- pages too) to compare its key, for every game's load; here the key is
-- searched in the table's index, whose cells are small.
CREATE TABLE record_renders (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    lang     TEXT NOT NULL,
    rendered BLOB NOT NULL,
    PRIMARY KEY (game_id, lang)
);
