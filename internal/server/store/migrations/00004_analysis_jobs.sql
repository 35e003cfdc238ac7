-- Analyses of the analysis board that a process too busy to run them hands
-- to another process sharing the database (several processes on one
-- PostgreSQL): the request, who took it, and the answer. Rows are kept a
-- minute at most. Same conventions as 00001.

-- +goose Up
CREATE TABLE analysis_jobs (
    id          BIGINT PRIMARY KEY,
    request     TEXT NOT NULL,
    queued_at   BIGINT NOT NULL,
    taken_by    TEXT NOT NULL DEFAULT '',
    result      TEXT NOT NULL DEFAULT '',
    done        BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX analysis_jobs_free ON analysis_jobs (taken_by, queued_at);
INSERT INTO counters (name, last_id) VALUES ('analysis_jobs', 0);

-- +goose Down
DELETE FROM counters WHERE name = 'analysis_jobs';
DROP TABLE analysis_jobs;
