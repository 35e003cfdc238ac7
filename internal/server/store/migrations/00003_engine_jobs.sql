-- The engine's turns as jobs that any server process sharing the database
-- may take (several processes on one PostgreSQL): one row per game whose
-- turn is the engine's, at the ply it is to play. A process takes a job by
-- setting a lease (taken_by, lease_until); a job whose lease has run out,
-- because the process that took it died in the middle of its search, is
-- taken again by another. Same conventions as 00001.

-- +goose Up
CREATE TABLE engine_jobs (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,
    queued_at   BIGINT NOT NULL,
    taken_by    TEXT NOT NULL DEFAULT '',
    lease_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX engine_jobs_lease ON engine_jobs (lease_until, queued_at);

-- +goose Down
DROP TABLE engine_jobs;
