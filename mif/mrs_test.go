package mif

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestManifestForPresets writes every preset as a manifest and reads it
// back; the presets the draft cannot say must be refused with the options
// that differ, and only those.
func TestManifestForPresets(t *testing.T) {
	differ := map[string]string{
		"twelve-mens-morris":       "first gridlock",
		"twelve-mens-morris-large": "board",
		"twelve-man-morris":        "first gridlock",
		"nine-man-morris-diagonal": "diagonal-mills first gridlock",
		"shah":                     "first placing-captures trap-rule",
		"mill":                     "diagonal-mills protection",
		"three-mens-morris":        "board mill-wins",
		"tapatan":                  "board mill-wins",
		"six-mens-morris":          "board",
		"seven-mens-morris":        "board",
	}
	for _, v := range mill.Variants() {
		r := rules(t, v.ID)
		m, err := ManifestFor(r, "x-morris-"+v.ID, 1)
		if want, ok := differ[v.ID]; ok {
			var de *DifferError
			if !errors.As(err, &de) || !errors.Is(err, ErrUnsupported) {
				t.Errorf("ManifestFor(%s) = %v, want a DifferError about %s", v.ID, err, want)
				continue
			}
			var got []string
			for _, d := range de.Diffs {
				got = append(got, d.Member)
			}
			if strings.Join(got, " ") != want {
				t.Errorf("ManifestFor(%s) differs in %q, want %q (%v)", v.ID, got, want, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ManifestFor(%s): %v", v.ID, err)
			continue
		}
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseManifest(data)
		if err != nil {
			t.Errorf("%s: the manifest written does not read: %v\n%s", v.ID, err, data)
			continue
		}
		o, err := m2.Options()
		if err != nil {
			t.Errorf("%s: %v", v.ID, err)
			continue
		}
		if d := o.Diff(v.Options); len(d) > 0 {
			t.Errorf("%s: read back with %v", v.ID, d)
		}
		back, err := m2.Rules()
		if err != nil || back.String() != v.ID {
			t.Errorf("%s: read back as rules %v, %v", v.ID, back, err)
		}
	}
}

// exampleManifest builds, from the facts the draft states in its annex C,
// the manifest whose digests it publishes there: nine men's morris with
// black first, no no-progress limit and threefold repetition by claim.
func exampleManifest(t *testing.T) Manifest {
	m, err := ManifestFor(rules(t, "nine-mens-morris,first=black,draw-after=0"), "example-morris", 1)
	if err != nil {
		t.Fatal(err)
	}
	m.Title, m.Status = "Example Morris", "fixture"
	m.Draw.NoProgress.ResetEvents = []string{"board-remove"}
	m.Draw.Repetition.ResetEvents = []string{"board-remove"}
	m.Draw.Repetition.Mode = "claim"
	return m
}

func TestDigests(t *testing.T) {
	m := exampleManifest(t)
	sem, err := m.SemanticDigest()
	if want := "sha256:224f7e368e322a4cc8c1225a025fb548d5b41eb096d34b7ae0543182d1aa9393"; err != nil || sem != want {
		t.Errorf("semantic digest %s, %v; want %s", sem, err, want)
	}
	doc, err := m.DocumentDigest()
	if want := "sha256:62479b6f40efb8ab478bab3d2b725647213604fcd3cc9cd4c1f69357535ae257"; err != nil || doc != want {
		t.Errorf("document digest %s, %v; want %s", doc, err, want)
	}
	m.Title = "Example Morris (retitled)"
	if got, _ := m.SemanticDigest(); got != sem {
		t.Errorf("a new title changed the semantic digest")
	}
	if got, want := must(m.DocumentDigest()), "sha256:60b8f91214e2273a0f7eb411794ce3b133c61653b2199763ab555d90f042e6e4"; got != want {
		t.Errorf("retitled document digest %s, want %s", got, want)
	}
	m.Placing.NoLegalPrimaryAction = "draw"
	if got, _ := m.SemanticDigest(); got == sem {
		t.Errorf("a new placing liveness rule left the semantic digest unchanged")
	}
	// Our rules for it differ in the repetition draw only.
	_, err = exampleManifest(t).Options()
	var de *DifferError
	if !errors.As(err, &de) || len(de.Diffs) != 1 || de.Diffs[0].Member != "draw.repetition.mode" {
		t.Errorf("Options of the example: %v, want a difference in draw.repetition.mode only", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestManifestErrors(t *testing.T) {
	good, err := json.Marshal(must(ManifestFor(rules(t, "nine-mens-morris"), "x-nine", 1)))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string { return strings.Replace(string(good), old, new, 1) }
	cases := []struct{ in, code string }{
		{edit(`"format":"MRS/1.0"`, `"format":"MRS/0.4"`), "manifest-invalid"},
		{edit(`"format":"MRS/1.0"`, `"format":"MRS/1.0","format":"MRS/1.0"`), "manifest-invalid"},
		{edit(`"format":"MRS/1.0"`, `"format":"MRS/1.0","colour":"red"`), "manifest-invalid"},
		{edit(`"noLegalPrimaryAction":"loss"`, `"noLegalPrimaryAction":"apply-board-full"`), "no-legal-primary-action-policy-invalid"},
		{edit(`"lineReuse":"unlimited"`, `"lineReuse":"once-per-player"`), "required-semantic-state-missing"},
		{edit(`"semanticState":[]`, `"semanticState":[],"extensions":[{"profile":"x-a","value":1}]`), "unsupported-profile"},
		{edit(`"countedPrimaryActions":["move"]`, `"countedPrimaryActions":["move","move"]`), "manifest-invalid"},
		{`[]`, "manifest-invalid"},
	}
	for _, c := range cases {
		_, err := ParseManifest([]byte(c.in))
		var me *ManifestError
		if !errors.As(err, &me) || me.Code != c.code {
			t.Errorf("ParseManifest(%.80s...) = %v, want code %s", c.in, err, c.code)
		}
	}
	// Rules the draft says and we do not.
	foreign := []struct{ old, new, member string }{
		{`"white":9`, `"white":10`, "pieces"},
		{`"custodian":{"enabled":false,"lines":{"squareEdges":false`, `"custodian":{"enabled":true,"lines":{"squareEdges":true`, "captures.custodian.enabled"},
		{`"action":"loss","boardRemovalTargets"`, `"action":"both-remove","boardRemovalTargets"`, "stalemate.action"},
		{`"emptyPoints":0`, `"emptyPoints":4`, "placing.earlyStop.emptyPoints"},
		{`"placingEffect":"remove-opponent-board"`, `"placingEffect":"opponent-remove-own-board"`, "mills.placingEffect"},
		{`"placingEndActivePlayer":"retain"`, `"placingEndActivePlayer":"b"`, ""},
	}
	for _, c := range foreign {
		m, err := ParseManifest([]byte(edit(c.old, c.new)))
		if err != nil {
			t.Errorf("%s: %v", c.new, err)
			continue
		}
		_, err = m.Options()
		var de *DifferError
		switch {
		case c.member == "" && err != nil:
			t.Errorf("%s: %v, want rules of ours", c.new, err)
		case c.member != "" && (!errors.As(err, &de) || de.Diffs[0].Member != c.member):
			t.Errorf("%s: %v, want a difference in %s", c.new, err, c.member)
		}
	}
}

func FuzzParseManifest(f *testing.F) {
	for _, spec := range []string{"nine-mens-morris", "dooz", "da-san-qi", "zhi-qi", "russian-mill,reform-ban=yes", "lasker"} {
		r, _ := mill.ParseRules(spec)
		m, _ := ManifestFor(r, "x-seed", 1)
		data, _ := json.Marshal(m)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%v does not wrap ErrSyntax", err)
			}
			return
		}
		if _, err := m.SemanticDigest(); err != nil {
			t.Fatalf("a valid manifest without a semantic digest: %v", err)
		}
		r, err := m.Rules()
		if err != nil {
			if !errors.Is(err, ErrUnsupported) && !errors.Is(err, mill.ErrRules) {
				t.Fatalf("Rules: %v", err)
			}
			return
		}
		m2, err := ManifestFor(r, m.ID, m.Version)
		if err != nil {
			t.Fatalf("rules %s read from a manifest cannot be written back: %v", r, err)
		}
		o, err := m2.Options()
		if err != nil || len(o.Diff(r.Options())) > 0 {
			t.Fatalf("rules %s written and read back as %v, %v", r, o.Diff(r.Options()), err)
		}
	})
}

// TestEnvelopes writes positions of several presets as MIFPOS and reads
// them back; and a changed manifest is caught by its digests.
func TestEnvelopes(t *testing.T) {
	for _, text := range []string{
		"nine-mens-morris 2B3W1/8/4B1W1 b 7,7 - 0 4",
		"russian-mill WWW5/BBB5/8 w 0,0 uw=1 3 20",
		"lasker,flying=never W7/8/7B w 9,9 - 0 2",
	} {
		p := mill.MustParsePosition(text)
		e, err := EnvelopeFor(p)
		if err != nil {
			t.Errorf("EnvelopeFor(%s): %v", text, err)
			continue
		}
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if !IsMIFPOS(string(data)) {
			t.Errorf("IsMIFPOS(%s) = false", data)
		}
		q, err := ParsePositionEnvelope(string(data))
		if err != nil || q.String() != text {
			t.Errorf("%s as MIFPOS reads back as %s, %v\n%s", text, q, err, data)
		}
		changed := strings.Replace(string(data), `"minimumLive":3`, `"minimumLive":2`, 1)
		var me *ManifestError
		if _, err := ParsePositionEnvelope(changed); !errors.As(err, &me) || me.Code != "semantic-digest-mismatch" {
			t.Errorf("%s with a changed manifest: %v, want semantic-digest-mismatch", text, err)
		}
		retitled := strings.Replace(string(data), `"title":"`, `"title":"New `, 1)
		if _, err := ParsePositionEnvelope(retitled); !errors.As(err, &me) || me.Code != "document-digest-mismatch" {
			t.Errorf("%s retitled: %v, want document-digest-mismatch", text, err)
		}
	}
	if _, err := EnvelopeFor(mill.MustParsePosition("twelve-mens-morris 8/8/8 w 12,12 - 0 0")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("twelve men's morris (first by lot) as MIFPOS: %v, want ErrUnsupported", err)
	}
	ref := `{"format":"MIFPOS/1.0","positionFormat":"MFEN/1.0","stateProfile":"mill24-state-v1","position":"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 -","ruleset":{"mode":"reference","id":"x-a","version":1,"semanticDigest":"sha256:00"}}`
	if _, err := ParsePositionEnvelope(ref); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "registry") {
		t.Errorf("a reference ruleset: %v", err)
	}
}

func FuzzParseEnvelope(f *testing.F) {
	for _, text := range []string{"nine-mens-morris 2B3W1/8/4B1W1 b 7,7 - 0 4", "russian-mill WWW5/BBB5/8 w 0,0 uw=1 3 20"} {
		e, _ := EnvelopeFor(mill.MustParsePosition(text))
		data, _ := json.Marshal(e)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseEnvelope(data)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("%v wraps neither error", err)
			}
			return
		}
		p, err := e.Resolve()
		if err != nil {
			return
		}
		if _, err := EnvelopeFor(p); err != nil && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("%s: %v", p, err)
		}
	})
}
