-- Tournaments: round robins, Swiss events, arenas and correspondence round
-- robins (internal/server/tournament pairs and counts them; the service
-- directs them). The store keeps what the event is and what was paired;
-- the points and tie-breaks are never stored: they are derived from the
-- pairings and the results of their games each time they are read, so
-- that no crash can leave a score behind its games.
--
--   * tournaments: the event as created, its status (upcoming, running,
--     finished), round (the rounds, or an arena's waves, paired so far)
--     and version (one more with each change to the event: a player in or
--     out, a start, a round paired, the end). Every change is written as
--     a compare-and-set on the version (and a round's pairing on the round
--     too), so that two processes sharing a PostgreSQL database that race
--     to pair a round pair it once. club_id is 0 for an event open to
--     all; it is no reference, so that a club dissolved leaves its events
--     closed to everyone rather than open to all. seed is the bits of a
--     uint64, as games.seed.
--   * tournament_players: the field, each with the rating that ranks them
--     (read when they joined), their number in a round robin's Berger
--     table (0 until the start), the first round they may be paired in
--     (late entrants of a Swiss) and when they withdrew (0: they did not).
--   * tournament_pairings: one row per board of a round: its game, or a
--     bye (black_id and game_id NULL); berserk flags of arena games. The
--     results are the games' own (games.result).
--
-- Same conventions as 00001. The version after 00011 is 00013: 00012 is
-- another branch's, and the store runs goose with out-of-order
-- migrations allowed, so that a database that got this one first takes
-- 00012 when it comes.

-- +goose Up
CREATE TABLE tournaments (
    id                 BIGINT PRIMARY KEY,
    name               TEXT NOT NULL,
    kind               TEXT NOT NULL,
    variant            TEXT NOT NULL,
    rules              TEXT NOT NULL,
    rated              BOOLEAN NOT NULL,
    clock_initial_ms   BIGINT NOT NULL DEFAULT 0,
    clock_increment_ms BIGINT NOT NULL DEFAULT 0,
    nag_days           INTEGER NOT NULL DEFAULT 0,
    forfeit_days       INTEGER NOT NULL DEFAULT 0,
    rounds             INTEGER NOT NULL DEFAULT 0,
    cycles             INTEGER NOT NULL DEFAULT 0,
    duration_ms        BIGINT NOT NULL DEFAULT 0,
    starts_at          BIGINT NOT NULL DEFAULT 0,
    club_id            BIGINT NOT NULL DEFAULT 0,
    min_rating         INTEGER NOT NULL DEFAULT 0,
    max_rating         INTEGER NOT NULL DEFAULT 0,
    max_players        INTEGER NOT NULL,
    late_entry_until   INTEGER NOT NULL DEFAULT 0,
    manual_pairing     BOOLEAN NOT NULL DEFAULT FALSE,
    engine_level       INTEGER NOT NULL DEFAULT 0,
    organiser_id       BIGINT NOT NULL REFERENCES users (id),
    status             TEXT NOT NULL,
    round              INTEGER NOT NULL DEFAULT 0,
    seed               BIGINT NOT NULL,
    players            INTEGER NOT NULL DEFAULT 0,
    started_at         BIGINT NOT NULL DEFAULT 0,
    ends_at            BIGINT NOT NULL DEFAULT 0,
    finished_at        BIGINT NOT NULL DEFAULT 0,
    note               TEXT NOT NULL DEFAULT '',
    version            BIGINT NOT NULL DEFAULT 0,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments (status, id);
CREATE INDEX tournaments_organiser ON tournaments (organiser_id);
CREATE TABLE tournament_players (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL REFERENCES users (id),
    rating        INTEGER NOT NULL,
    number        INTEGER NOT NULL DEFAULT 0,
    from_round    INTEGER NOT NULL DEFAULT 1,
    joined_at     BIGINT NOT NULL,
    withdrawn_at  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_user ON tournament_players (user_id);
CREATE TABLE tournament_pairings (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    white_id      BIGINT NOT NULL REFERENCES users (id),
    black_id      BIGINT REFERENCES users (id),
    game_id       BIGINT REFERENCES games (id),
    white_berserk BOOLEAN NOT NULL DEFAULT FALSE,
    black_berserk BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_pairings_game ON tournament_pairings (game_id);
INSERT INTO counters (name, last_id) VALUES ('tournaments', 0);

-- +goose Down
DELETE FROM counters WHERE name = 'tournaments';
DROP TABLE tournament_pairings;
DROP TABLE tournament_players;
DROP TABLE tournaments;
