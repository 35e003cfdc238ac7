package mill

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestPositionSize keeps Position at 64 bytes: its padding (position.go)
// makes a copy four whole 16-byte moves, and a field added or removed
// without changing the padding would bring back the slow copy of 56 bytes
// (BenchmarkPlay 28 ns instead of 17).
func TestPositionSize(t *testing.T) {
	if n := unsafe.Sizeof(Position{}); n != 64 {
		t.Errorf("Position is %d bytes, want 64: change its padding", n)
	}
}

// benchPositions returns positions from random games of every preset, in
// all phases: placing, moving, flying.
func benchPositions(tb testing.TB) []Position {
	var out []Position
	for _, v := range Variants() {
		r := MustRules(v.ID)
		rng := rand.New(rand.NewPCG(11, uint64(len(out))))
		for game := 0; game < 4; game++ {
			p := r.Start()
			for ply := 0; ply < 120; ply++ {
				ms := p.Moves(nil)
				if len(ms) == 0 {
					break
				}
				out = append(out, p)
				p = p.Play(ms[rng.IntN(len(ms))])
			}
		}
	}
	return out
}

func BenchmarkPerft6(b *testing.B) {
	b.ReportAllocs()
	p := MustRules("nine-mens-morris").Start()
	var n uint64
	for b.Loop() {
		n = Perft(p, 6)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

func BenchmarkMoves(b *testing.B) {
	b.ReportAllocs()
	ps := benchPositions(b)
	buf := make([]Move, 0, 1024)
	i := 0
	for b.Loop() {
		buf = ps[i%len(ps)].Moves(buf[:0])
		i++
	}
}

func BenchmarkNumMoves(b *testing.B) {
	b.ReportAllocs()
	ps := benchPositions(b)
	i := 0
	for b.Loop() {
		_ = ps[i%len(ps)].NumMoves()
		i++
	}
}

func BenchmarkPlay(b *testing.B) {
	b.ReportAllocs()
	type pm struct {
		p Position
		m Move
	}
	var work []pm
	for _, p := range benchPositions(b) {
		for _, m := range p.Moves(nil) {
			work = append(work, pm{p, m})
		}
	}
	i := 0
	var sink Position
	for b.Loop() {
		w := &work[i%len(work)]
		sink = w.p.Play(w.m)
		i++
	}
	_ = sink
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mplays/s")
}

func BenchmarkStatus(b *testing.B) {
	b.ReportAllocs()
	ps := benchPositions(b)
	i := 0
	for b.Loop() {
		_, _ = ps[i%len(ps)].Status()
		i++
	}
}

// TestNoAllocs fails if move generation, Play, Status or Key allocate.
func TestNoAllocs(t *testing.T) {
	ps := benchPositions(t)
	buf := make([]Move, 0, 4096)
	for _, p := range ps[:len(ps):len(ps)] {
		ms := p.Moves(nil)
		if n := testing.AllocsPerRun(5, func() { buf = p.Moves(buf[:0]) }); n != 0 {
			t.Fatalf("Moves allocates %v times: %s", n, p)
		}
		if n := testing.AllocsPerRun(5, func() { _ = p.NumMoves() }); n != 0 {
			t.Fatalf("NumMoves allocates %v times: %s", n, p)
		}
		if n := testing.AllocsPerRun(5, func() { _, _ = p.Status(); _ = p.Key() }); n != 0 {
			t.Fatalf("Status allocates %v times: %s", n, p)
		}
		for _, m := range ms {
			if n := testing.AllocsPerRun(5, func() { _ = p.Play(m) }); n != 0 {
				t.Fatalf("Play(%s) allocates %v times: %s", p.MoveText(m), n, p)
			}
		}
	}
}
