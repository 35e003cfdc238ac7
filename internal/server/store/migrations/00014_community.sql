-- The community around the games: players following players, when each
-- player was last seen, the results of each player by preset and colour,
-- the rating after each rated game, and the indexes of the archive of
-- finished games. Same conventions as 00001.
--
-- games.ended_at is the end's time (0 while the game is on), written once
-- by the end: the archive is ordered and ranged by it. It is a column of
-- its own, not updated_at, which every move rewrites: an index on a column
-- a move writes would make every move's UPDATE rewrite the entries of
-- every index of games on PostgreSQL (no HOT update) and of that index on
-- SQLite. The partial indexes hold the finished games only, or the active
-- ones only, so that each stays as small as what it serves.

-- +goose Up
ALTER TABLE games ADD COLUMN ended_at BIGINT NOT NULL DEFAULT 0;
UPDATE games SET ended_at = updated_at WHERE status = 'finished';
CREATE INDEX games_archive ON games (ended_at, id) WHERE status = 'finished';
CREATE INDEX games_archive_variant ON games (variant, ended_at, id) WHERE status = 'finished';
CREATE INDEX games_archive_white ON games (white_id, ended_at, id) WHERE status = 'finished';
CREATE INDEX games_archive_black ON games (black_id, ended_at, id) WHERE status = 'finished';
CREATE INDEX games_active_white ON games (white_id) WHERE status = 'active';
CREATE INDEX games_active_black ON games (black_id) WHERE status = 'active';

CREATE TABLE follows (
    user_id     BIGINT NOT NULL REFERENCES users (id),
    followed_id BIGINT NOT NULL REFERENCES users (id),
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id, user_id);

CREATE TABLE last_seen (
    user_id BIGINT PRIMARY KEY REFERENCES users (id),
    seen_at BIGINT NOT NULL
);
CREATE INDEX last_seen_at ON last_seen (seen_at);

-- side: 0 white, 1 black. A game's end adds one to its two rows.
CREATE TABLE results (
    user_id BIGINT NOT NULL REFERENCES users (id),
    variant TEXT NOT NULL,
    side    INTEGER NOT NULL,
    wins    BIGINT NOT NULL DEFAULT 0,
    draws   BIGINT NOT NULL DEFAULT 0,
    losses  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, variant, side)
);
INSERT INTO results (user_id, variant, side, wins, draws, losses)
    SELECT white_id, variant, 0,
        SUM(CASE WHEN result = '1-0' THEN 1 ELSE 0 END),
        SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END),
        SUM(CASE WHEN result = '0-1' THEN 1 ELSE 0 END)
    FROM games WHERE status = 'finished' AND result <> '*' GROUP BY white_id, variant;
INSERT INTO results (user_id, variant, side, wins, draws, losses)
    SELECT black_id, variant, 1,
        SUM(CASE WHEN result = '0-1' THEN 1 ELSE 0 END),
        SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END),
        SUM(CASE WHEN result = '1-0' THEN 1 ELSE 0 END)
    FROM games WHERE status = 'finished' AND result <> '*' GROUP BY black_id, variant;

-- The games rated before this migration get their points from the
-- service at its start (Service.backfillRatingHistory): Glicko-2 is not
-- SQL's to compute.
CREATE TABLE rating_history (
    user_id   BIGINT NOT NULL REFERENCES users (id),
    variant   TEXT NOT NULL,
    game_id   BIGINT NOT NULL REFERENCES games (id),
    rating    DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX rating_history_user ON rating_history (user_id, variant, at, game_id);

-- +goose Down
DROP TABLE rating_history;
DROP TABLE results;
DROP TABLE last_seen;
DROP TABLE follows;
DROP INDEX games_active_black;
DROP INDEX games_active_white;
DROP INDEX games_archive_black;
DROP INDEX games_archive_white;
DROP INDEX games_archive_variant;
DROP INDEX games_archive;
ALTER TABLE games DROP COLUMN ended_at;
