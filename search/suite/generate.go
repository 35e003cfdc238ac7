package suite

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// harvest plays games between two players that know nothing of the engine
// (see sparring) and returns every position met, once up to symmetry, with
// the no-progress counter set to 0 (the suite's positions are searched
// without their history).
func harvest(variant string, games int, seed uint64) []mill.Position {
	r := mill.MustRules(variant)
	rng := rand.New(rand.NewPCG(seed, 0x5117e))
	seen := map[uint64]bool{}
	var out []mill.Position
	for range games {
		p := r.Start()
		for ply := 0; ply < 160; ply++ {
			if o, _ := p.Status(); o != mill.NoOutcome {
				break
			}
			moves := p.Moves(nil)
			if len(moves) == 0 {
				break
			}
			q := withQuiet0(p)
			if c, _ := q.Canonical(); !seen[c.Key()] {
				seen[c.Key()] = true
				out = append(out, q)
			}
			p = p.Play(sparring(&p, moves, rng))
		}
	}
	return out
}

// withQuiet0 returns p with its no-progress counter at 0.
func withQuiet0(p mill.Position) mill.Position {
	f := strings.Fields(p.String())
	f[5] = "0"
	return mill.MustParsePosition(strings.Join(f, " "))
}

// sparring picks a move the way a club player in a hurry might: it likes
// captures, blocking the opponent's open twos and making its own, with a
// wide random error; so its games are full of threats, missed defences and
// blockades, the stuff of the suite. It is independent of the engine, so
// the suite's candidates do not change when the engine does.
func sparring(p *mill.Position, moves []mill.Move, rng *rand.Rand) mill.Move {
	us := p.SideToMove()
	best, bestScore := moves[0], -1
	oppHoles, _ := twos(p, us.Other())
	for _, m := range moves {
		s := rng.IntN(80)
		s += 100 * m.NumCaptures()
		if oppHoles.Has(m.To()) {
			s += 60
		}
		q := p.Play(m)
		if holes, _ := twos(&q, us); holes != 0 {
			s += 20
		}
		if s > bestScore {
			best, bestScore = m, s
		}
	}
	return best
}

// twos returns the points that would close an open two of c (two pieces
// of c on a line whose third point is empty) and the pieces of those twos.
// (The engine's move ordering has the same function; the sparring player
// keeps its own, so that the suite does not change when the engine does.)
func twos(p *mill.Position, c mill.Color) (holes, pieces mill.Points) {
	own, opp := p.Pieces(c), p.Pieces(c.Other())
	for _, l := range p.Rules().MillLines() {
		if o := own & l; o.Len() == 2 && l&opp == 0 {
			holes |= l &^ o
			pieces |= o
		}
	}
	return holes, pieces
}

// candidate is a position with its proved answer.
type candidate struct {
	pos      mill.Position
	category string
	best     []mill.Move
	moves    int    // legal moves
	depth    int    // the depth of the proof
	note     string // what was proved, for the comment
}

// The horizons of the proofs, in plies.
const (
	blockadeDepth  = 9  // the longest blockade looked for
	blockadeMargin = 2  // no other move wins so much later; a defence holds so much longer
	materialGuard  = 14 // in mill-in-two and capture nobody forces the end of the game so soon (11 when quick)
)

// The depths at which a gain of material (attackDepths) or its defence
// (defenceDepths) must hold, with the same best moves at each. The
// generator tries the depths up to quickDepth on every position it meets,
// and the deeper ones on those it picks.
var (
	attackDepths  = []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	defenceDepths = []int{4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
)

const quickDepth = 7

// upTo returns the depths of ds up to quickDepth if quick, else all.
func upTo(ds []int, quick bool) []int {
	if !quick {
		return ds
	}
	return slices.DeleteFunc(slices.Clone(ds), func(d int) bool { return d > quickDepth })
}

func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}

func depthList(ds []int) string {
	var s []string
	for _, d := range ds {
		s = append(s, strconv.Itoa(d))
	}
	return strings.Join(s, ", ")
}

// classifyBlockade proves a forced blockade: the side to move wins within d
// plies (d the least) with the moves of best, and with no other move within
// d+blockadeMargin; or every move but those of best lets the opponent win
// within d plies, the moves of best hold for d+blockadeMargin, and no move
// wins within d+blockadeMargin-1. The losing side has too many pieces to
// lose by material inside the horizon: the end is a blockade.
func classifyBlockade(pr *Prover, p mill.Position) (candidate, bool) {
	moves := p.Moves(nil)
	us, them := p.SideToMove(), p.SideToMove().Other()
	total := func(c mill.Color) int { return p.OnBoard(c) + p.InHand(c) }
	for d := 1; d <= blockadeDepth; d++ {
		pr.reset()
		// Null windows: only the end of the game matters here.
		switch {
		case d%2 == 1:
			if v := pr.value(p, 0, d, proofBound, proofBound+1); pr.out {
				return candidate{}, false
			} else if !IsWin(v) {
				continue
			}
			if total(them)-3 < (d+blockadeMargin+1)/2 || len(moves) < 3 {
				return candidate{}, false
			}
			best, ok := pr.reach(p, d, Win-d)
			if !ok || len(best) > 3 {
				return candidate{}, false
			}
			pr.reset()
			wider, ok := pr.reach(p, d+blockadeMargin, proofBound+1)
			if !ok || !SameMoves(best, wider) {
				return candidate{}, false
			}
			return candidate{pos: p, category: "blockade", best: best, moves: len(moves), depth: d,
				note: fmt.Sprintf("%s blocks %s within %s; no other move wins within %d", us, them, plies(d), d+blockadeMargin)}, true
		default:
			// Some move may lose within d: the survivors are the answer.
			surv, ok := pr.reach(p, d, -proofBound)
			if !ok {
				return candidate{}, false
			}
			if len(surv) == len(moves) {
				continue
			}
			if len(surv) == 0 || len(surv) > 2 || len(moves) < 4 || total(us)-3 < (d+blockadeMargin)/2 {
				return candidate{}, false
			}
			pr.reset()
			wider, ok := pr.reach(p, d+blockadeMargin, -proofBound)
			if !ok || !SameMoves(surv, wider) {
				return candidate{}, false
			}
			// A defence, not a win in disguise.
			pr.reset()
			if v := pr.value(p, 0, d+blockadeMargin-1, proofBound, proofBound+1); pr.out || IsWin(v) {
				return candidate{}, false
			}
			return candidate{pos: p, category: "blockade", best: surv, moves: len(moves), depth: d,
				note: fmt.Sprintf("the defence: every other move lets %s block %s within %s; these hold %d", them, us, plies(d), d+blockadeMargin)}, true
		}
	}
	return candidate{}, false
}

// classifyMaterial proves a gain or a loss of material: the moves of best
// reach the best count of pieces at each of several depths, every other
// move is worse at each of them, and nobody can force the end of the game
// for materialGuard plies. With captures at the root it is the choice of
// the piece to take ("capture"); without, a double threat or a running mill,
// or the one defence against it ("mill-in-two"). If quick, only the depths up
// to quickDepth are searched: a candidate, not yet an answer.
func classifyMaterial(pr *Prover, p mill.Position, quick bool) (candidate, bool) {
	attackDepths, defenceDepths := upTo(attackDepths, quick), upTo(defenceDepths, quick)
	guard := materialGuard
	if quick {
		guard = 11
	}
	moves := p.Moves(nil)
	if len(moves) < 4 {
		return candidate{}, false
	}
	us := p.SideToMove()
	mat := material(&p)
	captures := 0
	for _, m := range moves {
		if m.NumCaptures() > 0 {
			captures++
		}
	}
	// consistent finds the best moves at each depth, at most most of them
	// and with values that keep ok true, the same moves at every depth.
	consistent := func(depths []int, most int, keep func(v int) bool) (vals []int, best []mill.Move, ok bool) {
		for i, d := range depths {
			pr.reset()
			v, b, ok := pr.Best(p, d, best)
			if !ok || IsWin(v) || IsLoss(v) || !keep(v) || len(b) > most || len(b) == len(moves) || (i > 0 && !SameMoves(b, best)) {
				return nil, nil, false
			}
			vals, best = append(vals, v), b
		}
		return vals, best, true
	}
	always := func(int) bool { return true }
	if captures > 0 {
		vals, best, ok := consistent(attackDepths, 2, always)
		if !ok {
			return candidate{}, false
		}
		// Every best move takes a piece, and the same turn taking another
		// piece is worse: the question is which piece.
		alternatives := 0
		for _, b := range best {
			if b.NumCaptures() == 0 {
				return candidate{}, false
			}
			for _, m := range moves {
				if m.Kind() == b.Kind() && m.From() == b.From() && m.To() == b.To() && m != b {
					alternatives++
				}
			}
		}
		if alternatives < 2 || !noEndWithin(pr, p, best, guard) {
			return candidate{}, false
		}
		return candidate{pos: p, category: "capture", best: best, moves: len(moves), depth: 7,
			note: fmt.Sprintf("%s's material %+d now, %+d at depths %s; any other move or capture less", us, mat, vals[0], depthList(attackDepths))}, true
	}
	if vals, best, ok := consistent(attackDepths, 3, func(v int) bool { return v > mat }); ok {
		if !noEndWithin(pr, p, best, guard) {
			return candidate{}, false
		}
		return candidate{pos: p, category: "mill-in-two", best: best, moves: len(moves), depth: 7,
			note: fmt.Sprintf("%s wins a piece: material %+d now, %+d at depths %s; any other move less", us, mat, vals[0], depthList(attackDepths))}, true
	}
	// A defence: no move loses a piece at once (depth 2), but all
	// but the answer do two plies later.
	pr.reset()
	if v2, b2, ok := pr.Best(p, 2, nil); !ok || v2 != mat || len(b2) != len(moves) {
		return candidate{}, false
	}
	if vals, best, ok := consistent(defenceDepths, 3, always); ok && vals[0] == mat && noEndWithin(pr, p, best, guard) {
		return candidate{pos: p, category: "mill-in-two", best: best, moves: len(moves), depth: 7,
			note: fmt.Sprintf("%s's only defence: material %+d kept at depth %d, the best at depths %s; any other move loses a piece", us, mat, defenceDepths[0], depthList(defenceDepths))}, true
	}
	return candidate{}, false
}

// endPossible reports whether the game could end with a win inside depth
// plies, as far as counting shows: a side with few pieces to spare could
// lose them (a move takes at most one piece, or MaxCaptures with a capture
// per mill), a side with next to nothing in hand that does not fly could
// be blocked, and a board that can fill could leave a side without moves.
// When it says no, no search is needed to know it.
func endPossible(p *mill.Position, depth int) bool {
	r := p.Rules()
	o := r.Options()
	moves := (depth + 1) / 2
	perMove := 1
	if o.CapturePerMill {
		perMove = mill.MaxCaptures
	}
	empty := r.Board().Len() - p.OnBoard(mill.White) - p.OnBoard(mill.Black)
	if empty <= depth {
		return true
	}
	for _, c := range []mill.Color{mill.White, mill.Black} {
		total := p.OnBoard(c) + p.InHand(c)
		if total-o.MinPieces < moves*perMove {
			return true
		}
		flies := o.FlyAt > 0 && total <= o.FlyAt
		if p.InHand(c) <= moves && !flies {
			return true
		}
	}
	return false
}

// noEndWithin reports whether material is all there is to p within depth
// plies: the side to move cannot force the end of the game, and none of
// the moves of best lets the opponent force it.
func noEndWithin(pr *Prover, p mill.Position, best []mill.Move, depth int) bool {
	if !endPossible(&p, depth) {
		return true
	}
	pr.reset()
	if v := pr.value(p, 0, depth, proofBound, proofBound+1); pr.out || IsWin(v) {
		return false
	}
	for _, m := range best {
		pr.reset()
		if v := pr.moveValue(p, m, depth, -proofBound-1, -proofBound); pr.out || IsLoss(v) {
			return false
		}
	}
	return true
}

// blockable reports whether c could be left without a move within a few
// plies: it does not fly, it has at most a few pieces left to place, and
// the board is crowded. A cheap filter before the proofs of blockades.
func blockable(p *mill.Position, c mill.Color) bool {
	r := p.Rules()
	empty := r.Board().Len() - p.OnBoard(mill.White) - p.OnBoard(mill.Black)
	fly := r.Options().FlyAt
	return p.InHand(c) <= 3 && (fly == 0 || p.OnBoard(c)+p.InHand(c) > fly) && empty <= 12
}

// classifyEndgame finds the answer of a position inside the databases: the
// moves that keep its value (a win, of any length, or a draw). Lost
// positions are no test; nor are wins too short to be a question or too
// long for the no-progress rule (the databases ignore it), nor draws whose
// losing alternatives lose slowly.
func classifyEndgame(db *egdb.DB, p mill.Position) (candidate, bool) {
	moves := p.Moves(nil)
	v, ok := db.Value(p)
	if !ok || len(moves) < 6 || v.Result == egdb.Loss || (v.Result == egdb.Win && (v.Plies < 5 || v.Plies > 60)) {
		return candidate{}, false
	}
	var best []mill.Move
	draws, losses, slowest := 0, 0, 0
	for _, m := range moves {
		cv, ok := childValue(db, p.Play(m))
		if !ok {
			return candidate{}, false
		}
		pv := cv.Parent()
		switch {
		case pv.Result == v.Result:
			best = append(best, m)
		case pv.Result == egdb.Draw:
			draws++
		default:
			losses++
			slowest = max(slowest, pv.Plies)
		}
	}
	if len(best) > 2 || slowest > 60 {
		return candidate{}, false
	}
	us, them := p.SideToMove(), p.SideToMove().Other()
	sector := fmt.Sprintf("%dv%d", p.OnBoard(us), p.OnBoard(them))
	var note string
	if v.Result == egdb.Win {
		note = fmt.Sprintf("%s, %s wins in %d plies; the other %d moves draw (%d) or lose (%d)", sector, us, v.Plies, len(moves)-len(best), draws, losses)
	} else {
		note = fmt.Sprintf("%s, %s draws; the other %d moves lose, the slowest in %d plies", sector, us, len(moves)-len(best), slowest)
	}
	return candidate{pos: p, category: "endgame", best: best, moves: len(moves), depth: v.Plies, note: note}, true
}

// childValue is the value of q for its side to move: the rules' verdict if
// the game is over, else the databases'.
func childValue(db *egdb.DB, q mill.Position) (egdb.Value, bool) {
	switch o, _ := q.Status(); o {
	case mill.NoOutcome:
		return db.Value(q)
	case mill.Draw:
		return egdb.Value{Result: egdb.Draw}, true
	case mill.Won(q.SideToMove()):
		return egdb.Value{Result: egdb.Win}, true
	}
	return egdb.Value{Result: egdb.Loss}, true
}

// suiteTactics is where the suite's tactical positions come from: games of
// sparring, so many per preset, from a fixed seed, and how many of each
// category to keep.
var suiteTactics = []struct {
	variant string
	games   int
	seed    uint64
	keep    map[string]int
}{
	{"nine-mens-morris", 150, 1, map[string]int{"blockade": 10, "mill-in-two": 8, "capture": 8}},
	{"lasker", 30, 2, map[string]int{"blockade": 2, "mill-in-two": 2, "capture": 2}},
	{"twelve-mens-morris", 30, 3, map[string]int{"blockade": 2, "mill-in-two": 2, "capture": 2}},
}

// suiteEndgames are the endgame positions to find: random positions of a
// sector (the side to move has us pieces, its opponent them) whose value is
// want, so many of them.
var suiteEndgames = []struct {
	variant  string
	us, them int
	want     egdb.Result
	keep     int
}{
	{"nine-mens-morris", 3, 3, egdb.Win, 2},
	{"nine-mens-morris", 3, 4, egdb.Win, 2},
	{"nine-mens-morris", 4, 3, egdb.Draw, 3},
	{"nine-mens-morris", 3, 5, egdb.Win, 1},
	{"nine-mens-morris", 3, 5, egdb.Draw, 1},
	{"twelve-mens-morris", 3, 3, egdb.Win, 1},
	{"twelve-mens-morris", 4, 3, egdb.Win, 1},
	{"twelve-mens-morris", 3, 4, egdb.Win, 1},
}

// phase names the part of the game: placing (a side has pieces in hand),
// flying (a side flies), or moving.
func phase(p *mill.Position) string {
	switch {
	case p.InHand(mill.White)+p.InHand(mill.Black) > 0:
		return "placing"
	case p.Flying(mill.White) || p.Flying(mill.Black):
		return "flying"
	}
	return "moving"
}

// pick chooses n of cs: the most telling first (one answer rather than
// several, a deeper proof, more moves to choose from), spread over the
// phases and over attack and defence by taking from each kind in turn. A
// candidate is taken if confirm proves it again (to the full depths) with
// the same answer.
func pick(cs []candidate, n int, confirm func(candidate) (candidate, bool)) []candidate {
	buckets := map[string][]candidate{}
	for _, c := range cs {
		k := phase(&c.pos)
		if strings.Contains(c.note, "defence") {
			k += " defence"
		}
		buckets[k] = append(buckets[k], c)
	}
	var keys []string
	for k, b := range buckets {
		keys = append(keys, k)
		slices.SortStableFunc(b, func(x, y candidate) int {
			if c := cmp.Compare(len(x.best), len(y.best)); c != 0 {
				return c
			}
			if c := cmp.Compare(y.depth, x.depth); c != 0 {
				return c
			}
			return cmp.Compare(y.moves, x.moves)
		})
	}
	// The middle game first, flying last: the suite is about the former.
	rank := map[string]int{"moving": 0, "moving defence": 1, "placing": 2, "placing defence": 3, "flying": 4, "flying defence": 5}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(rank[a], rank[b]) })
	var out []candidate
	for len(out) < n {
		took := false
		for _, k := range keys {
			for b := buckets[k]; len(b) > 0 && len(out) < n; b = buckets[k] {
				c, ok := confirm(b[0])
				buckets[k], took = b[1:], true
				if ok && c.category == b[0].category && SameMoves(c.best, b[0].best) {
					out = append(out, c)
					break
				}
			}
		}
		if !took {
			break
		}
	}
	return out
}

// classifyTactic proves what a harvested position is about, if anything;
// quick as for classifyMaterial.
func classifyTactic(pr *Prover, p mill.Position, quick bool) (candidate, bool) {
	if us := p.SideToMove(); blockable(&p, us) || blockable(&p, us.Other()) {
		if c, ok := classifyBlockade(pr, p); ok {
			return c, true
		}
	}
	return classifyMaterial(pr, p, quick)
}

// Each proof is bounded, quick ones to suiteQuickNodes, full ones to
// suiteProverNodes; a position that needs more is left out.
const (
	suiteQuickNodes  = 20_000_000
	suiteProverNodes = 400_000_000
)

// tacticalCandidates proves the categories of the positions of
// suiteTactics' games and picks from each as many as it keeps, told to
// log. It returns them by category, and what it found too few of.
func tacticalCandidates(ctx context.Context, log io.Writer) (map[string][]candidate, []string) {
	out := map[string][]candidate{}
	var short []string
	pr, full := NewProver(suiteQuickNodes), NewProver(suiteProverNodes)
	for _, src := range suiteTactics {
		start := time.Now()
		found := map[string][]candidate{}
		for _, p := range harvest(src.variant, src.games, src.seed) {
			if ctx.Err() != nil {
				return out, short
			}
			if c, ok := classifyTactic(pr, p, true); ok {
				found[c.category] = append(found[c.category], c)
			}
		}
		for _, cat := range Categories {
			if n := src.keep[cat]; n > 0 {
				tried, t0 := 0, time.Now()
				kept := pick(found[cat], n, func(c candidate) (candidate, bool) {
					tried++
					return classifyTactic(full, c.pos, false)
				})
				if len(kept) < n {
					short = append(short, fmt.Sprintf("%s: %d %s positions proved, want %d", src.variant, len(kept), cat, n))
				}
				fmt.Fprintf(log, "%s %s: %d of %d candidates proved to the full depths in %v\n", src.variant, cat, len(kept), tried, time.Since(t0).Round(time.Second))
				out[cat] = append(out[cat], kept...)
			}
		}
		fmt.Fprintf(log, "%s: blockade %d, mill-in-two %d, capture %d proved in %v\n", src.variant,
			len(found["blockade"]), len(found["mill-in-two"]), len(found["capture"]), time.Since(start).Round(time.Second))
	}
	return out, short
}

// suiteSectors are the sectors of the databases the suite's endgames lie
// in (with those they need), by variant.
var suiteSectors = map[string][]string{
	"nine-mens-morris":   {"3v5", "4v4"},
	"twelve-mens-morris": {"3v4"},
}

// databases builds, once each, the databases of the suite's endgames of a
// variant, in a folder of scratch named after it, and opens them.
type databases struct {
	ctx     context.Context
	scratch string
	open    map[string]*egdb.DB
}

func (d *databases) get(variant string) (*egdb.DB, error) {
	if db := d.open[variant]; db != nil {
		return db, nil
	}
	sectors, ok := suiteSectors[variant]
	if !ok {
		return nil, fmt.Errorf("no databases for %s in the suite", variant)
	}
	r := mill.MustRules(variant)
	var ks []egdb.Key
	for _, s := range sectors {
		k, err := egdb.ParseKey(s)
		if err != nil {
			return nil, err
		}
		ks = append(ks, k)
	}
	dir := filepath.Join(d.scratch, variant)
	if _, err := (egdb.Builder{Rules: r, Dir: dir, Keys: ks, Threads: 1}).Build(d.ctx); err != nil {
		return nil, err
	}
	db, err := egdb.Open(dir, egdb.ForRules(r))
	if err != nil {
		return nil, err
	}
	if d.open == nil {
		d.open = map[string]*egdb.DB{}
	}
	d.open[variant] = db
	return db, nil
}

func (d *databases) close() {
	for _, db := range d.open {
		db.Close()
	}
}

// endgameCandidates finds the positions of suiteEndgames in the databases,
// and what it found too few of.
func endgameCandidates(dbs *databases) ([]candidate, []string, error) {
	var out []candidate
	var short []string
	rng := rand.New(rand.NewPCG(7, 8))
	for _, src := range suiteEndgames {
		db, err := dbs.get(src.variant)
		if err != nil {
			return nil, nil, err
		}
		r := mill.MustRules(src.variant)
		found := 0
		for tries := 0; tries < 2_000_000 && found < src.keep; tries++ {
			side := mill.Color(rng.IntN(2))
			perm := rng.Perm(r.Board().Len())
			var own, opp mill.Points
			for _, x := range perm[:src.us] {
				own |= 1 << x
			}
			for _, x := range perm[src.us : src.us+src.them] {
				opp |= 1 << x
			}
			pieces := [2]mill.Points{}
			pieces[side], pieces[side.Other()] = own, opp
			p, err := r.SetUp(pieces[mill.White], pieces[mill.Black], side, 0, 0)
			if err != nil {
				return nil, nil, err
			}
			if o, _ := p.Status(); o != mill.NoOutcome {
				continue
			}
			if v, ok := db.Value(p); !ok || v.Result != src.want {
				continue
			}
			// Plies as a real game would count them after placing.
			p = withPly(p, 40+rng.IntN(40))
			if c, ok := classifyEndgame(db, p); ok && len(c.best) == 1 {
				out = append(out, c)
				found++
			}
		}
		if found < src.keep {
			short = append(short, fmt.Sprintf("%s %dv%d %v: %d positions found, want %d", src.variant, src.us, src.them, src.want, found, src.keep))
		}
	}
	return out, short, nil
}

// withPly returns p with its ply counter at n (of the same parity as the
// side to move: white moves at even plies, as from the start).
func withPly(p mill.Position, n int) mill.Position {
	if n%2 != int(p.SideToMove()) {
		n++
	}
	f := strings.Fields(p.String())
	f[6] = strconv.Itoa(n)
	return mill.MustParsePosition(strings.Join(f, " "))
}

// Generate makes the suite anew: harvests games, proves, picks (about 30
// minutes), telling log what it does. The databases of the endgames are
// built in scratch. Past the entries, it returns what it found too few of
// (the suite is then smaller than it should be), or an error.
func Generate(ctx context.Context, scratch string, log io.Writer) (entries []Entry, short []string, err error) {
	found, short := tacticalCandidates(ctx, log)
	dbs := &databases{ctx: ctx, scratch: scratch}
	defer dbs.close()
	endgames, shortEnd, err := endgameCandidates(dbs)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	found["endgame"] = endgames
	short = append(short, shortEnd...)
	for _, cat := range Categories {
		for i, c := range found[cat] {
			entries = append(entries, Entry{ID: fmt.Sprintf("%s-%02d", cat, i+1), Variant: c.pos.Rules().Variant(), Pos: c.pos,
				Best: c.best, Category: cat, Comment: phase(&c.pos) + "; " + c.note})
		}
	}
	return entries, short, nil
}

// Header opens the suite file: what it is and how its answers were proved.
const Header = `# The engine's regression suite (search/suite_test.go reads it; TestSuite runs it).
#
# One position a line:  id | variant | position | best moves | category | comment
# The position is mill's position text (its first field is the whole rule set, the variant
# column repeats its preset); the best moves are every move that keeps the best value, in the
# standard notation. The no-progress counter of every position is 0, and the engine searches
# it without history.
#
# Written by: go run ./cmd/morris-dev suite-gen      (~31 min)
# Audited by: go run ./cmd/morris-dev suite-verify   (~2 min)
#
# Nothing here comes from the engine. The answers are proved:
#
# blockade, mill-in-two, capture: the positions are met in games between two random players that
#   like captures and mills (sparring in search/suite/generate.go, fixed seeds), and proved by an
#   exact full-width minimax (Prover in search/suite/prover.go: alpha-beta and nothing else,
#   the rules of mill, threefold repetition along the line, the count of pieces at the horizon;
#   it shares no code with the engine's search or evaluation). Every root move is searched on
#   its own.
#   blockade: the side to move forces the end of the game within d plies (d = 1..9, the least)
#     with the best moves, and with no other move within d+2; or every other move lets the
#     opponent force it within d plies, the best moves hold d+2 plies, and no move wins within
#     d+1. The losing side has too many pieces to lose by material in that horizon: the end is
#     a blockade.
#   mill-in-two: no capture at the root; the best moves reach the best count of pieces at every
#     depth from 3 to 13, every other move is worse at each depth, and the best count is more
#     than today's (a double threat, a running mill); or no move loses a piece within 2 plies
#     and every move but the best is worse at every depth from 4 to 13 (the only defence).
#   capture: the best moves take a piece and reach the best count at every depth from 3 to 13,
#     where every other move is worse, and the same move taking another piece is among the
#     worse: which piece to take is the question.
#   For mill-in-two and capture nobody can force the end of the game within 14 plies, and none
#   of the best moves lets the opponent force it: material is all there is in the horizon.
#   (Beyond the horizon an answer could change; a capture proved to depth 9 and lost by force
#   at ply 12 is why the horizons are this deep.)
# endgame: random positions of the moving phase inside the endgame databases, built in the test
#   from the rules (egdb.Build, retrograde analysis, verified in egdb's own tests against a
#   brute-force solver); the side to move wins (in 5 to 60 plies) or draws, and exactly one
#   move keeps that value: every other move draws or loses a won game, or loses a drawn one.
#   The databases ignore repetition and the no-progress rule; the wins are short enough, and
#   the alternatives lose fast enough, for that not to matter.
`

// Prove proves the answer of e again from scratch, the way the generator
// proved it, whoever wrote the line: with pr for the tactics, and with db,
// the databases of its sectors, for an endgame.
func Prove(pr *Prover, db *egdb.DB, e Entry) error {
	var c candidate
	var ok bool
	if e.Category == "endgame" {
		c, ok = classifyEndgame(db, e.Pos)
	} else {
		c, ok = classifyTactic(pr, e.Pos, false)
	}
	switch {
	case !ok:
		return fmt.Errorf("%s (line %d): no proof found for %s", e.ID, e.Line, e.Pos)
	case c.category != e.Category || !SameMoves(c.best, e.Best):
		return fmt.Errorf("%s (line %d): proved %s %s, the suite says %s %s", e.ID, e.Line,
			c.category, MovesText(c.pos, c.best), e.Category, MovesText(e.Pos, e.Best))
	}
	return nil
}

// Verify audits a suite: every answer is proved again (Prove), the
// databases of the endgames built in scratch. It returns the entries whose
// proof failed, as errors, or an error that stopped it.
func Verify(ctx context.Context, entries []Entry, scratch string) (failed []error, err error) {
	pr := NewProver(suiteProverNodes)
	dbs := &databases{ctx: ctx, scratch: scratch}
	defer dbs.close()
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return failed, err
		}
		var db *egdb.DB
		if e.Category == "endgame" {
			if db, err = dbs.get(e.Variant); err != nil {
				return failed, err
			}
		}
		if err := Prove(pr, db, e); err != nil {
			failed = append(failed, err)
		}
	}
	return failed, nil
}
