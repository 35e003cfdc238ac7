-- A pbm challenge starts a game with no step of the challenged player's,
-- so taking them becomes an opt-in: a player without a row in
-- challenge_prefs takes challenges only from the players their filters
-- allow (the store's Prefs says so; the column's default here follows).
-- Prefs stored before keep what they meant: a player who refused some
-- challengers (a deny filter) and stored no row took everyone else's
-- challenges, and gets a row that says so. Rows stored already said
-- accept_all themselves. Same conventions as 00001.

-- +goose Up
CREATE TABLE challenge_prefs_new (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant    TEXT NOT NULL,
    max_games  INTEGER NOT NULL DEFAULT -1,
    accept_all BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (user_id, variant)
);
INSERT INTO challenge_prefs_new (user_id, variant, max_games, accept_all)
    SELECT user_id, variant, max_games, accept_all FROM challenge_prefs;
INSERT INTO challenge_prefs_new (user_id, variant, max_games, accept_all)
    SELECT DISTINCT f.user_id, f.variant, -1, TRUE FROM challenge_filters f
    WHERE f.allow = FALSE AND NOT EXISTS (
        SELECT 1 FROM challenge_prefs p WHERE p.user_id = f.user_id AND p.variant = f.variant);
DROP TABLE challenge_prefs;
ALTER TABLE challenge_prefs_new RENAME TO challenge_prefs;

-- +goose Down
-- The rows added above mean under the old default what no row meant, so
-- they stay; only the default goes back.
CREATE TABLE challenge_prefs_old (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant    TEXT NOT NULL,
    max_games  INTEGER NOT NULL DEFAULT -1,
    accept_all BOOLEAN NOT NULL DEFAULT TRUE,
    PRIMARY KEY (user_id, variant)
);
INSERT INTO challenge_prefs_old (user_id, variant, max_games, accept_all)
    SELECT user_id, variant, max_games, accept_all FROM challenge_prefs;
DROP TABLE challenge_prefs;
ALTER TABLE challenge_prefs_old RENAME TO challenge_prefs;
