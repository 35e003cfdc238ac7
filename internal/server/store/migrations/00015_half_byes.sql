-- Half-point byes in a Swiss: a player asks to sit out a coming round for
-- half a point (internal/server/tournaments.go says who may, and when).
-- Same conventions as 00001.
--
--   * tournament_bye_requests: the rounds each player asked to sit out.
--     A request is made or taken back only before its round is paired, as
--     a compare-and-set on the event's version like every change to it,
--     so that a pairing never misses one nor sees one that was taken back.
--   * tournament_pairings.half_bye: once a round is paired, each player
--     who sat it out has a board of their own (white_id; black_id and
--     game_id NULL, as a bye) with half_bye set. The pairings, not the
--     requests, are what the standings count.

-- +goose Up
CREATE TABLE tournament_bye_requests (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL REFERENCES users (id),
    round         INTEGER NOT NULL,
    requested_at  BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id, round)
);
ALTER TABLE tournament_pairings ADD COLUMN half_bye BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE tournament_pairings DROP COLUMN half_bye;
DROP TABLE tournament_bye_requests;
