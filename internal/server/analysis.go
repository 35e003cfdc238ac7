package server

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// Analysis is the engine's view of a position.
type Analysis struct {
	Best      string // the best move, standard notation; "" when the game is over
	Score     int    // centi-pieces for the side to move, or a mate score (search.Mate less the plies to the end)
	ScoreText string // as the engine protocol prints it: "cp 125", "mate 7" (the mover wins with its 7th move), "mate -4"
	// Proved is "win" or "loss" when Score is no estimate but a proof
	// (search.Proved): a forced end, or the endgame databases' value, for
	// the side to move; "" otherwise.
	Proved string
	Depth  int      // the last depth searched in full
	Nodes  uint64   // nodes searched
	PV     []string // the principal variation, standard notation
	// TBHits counts the positions of the search found in the endgame
	// databases: 0 without them, or under rules they do not cover.
	TBHits uint64
	// Tablebase is the databases' value of the position ("win in 13",
	// "draw", "loss in 8": plies to the end with perfect play), when they
	// hold it; "" otherwise.
	Tablebase string
	// TablebaseMoves are, with Tablebase, every legal move with the value
	// it keeps for the mover, best first; Keeps marks those that keep the
	// position's value (the fastest wins, the draws of a drawn position,
	// the slowest losses).
	TablebaseMoves []TablebaseMove
}

// provedText is search.Proved(s) as the API says it: "win", "loss" or "".
func provedText(s int) string {
	switch search.Proved(s) {
	case 1:
		return "win"
	case -1:
		return "loss"
	}
	return ""
}

// TablebaseMove is a move and its value by the endgame databases.
type TablebaseMove struct {
	Move  string // standard notation
	Value string // for the side that makes it: "win in 12", "draw", "loss in 3"
	Keeps bool   // the move keeps the position's value
}

// MaxAnalysis bounds the thinking time of one analysis.
const MaxAnalysis = 3 * time.Second

// analyst is the engine of the analysis board: one search at a time, so
// that analyses queue instead of taking the processors from games. sem is
// held (a value in it) while it searches.
type analyst struct {
	sem  chan struct{}
	wake chan struct{} // an analysis was handed over by another process
	e    *engine
	// queue admits the analyses (analysisQueue): how many wait or run,
	// by address, and the answers awaited from other processes.
	queue analysisQueue
	// polls counts the looks in the store for an answer (a test's
	// measure that the wait is woken, not polled).
	polls atomic.Int64
}

func newAnalyst() analyst {
	return analyst{sem: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
}

// Analyze searches history's last position (the positions of the game
// before it count for repetitions) for at most d, up to depth (0: no
// limit but the time), for a caller at address from ("" for the server's
// own, which no quota counts): Quotas.AnalysisQueue analyses wait or run
// at most, Quotas.AnalysisPerAddress of one address (analysisQueue). Analyses run one at a time, at full strength, as
// `morris engine` analyses (go depth N movetime MS, or go infinite): the
// same engine, the table kept from one analysis to the next under the same
// rules (the table does not tell rule sets apart: it is cleared when they
// change), and the endgame databases for the rules they cover.
func (s *Service) Analyze(ctx context.Context, from string, history []mill.Position, depth int, d time.Duration) (Analysis, error) {
	if len(history) == 0 {
		return Analysis{}, errorf(BadRequest, "no position to analyse")
	}
	if d <= 0 || d > MaxAnalysis {
		d = MaxAnalysis
	}
	if depth < 0 || depth > 30 {
		return Analysis{}, errorf(BadRequest, "a depth is 1 to 30")
	}
	root := history[len(history)-1]
	if o, _ := root.Status(); o != mill.NoOutcome {
		return Analysis{ScoreText: o.String()}, nil
	}
	release, err := s.admitAnalysis(ctx, from)
	if err != nil {
		return Analysis{}, err
	}
	defer release()
	if s.shared {
		return s.analyzeShared(ctx, history, depth, d)
	}
	return s.analyzeHere(ctx, history, depth, d)
}

// analyzeHere is Analyze by this process's analyst, once it is free.
func (s *Service) analyzeHere(ctx context.Context, history []mill.Position, depth int, d time.Duration) (Analysis, error) {
	select {
	case s.analysis.sem <- struct{}{}:
	case <-ctx.Done():
		return Analysis{}, ctx.Err()
	}
	defer func() { <-s.analysis.sem }()
	return s.analyzeHeld(ctx, history, depth, d)
}

// analyzeHeld is Analyze by this process's analyst, which the caller holds.
func (s *Service) analyzeHeld(ctx context.Context, history []mill.Position, depth int, d time.Duration) (Analysis, error) {
	root := history[len(history)-1]
	if s.analysis.e == nil {
		s.analysis.e = s.newEngine()
	}
	e := s.analysis.e
	tb := e.prepare("analysis "+root.Rules().String(), root.Rules(), s.cfg.Tablebase)
	actx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var hits uint64
	res := e.Search(actx, history, search.Limits{Depth: depth, MoveTime: d}, func(in search.Info) { hits = in.TBHits })
	s.metrics.tablebaseHits(hits)
	if err := ctx.Err(); err != nil {
		return Analysis{}, err
	}
	a := Analysis{Score: res.Score, ScoreText: search.ScoreTextAlong(root, res.PV, res.Score), Proved: provedText(res.Score), Depth: res.Depth, Nodes: res.Nodes, TBHits: hits}
	if tb {
		if v, ok := s.cfg.Tablebase.Value(root); ok {
			a.Tablebase = v.String()
			if mv, ok := s.cfg.Tablebase.MoveValues(root); ok {
				for _, m := range mv {
					a.TablebaseMoves = append(a.TablebaseMoves, TablebaseMove{Move: root.MoveText(m.Move), Value: m.Value.String(), Keeps: m.Value == mv[0].Value})
				}
			}
		}
	}
	if !res.Move.IsZero() {
		a.Best = root.MoveText(res.Move)
	}
	a.PV = root.LineTexts(res.PV)
	return a, nil
}

// Analyses across processes. With several processes on one PostgreSQL
// database, a process whose analyst is busy hands the analysis to any
// process whose analyst is free: it queues the request in the store
// (store.QueueAnalysis), wakes the others through the relay, and waits for
// the answer, taking the request back for itself if its own analyst comes
// free before anyone took it. Each process's analysisWorker takes handed
// analyses while its analyst is idle.

// analysisRequest is an analysis handed over: the positions of the game
// (the last one analysed), as position texts.
type analysisRequest struct {
	History    []string `json:"history"`
	Depth      int      `json:"depth"`
	MoveTimeMs int64    `json:"moveTimeMs"`
}

// analysisAnswer is its answer.
type analysisAnswer struct {
	Analysis Analysis `json:"analysis"`
	Error    string   `json:"error,omitempty"`
	By       string   `json:"by"` // the process that ran it
}

func (s *Service) analyzeShared(ctx context.Context, history []mill.Position, depth int, d time.Duration) (Analysis, error) {
	select {
	case s.analysis.sem <- struct{}{}: // free: here
		defer func() { <-s.analysis.sem }()
		return s.analyzeHeld(ctx, history, depth, d)
	default:
	}
	req := analysisRequest{Depth: depth, MoveTimeMs: d.Milliseconds()}
	for _, p := range history {
		req.History = append(req.History, p.String())
	}
	raw, _ := json.Marshal(req)
	now := s.now()
	id, err := s.st.QueueAnalysis(ctx, string(raw), now)
	if err != nil {
		// No store to hand it over: wait for this process's analyst.
		return s.analyzeHere(ctx, history, depth, d)
	}
	defer func() {
		// The request, and whatever old ones a dead process left.
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		s.st.DropAnalyses(c, id, now.Add(-time.Minute))
		cancel()
	}()
	// The answer's notification wakes the wait (analysisAnswered); the
	// slow poll is only for one lost with a connection.
	answered, forget := s.analysis.queue.await(id)
	defer forget()
	s.hub.relayAnalysis()
	poll := time.NewTicker(s.cfg.AnalysisPollEvery)
	defer poll.Stop()
	deadline := time.NewTimer(d + 10*time.Second)
	defer deadline.Stop()
	local := s.analysis.sem
	for {
		select {
		case local <- struct{}{}:
			// This process's analyst came free first: ours, if nobody
			// took the request meanwhile.
			ok, err := s.st.ClaimAnalysis(ctx, id, s.process)
			if err == nil && ok {
				defer func() { <-s.analysis.sem }()
				return s.analyzeHeld(ctx, history, depth, d)
			}
			<-s.analysis.sem
			local = nil // another process has it: wait for its answer
		case <-answered:
			if ans, ok, err := s.handedAnswer(ctx, id); ok || err != nil {
				return ans, err
			}
		case <-poll.C:
			if ans, ok, err := s.handedAnswer(ctx, id); ok || err != nil {
				return ans, err
			}
		case <-ctx.Done():
			return Analysis{}, ctx.Err()
		case <-deadline.C:
			return Analysis{}, errorf(Internal, "analysis %d: no answer from the process that took it", id)
		}
	}
}

// handedAnswer looks in the store for the answer to the analysis id handed
// over: ok once it is there.
func (s *Service) handedAnswer(ctx context.Context, id int64) (Analysis, bool, error) {
	s.analysis.polls.Add(1)
	j, err := s.st.AnalysisOf(ctx, id)
	if err != nil || !j.Done {
		return Analysis{}, false, nil // not yet (or the store is away a moment: the poll comes back)
	}
	var ans analysisAnswer
	if err := json.Unmarshal([]byte(j.Result), &ans); err != nil {
		return Analysis{}, false, err
	}
	if ans.Error != "" {
		return Analysis{}, false, errorf(Internal, "analysis by %s: %s", ans.By, ans.Error)
	}
	return ans.Analysis, true, nil
}

// analysisWorker runs the analyses other processes hand over while this
// process's analyst is idle, until the service closes.
func (s *Service) analysisWorker() {
	defer s.wg.Done()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		case <-s.analysis.wake:
		}
		for s.ctx.Err() == nil && s.runHanded() {
		}
	}
}

// runHanded runs one handed analysis if one waits and this process's
// analyst is free; it reports whether it ran one.
func (s *Service) runHanded() bool {
	if n, err := s.st.AnalysesWaiting(s.ctx); err != nil || n == 0 {
		return false
	}
	select {
	case s.analysis.sem <- struct{}{}:
	default:
		return false // busy with its own: later
	}
	defer func() { <-s.analysis.sem }()
	j, ok, err := s.st.TakeAnalysis(s.ctx, s.process)
	if err != nil || !ok {
		return false
	}
	ans := analysisAnswer{By: s.process}
	var req analysisRequest
	var history []mill.Position
	err = json.Unmarshal([]byte(j.Request), &req)
	for _, text := range req.History {
		if err != nil {
			break
		}
		var p mill.Position
		p, err = mill.ParsePosition(text)
		history = append(history, p)
	}
	if err == nil && len(history) == 0 {
		err = errorf(BadRequest, "no position to analyse")
	}
	if err == nil {
		perr := Safely(s.log, "analysis handed over", func() {
			if h := s.cfg.hooks.analysis; h != nil {
				h()
			}
			ans.Analysis, err = s.analyzeHeld(s.ctx, history, req.Depth, time.Duration(req.MoveTimeMs)*time.Millisecond)
		}, "id", j.ID)
		if perr != nil {
			// The asker is told at once, not when its wait runs out;
			// the engine, stopped in the middle, is built afresh.
			err = errorf(Internal, "the engine failed on this position")
			s.analysis.e = nil
		}
	}
	if err != nil {
		ans.Error = err.Error()
	}
	raw, _ := json.Marshal(ans)
	if err := s.st.FinishAnalysis(s.ctx, j.ID, string(raw)); err != nil && s.ctx.Err() == nil {
		s.log.Warn("an analysis handed over: its answer", "id", j.ID, "err", err)
	}
	s.analysisAnswered(j.ID) // the asker may be here
	s.hub.relayAnalysisAnswered(j.ID)
	return true
}
