-- What the game service keeps beyond the first schema: the engine's level
-- in games against it, correspondence reminders sent, moves queued in
-- advance (pbmserv "queue"), who a player takes challenges from (pbmserv
-- "limit", "accept", "reject") and vacations, which suspend the
-- correspondence timers. Same conventions as 00001.

-- +goose Up
ALTER TABLE games ADD COLUMN engine_level INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN nag_sent_ply INTEGER NOT NULL DEFAULT -1;

CREATE TABLE queued_moves (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    move       TEXT NOT NULL,
    ply        INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE challenge_prefs (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant    TEXT NOT NULL,
    max_games  INTEGER NOT NULL DEFAULT -1,
    accept_all BOOLEAN NOT NULL DEFAULT TRUE,
    PRIMARY KEY (user_id, variant)
);

CREATE TABLE challenge_filters (
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant       TEXT NOT NULL,
    challenger_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    allow         BOOLEAN NOT NULL,
    PRIMARY KEY (user_id, variant, challenger_id)
);

CREATE TABLE vacations (
    user_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    starts_at BIGINT NOT NULL,
    ends_at   BIGINT NOT NULL,
    PRIMARY KEY (user_id, starts_at)
);

-- +goose Down
DROP TABLE vacations;
DROP TABLE challenge_filters;
DROP TABLE challenge_prefs;
DROP TABLE queued_moves;
ALTER TABLE games DROP COLUMN nag_sent_ply;
ALTER TABLE games DROP COLUMN engine_level;
