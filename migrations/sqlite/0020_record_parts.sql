-- A game's plies text (`records.plies`, migration 17) was rewritten whole
-- with every move: at ply 300 some 2.7 KB, beyond what a page holds with
-- the repetition window beside it, so each move freed an overflow page and
-- took another (3.3 of the 14 pages a move's commits wrote, by the WAL's
-- frame headers). Every full 64 plies are now sealed in a part written
-- once; `records.plies` keeps the plies after the last full part.
CREATE TABLE record_parts (
    game_id INTEGER NOT NULL REFERENCES games (id),
    part    INTEGER NOT NULL,
    plies   TEXT NOT NULL,
    PRIMARY KEY (game_id, part)
) WITHOUT ROWID;

INSERT INTO record_parts (game_id, part, plies)
SELECT game_id, (ply - 1) / 64, group_concat(iccf || ' ' || san, ',' ORDER BY ply)
FROM moves
GROUP BY game_id, (ply - 1) / 64
HAVING COUNT(*) = 64;

UPDATE records
SET plies = coalesce(
    (SELECT group_concat(m.iccf || ' ' || m.san, ',' ORDER BY m.ply)
     FROM moves m
     WHERE m.game_id = records.game_id
       AND m.ply > 64 * (SELECT COUNT(*) FROM record_parts p WHERE p.game_id = records.game_id)),
    '')
WHERE game_id IN (SELECT game_id FROM record_parts);
