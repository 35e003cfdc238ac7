package retro

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc64"
	"io"
	"os"
	"slices"
	"time"
	"unsafe"
)

// A checkpoint keeps the solver's state of a component on disk, so that a
// solve killed in the middle (a session that ends, kill -9) goes on from
// there instead of from the start of the component, which for the largest
// groups of nine men's morris is 20 to 40 minutes of work.
//
// It is taken at the end of the count pass and then at the end of a level of
// the levels pass (where no goroutine is settling anything, so the state is
// whole), at most every Options.CheckpointEvery. The file is
//
//	"morris-retro-checkpoint 1\n"
//	a uint32 (little-endian) length and that many bytes of JSON: checkpointHeader
//	the words of each sector of the component, in order (4 bytes an index)
//	the loss distances forced from outside, likewise (2 bytes an index)
//	the CRC-64 (ECMA, big-endian) of everything before
//
// in the machine's own byte order for the arrays (the header says which),
// so it is written and read without a copy. It is written to a temporary
// file that is synced and then renamed over the last checkpoint: a kill
// leaves either the old checkpoint or the new one, never half of one, and a
// file that does not check out in every respect is ignored.

const checkpointMagic = "morris-retro-checkpoint 1\n"

// checkpointHeader is the JSON header of a checkpoint.
type checkpointHeader struct {
	Tag      string   `json:"tag"`     // Options.CheckpointTag: what the game is (its rules)
	Sectors  []string `json:"sectors"` // the component, by name
	Sizes    []int64  `json:"sizes"`
	Order    string   `json:"order"` // "little" or "big": the arrays' byte order
	Next     int      `json:"next"`  // the first level still to scan
	MaxPlies int64    `json:"maxPlies"`
	Settled  int64    `json:"settled"`
	Valid    int64    `json:"valid"`
	Inner    bool     `json:"inner"`
}

// nativeOrder is the machine's byte order, as a checkpoint names it.
func nativeOrder() string {
	x := uint16(1)
	if *(*byte)(unsafe.Pointer(&x)) == 1 {
		return "little"
	}
	return "big"
}

func (s *solver) checkpointHeader(next int) checkpointHeader {
	h := checkpointHeader{Tag: s.opt.CheckpointTag, Order: nativeOrder(), Next: next,
		MaxPlies: s.maxPl.Load(), Settled: s.settled.Load(), Valid: s.valid.Load(), Inner: s.inner.Load()}
	for l, sec := range s.comp {
		h.Sectors = append(h.Sectors, s.g.Name(sec))
		h.Sizes = append(h.Sizes, int64(len(s.st[l])))
	}
	return h
}

func wordBytes(w []uint32) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
}

func halfBytes(h []uint16) []byte {
	if len(h) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&h[0])), 2*len(h))
}

// saveCheckpoint writes the state with next the first level still to scan.
func (s *solver) saveCheckpoint(next int) error {
	path := s.opt.Checkpoint
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // a no-op once renamed
	defer f.Close()
	sum := crc64.New(crc64.MakeTable(crc64.ECMA))
	w := bufio.NewWriterSize(io.MultiWriter(f, sum), 1<<20)
	hdr, err := json.Marshal(s.checkpointHeader(next))
	if err != nil {
		return err
	}
	w.WriteString(checkpointMagic)
	binary.Write(w, binary.LittleEndian, uint32(len(hdr)))
	w.Write(hdr)
	for _, st := range s.st {
		w.Write(wordBytes(st))
	}
	for _, em := range s.exitMax {
		w.Write(halfBytes(em))
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("retro: checkpoint: %w", err)
	}
	if err := binary.Write(f, binary.BigEndian, sum.Sum64()); err != nil {
		return fmt.Errorf("retro: checkpoint: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("retro: checkpoint: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("retro: checkpoint: %w", err)
	}
	return os.Rename(tmp, path)
}

// errNoCheckpoint: the checkpoint is missing, damaged or not this
// component's; the solve starts afresh.
var errNoCheckpoint = errors.New("no usable checkpoint")

// loadCheckpoint reads the checkpoint into the solver's arrays (allocated
// already) and returns the first level still to scan. On any error the
// arrays may hold part of the file: the caller clears them.
func (s *solver) loadCheckpoint() (int, error) {
	f, err := os.Open(s.opt.Checkpoint)
	if err != nil {
		return 0, errNoCheckpoint
	}
	defer f.Close()
	sum := crc64.New(crc64.MakeTable(crc64.ECMA))
	br := bufio.NewReaderSize(f, 1<<20)
	r := io.TeeReader(br, sum)
	magic := make([]byte, len(checkpointMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != checkpointMagic {
		return 0, errNoCheckpoint
	}
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || n > 1<<20 {
		return 0, errNoCheckpoint
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(r, raw); err != nil {
		return 0, errNoCheckpoint
	}
	var h checkpointHeader
	if err := json.Unmarshal(raw, &h); err != nil {
		return 0, errNoCheckpoint
	}
	want := s.checkpointHeader(0)
	if h.Tag != want.Tag || h.Order != want.Order || !slices.Equal(h.Sectors, want.Sectors) || !slices.Equal(h.Sizes, want.Sizes) || h.Next < 0 {
		return 0, errNoCheckpoint
	}
	for _, st := range s.st {
		if _, err := io.ReadFull(r, wordBytes(st)); err != nil {
			return 0, errNoCheckpoint
		}
	}
	for _, em := range s.exitMax {
		if _, err := io.ReadFull(r, halfBytes(em)); err != nil {
			return 0, errNoCheckpoint
		}
	}
	got := sum.Sum64()
	var stored uint64
	if err := binary.Read(br, binary.BigEndian, &stored); err != nil || stored != got {
		return 0, errNoCheckpoint
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return 0, errNoCheckpoint // more than a checkpoint
	}
	s.maxPl.Store(h.MaxPlies)
	s.settled.Store(h.Settled)
	s.valid.Store(h.Valid)
	s.inner.Store(h.Inner)
	return h.Next, nil
}

// checkpointer decides when to take a checkpoint.
type checkpointer struct {
	s     *solver
	every time.Duration
	last  time.Time
}

// maybe takes a checkpoint with next the first level still to scan, if the
// last was long enough ago (or force).
func (c *checkpointer) maybe(next int, force bool) error {
	if c == nil || c.s.opt.Checkpoint == "" {
		return nil
	}
	if !force && time.Since(c.last) < c.every {
		return nil
	}
	start := time.Now()
	if err := c.s.saveCheckpoint(next); err != nil {
		return err
	}
	c.last = time.Now()
	if c.s.opt.Progress != nil {
		c.s.opt.Progress(Progress{Sectors: c.s.name, Phase: "checkpoint", Level: next, Done: c.s.settled.Load(), Total: c.s.total, Took: time.Since(start)})
	}
	return nil
}
