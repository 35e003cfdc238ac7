package store

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkAppendMove measures durable moves: each op is one AppendMove,
// committed. "serial" is one game played move after move; "games=N" is N
// games played at once, a goroutine each, closer to a busy server; they
// report the latency of AppendMove too (p50, p99, max). sqlite-normal is
// SQLite with synchronous=NORMAL, which the store does not use, to show
// what the fsync of each commit costs.
//
//	go test ./internal/server/store -run '^$' -bench AppendMove -benchtime 3s
func BenchmarkAppendMove(b *testing.B) {
	for _, backend := range []struct{ name, kind, sync string }{
		{"sqlite", "sqlite", "FULL"},
		{"sqlite-normal", "sqlite", "NORMAL"},
		{"postgres", "postgres", ""},
	} {
		b.Run(backend.name, func(b *testing.B) {
			dsn := testDSN(b, backend.kind)
			s, err := open(context.Background(), dsn, backend.sync)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			f := &fixture{s: s, ctx: context.Background(), t: b, gameVariant: "nine-mens-morris", gameRules: "nine-mens-morris"}
			f.ann, f.bob = f.user("Ann"), f.user("Bob")

			b.Run("serial", func(b *testing.B) {
				g := f.game()
				b.ReportAllocs()
				ply := 0
				for b.Loop() {
					appendBench(b, s, g.ID, ply)
					ply++
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
			})
			for _, n := range []int{64, 1000} {
				b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) { appendGames(b, f, n) })
			}
		})
	}
}

// appendGames plays n games at once, one goroutine each, and reports the
// moves per second and the latency of AppendMove.
func appendGames(b *testing.B, f *fixture, n int) {
	p := max(1, n/runtime.GOMAXPROCS(0))
	games := make(chan int64, p*runtime.GOMAXPROCS(0))
	for range cap(games) {
		games <- f.game().ID
	}
	var mu sync.Mutex
	var latencies []time.Duration
	b.ReportAllocs()
	b.SetParallelism(p)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		game := <-games
		ply := 0
		var mine []time.Duration
		for pb.Next() {
			start := time.Now()
			appendBench(b, f.s, game, ply)
			mine = append(mine, time.Since(start))
			ply++
		}
		games <- game
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	b.ReportMetric(float64(len(latencies))/b.Elapsed().Seconds(), "moves/s")
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		b.ReportMetric(ms(latencies[n/2]), "p50-ms")
		b.ReportMetric(ms(latencies[n*99/100]), "p99-ms")
		b.ReportMetric(ms(latencies[n-1]), "max-ms")
	}
}

func appendBench(b *testing.B, s *Store, game int64, ply int) {
	now := time.Now()
	_, err := s.AppendMove(context.Background(), game, Append{Ply: ply, Move: "a1-a4xd2", At: now,
		Clocks: Clocks{Left: [2]time.Duration{time.Minute, time.Minute}, Running: ply % 2, Since: now}})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAppendMoveTarget plays the server's target load on the store
// alone: 1,000 games, each moving every half second, which offers 2,000
// moves a second, spread evenly. An op is one round, a move in every game;
// the latency of a move counts from when it was due, not from when it was
// sent, so a store that falls behind shows it (no coordinated omission).
//
//	go test ./internal/server/store -run '^$' -bench AppendMoveTarget -benchtime 10x
func BenchmarkAppendMoveTarget(b *testing.B) {
	const games, period = 1000, 500 * time.Millisecond
	for _, backend := range []string{"sqlite", "postgres"} {
		b.Run(backend, func(b *testing.B) {
			f := &fixture{s: openStore(b, testDSN(b, backend)), ctx: context.Background(), t: b,
				gameVariant: "nine-mens-morris", gameRules: "nine-mens-morris"}
			f.ann, f.bob = f.user("Ann"), f.user("Bob")
			ids := make([]int64, games)
			var wg sync.WaitGroup
			for i := range ids {
				wg.Go(func() { ids[i] = f.game().ID })
			}
			wg.Wait()
			plies := make([]int, games)

			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			latencies := make([][]time.Duration, games)
			for i := range ids {
				wg.Go(func() {
					offset := period * time.Duration(i) / games
					for round := range b.N {
						due := start.Add(time.Duration(round)*period + offset)
						time.Sleep(time.Until(due))
						appendBench(b, f.s, ids[i], plies[i])
						plies[i]++
						latencies[i] = append(latencies[i], time.Since(due))
					}
				})
			}
			wg.Wait()
			all := slices.Concat(latencies...)
			b.ReportMetric(float64(len(all))/b.Elapsed().Seconds(), "moves/s")
			slices.Sort(all)
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
			b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
			b.ReportMetric(ms(all[len(all)-1]), "max-ms")
		})
	}
}
