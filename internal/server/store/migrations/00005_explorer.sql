-- The opening explorer: for each position of each finished game, the move
-- played from it and the game's result, so that the moves played from a
-- position on this server are one indexed look. The servers fill it from
-- the finished games not yet explored (games.explored). Same conventions
-- as 00001; pos_key is the position's key (mill.Position.Key: the pieces,
-- the side to move, the hands and the capture state, not the counters) as
-- a signed 64-bit number.

-- +goose Up
ALTER TABLE games ADD COLUMN explored BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX games_unexplored ON games (status, explored);
CREATE TABLE explorer (
    rules       TEXT NOT NULL,
    pos_key     BIGINT NOT NULL,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,
    move        TEXT NOT NULL,
    result      TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX explorer_position ON explorer (rules, pos_key);

-- +goose Down
DROP TABLE explorer;
DROP INDEX games_unexplored;
ALTER TABLE games DROP COLUMN explored;
