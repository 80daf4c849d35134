-- `messages_game` (game_id, outcome) has had one reader: the history's
-- count of the answered messages from strangers and failed authentications
-- in a game (whether the player was warned within the hour). Every message
-- wrote an entry into it, and the entries of one game sit together: a game
-- of a few hundred plies has a leaf of its own, one more page written in
-- every moved message's commit, and a page of its own per long game in the
-- database's checkpoints. Only the messages that count are indexed now.
DROP INDEX messages_game;
CREATE INDEX messages_game_refused ON messages (game_id)
    WHERE outcome IN ('stranger', 'auth_failed');
