-- Game reviews: the engine's review of a finished game (package review),
-- asked for by anyone and kept with the game. A review is a job any process
-- takes (taken_by, with a lease as engine_jobs), reports its progress
-- (done of total moves) and ends with its result, the JSON of the answer
-- of GET /api/game/ID/review. Same conventions as 00001.

-- +goose Up
CREATE TABLE reviews (
    game_id      BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
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

-- +goose Down
DROP TABLE reviews;
