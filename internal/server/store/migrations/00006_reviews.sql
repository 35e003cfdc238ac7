-- Reviews by the engine (package review): of a finished game of the server
-- (game_id, kept with the game), or of moves from elsewhere, an imported
-- record (game_id NULL; rules, start and moves say what is reviewed). A
-- review is a job any process takes (taken_by, with a lease as
-- engine_jobs), reports its progress (done of total moves) and ends with
-- its result, the JSON of the server's answer. Same conventions as 00001.

-- +goose Up
CREATE TABLE reviews (
    id           BIGINT PRIMARY KEY,
    game_id      BIGINT UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    rules        TEXT NOT NULL DEFAULT '',
    start        TEXT NOT NULL DEFAULT '',
    moves        TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL,
    done         INTEGER NOT NULL DEFAULT 0,
    total        INTEGER NOT NULL DEFAULT 0,
    taken_by     TEXT NOT NULL DEFAULT '',
    lease_until  BIGINT NOT NULL DEFAULT 0,
    result       TEXT NOT NULL DEFAULT '',
    requested_at BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);
CREATE INDEX reviews_waiting ON reviews (status, lease_until);
INSERT INTO counters (name, last_id) VALUES ('reviews', 0);

-- +goose Down
DELETE FROM counters WHERE name = 'reviews';
DROP TABLE reviews;
