package puzzle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// The text form of a list of puzzles is a line a puzzle, four fields
// separated by tabs: the position (mill.Position.String, which begins
// with its rules), the goal ("win" or "draw"), the plies of the win by the
// databases (0 for a draw), and the solution in standard notation,
// separated by spaces. Empty lines and lines beginning with # are
// comments.
//
//	nine-mens-morris 3W2W/... w 0,0 - 0 0	win	5	d2-d1xd6 a7-d7 d1-d2

// maxLine bounds a line of the text form: a position and a solution of
// the longest line Make writes fit many times over.
const maxLine = 4096

// Write writes puzzles in the text form.
func Write(w io.Writer, puzzles []Puzzle) error {
	bw := bufio.NewWriter(w)
	for _, pz := range puzzles {
		fmt.Fprintf(bw, "%s\t%s\t%d\t%s\n", pz.Position, pz.Goal, pz.Plies, strings.Join(pz.Texts(), " "))
	}
	return bw.Flush()
}

// Read reads puzzles in the text form. Every field is checked: the
// position stands under its rules and is not over, the moves are legal
// in turn, a win's solution has the solver's moves at even places and a
// draw's is one move. A line that fails is an error naming it.
func Read(r io.Reader) ([]Puzzle, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 512), maxLine)
	var out []Puzzle
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pz, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("puzzle: line %d: %w", n, err)
		}
		out = append(out, pz)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("puzzle: a line of more than %d bytes", maxLine)
		}
		return nil, fmt.Errorf("puzzle: %w", err)
	}
	return out, nil
}

func parseLine(line string) (Puzzle, error) {
	f := strings.Split(line, "\t")
	if len(f) != 4 {
		return Puzzle{}, fmt.Errorf("want 4 fields separated by tabs (position, goal, plies, solution), have %d", len(f))
	}
	p, err := mill.ParsePosition(f[0])
	if err != nil {
		return Puzzle{}, err
	}
	if o, _ := p.Status(); o != mill.NoOutcome {
		return Puzzle{}, errors.New("the position is over")
	}
	pz := Puzzle{Position: p, Goal: f[1]}
	pz.Plies, err = strconv.Atoi(f[2])
	switch {
	case err != nil || pz.Plies < 0 || pz.Plies > 1000:
		return Puzzle{}, fmt.Errorf("plies %q: want a number 0..1000", f[2])
	case pz.Goal != "win" && pz.Goal != "draw":
		return Puzzle{}, fmt.Errorf("goal %q: want win or draw", pz.Goal)
	case pz.Goal == "draw" && pz.Plies != 0:
		return Puzzle{}, errors.New("a draw has 0 plies")
	case pz.Goal == "win" && pz.Plies == 0:
		return Puzzle{}, errors.New("a win has plies")
	}
	moves := strings.Fields(f[3])
	switch {
	case len(moves) == 0:
		return Puzzle{}, errors.New("no solution")
	case pz.Goal == "draw" && len(moves) != 1:
		return Puzzle{}, errors.New("a draw's solution is one move")
	case len(moves)%2 == 0:
		return Puzzle{}, errors.New("the solution ends with the defence: it must end with the solver's move")
	}
	q := p
	for _, t := range moves {
		if o, _ := q.Status(); o != mill.NoOutcome {
			return Puzzle{}, fmt.Errorf("%s: the game is over", t)
		}
		m, err := q.ParseMove(t)
		if err != nil {
			return Puzzle{}, err
		}
		pz.Solution = append(pz.Solution, m)
		q = q.Play(m)
	}
	return pz, nil
}
