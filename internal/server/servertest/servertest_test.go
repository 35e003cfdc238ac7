package servertest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/store/storetest"
)

// TestStart: on each backend a started service signs a user up, its log
// is read, and a handler given the server is served over a socket.
func TestStart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := Start(t, server.Config{}, DSN(dsn), LogLevel(slog.LevelDebug), HTTP(func(s *Server) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				u, err := s.Service.UserByName(r.Context(), r.URL.Path[1:])
				if err != nil {
					http.Error(w, err.Error(), http.StatusNotFound)
					return
				}
				s.Logger.Info("served", "user", u.Name)
				io.WriteString(w, u.Name)
			})
		}))
		if _, err := s.Service.SignUp(context.Background(), "test", "ann", "secret-ann", ""); err != nil {
			t.Fatal(err)
		}
		resp, err := s.HTTP.Client().Get(s.URL + "/ann")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != "ann" {
			t.Errorf("GET /ann: got %d %q, want 200 ann", resp.StatusCode, body)
		}
		if !strings.Contains(s.Log.String(), "msg=served user=ann") {
			t.Errorf("the log lacks the handler's line:\n%s", s.Log.String())
		}
	})
}
