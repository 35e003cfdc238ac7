package server

import (
	"context"
	"fmt"
	"time"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// The opening explorer: every finished game's positions, each with the
// move played from it and the game's result, go into the store's explorer
// table, so that the moves played on this server from any position are
// one indexed look. A worker of each process explores the finished games
// not yet explored: at once when a game ends here, and every ExploreEvery
// for the games that ended elsewhere (another process, or before a
// restart). Several processes may explore one game at once; the store
// keeps its positions once.

// exploreBatch is how many games the worker explores before it looks again.
const exploreBatch = 50

// kickExplorer has the worker look for finished games now.
func (s *Service) kickExplorer() {
	select {
	case s.exploreKick <- struct{}{}:
	default:
	}
}

// explorer is the worker; it is one of the service's goroutines (s.wg).
func (s *Service) explorer() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.ExploreEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.exploreKick:
		case <-t.C:
		}
		for s.ctx.Err() == nil {
			n, err := s.exploreFinished(s.ctx)
			if err != nil {
				if s.ctx.Err() == nil {
					s.log.Warn("explorer", "err", err)
				}
				break
			}
			if n < exploreBatch {
				break
			}
		}
	}
}

// exploreFinished explores up to exploreBatch finished games and returns
// how many it found. A game that cannot be explored (its moves do not
// replay, or exploring it panics) is logged and marked explored without
// positions, so that it does not stop the explorer at every look; an
// error of the store stops the batch, to be tried again at the next look.
func (s *Service) exploreFinished(ctx context.Context) (int, error) {
	ids, err := s.st.UnexploredGames(ctx, exploreBatch)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		snap, err := s.st.Snapshot(ctx, id)
		if err != nil {
			return 0, err
		}
		var positions []store.Explored
		if perr := Safely(s.log, "explorer", func() { positions, err = s.explored(snap) }, "game", id); perr != nil {
			positions = nil
		} else if err != nil {
			s.log.Error("explorer: a game that does not replay, skipped", "game", id, "err", err)
			positions = nil
		}
		if err := s.st.AddExplored(ctx, id, positions); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// explored returns the positions of a finished game for the explorer.
func (s *Service) explored(snap store.Snapshot) ([]store.Explored, error) {
	if h := s.cfg.hooks.explore; h != nil {
		h(snap.Game.ID)
	}
	// A game ended without a result (none is kept today) adds nothing
	// but is marked explored all the same.
	if snap.Game.Result == "*" {
		return nil, nil
	}
	game, err := Replay(snap.Game, nil)
	if err != nil {
		return nil, err
	}
	var positions []store.Explored
	for _, m := range snap.Moves {
		positions = append(positions, store.Explored{Key: game.Position().Key(), Ply: m.Ply, Move: m.Text})
		if err := game.PlayText(m.Text); err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", m.Ply, m.Text, err)
		}
	}
	return positions, nil
}

// Explore returns what the finished games of this server played from a
// position, with the opening book's value of each move it knows.
func (s *Service) Explore(ctx context.Context, p mill.Position) (wire.Explorer, error) {
	moves, err := s.st.Explore(ctx, p.Rules().String(), p.Key())
	if err != nil {
		return wire.Explorer{}, err
	}
	out := wire.Explorer{Position: p.String(), Moves: []wire.ExplorerMove{}}
	seen := map[string]int{}
	for _, m := range moves {
		out.Games += m.Games
		seen[m.Move] = len(out.Moves)
		out.Moves = append(out.Moves, wire.ExplorerMove{Move: m.Move, Games: m.Games, White: m.White, Draws: m.Draws, Black: m.Black})
	}
	for _, e := range book.Default().Lookup(p) {
		text := p.MoveText(e.Move)
		score := e.Score
		if i, ok := seen[text]; ok {
			out.Moves[i].Book = &score
			continue
		}
		out.Moves = append(out.Moves, wire.ExplorerMove{Move: text, Book: &score})
	}
	return out, nil
}
