package mif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Manifest is an MRS/1.0 rule-set manifest, member by member. Its objects
// are closed: ParseManifest refuses a member it does not list.
type Manifest struct {
	Format           string            `json:"format"`
	ID               string            `json:"id"`
	Version          int               `json:"version"`
	Title            string            `json:"title"`
	Status           string            `json:"status"`
	Description      string            `json:"description,omitempty"`
	SemanticsProfile string            `json:"semanticsProfile"`
	Topology         string            `json:"topology"`
	Pieces           MRSPieces         `json:"pieces"`
	Turn             MRSTurn           `json:"turn"`
	Flying           MRSFlying         `json:"flying"`
	Placing          MRSPlacing        `json:"placing"`
	Mills            MRSMills          `json:"mills"`
	Captures         MRSCaptures       `json:"captures"`
	BoardFull        MRSBoardFull      `json:"boardFull"`
	Stalemate        MRSStalemate      `json:"stalemate"`
	Draw             MRSDraw           `json:"draw"`
	SemanticState    []string          `json:"semanticState"`
	Annotations      map[string]any    `json:"annotations,omitempty"`
	Extensions       []json.RawMessage `json:"extensions,omitempty"`
}

type (
	MRSPieces struct {
		White       int `json:"white"`
		Black       int `json:"black"`
		MinimumLive int `json:"minimumLive"`
	}
	MRSTurn struct {
		Initial                string `json:"initial"`
		PlacingEndActivePlayer string `json:"placingEndActivePlayer"`
	}
	MRSFlying struct {
		Enabled     bool `json:"enabled"`
		MaximumLive int  `json:"maximumLive"`
	}
	MRSPlacing struct {
		MovementAllowed      bool         `json:"movementAllowed"`
		EarlyStop            MRSEarlyStop `json:"earlyStop"`
		NoLegalPrimaryAction string       `json:"noLegalPrimaryAction"`
	}
	MRSEarlyStop struct {
		EmptyPoints int    `json:"emptyPoints"`
		Boundary    string `json:"boundary"`
	}
	MRSMills struct {
		PlacingEffect        string `json:"placingEffect"`
		MovingEffect         string `json:"movingEffect"`
		RemovalMultiplicity  string `json:"removalMultiplicity"`
		TargetProtection     string `json:"targetProtection"`
		LineReuse            string `json:"lineReuse"`
		ReverseReformation   string `json:"reverseReformation"`
		DelayedClearBoundary string `json:"delayedClearBoundary"`
	}
	MRSCaptures struct {
		Resolution   string       `json:"resolution"`
		Custodian    MRSMechanism `json:"custodian"`
		Intervention MRSMechanism `json:"intervention"`
		Leap         MRSMechanism `json:"leap"`
	}
	MRSMechanism struct {
		Enabled              bool     `json:"enabled"`
		Lines                MRSLines `json:"lines"`
		Phases               []string `json:"phases"`
		MaximumOwnLivePieces *int     `json:"maximumOwnLivePieces"`
	}
	MRSLines struct {
		SquareEdges bool `json:"squareEdges"`
		Cross       bool `json:"cross"`
		Diagonal    bool `json:"diagonal"`
	}
	MRSBoardFull struct {
		Action string `json:"action"`
	}
	MRSStalemate struct {
		Action              string `json:"action"`
		BoardRemovalTargets string `json:"boardRemovalTargets"`
	}
	MRSDraw struct {
		NoProgress  MRSNoProgress  `json:"noProgress"`
		Repetition  MRSRepetition  `json:"repetition"`
		Offers      MRSOffers      `json:"offers"`
		ClaimRights MRSClaimRights `json:"claimRights"`
	}
	MRSNoProgress struct {
		NormalLimit           int      `json:"normalLimit"`
		EndgameLimit          int      `json:"endgameLimit"`
		EndgamePredicate      string   `json:"endgamePredicate"`
		Mode                  string   `json:"mode"`
		CountedPrimaryActions []string `json:"countedPrimaryActions"`
		ResetEvents           []string `json:"resetEvents"`
		EvaluationBoundary    string   `json:"evaluationBoundary"`
	}
	MRSRepetition struct {
		Count       int      `json:"count"`
		Mode        string   `json:"mode"`
		Observation string   `json:"observation"`
		Projection  string   `json:"projection"`
		Summary     string   `json:"summary"`
		ResetEvents []string `json:"resetEvents"`
	}
	MRSOffers struct {
		Expiry string `json:"expiry"`
	}
	MRSClaimRights struct {
		Profile string `json:"profile"`
	}
)

// ManifestError is a manifest the draft calls invalid: Code is the draft's
// error code where it names one ("no-legal-primary-action-policy-invalid"),
// else "manifest-invalid". It unwraps to ErrSyntax.
type ManifestError struct {
	Code string
	Msg  string
}

func (e *ManifestError) Error() string { return "MRS: " + e.Code + ": " + e.Msg }
func (e *ManifestError) Unwrap() error { return ErrSyntax }

// ParseManifest reads and validates an MRS/1.0 manifest.
func ParseManifest(data []byte) (Manifest, error) {
	if len(data) > 1<<20 {
		return Manifest{}, &ManifestError{"resource-limit", "larger than 1 MiB"}
	}
	if _, err := generic(data); err != nil { // duplicate names, depth, UTF-8
		return Manifest{}, &ManifestError{"manifest-invalid", err.Error()}
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, &ManifestError{"manifest-invalid", err.Error()}
	}
	if err := m.Validate(); err != nil {
		return Manifest{}, err
	}
	return m, nil
}

func oneOf(what, v string, allowed ...string) error {
	if !contains(allowed, v) {
		return &ManifestError{"manifest-invalid", fmt.Sprintf("%s %q: want one of %s", what, v, strings.Join(allowed, ", "))}
	}
	return nil
}

func sortedSet(what string, a []string, allowed ...string) error {
	for i, v := range a {
		if !contains(allowed, v) {
			return &ManifestError{"manifest-invalid", fmt.Sprintf("%s: %q is not one of %s", what, v, strings.Join(allowed, ", "))}
		}
		if i > 0 && a[i-1] >= v {
			return &ManifestError{"manifest-invalid", fmt.Sprintf("%s: not sorted and unique", what)}
		}
	}
	return nil
}

// Validate checks the manifest's values and the consistency rules of the
// draft (clause 10). It does not ask whether morris can play it: Options
// does.
func (m Manifest) Validate() error {
	bad := func(code, format string, args ...any) error {
		return &ManifestError{code, fmt.Sprintf(format, args...)}
	}
	if len(m.Extensions) > 0 {
		return bad("unsupported-profile", "semantic extensions: morris implements none, and unknown ones are refused")
	}
	c, mi := m.Captures, m.Mills
	checks := []error{
		oneOf("format", m.Format, "MRS/1.0"),
		oneOf("status", m.Status, "fixture", "experimental", "registered", "deprecated"),
		oneOf("semanticsProfile", m.SemanticsProfile, "mif-finite-rules-v3"),
		oneOf("topology", m.Topology, "mill24-orthogonal-v1", "mill24-diagonal-v1"),
		oneOf("turn.initial", m.Turn.Initial, "w", "b"),
		oneOf("turn.placingEndActivePlayer", m.Turn.PlacingEndActivePlayer, "w", "b", "retain"),
		oneOf("placing.earlyStop.boundary", m.Placing.EarlyStop.Boundary, "after-unobligated-place-v1"),
		oneOf("placing.noLegalPrimaryAction", m.Placing.NoLegalPrimaryAction, "apply-board-full", "loss", "draw"),
		oneOf("mills.placingEffect", mi.PlacingEffect, "remove-opponent-board", "remove-opponent-hand-change", "remove-opponent-hand-retain",
			"opponent-remove-own-board", "mark-opponent-board-until-moving", "remove-by-current-mill-count-at-placing-end"),
		oneOf("mills.movingEffect", mi.MovingEffect, "remove-opponent-board"),
		oneOf("mills.removalMultiplicity", mi.RemovalMultiplicity, "one-per-primary", "one-per-new-line"),
		oneOf("mills.targetProtection", mi.TargetProtection, "outside-mill-first", "all-opponent"),
		oneOf("mills.lineReuse", mi.LineReuse, "unlimited", "once-per-player"),
		oneOf("mills.reverseReformation", mi.ReverseReformation, "allowed", "prohibit-immediate"),
		oneOf("mills.delayedClearBoundary", mi.DelayedClearBoundary, "on-enter-moving-v1"),
		oneOf("captures.resolution", c.Resolution, "target-commits-v1"),
		oneOf("boardFull.action", m.BoardFull.Action, "disabled", "white-loses", "white-then-black-remove", "black-then-white-remove", "active-player-removes", "draw"),
		oneOf("stalemate.action", m.Stalemate.Action, "loss", "change-player", "remove-and-retain", "remove-and-change", "draw", "both-remove"),
		oneOf("stalemate.boardRemovalTargets", m.Stalemate.BoardRemovalTargets, "adjacent-opponent"),
		oneOf("draw.noProgress.endgamePredicate", m.Draw.NoProgress.EndgamePredicate, "none", "either-player-live-equals-3"),
		oneOf("draw.noProgress.mode", m.Draw.NoProgress.Mode, "automatic", "claim"),
		oneOf("draw.noProgress.evaluationBoundary", m.Draw.NoProgress.EvaluationBoundary, "stable-after-primary-sequence-v1"),
		sortedSet("draw.noProgress.countedPrimaryActions", m.Draw.NoProgress.CountedPrimaryActions, "move", "place"),
		sortedSet("draw.noProgress.resetEvents", m.Draw.NoProgress.ResetEvents, "board-remove", "hand-remove", "mill-formation", "place"),
		oneOf("draw.repetition.mode", m.Draw.Repetition.Mode, "automatic", "claim"),
		oneOf("draw.repetition.observation", m.Draw.Repetition.Observation, "stable-moving-v1", "stable-primary-decision-v1"),
		oneOf("draw.repetition.projection", m.Draw.Repetition.Projection, "repetition-observation-v1"),
		oneOf("draw.repetition.summary", m.Draw.Repetition.Summary, "reset-count-smt-v1"),
		sortedSet("draw.repetition.resetEvents", m.Draw.Repetition.ResetEvents, "board-remove", "hand-remove", "mill-formation", "place"),
		oneOf("draw.offers.expiry", m.Draw.Offers.Expiry, "explicit-only", "on-opponent-primary-action"),
		oneOf("draw.claimRights.profile", m.Draw.ClaimRights.Profile, "stable-claim-rights-v1"),
		sortedSet("semanticState", m.SemanticState, "last-mill", "placement-count", "used-lines"),
	}
	for name, mech := range map[string]MRSMechanism{"custodian": c.Custodian, "intervention": c.Intervention, "leap": c.Leap} {
		checks = append(checks, sortedSet("captures."+name+".phases", mech.Phases, "moving", "placing"))
		if mech.MaximumOwnLivePieces != nil && *mech.MaximumOwnLivePieces < 1 {
			checks = append(checks, bad("manifest-invalid", "captures.%s.maximumOwnLivePieces: positive or null", name))
		}
		if mech.Enabled && !mech.Lines.SquareEdges && !mech.Lines.Cross && !(mech.Lines.Diagonal && m.Topology == "mill24-diagonal-v1") {
			checks = append(checks, bad("manifest-invalid", "captures.%s: enabled with no line family", name))
		}
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	p := m.Pieces
	ints := []int{m.Version, p.White, p.Black, p.MinimumLive, m.Flying.MaximumLive, m.Placing.EarlyStop.EmptyPoints,
		m.Draw.NoProgress.NormalLimit, m.Draw.NoProgress.EndgameLimit, m.Draw.Repetition.Count}
	for _, mech := range []MRSMechanism{c.Custodian, c.Intervention, c.Leap} {
		if mech.MaximumOwnLivePieces != nil {
			ints = append(ints, *mech.MaximumOwnLivePieces)
		}
	}
	for _, n := range ints {
		if n > maxInt {
			return bad("integer-out-of-range", "%d: above 2^53-1", n)
		}
	}
	switch {
	case !isIdentifier(m.ID):
		return bad("manifest-invalid", "id %q: 1 to 63 lower-case letters, digits, dots or hyphens", m.ID)
	case m.Version < 1:
		return bad("manifest-invalid", "version %d: a positive integer", m.Version)
	case m.Title == "":
		return bad("manifest-invalid", "title is required")
	case p.White < 1 || p.Black < 1 || p.MinimumLive < 1 || p.MinimumLive > p.White || p.MinimumLive > p.Black:
		return bad("manifest-invalid", "pieces: positive counts, minimumLive no more than either")
	case m.Flying.MaximumLive < 1:
		return bad("manifest-invalid", "flying.maximumLive: a positive integer")
	case m.Flying.Enabled && m.Flying.MaximumLive < p.MinimumLive:
		return bad("manifest-invalid", "flying.maximumLive below pieces.minimumLive")
	case m.Placing.EarlyStop.EmptyPoints < 0, m.Draw.NoProgress.NormalLimit < 0, m.Draw.NoProgress.EndgameLimit < 0:
		return bad("integer-out-of-range", "a negative count")
	case m.Draw.NoProgress.EndgamePredicate == "none" && m.Draw.NoProgress.EndgameLimit != 0:
		return bad("manifest-invalid", "draw.noProgress: endgamePredicate none needs endgameLimit 0")
	case m.Draw.Repetition.Count == 1 || m.Draw.Repetition.Count < 0:
		return bad("manifest-invalid", "draw.repetition.count: 0 or at least 2")
	case mi.LineReuse == "once-per-player" && !contains(m.SemanticState, "used-lines"):
		return bad("required-semantic-state-missing", "mills.lineReuse once-per-player needs semanticState used-lines")
	case mi.ReverseReformation == "prohibit-immediate" && !contains(m.SemanticState, "last-mill"):
		return bad("required-semantic-state-missing", "mills.reverseReformation prohibit-immediate needs semanticState last-mill")
	case m.Placing.NoLegalPrimaryAction == "apply-board-full" && m.BoardFull.Action == "disabled":
		return bad("no-legal-primary-action-policy-invalid", "placing.noLegalPrimaryAction apply-board-full with boardFull.action disabled")
	case mi.PlacingEffect == "opponent-remove-own-board" && (enabledIn(c.Custodian, "placing") || enabledIn(c.Intervention, "placing") || enabledIn(c.Leap, "placing")):
		return bad("manifest-invalid", "opponent-remove-own-board with a capture mechanism while placing")
	}
	return nil
}

func enabledIn(m MRSMechanism, phase string) bool { return m.Enabled && contains(m.Phases, phase) }

// DocumentDigest returns the digest of the whole manifest (its JCS form).
func (m Manifest) DocumentDigest() (string, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	v, err := generic(data)
	if err != nil {
		return "", err
	}
	return digestOf(v)
}

// SemanticDigest returns the digest of the manifest's rules alone (the
// draft's mrs-semantic-v1 projection): titles and notes do not change it,
// and mechanisms switched off fold to their short forms.
func (m Manifest) SemanticDigest() (string, error) {
	if err := m.Validate(); err != nil {
		return "", err
	}
	full, err := toGeneric(m)
	if err != nil {
		return "", err
	}
	proj := map[string]any{"profile": "mrs-semantic-v1"}
	for _, k := range []string{"semanticsProfile", "topology", "pieces", "turn", "flying", "placing", "mills", "captures", "boardFull", "stalemate", "draw", "semanticState"} {
		proj[k] = full[k]
	}
	if !m.Flying.Enabled {
		proj["flying"] = map[string]any{"enabled": false}
	}
	if m.Placing.EarlyStop.EmptyPoints == 0 {
		proj["placing"].(map[string]any)["earlyStop"] = map[string]any{"emptyPoints": json.Number("0")}
	}
	caps := proj["captures"].(map[string]any)
	for name, mech := range map[string]MRSMechanism{"custodian": m.Captures.Custodian, "intervention": m.Captures.Intervention, "leap": m.Captures.Leap} {
		if !mech.Enabled {
			caps[name] = map[string]any{"enabled": false}
		}
	}
	draw := proj["draw"].(map[string]any)
	if m.Draw.NoProgress.NormalLimit == 0 && m.Draw.NoProgress.EndgameLimit == 0 {
		draw["noProgress"] = map[string]any{"enabled": false}
	}
	if m.Draw.Repetition.Count == 0 {
		draw["repetition"] = map[string]any{"count": json.Number("0")}
	}
	return digestOf(proj)
}

func toGeneric(m Manifest) (map[string]any, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	v, err := generic(data)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// Difference is one way in which a rule set of one side cannot be said in
// the other: the member (a manifest path, or our option), its value, why.
type Difference struct {
	Member, Value, Why string
}

func (d Difference) String() string { return d.Member + "=" + d.Value + ": " + d.Why }

// DifferError lists every difference found. It unwraps to ErrUnsupported.
type DifferError struct {
	What  string // "MRS example@1" or "rules lasker"
	Diffs []Difference
}

func (e *DifferError) Error() string {
	s := make([]string, len(e.Diffs))
	for i, d := range e.Diffs {
		s[i] = d.String()
	}
	return e.What + " has no equivalent in the other: " + strings.Join(s, "; ")
}
func (e *DifferError) Unwrap() error { return ErrUnsupported }

// Options returns the manifest as our rule options, or a *DifferError that
// names every member our options cannot say.
func (m Manifest) Options() (mill.Options, error) {
	o := mill.DefaultOptions()
	var diffs []Difference
	differ := func(member, value, why string) { diffs = append(diffs, Difference{member, value, why}) }
	if m.Topology == "mill24-diagonal-v1" {
		o.Board, o.DiagonalMills = "diagonal24", true
	}
	if m.Pieces.White != m.Pieces.Black {
		differ("pieces", fmt.Sprintf("%d,%d", m.Pieces.White, m.Pieces.Black), "morris gives both sides the same number of pieces")
	} else if m.Pieces.White < 3 || m.Pieces.White > 12 {
		differ("pieces.white", fmt.Sprint(m.Pieces.White), "morris plays 3 to 12 pieces a side")
	}
	o.Pieces = m.Pieces.White
	if m.Pieces.MinimumLive > 3 {
		differ("pieces.minimumLive", fmt.Sprint(m.Pieces.MinimumLive), "our min-pieces is 1..3")
	}
	o.MinPieces = m.Pieces.MinimumLive
	if m.Turn.Initial == "b" {
		o.FirstPlayer = mill.FirstBlack
	}
	o.FlyAt = 0
	if m.Flying.Enabled {
		o.FlyAt = m.Flying.MaximumLive
		if o.FlyAt < 3 || o.FlyAt > o.Pieces {
			differ("flying.maximumLive", fmt.Sprint(o.FlyAt), "our flying is never or 3..pieces")
		}
	}
	o.MoveWhilePlacing = m.Placing.MovementAllowed
	if n := m.Placing.EarlyStop.EmptyPoints; n != 0 {
		differ("placing.earlyStop.emptyPoints", fmt.Sprint(n), "morris has no early end of placing")
	}
	// placing.noLegalPrimaryAction is never reached with 12 pieces a side or
	// fewer on 24 points: a side with pieces in hand always has an empty point.
	switch m.Mills.PlacingEffect {
	case "remove-opponent-board":
	case "remove-opponent-hand-change":
		o.PlacingCaptures = mill.CaptureFromHand
	case "mark-opponent-board-until-moving":
		o.PlacingCaptures = mill.CaptureMark
	case "remove-by-current-mill-count-at-placing-end":
		o.PlacingCaptures = mill.CaptureCounted
	default:
		differ("mills.placingEffect", m.Mills.PlacingEffect, "no placing-captures of morris does this")
	}
	o.CapturePerMill = m.Mills.RemovalMultiplicity == "one-per-new-line"
	if m.Mills.TargetProtection == "all-opponent" {
		o.Protection = mill.ProtectNone
	}
	o.OneTimeMills = m.Mills.LineReuse == "once-per-player"
	o.ReformBan = m.Mills.ReverseReformation == "prohibit-immediate"
	if contains(m.SemanticState, "placement-count") {
		differ("semanticState", "placement-count", "no rule of morris counts placements")
	}
	for name, mech := range map[string]MRSMechanism{"custodian": m.Captures.Custodian, "intervention": m.Captures.Intervention, "leap": m.Captures.Leap} {
		if mech.Enabled {
			differ("captures."+name+".enabled", "true", "morris captures by mills only")
		}
	}
	// The turn after placing: ours alternates on ("retain") unless the
	// second player moves first; the draft names a colour.
	first := m.Turn.Initial
	second := map[string]string{"w": "b", "b": "w"}[first]
	switch pe := m.Turn.PlacingEndActivePlayer; {
	case pe == "retain":
	case pe == second:
		o.SecondMovesFirst = true
	case pe == first && !o.MoveWhilePlacing && o.PlacingCaptures != mill.CaptureFromHand:
		// The hands empty in turn, so the first player is to move anyway.
	default:
		differ("turn.placingEndActivePlayer", pe, "morris alternates after placing, or lets the second player move first")
	}
	switch a := m.BoardFull.Action; a {
	case "disabled":
	case "draw":
		o.FullBoard = mill.FullBoardDraw
	case "white-loses":
		o.FullBoard = mill.FullBoardFirstLoses
		if first != "w" {
			differ("boardFull.action", a, "our full-board=first-loses makes the first player lose, and black is first")
		}
	case "white-then-black-remove", "black-then-white-remove":
		o.FullBoard = mill.FullBoardRemovals
		mover := first
		if o.SecondMovesFirst {
			mover = second
		}
		if a[:1] != mover {
			differ("boardFull.action", a, "our full-board=removals starts with the side to move, which is "+mover)
		}
	default:
		differ("boardFull.action", a, "no full-board rule of morris does this")
	}
	switch a := m.Stalemate.Action; a {
	case "loss":
	case "draw":
		o.Blocked = mill.BlockedDraw
	case "change-player":
		o.Blocked, o.Gridlock = mill.BlockedPasses, mill.GridlockDraw
	case "remove-and-retain":
		o.Blocked = mill.BlockedRemoves
	default:
		differ("stalemate.action", a, "no blocked rule of morris does this")
	}
	np := m.Draw.NoProgress
	o.DrawAfter = np.NormalLimit
	switch {
	case np.NormalLimit == 0 && np.EndgameLimit != 0:
		differ("draw.noProgress.endgameLimit", fmt.Sprint(np.EndgameLimit), "morris has one limit for the whole game")
	case np.EndgameLimit != 0 && np.EndgameLimit != np.NormalLimit:
		differ("draw.noProgress.endgameLimit", fmt.Sprint(np.EndgameLimit), fmt.Sprintf("morris has one limit for the whole game (here %d)", np.NormalLimit))
	case np.NormalLimit > 1000:
		differ("draw.noProgress.normalLimit", fmt.Sprint(np.NormalLimit), "our draw-after is 0..1000")
	}
	if o.DrawAfter > 0 {
		if np.Mode != "automatic" {
			differ("draw.noProgress.mode", np.Mode, "our no-progress draw comes at once, not on a claim")
		}
		if strings.Join(np.CountedPrimaryActions, ",") != "move" {
			differ("draw.noProgress.countedPrimaryActions", strings.Join(np.CountedPrimaryActions, ","), "ours counts moves only")
		}
		if !contains(np.ResetEvents, "board-remove") {
			differ("draw.noProgress.resetEvents", strings.Join(np.ResetEvents, ","), "ours starts again at every capture")
		}
	}
	rep := m.Draw.Repetition
	o.Repetition = rep.Count
	if rep.Count > 9 {
		differ("draw.repetition.count", fmt.Sprint(rep.Count), "our repetition is 0 or 2..9")
	}
	if rep.Count > 0 {
		if rep.Mode != "automatic" {
			differ("draw.repetition.mode", rep.Mode, "our repetition draws at once, not on a claim")
		}
		if rep.Observation == "stable-moving-v1" && o.MoveWhilePlacing {
			differ("draw.repetition.observation", rep.Observation, "ours counts positions while placing too, where move-while-placing lets them repeat")
		}
	}
	if len(diffs) == 0 {
		if err := o.Validate(); err != nil {
			differ("(combination)", "", err.Error())
		}
	}
	if len(diffs) > 0 {
		return mill.Options{}, &DifferError{What: fmt.Sprintf("MRS %s@%d", m.ID, m.Version), Diffs: diffs}
	}
	return o, nil
}

// Rules returns the manifest as our rules: the preset nearest to it (the
// fewest overrides) with the overrides it needs.
func (m Manifest) Rules() (*mill.Rules, error) {
	o, err := m.Options()
	if err != nil {
		return nil, err
	}
	return RulesFor(o)
}

// RulesFor names opts as a preset with the fewest overrides.
func RulesFor(o mill.Options) (*mill.Rules, error) {
	best, bestDiff := "", []string(nil)
	for _, v := range mill.Variants() {
		d := o.Diff(v.Options)
		if best == "" || len(d) < len(bestDiff) {
			best, bestDiff = v.ID, d
		}
	}
	return mill.NewRules(best, bestDiff...)
}

// ManifestFor writes rules as an MRS/1.0 manifest with the given id and
// version, or returns a *DifferError naming every option of ours the
// draft cannot say.
func ManifestFor(r *mill.Rules, id string, version int) (Manifest, error) {
	o := r.Options()
	var diffs []Difference
	differ := func(option, why string) {
		opt, _ := mill.LookupOption(option)
		diffs = append(diffs, Difference{option, opt.Get(&o), why})
	}
	m := Manifest{
		Format: "MRS/1.0", ID: id, Version: version, Title: r.String(), Status: "experimental",
		SemanticsProfile: "mif-finite-rules-v3", Topology: "mill24-orthogonal-v1",
		Pieces:        MRSPieces{o.Pieces, o.Pieces, o.MinPieces},
		Turn:          MRSTurn{"w", "retain"},
		Flying:        MRSFlying{o.FlyAt != 0, max(o.FlyAt, o.MinPieces)},
		Placing:       MRSPlacing{o.MoveWhilePlacing, MRSEarlyStop{0, "after-unobligated-place-v1"}, "loss"},
		Mills:         MRSMills{"remove-opponent-board", "remove-opponent-board", "one-per-primary", "outside-mill-first", "unlimited", "allowed", "on-enter-moving-v1"},
		BoardFull:     MRSBoardFull{"disabled"},
		Stalemate:     MRSStalemate{"loss", "adjacent-opponent"},
		SemanticState: []string{},
	}
	off := MRSMechanism{Lines: MRSLines{}, Phases: []string{"moving"}}
	m.Captures = MRSCaptures{"target-commits-v1", off, off, off}
	reset := []string{"board-remove", "hand-remove", "place"}
	m.Draw = MRSDraw{
		NoProgress:  MRSNoProgress{o.DrawAfter, 0, "none", "automatic", []string{"move"}, reset, "stable-after-primary-sequence-v1"},
		Repetition:  MRSRepetition{o.Repetition, "automatic", "stable-primary-decision-v1", "repetition-observation-v1", "reset-count-smt-v1", reset},
		Offers:      MRSOffers{"explicit-only"},
		ClaimRights: MRSClaimRights{"stable-claim-rights-v1"},
	}
	switch o.Board {
	case "standard24":
	case "diagonal24":
		m.Topology = "mill24-diagonal-v1"
		if !o.DiagonalMills {
			differ("diagonal-mills", "the draft's board with diagonals makes every diagonal a mill line")
		}
	default:
		differ("board", "the draft describes the two 24-point boards only")
	}
	mover := "w"
	switch o.FirstPlayer {
	case mill.FirstBlack:
		m.Turn.Initial, mover = "b", "b"
	case mill.FirstLot:
		differ("first", "the draft names the first player; no lot")
	}
	if o.SecondMovesFirst {
		mover = map[string]string{"w": "b", "b": "w"}[m.Turn.Initial]
		m.Turn.PlacingEndActivePlayer = mover
	}
	switch o.Protection {
	case mill.ProtectNone:
		m.Mills.TargetProtection = "all-opponent"
	case mill.ProtectAlways:
		differ("protection", "the draft takes pieces in mills when there is nothing else; it cannot keep them safe always")
	}
	switch o.PlacingCaptures {
	case mill.CaptureImmediate:
	case mill.CaptureFromHand:
		m.Mills.PlacingEffect = "remove-opponent-hand-change"
	case mill.CaptureMark:
		m.Mills.PlacingEffect = "mark-opponent-board-until-moving"
	case mill.CaptureCounted:
		m.Mills.PlacingEffect = "remove-by-current-mill-count-at-placing-end"
	default:
		differ("placing-captures", "the draft has no such placing effect")
	}
	if o.CapturePerMill {
		m.Mills.RemovalMultiplicity = "one-per-new-line"
	}
	if o.ReformBan {
		m.Mills.ReverseReformation = "prohibit-immediate"
		m.SemanticState = append(m.SemanticState, "last-mill")
	}
	if o.OneTimeMills {
		m.Mills.LineReuse = "once-per-player"
		m.SemanticState = append(m.SemanticState, "used-lines")
	}
	switch {
	case o.Blocked == mill.BlockedLoses && o.Gridlock == mill.GridlockLoses:
	case o.Blocked == mill.BlockedDraw:
		m.Stalemate.Action = "draw"
	case o.Blocked == mill.BlockedPasses && o.Gridlock == mill.GridlockDraw:
		m.Stalemate.Action = "change-player"
	case o.Blocked == mill.BlockedRemoves:
		m.Stalemate.Action = "remove-and-retain"
	default:
		differ("gridlock", "the draft's blocked rule does not tell one side blocked from both")
	}
	switch o.FullBoard {
	case mill.FullBoardGridlock:
	case mill.FullBoardDraw:
		m.BoardFull.Action = "draw"
	case mill.FullBoardFirstLoses:
		m.BoardFull.Action = "white-loses"
		if m.Turn.Initial != "w" {
			differ("full-board", "the draft's full board makes white lose, whoever starts")
		}
	case mill.FullBoardRemovals:
		m.BoardFull.Action = map[string]string{"w": "white-then-black-remove", "b": "black-then-white-remove"}[mover]
	}
	for _, name := range []string{"trap-rule", "mill-wins", "centre-ban"} {
		opt, _ := mill.LookupOption(name)
		if opt.Get(&o) == "yes" {
			differ(name, "the draft has no such rule")
		}
	}
	sort.Strings(m.SemanticState)
	if len(diffs) > 0 {
		return Manifest{}, &DifferError{What: "rules " + r.String(), Diffs: diffs}
	}
	if err := m.Validate(); err != nil {
		return Manifest{}, err
	}
	return m, nil
}
