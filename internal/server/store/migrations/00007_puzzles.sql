-- Puzzles from perfect play (package puzzle, made by `morris puzzles`):
-- the position, its solution line, its goal (win, or save the draw), where
-- it came from (the databases, or a game of the server), and its Glicko-2
-- rating; each player's puzzle rating; and each player's attempts, the
-- first of which for a puzzle rates both. Same conventions as 00001.

-- +goose Up
CREATE TABLE puzzles (
    id          BIGINT PRIMARY KEY,
    rules       TEXT NOT NULL,
    position    TEXT NOT NULL,
    solution    TEXT NOT NULL,
    plies       INTEGER NOT NULL,
    goal        TEXT NOT NULL DEFAULT 'win',
    source      TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    UNIQUE (rules, position)
);
CREATE TABLE puzzle_ratings (
    user_id     BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE TABLE puzzle_attempts (
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id     BIGINT NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    solved        BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL,
    at            BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id, at)
);
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, at);
INSERT INTO counters (name, last_id) VALUES ('puzzles', 0);

-- +goose Down
DELETE FROM counters WHERE name = 'puzzles';
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
DROP TABLE puzzles;
