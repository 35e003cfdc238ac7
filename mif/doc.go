// Package mif reads and writes the Mill Interchange Format (MIF 1.0, a
// community draft that other Mill programs implement): MFEN, a position
// in one line, and MRS, a rule set as a JSON manifest. It converts them to
// and from our positions and rule options, and where the other side
// cannot say something it refuses with what differs, never a guess.
// It imports mill only. docs/mif.md says what is supported and why.
//
// Where things are:
//
//	mfen.go      MFEN records by the grammar alone: ParseMFEN, MFEN.String, the draft's point order and line numbers
//	position.go  MFEN and mill.Position: ParsePosition, MFEN.Position (under rules the caller names), FromPosition, FormatPosition
//	obligations.go  the removals owed that both hold: a full board's (full-board=removals)
//	mifpos.go    MIFPOS envelopes (a position with its manifest): ParseEnvelope, Resolve, EnvelopeFor
//	sanmill.go   Sanmill's FEN (not MIF, the same state): ParseSanmillFEN; CarriesNoRules and ParseUnder for either
//	mrs.go       MRS manifests: ParseManifest, Validate, the two digests, Manifest.Options and Rules, ManifestFor our rules
//	jcs.go       the canonical JSON (RFC 8785) behind the digests, and a JSON reader that refuses duplicate names
//
// A typical use:
//
//	r, _ := mill.NewRules("nine-mens-morris")
//	p, err := mif.ParsePosition("MFEN/1.0 mill24-state-v1 W......./......../........ b p p 8,9 - 0 1 -", r)
//	text, err := mif.FormatPosition(p)
package mif
