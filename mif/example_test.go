package mif_test

import (
	"encoding/json"
	"fmt"

	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
)

func Example() {
	r, _ := mill.NewRules("nine-mens-morris")
	p, err := mif.ParsePosition("MFEN/1.0 mill24-state-v1 ......W./......../........ b p p 8,9 - 0 1 -", r)
	fmt.Println(p, err)
	text, _ := mif.FormatPosition(p)
	fmt.Println(text)
	// Output:
	// nine-mens-morris W7/8/8 b 8,9 - 0 1 <nil>
	// MFEN/1.0 mill24-state-v1 ......W./......../........ b p p 8,9 - 0 1 -
}

func ExampleEnvelopeFor() {
	e, _ := mif.EnvelopeFor(mill.MustParsePosition("nine-mens-morris W7/8/8 b 8,9 - 0 1"))
	data, _ := json.Marshal(e)
	p, err := mif.ParsePositionEnvelope(string(data))
	fmt.Println(e.Ruleset.ID, e.Ruleset.SemanticDigest[:15], p, err)
	// Output:
	// x-morris-nine-mens-morris sha256:16121f3d nine-mens-morris W7/8/8 b 8,9 - 0 1 <nil>
}
