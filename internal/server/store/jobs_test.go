package store

import (
	"sync"
	"testing"
	"time"
)

// TestEngineJobs: a job is queued once per ply (a second ask at the same
// ply leaves a taken job alone, a new ply replaces it); takers get the
// oldest free job, never one another holds, and a job whose lease ran out
// again; Done removes a job only at its ply. Two stores on one database
// (two processes) taking at once never get the same job.
func TestEngineJobs(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		g1, g2, g3 := f.game(), f.game(), f.game()
		if n, err := s.EngineJobsWaiting(ctx, t0); err != nil || n != 0 {
			t.Fatalf("no jobs: %d waiting (%v)", n, err)
		}
		if _, ok, err := s.TakeEngineJob(ctx, "p1", t0, time.Minute); err != nil || ok {
			t.Fatalf("no jobs: took one (%v)", err)
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.QueueEngineJob(ctx, g1.ID, 1, t0))
		must(s.QueueEngineJob(ctx, g2.ID, 3, t0.Add(time.Second)))
		if n, err := s.EngineJobsWaiting(ctx, t0); err != nil || n != 2 {
			t.Fatalf("two jobs: %d waiting (%v)", n, err)
		}
		j, ok, err := s.TakeEngineJob(ctx, "p1", t0.Add(2*time.Second), 10*time.Second)
		if err != nil || !ok || j.Game != g1.ID || j.Ply != 1 || j.TakenBy != "p1" || !j.Lease.Equal(t0.Add(12*time.Second)) {
			t.Fatalf("the oldest: got %+v %v %v", j, ok, err)
		}
		// Asked again at the same ply (a reload, another process): still taken.
		must(s.QueueEngineJob(ctx, g1.ID, 1, t0.Add(3*time.Second)))
		j, ok, err = s.TakeEngineJob(ctx, "p2", t0.Add(3*time.Second), 10*time.Second)
		if err != nil || !ok || j.Game != g2.ID {
			t.Fatalf("the next: got %+v %v %v, want game %d", j, ok, err, g2.ID)
		}
		if _, ok, _ := s.TakeEngineJob(ctx, "p2", t0.Add(4*time.Second), 10*time.Second); ok {
			t.Fatal("both jobs held: took a third")
		}
		// p1 died: its lease runs out at +12 s, and p3 takes the job.
		j, ok, err = s.TakeEngineJob(ctx, "p3", t0.Add(12*time.Second), 10*time.Second)
		if err != nil || !ok || j.Game != g1.ID || j.TakenBy != "p3" {
			t.Fatalf("after the lease: got %+v %v %v", j, ok, err)
		}
		// Given back by another than its holder, or at another ply: held;
		// by p3 at its ply: free at once.
		must(s.ReleaseEngineJob(ctx, g1.ID, 1, "p1"))
		must(s.ReleaseEngineJob(ctx, g1.ID, 2, "p3"))
		if n, _ := s.EngineJobsWaiting(ctx, t0.Add(12500*time.Millisecond)); n != 0 { // before p2's lease ends (+13 s)
			t.Fatalf("released by another or at another ply: %d waiting, want 0", n)
		}
		must(s.ReleaseEngineJob(ctx, g1.ID, 1, "p3"))
		j, ok, err = s.TakeEngineJob(ctx, "p4", t0.Add(13*time.Second), 10*time.Second)
		if err != nil || !ok || j.Game != g1.ID || j.TakenBy != "p4" {
			t.Fatalf("after p3 gave it back: got %+v %v %v", j, ok, err)
		}
		// Done at another ply leaves it; at its ply removes it.
		must(s.DoneEngineJob(ctx, g1.ID, 0))
		must(s.DoneEngineJob(ctx, g2.ID, 3))
		js, err := s.EngineJobs(ctx)
		if err != nil || len(js) != 1 || js[0].Game != g1.ID {
			t.Fatalf("after Done: %+v %v, want only game %d's job", js, err, g1.ID)
		}
		// A new ply replaces the job, free again.
		must(s.QueueEngineJob(ctx, g1.ID, 5, t0.Add(13*time.Second)))
		js, _ = s.EngineJobs(ctx)
		if len(js) != 1 || js[0].Ply != 5 || js[0].TakenBy != "" || !js[0].Lease.IsZero() {
			t.Fatalf("a new ply: %+v", js)
		}
		must(s.DoneEngineJob(ctx, g1.ID, 5))

		// Two stores, eight takers each, twenty jobs: each job taken once.
		other := openStore(t, dsn)
		games := []int64{g1.ID, g2.ID, g3.ID}
		for range 17 {
			games = append(games, f.game().ID)
		}
		for i, g := range games {
			must(s.QueueEngineJob(ctx, g, 7, t0.Add(time.Duration(i)*time.Millisecond)))
		}
		var mu sync.Mutex
		taken := map[int64]int{}
		var wg sync.WaitGroup
		for i := range 16 {
			st := s
			if i%2 == 1 {
				st = other
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					j, ok, err := st.TakeEngineJob(ctx, "w", t0.Add(time.Minute), time.Hour)
					if err != nil {
						t.Error(err)
						return
					}
					if !ok {
						return
					}
					mu.Lock()
					taken[j.Game]++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(taken) != len(games) {
			t.Fatalf("taken %d jobs of %d", len(taken), len(games))
		}
		for g, n := range taken {
			if n != 1 {
				t.Errorf("game %d: taken %d times", g, n)
			}
		}
	})
}

// TestEngineJobsFair: the jobs are taken round robin by the players of
// their games, not by age alone: a user with many games against the
// engine waiting does not keep another's waiting behind all of them.
func TestEngineJobsFair(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		engine, cy := f.user("Engine"), f.user("Cy")
		vs := func(white, black User) int64 {
			t.Helper()
			g, err := s.CreateGame(ctx, Game{Variant: f.gameVariant, Rules: f.gameRules, White: white.ID, Black: black.ID, LastMoveAt: t0, EngineLevel: 3})
			if err != nil {
				t.Fatal(err)
			}
			return g.ID
		}
		// Ann's three games were queued first, then Bob's (the engine
		// white there: the same two players either way round), then Cy's.
		ann1, ann2, ann3 := vs(f.ann, engine), vs(engine, f.ann), vs(f.ann, engine)
		bob, cy1 := vs(engine, f.bob), vs(cy, engine)
		for i, g := range []int64{ann1, ann2, ann3, bob} {
			if err := s.QueueEngineJob(ctx, g, 1, t0.Add(time.Duration(i)*time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		names := map[int64]string{ann1: "ann1", ann2: "ann2", ann3: "ann3", bob: "bob", cy1: "cy1"}
		take := func(worker string, at time.Duration, want int64) {
			t.Helper()
			j, ok, err := s.TakeEngineJob(ctx, worker, t0.Add(at), time.Hour)
			if err != nil || !ok {
				t.Fatalf("%s at +%v: took nothing (%v), want %s", worker, at, err, names[want])
			}
			if j.Game != want {
				t.Fatalf("%s at +%v: got %s's job, want %s's", worker, at, names[j.Game], names[want])
			}
		}
		take("w1", 10*time.Second, ann1) // the oldest
		take("w2", 10*time.Second, bob)  // Ann has one running: Bob's turn
		if err := s.DoneEngineJob(ctx, ann1, 1); err != nil {
			t.Fatal(err)
		}
		take("w1", 11*time.Second, ann2) // Bob has one running, Ann none
		if err := s.QueueEngineJob(ctx, cy1, 1, t0.Add(12*time.Second)); err != nil {
			t.Fatal(err)
		}
		take("w3", 13*time.Second, cy1) // Cy, newest, before Ann's third
		take("w4", 13*time.Second, ann3)
	})
}
