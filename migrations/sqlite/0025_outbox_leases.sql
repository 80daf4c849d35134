-- A row being sent is leased, not claimed: "claim" is a draw claim. The
-- lease's columns take its name. RENAME COLUMN (SQLite 3.25) also renames
-- them in every index and trigger that names them.
ALTER TABLE outbox RENAME COLUMN claimed_by TO leased_by;
ALTER TABLE outbox RENAME COLUMN claimed_until TO leased_until;
