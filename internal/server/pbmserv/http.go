package pbmserv

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/morrisgame/morris/internal/server/clientaddr"
)

// MaxBody is the largest body of POST /pbm.
const MaxBody = 64 << 10

// HTTPHandler returns the handler of POST /pbm: the body is one command
// line or several (text/plain), executed in order as if sent on one
// connection, except that subscribe and notify need USERID PASSWORD there.
// The answer is their answers, each framed as on the TCP port (ending with
// a line holding a dot), with status 200 even when a command failed: the
// answers say so. Blank lines are skipped.
func (g *Gateway) HTTPHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store") // answers may echo moves of private games
		if r.Method != http.MethodPost {
			h.Set("Allow", http.MethodPost)
			w.WriteHeader(http.StatusMethodNotAllowed)
			_, _ = io.WriteString(w, frame("error: send the command lines with POST, as a text/plain body\n"))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				w.WriteHeader(http.StatusRequestEntityTooLarge)
				_, _ = io.WriteString(w, frame("error: the body is larger than 64 KiB: send fewer lines at a time\n"))
				return
			}
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, frame("error: the body could not be read\n"))
			return
		}
		// Mounted under the HTTP API, the client's address comes resolved
		// behind the trusted proxies (-trusted-proxies); alone, the peer's.
		addr, ok := clientaddr.FromContext(r.Context())
		if !ok {
			addr = r.RemoteAddr
		}
		sess := NewSession(addr, nil)
		defer sess.Close()
		var out strings.Builder
		for line := range strings.Lines(string(body)) {
			line = strings.TrimRight(line, "\r\n")
			if strings.TrimSpace(line) == "" {
				continue
			}
			out.WriteString(frame(g.Exec(r.Context(), sess, line)))
		}
		if out.Len() == 0 {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, frame("error: the body holds no command: try help\n"))
			return
		}
		_, _ = io.WriteString(w, out.String())
	})
}
