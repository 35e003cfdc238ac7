package mif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// canonicalJSON writes v, a value decoded by encoding/json with UseNumber
// (maps, slices, strings, json.Number, bools, nil), in the JSON
// Canonicalization Scheme (RFC 8785) as the draft's digests need it: no
// white space, members sorted by their UTF-16 code units, strings escaped
// as ECMAScript does. Numbers are integers only: the draft's manifests
// hold no other.
func canonicalJSON(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || n > maxInt || n < -maxInt {
			return fmt.Errorf("%w: number %s: only integers up to 2^53-1", ErrSyntax, v)
		}
		buf.WriteString(strconv.FormatInt(n, 10))
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
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
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
