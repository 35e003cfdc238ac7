package mif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Envelope is a MIFPOS/1.0 object: an MFEN position with its rule set, so
// that it can be read without naming rules beside it.
type Envelope struct {
	Format         string            `json:"format"`
	PositionFormat string            `json:"positionFormat"`
	StateProfile   string            `json:"stateProfile"`
	Position       string            `json:"position"`
	Ruleset        Ruleset           `json:"ruleset"`
	Annotations    map[string]any    `json:"annotations,omitempty"`
	Extensions     []json.RawMessage `json:"extensions,omitempty"`
}

// Ruleset is the rule-set envelope: the manifest itself ("portable"), or
// its identity only ("reference"), which we cannot resolve: morris keeps no
// registry of other programs' rule sets.
type Ruleset struct {
	Mode           string    `json:"mode"`
	ID             string    `json:"id"`
	Version        int       `json:"version"`
	SemanticDigest string    `json:"semanticDigest"`
	DocumentDigest string    `json:"documentDigest,omitempty"`
	Manifest       *Manifest `json:"manifest,omitempty"`
}

// IsMIFPOS reports whether s looks like a MIFPOS object rather than a
// position text.
func IsMIFPOS(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "{") && strings.Contains(s, "MIFPOS/")
}

// ParseEnvelope reads a MIFPOS/1.0 object and checks its rule set: the
// manifest valid, its id, version and both digests those of the envelope.
func ParseEnvelope(data []byte) (Envelope, error) {
	if len(data) > 1<<20 {
		return Envelope{}, &ManifestError{"resource-limit", "MIFPOS larger than 1 MiB"}
	}
	if _, err := generic(data); err != nil {
		return Envelope{}, &ManifestError{"manifest-invalid", err.Error()}
	}
	var e Envelope
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Envelope{}, &ManifestError{"manifest-invalid", "MIFPOS: " + err.Error()}
	}
	bad := func(code, format string, args ...any) (Envelope, error) {
		return Envelope{}, &ManifestError{code, "MIFPOS: " + fmt.Sprintf(format, args...)}
	}
	switch {
	case e.Format != "MIFPOS/1.0":
		return bad("manifest-invalid", "format %q: only MIFPOS/1.0 is read", e.Format)
	case e.PositionFormat != Signature || e.StateProfile != StateProfile:
		return bad("unsupported-profile", "positionFormat %q, stateProfile %q: want %s and %s", e.PositionFormat, e.StateProfile, Signature, StateProfile)
	case len(e.Extensions) > 0:
		return bad("unsupported-profile", "semantic extensions: morris implements none")
	case e.Ruleset.Mode == "reference":
		if e.Ruleset.Manifest != nil {
			return bad("manifest-invalid", "a reference ruleset carries no manifest")
		}
		return Envelope{}, unsupported("the rules are a reference (%s@%d): morris keeps no registry of rule sets; export the position portable, with its manifest", e.Ruleset.ID, e.Ruleset.Version)
	case e.Ruleset.Mode != "portable":
		return bad("manifest-invalid", "ruleset mode %q: portable or reference", e.Ruleset.Mode)
	case e.Ruleset.Manifest == nil || e.Ruleset.DocumentDigest == "":
		return bad("manifest-missing", "a portable ruleset needs its manifest and documentDigest")
	}
	m := *e.Ruleset.Manifest
	if err := m.Validate(); err != nil {
		return Envelope{}, err
	}
	if m.ID != e.Ruleset.ID || m.Version != e.Ruleset.Version {
		return bad("manifest-conflict", "the manifest is %s@%d, the envelope says %s@%d", m.ID, m.Version, e.Ruleset.ID, e.Ruleset.Version)
	}
	if sem, err := m.SemanticDigest(); err != nil || sem != e.Ruleset.SemanticDigest {
		return bad("semantic-digest-mismatch", "the manifest's semantic digest is %s, the envelope says %s", sem, e.Ruleset.SemanticDigest)
	}
	if doc, err := m.DocumentDigest(); err != nil || doc != e.Ruleset.DocumentDigest {
		return bad("document-digest-mismatch", "the manifest's document digest is %s, the envelope says %s", doc, e.Ruleset.DocumentDigest)
	}
	if _, err := ParseMFEN(e.Position); err != nil {
		return Envelope{}, err
	}
	return e, nil
}

// Resolve returns the envelope's position under our rules for its manifest.
func (e Envelope) Resolve() (mill.Position, error) {
	if e.Ruleset.Manifest == nil {
		return mill.Position{}, unsupported("no manifest")
	}
	r, err := e.Ruleset.Manifest.Rules()
	if err != nil {
		return mill.Position{}, err
	}
	return ParsePosition(e.Position, r)
}

// ParsePositionEnvelope reads a MIFPOS object as our position.
func ParsePositionEnvelope(s string) (mill.Position, error) {
	e, err := ParseEnvelope([]byte(s))
	if err != nil {
		return mill.Position{}, err
	}
	return e.Resolve()
}

// EnvelopeFor returns p as a portable MIFPOS object, its manifest written
// by ManifestFor under an id of our own ("x-morris-" and the preset, and
// the start of the semantic digest when there are overrides).
func EnvelopeFor(p mill.Position) (Envelope, error) {
	r := p.Rules()
	if r == nil {
		return Envelope{}, unsupported("the zero Position")
	}
	mfen, err := FormatPosition(p)
	if err != nil {
		return Envelope{}, err
	}
	id := "x-morris-" + r.Variant()
	m, err := ManifestFor(r, id, 1)
	if err != nil {
		return Envelope{}, err
	}
	sem, err := m.SemanticDigest()
	if err != nil {
		return Envelope{}, err
	}
	if len(r.Overrides()) > 0 {
		m.ID = id + "-" + strings.TrimPrefix(sem, "sha256:")[:8]
	}
	doc, err := m.DocumentDigest()
	if err != nil {
		return Envelope{}, err
	}
	return Envelope{
		Format: "MIFPOS/1.0", PositionFormat: Signature, StateProfile: StateProfile, Position: mfen,
		Ruleset: Ruleset{Mode: "portable", ID: m.ID, Version: 1, SemanticDigest: sem, DocumentDigest: doc, Manifest: &m},
	}, nil
}
