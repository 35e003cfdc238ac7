-- A player's attempts at one puzzle are numbered (attempt = 1, 2, ...)
-- and the number, not the time, tells them apart: two attempts within
-- the same millisecond were refused by the key (user_id, puzzle_id, at).
-- The table is rebuilt, the attempts kept, numbered in the order of their
-- time. Same conventions as 00001.

-- +goose Up
CREATE TABLE puzzle_attempts_new (
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id     BIGINT NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    attempt       INTEGER NOT NULL,
    solved        BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL,
    at            BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id, attempt)
);
INSERT INTO puzzle_attempts_new (user_id, puzzle_id, attempt, solved, rated, rating_before, rating_after, at)
    SELECT user_id, puzzle_id, ROW_NUMBER() OVER (PARTITION BY user_id, puzzle_id ORDER BY at),
           solved, rated, rating_before, rating_after, at
    FROM puzzle_attempts;
DROP TABLE puzzle_attempts;
ALTER TABLE puzzle_attempts_new RENAME TO puzzle_attempts;
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, at);

-- +goose Down
CREATE TABLE puzzle_attempts_old (
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id     BIGINT NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    solved        BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL,
    at            BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id, at)
);
-- The old key cannot hold two attempts of one millisecond: the later
-- number moves on by its number of milliseconds.
INSERT INTO puzzle_attempts_old (user_id, puzzle_id, solved, rated, rating_before, rating_after, at)
    SELECT user_id, puzzle_id, solved, rated, rating_before, rating_after, at + attempt - 1
    FROM puzzle_attempts;
DROP TABLE puzzle_attempts;
ALTER TABLE puzzle_attempts_old RENAME TO puzzle_attempts;
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, at);
