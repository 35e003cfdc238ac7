package egdb

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

func benchGame(b *testing.B, k Key) (*game, int) {
	r := mill.MustRules("nine-mens-morris")
	g, err := newGame(r, newIndexer(r.Board()), []Key{k})
	if err != nil {
		b.Fatal(err)
	}
	s, _ := g.sector(k)
	return g, s
}

// BenchmarkChildren: the forward step of the count and verify passes, on
// consecutive indices of 5v5 (as the passes run).
func BenchmarkChildren(b *testing.B) {
	benchChildren(b, Key{White: 5, Black: 5})
}

// BenchmarkParents: the backward step of the retrograde pass.
func BenchmarkParents(b *testing.B) {
	g, s := benchGame(b, Key{White: 5, Black: 5})
	wk := g.NewWorker()
	var buf []retro.Ref
	start := rand.New(rand.NewPCG(uint64(b.N), 1)).Int64N(g.Size(s) - int64(b.N) - 1)
	b.ReportAllocs()
	n := 0
	for i := range b.N {
		buf = wk.Parents(s, start+int64(i), buf[:0])
		n += len(buf)
	}
	b.ReportMetric(float64(n)/float64(b.N), "parents/op")
}

func BenchmarkProbe(b *testing.B) {
	db := open3v3(b)
	rng := rand.New(rand.NewPCG(1, 1))
	ps := randomPositions(db, Key{White: 3, Black: 3}, 1024, rng)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, _, ok := db.Probe(ps[i%len(ps)]); !ok {
			b.Fatal("not found")
		}
	}
}

// BenchmarkChildrenPlacing: the count pass of a sector of the placing
// phase (7v7h2-2: placements, many of them closing a mill and taking).
func BenchmarkChildrenPlacing(b *testing.B) {
	benchChildren(b, Key{White: 7, Black: 7, WhiteHand: 2, BlackHand: 2})
}

// benchChildren generates the children of consecutive indices of sector
// k, in the same window of indices whatever b.N, so that runs compare.
func benchChildren(b *testing.B, k Key) {
	g, s := benchGame(b, k)
	wk := g.NewWorker()
	var buf []retro.Child
	const window = 1 << 18
	start := g.Size(s) / 3
	b.ReportAllocs()
	n := 0
	for i := range b.N {
		buf, _, _ = wk.Children(s, start+int64(i%window), buf[:0])
		n += len(buf)
	}
	b.ReportMetric(float64(n)/float64(b.N), "children/op")
}

// BenchmarkSolveSliding: the solve of one group where both sides slide,
// nine men's morris's 5v5 (33 million indices: the count pass and about
// 150 levels), from the files of every sector below it, built once before
// the timer starts. It is the measure of the solver's changes where the
// large builds spend their time (docs/solved.md); an operation is one
// solve, a few seconds, so run it with -benchtime 3x or so:
//
//	go test ./egdb -run '^$' -bench SolveSliding -benchtime 3x -count 3
func BenchmarkSolveSliding(b *testing.B) {
	r := mill.MustRules("nine-mens-morris")
	dir := b.TempDir()
	ctx := context.Background()
	if _, err := (Builder{Rules: r, Dir: dir, Keys: MovingSectors(r, 9)}).Build(ctx); err != nil {
		b.Fatal(err)
	}
	k := Key{White: 5, Black: 5}
	file := filepath.Join(dir, k.String()+".egdb")
	var indices int64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := Builder{Rules: r, Dir: dir, Keys: []Key{k}, CheckpointEvery: -1}.Build(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if last := res[len(res)-1]; last.Key != k || last.Resumed {
			b.Fatalf("%s was not solved: %+v", k, last)
		} else {
			indices += last.Indices
		}
	}
	b.ReportMetric(float64(indices)/b.Elapsed().Seconds()/1e6, "Mindices/s")
}
