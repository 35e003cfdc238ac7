package eval

import (
	"bytes"
	_ "embed"
)

// nineMoving is the net of nine men's morris's moving phase (both sides
// sliding), trained on positions after placing scored by the databases of
// the moving phase (docs/eval.md, "A net taught by the databases").
//
//go:embed nets/nine-moving.net
var nineMoving []byte

// mustNet reads an embedded net; a net that does not read is a fault of
// the build, found by the package's tests.
func mustNet(b []byte) *Net {
	n, err := ReadNet(bytes.NewReader(b))
	if err != nil {
		panic("eval: embedded net: " + err.Error())
	}
	return n
}
