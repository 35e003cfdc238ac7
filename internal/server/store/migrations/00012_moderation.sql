-- Moderation: a club's server deals with bad behaviour. Players report
-- players and chat lines (the line copied into the report, so that it
-- stays as evidence when the chat's history is trimmed) and block one
-- another; moderators (users.moderator, set by the operator with morris
-- admin, never over HTTP) resolve the reports, warn, mute, close accounts
-- and annul rated games; every moderator's action is a row of mod_actions,
-- which nothing deletes. Same conventions as 00001: ids from the counters,
-- instants as BIGINT Unix milliseconds (0 for none).
--
-- 00011 is left to the clubs' migration, written at the same time on
-- another branch: goose runs a set with a gap as it runs one without.

-- +goose Up
-- muted_until: 0 not muted, -1 until a moderator lifts it, else when the
-- mute ends. closed_at: when a moderator closed the account (0: open); a
-- closed account's row keeps its name, games and ratings, and signs in no
-- more.
ALTER TABLE users ADD COLUMN moderator BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN muted_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN closed_at BIGINT NOT NULL DEFAULT 0;

CREATE TABLE blocks (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    blocked_id BIGINT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);

-- A report of a player (game_id 0) or of a chat line (game_id, chat_version,
-- and the line's text and time as they were). game_id is no reference: the
-- report outlives anything it points at.
CREATE TABLE reports (
    id           BIGINT PRIMARY KEY,
    reporter_id  BIGINT NOT NULL REFERENCES users (id),
    target_id    BIGINT NOT NULL REFERENCES users (id),
    reason       TEXT NOT NULL,
    body         TEXT NOT NULL DEFAULT '',
    game_id      BIGINT NOT NULL DEFAULT 0,
    chat_version BIGINT NOT NULL DEFAULT 0,
    chat_body    TEXT NOT NULL DEFAULT '',
    chat_at      BIGINT NOT NULL DEFAULT 0,
    status       TEXT NOT NULL DEFAULT 'open',
    created_at   BIGINT NOT NULL,
    resolved_by  BIGINT REFERENCES users (id),
    resolved_at  BIGINT NOT NULL DEFAULT 0,
    resolution   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX reports_queue ON reports (status, id);
CREATE INDEX reports_reporter ON reports (reporter_id, status);
CREATE INDEX reports_target ON reports (target_id, status);
-- One open report of a reporter's for the same player or line.
CREATE UNIQUE INDEX reports_open_once ON reports (reporter_id, target_id, game_id, chat_version) WHERE status = 'open';

CREATE TABLE warnings (
    id              BIGINT PRIMARY KEY,
    user_id         BIGINT NOT NULL REFERENCES users (id),
    moderator_id    BIGINT NOT NULL REFERENCES users (id),
    body            TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    acknowledged_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX warnings_user ON warnings (user_id, acknowledged_at);

-- The audit log. moderator_id NULL is the operator (morris admin).
CREATE TABLE mod_actions (
    id           BIGINT PRIMARY KEY,
    moderator_id BIGINT REFERENCES users (id),
    action       TEXT NOT NULL,
    target_id    BIGINT NOT NULL REFERENCES users (id),
    report_id    BIGINT NOT NULL DEFAULT 0,
    note         TEXT NOT NULL DEFAULT '',
    detail       TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL
);
CREATE INDEX mod_actions_target ON mod_actions (target_id, id);

-- The games an annulment made unrated, and which.
CREATE TABLE annulled_games (
    game_id   BIGINT PRIMARY KEY REFERENCES games (id),
    action_id BIGINT NOT NULL REFERENCES mod_actions (id)
);

INSERT INTO counters (name, last_id) VALUES ('reports', 0), ('warnings', 0), ('mod_actions', 0);

-- +goose Down
DELETE FROM counters WHERE name IN ('reports', 'warnings', 'mod_actions');
DROP TABLE annulled_games;
DROP TABLE mod_actions;
DROP TABLE warnings;
DROP TABLE reports;
DROP TABLE blocks;
ALTER TABLE users DROP COLUMN closed_at;
ALTER TABLE users DROP COLUMN muted_until;
ALTER TABLE users DROP COLUMN moderator;
