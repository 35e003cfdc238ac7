-- Clubs: a name (unique ignoring case, spaces and punctuation through
-- name_key, which the store computes: store.ClubKey), a description,
-- open (anyone joins at once) or closed (joined by a request a leader
-- accepts), and the count of members, kept by the store in the same
-- transactions as club_members so that lists need no count. A member is a
-- leader or not; a club always has a leader while it has members (the
-- store refuses what would leave none) and is deleted when its last member
-- leaves. Same conventions as 00001.

-- +goose Up
CREATE TABLE clubs (
    id          BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    open        BOOLEAN NOT NULL,
    created_by  BIGINT NOT NULL REFERENCES users (id),
    members     INTEGER NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE TABLE club_members (
    club_id   BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    user_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    leader    BOOLEAN NOT NULL DEFAULT FALSE,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);
CREATE INDEX club_members_user ON club_members (user_id);
CREATE INDEX club_members_leader ON club_members (club_id, leader);
CREATE TABLE club_requests (
    club_id    BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);
CREATE INDEX club_requests_user ON club_requests (user_id);
INSERT INTO counters (name, last_id) VALUES ('clubs', 0);

-- +goose Down
DELETE FROM counters WHERE name = 'clubs';
DROP TABLE club_requests;
DROP TABLE club_members;
DROP TABLE clubs;
