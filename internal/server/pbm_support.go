package server

import (
	"context"
	"errors"

	"github.com/morrisgame/morris/internal/server/store"
)

// GameInfo returns a game's stored row without its moves: the pbmserv
// gateway checks a board's variant with it before each command, and a
// replay (View) of every move would cost more than the command.
func (s *Service) GameInfo(ctx context.Context, id int64) (Game, error) {
	g, err := s.st.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Game{}, errorf(NotFound, "no game %d", id)
	}
	return Game(g), err
}
