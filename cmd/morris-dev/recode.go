package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/morrisgame/morris/egdb"
)

func cmdRecode(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("recode", "SRC DST", `Write the compact file SRC again as DST, each sector's values coded by this
program's version of the streams (docs/egdb.md, "The compact file"): a file
written by an older Morris is still read, more slowly; recoded, it is read
at this version's speed, without the sector files it was made from. Every
stream is decoded, coded again and read back against the values before it is
kept; a run stopped part way goes on from DST.parts.`, stderr)
	if err := parse(fs, args, 2, 2); err != nil {
		return err
	}
	src, dst := fs.Arg(0), fs.Arg(1)
	start := time.Now()
	var in, out int64
	err := egdb.RecodeCompact(src, dst, func(p egdb.CompactProgress) {
		in += p.Indices
		out += p.Bytes
		how := fmt.Sprintf("recoded in %v", p.Coded.Round(time.Millisecond))
		if p.Resumed {
			how = "kept from an earlier run"
		}
		fmt.Fprintf(stderr, "recode: %d/%d %s: %d bytes, %s\n", p.Done, p.Sectors, p.Key, p.Bytes, how)
	})
	if err != nil {
		return err
	}
	old, _ := os.Stat(src)
	now, _ := os.Stat(dst)
	fmt.Fprintf(stdout, "%s: %d indices, %d bytes (%s had %d), in %v\n", dst, in, now.Size(), src, old.Size(), time.Since(start).Round(time.Second))
	return nil
}
