package egdb

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc64"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestWDLPlacing builds whole games twice, with distances and with the
// placing phase kept as W/D/L alone (Builder.WDLPlacing, verified): every
// index of every placing sector must hold the same result and the same
// counts, the moving phase must be the same files, the DB must answer the
// W/D/L sectors with unknown plies, and the compact file written from them
// must answer as the one with distances does.
func TestWDLPlacing(t *testing.T) {
	rules := []string{"six-mens-morris,pieces=4", "nine-mens-morris,pieces=3"}
	if !testing.Short() {
		rules = append(rules, "six-mens-morris", "twelve-mens-morris,pieces=4")
	}
	for _, text := range rules {
		t.Run(text, func(t *testing.T) {
			r, err := mill.ParseRules(text)
			if err != nil {
				t.Fatal(err)
			}
			full, packed := t.TempDir(), t.TempDir()
			ctx := context.Background()
			if _, err := (Builder{Rules: r, Dir: full, Keys: []Key{StartKey(r)}}).Build(ctx); err != nil {
				t.Fatal(err)
			}
			res, err := Builder{Rules: r, Dir: packed, Keys: []Key{StartKey(r)}, WDLPlacing: true, Verify: true}.Build(ctx)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Open(full, ForRules(r))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			b, err := Open(packed, ForRules(r))
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			placing, indices := 0, int64(0)
			for _, sr := range res {
				k := sr.Key
				sa, sb := a.sectors[k], b.sectors[k]
				if !sr.Verified || sr.WDL == k.Moving() || sb.file.h.wdl == k.Moving() {
					t.Fatalf("%s: verified %v, W/D/L %v, the file's %v", k, sr.Verified, sr.WDL, sb.file.h.wdl)
				}
				ca, cb := sa.counts, sb.counts
				if k.Moving() {
					if ca != cb {
						t.Fatalf("%s: counts %+v and %+v", k, ca, cb)
					}
					continue
				}
				placing++
				if ca.Wins != cb.Wins || ca.Draws != cb.Draws || ca.Losses != cb.Losses || ca.Unused != cb.Unused || cb.LongestWin != 0 {
					t.Fatalf("%s: counts %+v with distances, %+v without", k, ca, cb)
				}
				if got, want := int64(len(sb.vals.wdl)), (sa.lay.size+3)/4; got != want {
					t.Fatalf("%s: %d bytes, want %d", k, got, want)
				}
				for i := range sa.lay.size {
					va, vb := fromRetro(sa.vals.at(i)), fromRetro(sb.vals.at(i))
					if va.Result != vb.Result || (vb.Result != Draw && vb.Plies != UnknownPlies) {
						t.Fatalf("%s index %d: %v with distances, %v without", k, i, va, vb)
					}
				}
				indices += sa.lay.size
			}
			if placing < 6 {
				t.Fatalf("only %d placing sectors", placing)
			}

			// The DB and a compact file answer alike along random games.
			cpath := filepath.Join(t.TempDir(), "game.wdl")
			if err := WriteCompact(b, cpath, nil); err != nil {
				t.Fatal(err)
			}
			c, err := OpenCompact(cpath)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rng := rand.New(rand.NewPCG(1, 2))
			probes := 0
			for range 300 {
				g := mill.NewGame(r)
				for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 60 {
					p := g.Position()
					va, oka := a.Value(p)
					vb, okb := b.Value(p)
					cr, okc := c.Result(p)
					if oka != okb || oka != okc || va.Result != vb.Result || va.Result != cr {
						t.Fatalf("%s: %v %v with distances, %v %v without, %v %v in the compact file", p, va, oka, vb, okb, cr, okc)
					}
					// The moving phase has its distances, the placing
					// phase not.
					moving := p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0
					if okb && vb.Result != Draw && (vb.Plies == UnknownPlies) == moving {
						t.Fatalf("%s: %v (the moving phase: %v)", p, vb, moving)
					}
					if oka {
						probes++
						mva, _ := a.MoveValues(p)
						mvb, _ := b.MoveValues(p)
						for i := range mva {
							if mva[i].Value.Result != mvb[i].Value.Result {
								t.Fatalf("%s: the moves' values %v and %v", p, mva, mvb)
							}
						}
					}
					moves := g.LegalMoves()
					_ = g.Play(moves[rng.IntN(len(moves))])
				}
			}
			t.Logf("%d placing sectors, %d indices; %d positions probed alike", placing, indices, probes)
		})
	}
}

// TestWDLRefusals: a stored code that its children contradict fails the
// verify pass; a build with distances refuses to go on from W/D/L sectors;
// the distances writer leaves them out, and a compact file with its
// distances then answers the moving phase with its plies and the placing
// phase without.
func TestWDLRefusals(t *testing.T) {
	r := mill.MustRules("six-mens-morris", "pieces=4")
	ctx := context.Background()
	db, dir := wdlGame(t, r)
	g, err := newGame(r, db.x, db.Keys())
	if err != nil {
		t.Fatal(err)
	}
	vals := func(s int) values { return db.sectors[g.keys[s]].vals }
	s := g.id[StartKey(r)]
	below := g.deps[s][0] // a sector of one placement: its values are varied
	own := append([]byte(nil), db.sectors[g.keys[below]].vals.wdl...)
	if _, err := verifyWDL(ctx, g, below, own, vals, 2, nil); err != nil {
		t.Fatalf("the sector as built: %v", err)
	}
	for i := range own {
		if c := own[i] & 3; c != codeNone {
			own[i] ^= 1 // win <-> draw... any other code
			break
		}
	}
	if _, err := verifyWDL(ctx, g, below, own, vals, 2, nil); err == nil || !strings.Contains(err.Error(), "its children give") {
		t.Errorf("a changed code: got %v, want the verify pass to find it", err)
	}

	// The build with distances refuses to build on.
	os.Remove(filepath.Join(dir, StartKey(r).fileName()))
	_, err = Builder{Rules: r, Dir: dir, Keys: []Key{StartKey(r)}}.Build(ctx)
	if err == nil || !strings.Contains(err.Error(), "wins, draws and losses alone") {
		t.Errorf("a build with distances over W/D/L sectors: got %v", err)
	}
	cpath := filepath.Join(t.TempDir(), "game.wdl")
	if err := WriteCompact(db, cpath, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteDistances(db, DistancesPath(cpath), nil); err != nil {
		t.Fatalf("distances of a game with W/D/L placing sectors: %v", err)
	}
	c, err := OpenCompact(cpath)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close() // its distances beside it, added by OpenCompact
	var moving, placing int
	mg := mill.NewGame(r)
	rng := rand.New(rand.NewPCG(5, 6))
	for mg.Outcome() == mill.NoOutcome && len(mg.Moves()) < 80 {
		p := mg.Position()
		if v, ok := c.Value(p); ok && v.Result != Draw {
			if p.InHand(mill.White)+p.InHand(mill.Black) == 0 {
				moving++
				if w, _ := db.Value(p); v != w {
					t.Fatalf("%s: %v from the compact file and its distances, %v from the sectors", p, v, w)
				}
			} else {
				placing++
				if v.Plies != UnknownPlies {
					t.Fatalf("%s: %v, a W/D/L sector's position with plies", p, v)
				}
			}
		}
		moves := mg.LegalMoves()
		_ = mg.Play(moves[rng.IntN(len(moves))])
	}
	t.Logf("decisive positions of one random game: %d moving with plies, %d placing without", moving, placing)
}

// FuzzOpenSector reads sector files made of any bytes, the checksum made
// right so that the header is what is tried: a file opens or is refused,
// and one that opens gives a value at every index without failing. The
// seeds are a file with distances and a W/D/L one.
func FuzzOpenSector(f *testing.F) {
	r := mill.MustRules("six-mens-morris", "pieces=4")
	_, dir := wdlGame(f, r)
	for _, k := range []Key{{3, 3, 0, 0}, {2, 2, 2, 2}} {
		b, err := os.ReadFile(filepath.Join(dir, k.fileName()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:len(b)-trailerBytes])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sum := crc64.Checksum(body, crcTable)
		data := binary.LittleEndian.AppendUint64(append([]byte(nil), body...), sum)
		path := filepath.Join(t.TempDir(), "x.egdb")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sf, err := openSector(path, true)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("refused, but not as corrupt: %v", err)
			}
			return
		}
		defer sf.close()
		for i := range min(sf.h.n, 1<<16) {
			_ = sf.vals.at(i)
		}
		if sf.h.n > 0 {
			_ = sf.vals.at(sf.h.n - 1)
		}
	})
}
