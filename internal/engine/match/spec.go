package match

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/builtin"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// SpecSyntax describes the player specs that ParseSpec reads.
const SpecSyntax = `level:N[,depth=D][,movetime=MS][,tablebases=DIR|FILE|none]
                                    the built-in engine at level 1..10, with the
                                    built-in endgame databases (the small endgames of
                                    every preset with databases, six and seven men's
                                    morris whole), after
                                    those of morris solve in DIR or a compact FILE
                                    (morris solve -compact) if given; none: no
                                    databases at all
  perfect:DIR                       perfect play from the databases of the whole game
                                    (morris solve -variant V -game -dir DIR, or their
                                    compact file FILE with its distances FILE.dist): the
                                    fastest win, the slowest loss, a draw kept
  random                            a random mover
  greedy                            one ply ahead: takes, closes, blocks, else random
  cmd[,depth=D][,movetime=MS][,timeout=MS][,differences=PROGRAM][,OPTION=VALUE...]:PATH ARGS...
                                    an engine speaking docs/protocol.md, e.g. "cmd:./morris engine";
                                    OPTION=VALUE is sent as setoption (e.g. Level=5);
                                    differences=sanmill ends a game as a disputed draw
                                    where that program's rules are known to part from ours
  any spec may add ,name=NAME (how results and records call it)`

// ParseSpec reads a player spec (see SpecSyntax). def are the limits of a
// player whose spec sets none: for the engine, the zero Limits leaves its
// level's own; an external engine gets "go movetime 1000" then.
func ParseSpec(text string, def Limits) (Spec, error) {
	bad := func(format string, args ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("player %q: %s", text, fmt.Sprintf(format, args...))
	}
	head, command := text, ""
	if dir, ok := strings.CutPrefix(text, "perfect:"); ok {
		return parsePerfect(text, dir)
	}
	if strings.HasPrefix(text, "cmd") {
		var ok bool
		head, command, ok = strings.Cut(text, ":")
		if !ok || strings.TrimSpace(command) == "" {
			return bad("want cmd:PATH ARGS...")
		}
	}
	parts := strings.Split(head, ",")
	kind := parts[0]
	name := text
	var lim Limits
	var timeout time.Duration
	var options [][2]string
	tbDir := ""
	var disputes Disputer
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return bad("%q: want name=value", kv)
		}
		switch k {
		case "name":
			name = v
		case "tablebases":
			if kind == "cmd" {
				options = append(options, [2]string{"Tablebases", v})
				continue
			}
			if v == "" {
				return bad("tablebases=: want a directory, a compact file or none")
			}
			tbDir = v
		case "differences":
			if kind != "cmd" {
				return bad("differences is for external engines")
			}
			d, err := Differences(v)
			if err != nil {
				return bad("%v", err)
			}
			disputes = d
		case "depth", "movetime", "timeout":
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return bad("%s=%s: want a positive number", k, v)
			}
			switch k {
			case "depth":
				lim.Depth = n
			case "movetime":
				lim.MoveTime = time.Duration(n) * time.Millisecond
			default:
				timeout = time.Duration(n) * time.Millisecond
			}
		default:
			if kind != "cmd" {
				return bad("unknown setting %q (want depth, movetime, tablebases or name)", k)
			}
			options = append(options, [2]string{k, v})
		}
	}
	if lim == (Limits{}) {
		lim = def
	}
	switch {
	case kind == "random" || kind == "greedy":
		if tbDir != "" {
			return bad("%s takes no tablebases", kind)
		}
		if lim != (Limits{}) && lim != def {
			return bad("%s takes no depth or movetime", kind)
		}
		if kind == "random" {
			return Spec{Name: name, New: func() (Player, error) { return NewRandom(name), nil }}, nil
		}
		return Spec{Name: name, New: func() (Player, error) { return NewGreedy(name), nil }}, nil
	case strings.HasPrefix(kind, "level:"):
		n, err := strconv.Atoi(strings.TrimPrefix(kind, "level:"))
		if err != nil || n < 1 || n > 10 {
			return bad("want level:N with N from 1 to 10")
		}
		if timeout > 0 {
			return bad("timeout is for external engines")
		}
		return Spec{Name: name, New: func() (Player, error) {
			tb, err := engineTablebase(tbDir)
			if err != nil {
				return nil, fmt.Errorf("player %q: %w", text, err)
			}
			return NewEngineWith(name, n, lim, tb), nil
		}}, nil
	case kind == "cmd":
		f := strings.Fields(command)
		if name == text {
			name = strings.Join(f, " ")
		}
		return Spec{Name: name, Disputes: disputes, New: func() (Player, error) {
			x := NewExternal(name, f[0], f[1:], options, lim)
			x.Timeout = timeout
			return x, nil
		}}, nil
	}
	return bad("want level:N, random, greedy or cmd:PATH ARGS...")
}

// parsePerfect reads perfect:DIR[,name=NAME] (DIR, or a compact file with
// its distances: OpenTruth). The spec's Check refuses databases that do
// not hold the whole game of the match's rules.
func parsePerfect(text, spec string) (Spec, error) {
	parts := strings.Split(spec, ",")
	dir, name := parts[0], text
	if dir == "" {
		return Spec{}, fmt.Errorf("player %q: want perfect:DIR, the databases of morris solve -game (or their compact file with its distances)", text)
	}
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k != "name" {
			return Spec{}, fmt.Errorf("player %q: %q: perfect takes only name=NAME (it plays from the databases, with no depth or time)", text, kv)
		}
		name = v
	}
	open := func() (Truth, error) {
		db, err := OpenTruth(dir, true)
		if err != nil {
			return nil, fmt.Errorf("player %q: %w", text, err)
		}
		return db, nil
	}
	return Spec{
		Name: name,
		New: func() (Player, error) {
			db, err := open()
			if err != nil {
				return nil, err
			}
			return NewPerfect(name, db), nil
		},
		Check: func(r *mill.Rules) error {
			db, err := open()
			if err != nil {
				return err
			}
			if err := CheckPerfect(db, r); err != nil {
				return fmt.Errorf("player %q: %s: %w", text, dir, err)
			}
			return nil
		},
	}, nil
}

// engineTablebase is what the engine of a level:N spec probes: for
// tablebases=none nothing; else the databases of dir (a directory, or a
// compact file of morris solve -compact; none if dir is ""), then the
// built-in ones.
func engineTablebase(dir string) (search.Tablebase, error) {
	switch dir {
	case "none":
		return nil, nil
	case "":
		return builtin.Shelf(), nil
	}
	if fi, err := os.Stat(dir); err == nil && fi.Mode().IsRegular() {
		c, err := openCompact(dir)
		if err != nil {
			return nil, err
		}
		return builtin.Shelf(c), nil
	}
	db, err := OpenTablebases(dir)
	if err != nil {
		return nil, err
	}
	return builtin.Shelf(db), nil
}

// openCompact opens a compact file once for the whole process, as
// OpenTablebases opens a directory: every slot's engine shares it.
func openCompact(path string) (*egdb.Compact, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	opened.Lock()
	defer opened.Unlock()
	if c := opened.compacts[abs]; c != nil {
		return c, nil
	}
	c, err := egdb.OpenCompact(abs)
	if err != nil {
		return nil, err
	}
	if opened.compacts == nil {
		opened.compacts = map[string]*egdb.Compact{}
	}
	opened.compacts[abs] = c
	return c, nil
}

// opened are the endgame databases opened by OpenTablebases, by directory,
// and the compact files opened by openCompact.
var opened struct {
	sync.Mutex
	dbs      map[string]*egdb.DB
	compacts map[string]*egdb.Compact
}

// OpenTablebases opens the endgame databases in dir for the games of a
// match (egdb.EngineCheckAbove: a large set is checked in the background), once
// for the whole process: the players of every slot and the adjudicator
// share one mapping of the files and one pass over their checksums, which
// for the 55 GB of the whole game of nine men's morris is most of a minute
// of reading. The databases stay open until the process ends.
func OpenTablebases(dir string) (*egdb.DB, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	opened.Lock()
	defer opened.Unlock()
	if db := opened.dbs[abs]; db != nil {
		return db, nil
	}
	db, err := egdb.Open(abs, egdb.CheckInBackground(egdb.EngineCheckAbove))
	if err != nil {
		return nil, err
	}
	if opened.dbs == nil {
		opened.dbs = map[string]*egdb.DB{}
	}
	opened.dbs[abs] = db
	return db, nil
}
