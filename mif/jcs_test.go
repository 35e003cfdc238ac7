package mif

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestES6Number(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-2.5, "-2.5"}, {123.456, "123.456"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1.5e21, "1.5e+21"},
		{0.000001, "0.000001"}, {1e-7, "1e-7"}, {1.25e-7, "1.25e-7"}, {0.1, "0.1"},
		{9007199254740991, "9007199254740991"}, {math.MaxFloat64, "1.7976931348623157e+308"},
	} {
		if got := es6Number(c.f); got != c.want {
			t.Errorf("es6Number(%v) = %s, want %s", c.f, got, c.want)
		}
	}
}

func TestCanonicalJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"b":1,"a":[true,null,"x"]}`, `{"a":[true,null,"x"],"b":1}`},
		{`{"a":"<&>\u2028é\n\u0001"}`, "{\"a\":\"<&>\u2028é\\n\\u0001\"}"},
		{`{"\ue000":1,"\ud800\udc00":2}`, "{\"\U00010000\":2,\"\ue000\":1}"}, // UTF-16 order: the astral point first
		{`[1.0,-0.0,1e2,0.5e-6]`, `[1,0,100,5e-7]`},
	} {
		v, err := generic([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		var buf bytes.Buffer
		if err := canonicalJSON(&buf, v); err != nil || buf.String() != c.want {
			t.Errorf("canonical %s = %s, %v; want %s", c.in, buf.String(), err, c.want)
		}
	}
	for _, in := range []string{`{"a":"\ud800"}`, `{"a":"\udc00x"}`, `{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `{"a":1} x`} {
		if _, err := generic([]byte(in)); !errors.Is(err, ErrSyntax) {
			t.Errorf("generic(%s) = %v, want ErrSyntax", in, err)
		}
	}
}
