package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/netip"
	"reflect"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/internal/server"
)

// answer is what a client is told of an error: a status, a message in the
// API's words, and for the server's own failures (5xx) the request id the
// log has beside the detail. Nothing else of err reaches the client:
// store, driver and decoder texts name tables, constraints and Go types.
type answer struct {
	code    int
	msg     string
	request string
}

// failure turns an error of a handler into its answer, and logs the
// server's own failures with their detail and request id. what names the
// request in the log (its method and path, or the socket's game).
func (a *api) failure(r *http.Request, err error, what ...any) answer {
	var se *statusError
	var ans answer
	switch {
	case errors.As(err, &se):
		ans = answer{code: se.code, msg: se.msg}
	case errors.Is(err, context.Canceled):
		ans = answer{code: 499, msg: "request cancelled"}
	default:
		kind, msg := server.Public(err)
		ans = answer{code: kind.Status(), msg: msg}
	}
	if ans.code >= 500 && !errors.Is(err, server.ErrFull) { // the store logs a full disk itself, once rather than once a request
		ans.request = a.requestID(r)
		if ans.code == http.StatusInternalServerError {
			ans.msg = fmt.Sprintf("internal error (request %s)", ans.request)
		}
		a.log.Error("request failed", append(append([]any{"request", ans.request}, what...), "err", err)...)
	}
	return ans
}

// requestID names a request that failed: the id a trusted proxy gave it
// (nginx's $request_id in X-Request-Id, which its access log can hold
// too), or a new one. An id from anyone else, or one that is not a short
// word, is not believed: it would let a client write into the log.
func (a *api) requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); id != "" && len(id) <= 64 && isWord(id) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		if peer, err := netip.ParseAddr(host); err == nil {
			for _, p := range a.cfg.TrustedProxies {
				if p.Contains(peer.Unmap()) {
					return id
				}
			}
		}
	}
	return server.NewRequestID()
}

func isWord(s string) bool {
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// logAttrs are the attributes of a failed request in the log: its method
// and path (never its query, which may hold a secret).
func logAttrs(r *http.Request) []any {
	return []any{"method", r.Method, "path", r.URL.Path}
}

// jsonMessage says in the API's words what is wrong with a JSON text that
// Go's decoder refused: which field, what it expects and what it got
// ("level: a number is expected, not a string"), where the syntax breaks.
// Go's own messages name Go types and struct fields ("cannot unmarshal
// string into Go struct field gameBody.level of type int").
func jsonMessage(what string, err error) string {
	var te *json.UnmarshalTypeError
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := strings.Trim(te.Field, ".")
		if field == "" {
			field = what
		}
		got := jsonKindName(te.Value)
		want := goKindName(te.Type)
		if number, ok := strings.CutPrefix(te.Value, "number "); ok {
			got = number
			if f, err := strconv.ParseFloat(number, 64); err != nil || math.Trunc(f) == f {
				return fmt.Sprintf("%s: %s is out of range", field, number)
			}
			if want == "a number" {
				want = "a whole number"
			}
		}
		return fmt.Sprintf("%s: %s is expected, not %s", field, want, got)
	case errors.As(err, &syn):
		return fmt.Sprintf("%s is not valid JSON: %s (at byte %d)", what, syn.Error(), syn.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return what + " ends before its JSON does"
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown field " + field
	}
	return what + " is not the JSON expected"
}

// jsonKindName names a JSON value as the decoder's UnmarshalTypeError
// does ("string", "number", "bool", "array", "object").
func jsonKindName(v string) string {
	switch v {
	case "string":
		return "a string"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "an object"
	case "null":
		return "null"
	}
	return "a " + v
}

// goKindName names what a Go type takes in JSON.
func goKindName(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another value"
}
