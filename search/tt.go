package search

import (
	"sync/atomic"

	"github.com/morrisgame/morris/mill"
)

// Bounds stored with a score.
const (
	boundNone  = 0
	boundLower = 1 // the score is at least this (a beta cut)
	boundUpper = 2 // the score is at most this (no move raised alpha)
	boundExact = 3
)

// table is the transposition table. An entry is two atomic words, the key
// xor the data and the data, so that threads share it without locks and a
// torn entry (words from two writes) fails the key check.
type table struct {
	entries []entry
	mask    uint64
}

type entry struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64
}

func newTable(mb int) *table {
	if mb < 1 {
		mb = 1
	}
	n := uint64(1)
	for n*2*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &table{entries: make([]entry, n), mask: n - 1}
}

// clear empties the table. It runs only between searches, when no thread
// touches the table, so plain stores are safe.
func (t *table) clear() { clear(t.entries) }

// data layout: move (38 bits) | score+32768 (16) | depth (8) | bound (2).
func pack(m mill.Move, score, depth, bound int) uint64 {
	return packMove(m) | uint64(uint16(score+32768))<<38 | uint64(uint8(depth))<<54 | uint64(bound)<<62
}

func (t *table) probe(key uint64) (m mill.Move, score, depth, bound int, ok bool) {
	e := &t.entries[key&t.mask]
	d := e.data.Load()
	if e.check.Load()^d != key || d == 0 {
		return mill.Move{}, 0, 0, 0, false
	}
	return unpackMove(d & (1<<38 - 1)), int(uint16(d>>38)) - 32768, int(uint8(d >> 54)), int(d >> 62), true
}

func (t *table) store(key uint64, m mill.Move, score, depth, bound int) {
	e := &t.entries[key&t.mask]
	// Keep a deeper entry of the same position unless this one is exact.
	if old := e.data.Load(); e.check.Load()^old == key && int(uint8(old>>54)) > depth && bound != boundExact {
		return
	}
	d := pack(m, score, depth, bound)
	e.data.Store(d)
	e.check.Store(key ^ d)
}

// packMove packs a move in 38 bits: kind 3, from 6, to 6, captures 3, four
// captured points of 5 bits.
func packMove(m mill.Move) uint64 {
	pt := func(p mill.Point) uint64 {
		if p == mill.NoPoint {
			return 63
		}
		return uint64(p)
	}
	v := uint64(m.Kind()) | pt(m.From())<<3 | pt(m.To())<<9 | uint64(m.NumCaptures())<<15
	for i := 0; i < m.NumCaptures(); i++ {
		v |= uint64(m.Capture(i)) << (18 + 5*i)
	}
	return v
}

func unpackMove(v uint64) mill.Move {
	from, to := mill.Point(v>>3&63), mill.Point(v>>9&63)
	var m mill.Move
	n := int(v >> 15 & 7)
	first := 0
	switch mill.MoveKind(v & 7) {
	case mill.PlaceMove:
		m = mill.Place(to)
	case mill.SlideMove:
		m = mill.Slide(from, to)
	case mill.RemoveMove:
		m = mill.Remove(mill.Point(v >> 18 & 31))
		first = 1
	case mill.PassMove:
		return mill.Pass
	default:
		return mill.Move{}
	}
	for i := first; i < n && i < mill.MaxCaptures; i++ {
		m = m.WithCapture(mill.Point(v >> (18 + 5*i) & 31))
	}
	return m
}
