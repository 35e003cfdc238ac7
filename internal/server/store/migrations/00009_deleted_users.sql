-- Accounts can be deleted (the owner's choice). The row of a deleted user
-- stays, as a tombstone: games, moves' chat and ratings' history reference
-- users(id), and a player's finished games stay with the site. deleted_at
-- (Unix milliseconds, 0 for an account in use) marks it; the store then
-- has renamed it to a neutral name, emptied its password hash and e-mail,
-- and deleted its tokens, preferences, challenges and ratings. name_key
-- keeps the old name, folded, so that the name stays taken: nobody can sign
-- up under it and be taken for the player who left. Same conventions as
-- 00001.

-- +goose Up
ALTER TABLE users ADD COLUMN deleted_at BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN deleted_at;
