package mif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// es6Number writes f as ECMAScript's Number.prototype.toString does, which
// RFC 8785 prescribes: the shortest digits that read back to f, in plain
// notation from 1e-6 up to 1e21, else with an exponent.
func es6Number(f float64) string {
	if f == 0 {
		return "0" // -0 too
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.dddde±XX
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	n, k := exp+1, len(digits) // the point stands after n digits
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	if n-1 >= 0 {
		return sign + out + "e+" + strconv.Itoa(n-1)
	}
	return sign + out + "e-" + strconv.Itoa(1-n)
}

// checkSurrogates refuses a JSON text with an unpaired surrogate escape
// (\ud800 alone), which encoding/json would quietly turn into U+FFFD.
func checkSurrogates(data []byte) error {
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case c == '\\' && i+1 < len(data):
			i++
			if data[i] != 'u' || i+4 >= len(data) {
				continue
			}
			u, err := strconv.ParseUint(string(data[i+1:i+5]), 16, 16)
			if err != nil {
				return fmt.Errorf("%w: a bad \\u escape", ErrSyntax)
			}
			i += 4
			switch {
			case 0xDC00 <= u && u <= 0xDFFF:
				return fmt.Errorf("%w: an unpaired surrogate \\u%04x", ErrSyntax, u)
			case 0xD800 <= u && u <= 0xDBFF:
				if i+6 >= len(data) || data[i+1] != '\\' || data[i+2] != 'u' {
					return fmt.Errorf("%w: an unpaired surrogate \\u%04x", ErrSyntax, u)
				}
				lo, err := strconv.ParseUint(string(data[i+3:i+7]), 16, 16)
				if err != nil || lo < 0xDC00 || lo > 0xDFFF {
					return fmt.Errorf("%w: an unpaired surrogate \\u%04x", ErrSyntax, u)
				}
				i += 6
			}
		}
	}
	return nil
}

// canonicalJSON writes v, a value decoded by encoding/json with UseNumber
// (maps, slices, strings, json.Number, bools, nil), in the JSON
// Canonicalization Scheme (RFC 8785) as the draft's digests need it: no
// white space, members sorted by their UTF-16 code units, strings escaped
// as ECMAScript does, numbers as ECMAScript writes doubles.
func canonicalJSON(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return fmt.Errorf("%w: number %s: not an IEEE 754 double", ErrSyntax, v)
		}
		buf.WriteString(es6Number(f))
	case string:
		canonicalString(buf, v)
	case []any:
		buf.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := canonicalJSON(buf, x); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return lessUTF16(keys[i], keys[j]) })
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			canonicalString(buf, k)
			buf.WriteByte(':')
			if err := canonicalJSON(buf, v[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("mif: canonical JSON of %T", v)
	}
	return nil
}

func lessUTF16(a, b string) bool {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

func canonicalString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(buf, `\u%04x`, r)
			} else {
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
}

// digestOf returns "sha256:HEX" of the canonical form of v.
func digestOf(v any) (string, error) {
	var buf bytes.Buffer
	if err := canonicalJSON(&buf, v); err != nil {
		return "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// generic decodes JSON into the values canonicalJSON takes. It refuses
// invalid UTF-8 and, as the draft asks, a member named twice in an object.
func generic(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: not UTF-8", ErrSyntax)
	}
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("%w: data after the JSON value", ErrSyntax)
	}
	return v, nil
}

// decodeValue reads one value token by token, to see duplicate names.
func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > 64 {
		return nil, fmt.Errorf("%w: JSON nested deeper than 64", ErrSyntax)
	}
	t, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
				}
				k := kt.(string)
				if _, dup := m[k]; dup {
					return nil, fmt.Errorf("%w: duplicate-member-after-unescape: %q", ErrSyntax, k)
				}
				if m[k], err = decodeValue(dec, depth+1); err != nil {
					return nil, err
				}
			}
			_, err := dec.Token()
			return m, err
		case '[':
			a := []any{}
			for dec.More() {
				x, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				a = append(a, x)
			}
			_, err := dec.Token()
			return a, err
		}
		return nil, fmt.Errorf("%w: unexpected %v", ErrSyntax, t)
	default:
		return t, nil
	}
}
