-- The players' display names as the organiser gave them ("Anna Smith
-- <anna@x.example>"), for the mails; players are matched by address only.
ALTER TABLE games ADD COLUMN white_name TEXT;
ALTER TABLE games ADD COLUMN black_name TEXT;
