package server

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/puzzle"
)

// Puzzles (package puzzle; made by `morris puzzles` into the store): a
// position where one move wins, played against the databases' best
// defence along the stored line. The player sends the moves made so far;
// each answer says whether the last was right and gives the reply. A
// wrong move or the last right one ends the attempt, which for a
// signed-in player is kept, and the first attempt at a puzzle moves both
// the player's and the puzzle's Glicko-2 ratings (a solve is a win
// against the puzzle). The solution is shown once solved, or to whoever
// asks for it (PuzzleSolution), never for a wrong move alone.

// AddBuiltinPuzzles gives a server whose store holds no puzzle the
// puzzles built into the program (puzzle.Builtin: made by morris puzzles
// from our own databases, as an operator would make more), so that the
// puzzle page of a new server is not empty. A store with puzzles is left
// as it is, and each puzzle is added once however many processes start
// together. It returns how many it added.
func (s *Service) AddBuiltinPuzzles(ctx context.Context) (int, error) {
	if n, err := s.st.PuzzleCount(ctx); err != nil || n > 0 {
		return 0, err
	}
	now := s.now()
	var ps []store.Puzzle
	for _, pz := range puzzle.Builtin() {
		ps = append(ps, store.Puzzle{Rules: pz.Position.Rules().String(), Position: pz.Position.String(), Solution: pz.Texts(),
			Plies: pz.Plies, Goal: pz.Goal, Source: "built-in", CreatedAt: now})
	}
	return s.st.AddPuzzles(ctx, ps)
}

func puzzleNotFound(id int64) error { return errorf(NotFound, "no puzzle %d", id) }

func wirePuzzle(p store.Puzzle) (wire.Puzzle, error) {
	pos, err := mill.ParsePosition(p.Position)
	if err != nil {
		return wire.Puzzle{}, err
	}
	return wire.Puzzle{ID: p.ID, Rules: p.Rules, Variant: pos.Rules().Variant(), Position: p.Position,
		ToMove: colorName(pos.SideToMove()), Goal: p.Goal, Plies: p.Plies, Source: p.Source, Rating: int(math.Round(p.R)),
		Plays: p.Plays, Solved: p.Solved}, nil
}

// Puzzle returns a puzzle, without its solution.
func (s *Service) Puzzle(ctx context.Context, id int64) (wire.Puzzle, error) {
	p, err := s.st.Puzzle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.Puzzle{}, puzzleNotFound(id)
	}
	if err != nil {
		return wire.Puzzle{}, err
	}
	return wirePuzzle(p)
}

// DailyPuzzle returns the puzzle of the day: each day of the calendar
// (UTC) the next one in the order they were made.
func (s *Service) DailyPuzzle(ctx context.Context) (wire.Puzzle, error) {
	n, err := s.st.PuzzleCount(ctx)
	if err != nil {
		return wire.Puzzle{}, err
	}
	if n == 0 {
		return wire.Puzzle{}, errorf(NotFound, "no puzzles yet: they are made with morris puzzles")
	}
	day := int(s.now().UTC().Unix() / 86400)
	p, err := s.st.PuzzleAt(ctx, day%n)
	if err != nil {
		return wire.Puzzle{}, err
	}
	return wirePuzzle(p)
}

// NextPuzzle returns a puzzle user has not tried, the nearest to their
// rating (anyone's: the nearest to a newcomer's).
func (s *Service) NextPuzzle(ctx context.Context, user *User) (wire.Puzzle, error) {
	r, id := float64(rating.DefaultR), int64(0)
	if user != nil {
		id = user.ID
		pr, ok, err := s.st.PuzzleRatingOf(ctx, user.ID)
		if err != nil {
			return wire.Puzzle{}, err
		}
		if ok {
			r = pr.R
		}
	}
	p, err := s.st.NextPuzzle(ctx, id, r)
	if errors.Is(err, store.ErrNotFound) {
		return wire.Puzzle{}, errorf(NotFound, "no puzzle left to try")
	}
	if err != nil {
		return wire.Puzzle{}, err
	}
	return wirePuzzle(p)
}

// PuzzleMoves answers the solver's moves so far at a puzzle (in either
// notation); user, if not nil, is the signed-in player whose attempt is
// kept when it ends, and from the caller's address. Each call spends the
// puzzle rate of the user, or of the address without one (Rates.Puzzle),
// so that nobody finds solutions by trying every move.
func (s *Service) PuzzleMoves(ctx context.Context, from string, user *User, id int64, moves []string) (wire.PuzzleAnswer, error) {
	if err := s.spend(kindPuzzle, puzzleKey(user, from), "too many puzzle moves"); err != nil {
		return wire.PuzzleAnswer{}, err
	}
	p, err := s.st.Puzzle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.PuzzleAnswer{}, puzzleNotFound(id)
	}
	if err != nil {
		return wire.PuzzleAnswer{}, err
	}
	solver := (len(p.Solution) + 1) / 2
	if len(moves) == 0 || len(moves) > solver {
		return wire.PuzzleAnswer{}, errorf(BadRequest, "puzzle %d takes 1 to %d moves of the solver, not %d", id, solver, len(moves))
	}
	pos, err := mill.ParsePosition(p.Position)
	if err != nil {
		return wire.PuzzleAnswer{}, err
	}
	ans := wire.PuzzleAnswer{Correct: true}
	for i, text := range moves {
		m, err := pos.ParseMove(strings.TrimSpace(text))
		if err != nil {
			return wire.PuzzleAnswer{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
		}
		want, err := pos.ParseMove(p.Solution[2*i])
		if err != nil {
			return wire.PuzzleAnswer{}, err
		}
		if m != want {
			if i != len(moves)-1 {
				return wire.PuzzleAnswer{}, errorf(BadRequest, "move %d %q is not the solution's: the attempt ended there", i+1, text)
			}
			ans.Correct, ans.Done = false, true
			break
		}
		pos = pos.Play(m)
		if 2*i+1 < len(p.Solution) {
			if i == len(moves)-1 {
				ans.Reply = p.Solution[2*i+1]
			}
			d, err := pos.ParseMove(p.Solution[2*i+1])
			if err != nil {
				return wire.PuzzleAnswer{}, err
			}
			pos = pos.Play(d)
		}
	}
	if ans.Correct && len(moves) == solver {
		ans.Done, ans.Solved, ans.Reply = true, true, ""
		// Solved: the line is no secret to the solver any more.
		ans.Solution = p.Solution
	}
	if !ans.Done {
		return ans, nil
	}
	// A wrong move does not show the solution: it is PuzzleSolution's, for
	// whoever asks to see it. Otherwise one wrong move, from anyone, would
	// hand the line to someone about to try the puzzle signed in.
	if user != nil {
		if ans.Rating, err = s.recordPuzzle(ctx, *user, id, ans.Solved); err != nil {
			return wire.PuzzleAnswer{}, err
		}
	}
	return ans, nil
}

// PuzzleSolution shows a puzzle's solution to the player who asks for it:
// giving up. For a signed-in player who had not tried the puzzle yet it
// counts as a failed attempt (the first is rated), so that the line cannot
// be looked at first and played for a rating after; one who has tried it
// (and failed, or solved it) sees it at no cost.
func (s *Service) PuzzleSolution(ctx context.Context, user *User, id int64) (wire.PuzzleAnswer, error) {
	p, err := s.st.Puzzle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.PuzzleAnswer{}, puzzleNotFound(id)
	}
	if err != nil {
		return wire.PuzzleAnswer{}, err
	}
	ans := wire.PuzzleAnswer{Done: true, Solution: p.Solution}
	if user != nil {
		tried, err := s.st.PuzzleTried(ctx, user.ID, id)
		if err != nil {
			return wire.PuzzleAnswer{}, err
		}
		if !tried {
			if ans.Rating, err = s.recordPuzzle(ctx, *user, id, false); err != nil {
				return wire.PuzzleAnswer{}, err
			}
		}
	}
	return ans, nil
}

// recordPuzzle keeps an attempt of user's at a puzzle and returns the
// change of their rating, nil when the attempt was not rated (not their
// first).
func (s *Service) recordPuzzle(ctx context.Context, user User, id int64, solved bool) (*wire.RatingChange, error) {
	at, err := s.st.RatePuzzle(ctx, user.ID, id, solved, s.now(), func(pr store.PuzzleRating, pz store.Puzzle) (store.PuzzleRating, store.Puzzle, error) {
		score := 0.0
		if solved {
			score = 1
		}
		a, b, err := rating.Game(rating.Rating{R: pr.R, RD: pr.RD, Sigma: pr.Volatility}, rating.Rating{R: pz.R, RD: pz.RD, Sigma: pz.Volatility}, score, rating.DefaultTau)
		if err != nil {
			return pr, pz, err
		}
		pr.R, pr.RD, pr.Volatility, pr.Plays = a.R, a.RD, a.Sigma, pr.Plays+1
		pz.R, pz.RD, pz.Volatility = b.R, b.RD, b.Sigma
		return pr, pz, nil
	})
	if err != nil || !at.Rated {
		return nil, err
	}
	return &wire.RatingChange{Before: int(math.Round(at.RatingBefore)), After: int(math.Round(at.RatingAfter))}, nil
}

// PuzzleHistory returns a player's puzzle rating and last attempts.
func (s *Service) PuzzleHistory(ctx context.Context, name string, limit int) (wire.PuzzleHistory, error) {
	u, err := s.UserByName(ctx, name)
	if err != nil {
		return wire.PuzzleHistory{}, err
	}
	h := wire.PuzzleHistory{User: u.Name, Rating: rating.DefaultR, Attempts: []wire.PuzzleAttempt{}}
	pr, ok, err := s.st.PuzzleRatingOf(ctx, u.ID)
	if err != nil {
		return h, err
	}
	if ok {
		h.Rating, h.Plays = int(math.Round(pr.R)), pr.Plays
	}
	ats, err := s.st.PuzzleAttempts(ctx, u.ID, limit)
	if err != nil {
		return h, err
	}
	for _, a := range ats {
		h.Attempts = append(h.Attempts, wire.PuzzleAttempt{Puzzle: a.Puzzle, Solved: a.Solved, Rated: a.Rated,
			Before: int(math.Round(a.RatingBefore)), After: int(math.Round(a.RatingAfter)), AtMs: a.At.UnixMilli()})
	}
	return h, nil
}
