package egdb

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// TestBuildResident: a build that reads the sectors it depends on from
// memory (Builder.Resident), all of them or as many as a budget
// holds, writes the same files byte for byte as one that reads them
// through their maps.
func TestBuildResident(t *testing.T) {
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	keys := []Key{StartKey(r)}
	build := func(resident int64) string {
		dir := t.TempDir()
		if _, err := (Builder{Rules: r, Dir: dir, Keys: keys, Resident: resident}).Build(context.Background()); err != nil {
			t.Fatalf("resident %d: %v", resident, err)
		}
		return dir
	}
	mapped := build(0)
	files, _ := filepath.Glob(filepath.Join(mapped, "*.egdb"))
	if len(files) < 7 {
		t.Fatalf("%d files", len(files))
	}
	// 3v3 is the largest sector (169,626 positions a side to move, 2
	// bytes each): a budget of 400 KB holds one or two sectors at a time.
	for _, resident := range []int64{400 << 10, 1 << 30} {
		dir := build(resident)
		for _, f := range files {
			want, _ := os.ReadFile(f)
			got, err := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("resident %d: %s differs from the build through the maps (%v)", resident, filepath.Base(f), err)
			}
		}
	}
}

// BenchmarkLookup: reads at random from the values of a sector of 512 MB,
// through the file's map (as probes and builds without Resident read) and
// copied into memory (resident: huge pages where the system has them).
func BenchmarkLookup(b *testing.B) {
	const n = 1 << 28
	vals := make([]retro.Value, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range vals {
		vals[i] = retro.Value(rng.IntN(40))
	}
	dir := b.TempDir()
	k := Key{White: 8, Black: 8}
	if err := writeSector(dir, fileHeader{key: k, n: n, rules: "nine-mens-morris"}, vals); err != nil {
		b.Fatal(err)
	}
	vals = nil
	for _, mode := range []string{"mapped", "resident"} {
		b.Run(mode, func(b *testing.B) {
			f, err := openSector(filepath.Join(dir, k.fileName()), false)
			if err != nil {
				b.Fatal(err)
			}
			defer f.close()
			if mode == "resident" {
				if err := f.resident(); err != nil {
					b.Fatal(err)
				}
			}
			v := f.vals.v
			for i := 0; i < len(v); i += 2048 {
				_ = v[i] // every page in memory before the clock starts
			}
			b.ReportAllocs()
			b.ResetTimer()
			x, sum := uint64(88172645463325252), 0
			for range b.N {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				sum += int(v[x&(n-1)])
			}
			if sum < 0 {
				b.Fatal(sum)
			}
		})
	}
}
