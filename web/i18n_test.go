package web

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// languages returns the codes of LANGUAGES in static/js/i18n.js.
func languages(t *testing.T) []string {
	t.Helper()
	src, err := static.ReadFile("static/js/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const LANGUAGES = \[(.*?)\n\];`).FindSubmatch(src)
	if block == nil {
		t.Fatal("i18n.js: no LANGUAGES list")
	}
	var codes []string
	for _, m := range regexp.MustCompile(`\['([a-z]{2})', '[^']+'\]`).FindAllSubmatch(block[1], -1) {
		codes = append(codes, string(m[1]))
	}
	if len(codes) == 0 || codes[0] != "en" {
		t.Fatalf("i18n.js: LANGUAGES %v: want English first", codes)
	}
	return codes
}

func readStrings(t *testing.T, name string) map[string]string {
	t.Helper()
	raw, err := static.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

var placeholder = regexp.MustCompile(`\{\w+\}`)

func placeholders(s string) []string {
	p := placeholder.FindAllString(s, -1)
	slices.Sort(p)
	return p
}

// rulesProse are the fields of data/rules.json that are prose, translated;
// everything else is data the client reads and must stay the same.
var rulesProse = map[string]bool{"title": true, "heading": true, "text": true, "name": true, "summary": true, "rules": true, "readings": true, "source": true}

// compareRules walks the English rules and a translation side by side.
func compareRules(en, tr any, path string, prose bool, errs *[]string) {
	compareRulesKeeping(en, tr, path, prose, nil, errs)
}

// compareRulesKeeping is compareRules with texts that may stay the same
// in every language (the names of neutral).
func compareRulesKeeping(en, tr any, path string, prose bool, keep map[string]bool, errs *[]string) {
	switch a := en.(type) {
	case map[string]any:
		b, ok := tr.(map[string]any)
		if !ok || len(a) != len(b) {
			*errs = append(*errs, path+": not the same fields")
			return
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok {
				*errs = append(*errs, path+"."+k+": missing")
				continue
			}
			compareRulesKeeping(v, w, path+"."+k, prose || rulesProse[k], keep, errs)
		}
	case []any:
		b, ok := tr.([]any)
		if !ok || len(a) != len(b) {
			*errs = append(*errs, path+": not the same length")
			return
		}
		for i := range a {
			compareRulesKeeping(a[i], b[i], fmt.Sprintf("%s[%d]", path, i), prose, keep, errs)
		}
	case string:
		if prose {
			if s, ok := tr.(string); !ok || strings.TrimSpace(s) == "" {
				*errs = append(*errs, path+": empty")
			} else if a == s && len(strings.Fields(a)) >= 3 && !keep[a] {
				*errs = append(*errs, path+": left in English")
			}
			return
		}
		if !reflect.DeepEqual(en, tr) {
			*errs = append(*errs, fmt.Sprintf("%s: data changed: %v -> %v", path, en, tr))
		}
	default:
		if !reflect.DeepEqual(en, tr) {
			*errs = append(*errs, fmt.Sprintf("%s: data changed: %v -> %v", path, en, tr))
		}
	}
}

// neutral are the keys whose text is the same in every language: names
// of games kept in their own language, and a game record.
var neutral = map[string]bool{"variant.cheng-san-qi": true, "variant.da-san-qi": true, "study.fromImport": true, "study.importPlaceholder": true}

// noSingular are the languages whose nouns have one form for every count
// (Intl.PluralRules calls every count "other"): they need no KEY.one.
var noSingular = map[string]bool{"zh": true}

// TestPluralForms: a string with a form for one (KEY.one, chosen by t in
// i18n.js where the language calls the count "one") has its form for
// every other count (KEY) beside it, in every language, and counts
// something t knows to count by.
func TestPluralForms(t *testing.T) {
	counts := []string{"plays", "games", "total", "n"} // COUNTS of i18n.js
	for _, code := range languages(t) {
		tr := readStrings(t, "static/i18n/"+code+".json")
		for k, v := range tr {
			base, ok := strings.CutSuffix(k, ".one")
			if !ok {
				continue
			}
			if _, ok := tr[base]; !ok {
				t.Errorf("%s.json: %q has no form for other counts (%q)", code, k, base)
			}
			if !slices.ContainsFunc(counts, func(c string) bool { return strings.Contains(tr[base]+v, "{"+c+"}") }) {
				t.Errorf("%s.json: %q counts none of %v", code, k, counts)
			}
		}
	}
	en := readStrings(t, "static/i18n/en.json")
	for _, k := range []string{"explorer.total", "control.days", "study.movesCount"} {
		if _, ok := en[k+".one"]; !ok {
			t.Errorf("en.json: %q has no form for one (\"1 moves\" again)", k)
		}
	}
}

// TestLanguagesComplete: every language of the switch has every key of
// en.json with the same placeholders and a text of its own (a string of
// three words or more left as in English is a key not translated), and
// the rules' prose in its language with the same facts; and no language
// file lies about that the switch does not offer.
func TestLanguagesComplete(t *testing.T) {
	codes := languages(t)
	en := readStrings(t, "static/i18n/en.json")
	var rulesEn any
	raw, err := static.ReadFile("static/data/rules.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &rulesEn); err != nil {
		t.Fatal(err)
	}
	for _, code := range codes[1:] {
		t.Run(code, func(t *testing.T) {
			tr := readStrings(t, "static/i18n/"+code+".json")
			for k, v := range en {
				w, ok := tr[k]
				switch {
				case !ok && strings.HasSuffix(k, ".one") && noSingular[code]:
					// the language says "1 game" as it says "2 games"
				case !ok:
					t.Errorf("%s.json: key %q missing", code, k)
				case strings.TrimSpace(w) == "":
					t.Errorf("%s.json: key %q empty", code, k)
				case !slices.Equal(placeholders(w), placeholders(v)):
					t.Errorf("%s.json: key %q has placeholders %v, English %v", code, k, placeholders(w), placeholders(v))
				case w == v && len(strings.Fields(v)) >= 3 && !neutral[k]:
					t.Errorf("%s.json: key %q left in English: %q", code, k, v)
				}
			}
			for k := range tr {
				if _, ok := en[k]; !ok {
					t.Errorf("%s.json: key %q is not in en.json", code, k)
				}
			}
			raw, err := static.ReadFile("static/data/rules." + code + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var rules any
			if err := json.Unmarshal(raw, &rules); err != nil {
				t.Fatalf("rules.%s.json: %v", code, err)
			}
			keep := map[string]bool{}
			for k := range neutral {
				keep[en[k]] = true
			}
			var errs []string
			compareRulesKeeping(rulesEn, rules, "rules."+code, false, keep, &errs)
			slices.Sort(errs)
			for _, e := range errs {
				t.Error(e)
			}
		})
	}
	for _, pattern := range []string{"static/i18n/*.json", "static/data/rules.*.json"} {
		files, err := fs.Glob(static, pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			base := f[strings.LastIndex(f, "/")+1:]
			code := strings.TrimSuffix(strings.TrimPrefix(base, "rules."), ".json")
			if !slices.Contains(codes, code) {
				t.Errorf("%s: language %q is not in LANGUAGES of i18n.js", f, code)
			}
		}
	}
}

// TestCompareRulesFinds: the rules' comparison finds a fact changed, a
// text left empty or in English, and a missing entry.
func TestCompareRulesFinds(t *testing.T) {
	en := map[string]any{"presets": map[string]any{"x": map[string]any{"pieces": 9.0, "summary": "three words here", "rules": []any{"a b c"}}}}
	for name, tr := range map[string]any{
		"fact":    map[string]any{"presets": map[string]any{"x": map[string]any{"pieces": 12.0, "summary": "drei Wörter hier", "rules": []any{"x y z"}}}},
		"empty":   map[string]any{"presets": map[string]any{"x": map[string]any{"pieces": 9.0, "summary": " ", "rules": []any{"x y z"}}}},
		"english": map[string]any{"presets": map[string]any{"x": map[string]any{"pieces": 9.0, "summary": "drei Wörter hier", "rules": []any{"a b c"}}}},
		"missing": map[string]any{"presets": map[string]any{"x": map[string]any{"pieces": 9.0, "summary": "drei Wörter hier"}}},
	} {
		var errs []string
		compareRules(en, tr, "r", false, &errs)
		if len(errs) != 1 {
			t.Errorf("%s: %v, want one error", name, errs)
		}
	}
}
