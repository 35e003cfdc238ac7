-- The first schema of the game server. It runs unchanged on SQLite and on
-- PostgreSQL, so it keeps to what both read the same way:
--
--   * ids are BIGINT and given by the store from the counters table, not by
--     AUTOINCREMENT (SQLite) or IDENTITY (PostgreSQL), which are spelled
--     differently; boards start at 101 as pbmserv's do;
--   * instants are BIGINT milliseconds since the Unix epoch, UTC (0 for
--     none), and durations BIGINT milliseconds: TIMESTAMP is text in SQLite
--     and a time type in PostgreSQL, and the drivers convert them
--     differently; an integer compares and rounds the same everywhere;
--   * BOOLEAN is a real type in PostgreSQL and 0/1 in SQLite; both take
--     TRUE/FALSE and the drivers' bool;
--   * DOUBLE PRECISION has REAL affinity in SQLite;
--   * case-insensitive names go through a folded key column (name_key)
--     computed by the store, since COLLATE NOCASE and citext are not shared
--     and SQLite's lower() knows only ASCII.
--
-- Sides are 0 for white (the first player's clock) and 1 for black.

-- +goose Up
CREATE TABLE counters (
    name    TEXT PRIMARY KEY,
    last_id BIGINT NOT NULL
);
INSERT INTO counters (name, last_id) VALUES ('users', 0), ('games', 100), ('challenges', 0);

CREATE TABLE users (
    id            BIGINT PRIMARY KEY,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    email         TEXT NOT NULL DEFAULT '',
    bot           BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    BIGINT NOT NULL
);

CREATE TABLE tokens (
    hash       TEXT PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX tokens_user ON tokens (user_id);

CREATE TABLE games (
    id                 BIGINT PRIMARY KEY,
    variant            TEXT NOT NULL,
    rules              TEXT NOT NULL,
    white_id           BIGINT NOT NULL REFERENCES users (id),
    black_id           BIGINT NOT NULL REFERENCES users (id),
    start_position     TEXT NOT NULL DEFAULT '',
    seed               BIGINT,
    rated              BOOLEAN NOT NULL,
    status             TEXT NOT NULL,
    result             TEXT NOT NULL DEFAULT '*',
    method             TEXT NOT NULL DEFAULT '',
    clock_initial_ms   BIGINT NOT NULL DEFAULT 0,
    clock_increment_ms BIGINT NOT NULL DEFAULT 0,
    nag_days           INTEGER NOT NULL DEFAULT 0,
    forfeit_days       INTEGER NOT NULL DEFAULT 0,
    white_left_ms      BIGINT NOT NULL DEFAULT 0,
    black_left_ms      BIGINT NOT NULL DEFAULT 0,
    clock_running      INTEGER NOT NULL DEFAULT 0,
    clock_since        BIGINT NOT NULL DEFAULT 0,
    ply                INTEGER NOT NULL DEFAULT 0,
    version            BIGINT NOT NULL DEFAULT 0,
    last_move_at       BIGINT NOT NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);
CREATE INDEX games_status ON games (status);

CREATE TABLE moves (
    game_id       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply           INTEGER NOT NULL,
    move          TEXT NOT NULL,
    played_at     BIGINT NOT NULL,
    white_left_ms BIGINT NOT NULL,
    black_left_ms BIGINT NOT NULL,
    version       BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE offers (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    side       INTEGER NOT NULL,
    ply        INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind)
);

CREATE TABLE chat (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    BIGINT NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE ratings (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant)
);
CREATE INDEX ratings_standings ON ratings (variant, rating);

CREATE TABLE subscriptions (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX subscriptions_user ON subscriptions (user_id);

CREATE TABLE challenges (
    id                 BIGINT PRIMARY KEY,
    from_id            BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    to_id              BIGINT REFERENCES users (id) ON DELETE CASCADE,
    variant            TEXT NOT NULL,
    rules              TEXT NOT NULL,
    rated              BOOLEAN NOT NULL,
    color              TEXT NOT NULL,
    clock_initial_ms   BIGINT NOT NULL DEFAULT 0,
    clock_increment_ms BIGINT NOT NULL DEFAULT 0,
    nag_days           INTEGER NOT NULL DEFAULT 0,
    forfeit_days       INTEGER NOT NULL DEFAULT 0,
    status             TEXT NOT NULL,
    game_id            BIGINT REFERENCES games (id),
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);
CREATE INDEX challenges_from ON challenges (from_id, status);
CREATE INDEX challenges_to ON challenges (to_id, status);
CREATE INDEX challenges_status ON challenges (status);

-- +goose Down
DROP TABLE challenges;
DROP TABLE subscriptions;
DROP TABLE ratings;
DROP TABLE chat;
DROP TABLE offers;
DROP TABLE moves;
DROP TABLE games;
DROP TABLE tokens;
DROP TABLE users;
DROP TABLE counters;
