package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/puzzle"
)

// addTestPuzzle stores a puzzle of nine men's morris with a line of three
// plies (the position need not be a real puzzle: the service checks moves
// against the stored line).
func addTestPuzzle(t *testing.T, s *Service, position string, solution []string) int64 {
	t.Helper()
	id, err := s.st.AddPuzzle(context.Background(), store.Puzzle{Rules: "nine-mens-morris", Position: position, Solution: solution,
		Plies: 5, Source: "test", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestPuzzles: a puzzle is answered move by move with the defence's
// reply; solving it raises the player's rating and lowers the puzzle's,
// failing it the other way; only the first attempt is rated; anonymous
// attempts are answered but kept nowhere; the next puzzle is one not
// tried; bad input is refused.
func TestPuzzles(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	// White: a1 d2 g1 b4, black: a7 g7 d6 f4 (a line of legal moves).
	const pos = "nine-mens-morris W1W1B1B1/1W1B1B1W/8 w 0,0 - 0 18"
	p1 := addTestPuzzle(t, s, pos, []string{"d2-d3", "a7-a4", "d3-d2"})
	p2 := addTestPuzzle(t, s, "nine-mens-morris W1W1B1B1/1W1B1B1W/8 b 0,0 - 0 18", []string{"a7-a4", "d2-d3", "a4-a7"})

	if _, err := s.DailyPuzzle(ctx); err != nil {
		t.Fatal(err)
	}
	first, err := s.PuzzleMoves(ctx, "", &ann, p1, []string{"d2-d3"})
	if err != nil || !first.Correct || first.Done || first.Reply != "a7-a4" {
		t.Fatalf("the first move: %+v, %v", first, err)
	}
	done, err := s.PuzzleMoves(ctx, "", &ann, p1, []string{"d2-d3", "d3-d2"})
	if err != nil || !done.Solved || !done.Done || done.Rating == nil || done.Rating.After <= done.Rating.Before {
		t.Fatalf("solved: %+v, %v", done, err)
	}
	pz, _ := s.Puzzle(ctx, p1)
	if pz.Rating >= rating.DefaultR || pz.Plays != 1 || pz.Solved != 1 {
		t.Errorf("the solved puzzle: %+v", pz)
	}
	again, err := s.PuzzleMoves(ctx, "", &ann, p1, []string{"d2-d3", "d3-d2"})
	if err != nil || !again.Solved || again.Rating != nil {
		t.Errorf("solved again: %+v, %v (want no rating change)", again, err)
	}
	next, err := s.NextPuzzle(ctx, &ann)
	if err != nil || next.ID != p2 {
		t.Errorf("the next puzzle: %+v, %v; want %d", next, err, p2)
	}
	fail, err := s.PuzzleMoves(ctx, "", &ann, p2, []string{"g7-d7"})
	if err != nil || fail.Correct || !fail.Done || fail.Solved || fail.Solution != nil || fail.Rating == nil || fail.Rating.After >= fail.Rating.Before {
		t.Fatalf("failed: %+v, %v (want a lower rating and no solution)", fail, err)
	}
	// Asked for after the failure, the solution costs nothing more.
	shown, err := s.PuzzleSolution(ctx, &ann, p2)
	if err != nil || !shown.Done || len(shown.Solution) != 3 || shown.Rating != nil {
		t.Fatalf("the solution after failing: %+v, %v; want the line, no rating change", shown, err)
	}
	anon, err := s.PuzzleMoves(ctx, "", nil, p2, []string{"a7-a4", "a4-a7"})
	if err != nil || !anon.Solved || anon.Rating != nil {
		t.Errorf("anonymous: %+v, %v", anon, err)
	}
	wrong, err := s.PuzzleMoves(ctx, "", nil, p2, []string{"g7-d7"})
	if err != nil || wrong.Correct || !wrong.Done || wrong.Solution != nil {
		t.Errorf("an anonymous wrong move: %+v, %v; want no solution", wrong, err)
	}
	if anon, err := s.PuzzleSolution(ctx, nil, p2); err != nil || len(anon.Solution) != 3 || anon.Rating != nil {
		t.Errorf("the solution asked for anonymously: %+v, %v", anon, err)
	}
	h, err := s.PuzzleHistory(ctx, "ann", 10)
	if err != nil || h.Plays != 2 || len(h.Attempts) != 3 || h.Attempts[0].Solved || !h.Attempts[0].Rated || h.Attempts[1].Rated {
		t.Errorf("history: %+v, %v", h, err)
	}
	if _, err := s.NextPuzzle(ctx, &ann); KindOf(err) != NotFound {
		t.Errorf("no puzzle left: %v", err)
	}
	for name, moves := range map[string][]string{
		"none":            nil,
		"too many":        {"d2-d3", "d3-d2", "d2-d3"},
		"not legal":       {"d2-d5"},
		"after one wrong": {"d2-d1", "d3-d2"},
	} {
		if _, err := s.PuzzleMoves(ctx, "", &ann, p1, moves); KindOf(err) != BadRequest {
			t.Errorf("%s: %v, want a bad request", name, err)
		}
	}
	if _, err := s.Puzzle(ctx, 999); KindOf(err) != NotFound {
		t.Errorf("an unknown puzzle: %v", err)
	}
	if _, err := s.PuzzleSolution(ctx, &ann, 999); KindOf(err) != NotFound {
		t.Errorf("the solution of an unknown puzzle: %v", err)
	}
}

// TestPuzzleSolutionGivesUp: a signed-in player who asks for the solution
// of a puzzle not tried yet has failed it (rated, as a wrong move is), so
// that the line cannot be read first and played for a rating after.
func TestPuzzleSolutionGivesUp(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	p := addTestPuzzle(t, s, "nine-mens-morris W1W1B1B1/1W1B1B1W/8 w 0,0 - 0 18", []string{"d2-d3", "a7-a4", "d3-d2"})
	shown, err := s.PuzzleSolution(ctx, &ann, p)
	if err != nil || len(shown.Solution) != 3 || shown.Rating == nil || shown.Rating.After >= shown.Rating.Before {
		t.Fatalf("the solution before trying: %+v, %v; want the line and a lower rating", shown, err)
	}
	played, err := s.PuzzleMoves(ctx, "", &ann, p, []string{"d2-d3", "d3-d2"})
	if err != nil || !played.Solved || played.Rating != nil {
		t.Errorf("solving after reading the solution: %+v, %v; want solved, unrated", played, err)
	}
	h, err := s.PuzzleHistory(ctx, "ann", 10)
	if err != nil || h.Plays != 1 || len(h.Attempts) != 2 || h.Attempts[1].Solved || !h.Attempts[1].Rated {
		t.Errorf("history: %+v, %v; want the failed rated attempt, then the unrated solve", h, err)
	}
}

// TestBuiltinPuzzles: a new store gets the built-in puzzles, each once
// when two processes start on it together; the first is served and
// solved by its stored line; a store that has puzzles is left alone. On
// SQLite and on PostgreSQL.
func TestBuiltinPuzzles(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			dsn := storetest.DSN(t, backend)
			a := newServiceOn(t, dsn, Config{})
			b := newServiceOn(t, dsn, Config{})
			ctx := context.Background()
			want := len(puzzle.Builtin())
			var wg sync.WaitGroup
			added := make([]int, 2)
			for i, s := range []*Service{a, b} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					n, err := s.AddBuiltinPuzzles(ctx)
					if err != nil {
						t.Error(err)
					}
					added[i] = n
				}()
			}
			wg.Wait()
			n, err := a.st.PuzzleCount(ctx)
			if err != nil || n != want || added[0]+added[1] != want {
				t.Fatalf("%d puzzles stored (added %v), want %d: %v", n, added, want, err)
			}
			if again, err := a.AddBuiltinPuzzles(ctx); again != 0 || err != nil {
				t.Errorf("a store with puzzles: added %d, %v", again, err)
			}
			p, err := a.st.PuzzleAt(ctx, 0)
			if err != nil || p.Source != "built-in" {
				t.Fatalf("the first puzzle: %+v, %v", p, err)
			}
			ann := signUp(t, a, "ann")
			var line []string
			for i, m := range p.Solution {
				line = append(line, m)
				if i%2 == 1 {
					continue
				}
				ans, err := a.PuzzleMoves(ctx, "", &ann, p.ID, line)
				if err != nil || !ans.Correct {
					t.Fatalf("move %d of %v: %+v, %v", i, p.Solution, ans, err)
				}
				if i == len(p.Solution)-1 && !ans.Solved {
					t.Errorf("the whole line played: %+v", ans)
				}
			}
		})
	}
}
