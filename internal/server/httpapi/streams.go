package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/morrisgame/morris/internal/server"
)

// ndjson prepares a streamed answer: NDJSON, flushed line by line, without
// the server's write timeout, which is for ordinary answers.
func ndjson(w http.ResponseWriter) (server.Send, error) {
	rc := http.NewResponseController(w)
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, err
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return nil, err
	}
	return func(line []byte) error {
		// Each write gets its own deadline: a client that stops reading is
		// dropped instead of holding the stream forever.
		_ = rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
		if line != nil {
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		if _, err := w.Write([]byte{'\n'}); err != nil {
			return err
		}
		return rc.Flush()
	}, nil
}

// since reads ?since=V: the last version a reconnecting client saw, -1 for none.
func since(r *http.Request) (int64, error) {
	s := r.URL.Query().Get("since")
	if s == "" {
		return -1, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, httpError(http.StatusBadRequest, "since %q is not a version", s)
	}
	return v, nil
}

// openStream counts a stream that is about to open, against the quota of
// the client's address (server.Conns, shared with the pbmserv TCP
// connections: 429) and against MaxStreams (503); the returned func
// closes it.
func (a *api) openStream(r *http.Request) (func(), error) {
	conns := a.svc.Conns()
	release, ok := conns.Acquire(a.remote(r))
	if !ok {
		return nil, &server.Error{Kind: server.TooMany, RetryAfter: streamRetry,
			Msg: fmt.Sprintf("this address holds %d streams and connections, its most: close one first", conns.Max())}
	}
	if n := a.streams.Add(1); a.cfg.MaxStreams > 0 && n > int64(a.cfg.MaxStreams) {
		a.streams.Add(-1)
		release()
		return nil, &server.Error{Kind: server.Unavailable, RetryAfter: streamRetry,
			Msg: fmt.Sprintf("this server holds %d streams, its most: try again later or another server", a.cfg.MaxStreams)}
	}
	return func() { a.streams.Add(-1); release() }, nil
}

// streamRetry is the Retry-After of a stream refused for want of room: a
// place frees when a stream closes, which is not at once.
const streamRetry = 10 * time.Second

// gameStream: GET /api/game/{id}/stream[?since=V]. Anyone may watch;
// with a token, without the chat lines of the players its holder blocks.
func (a *api) gameStream(w http.ResponseWriter, r *http.Request) error {
	u, err := a.viewer(r)
	if err != nil {
		return err
	}
	done, err := a.openStream(r)
	if err != nil {
		return err
	}
	defer done()
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	v, err := since(r)
	if err != nil {
		return err
	}
	// The game must exist before the answer starts: a 404 cannot follow a 200.
	if _, err := a.svc.GameInfo(r.Context(), id); err != nil {
		return err
	}
	send, err := ndjson(w)
	if err != nil {
		return err
	}
	return a.quiet(a.svc.WatchGameAs(r.Context(), id, v, server.NewViewer(u), send))
}

// accountStream: GET /api/stream/event.
func (a *api) accountStream(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	done, err := a.openStream(r)
	if err != nil {
		return err
	}
	defer done()
	ctx, end := a.session(r, u) // ends when the token is revoked
	defer end()
	send, err := ndjson(w)
	if err != nil {
		return err
	}
	return a.quiet(a.svc.WatchAccount(ctx, u, send))
}

// quiet logs the error that ends a stream already answering: it can no
// longer become an error answer.
func (a *api) quiet(err error) error {
	if err != nil {
		a.log.Debug("stream ended", "err", err)
	}
	return nil
}

// socketMessage is what a browser sends on a game's WebSocket. Type is
// auth (Token; the first message only), move (Move, Ply), resign,
// claim-victory, draw or takeback (Action: offer, accept, decline), chat
// (Text). ID comes back in the answer.
type socketMessage struct {
	ID     int64  `json:"id"`
	Type   string `json:"type"`
	Token  string `json:"token"`
	Move   string `json:"move"`
	Ply    *int   `json:"ply"`
	Action string `json:"action"`
	Text   string `json:"text"`
}

// socketAnswer answers a socketMessage: type "ack" or "error".
type socketAnswer struct {
	Type  string `json:"type"`
	ID    int64  `json:"id"`
	Error string `json:"error,omitempty"`
	Code  int    `json:"code,omitempty"` // the HTTP status the error would have
	// Request names the request in the server's log, for a 500.
	Request string `json:"request,omitempty"`
	// close: the socket ends after this answer (a sign-in refused).
	close bool
}

// gameSocket: GET /api/game/{id}/ws[?since=V]. The server sends the
// lines of the game stream as text messages (keep-alives as
// {"type":"keepAlive"}); a player sends socketMessages and gets an answer
// to each. A player signs in with the socket's first message,
// {"type":"auth","token":T} (a browser cannot give a WebSocket headers),
// or, outside a browser, with Authorization: Bearer on the upgrade; until
// then, and without either, the socket only watches. The game's events
// are public, so the stream starts at once and no deadline is needed for
// the auth message: a socket that never sends one is a spectator's.
//
// A token in the URL (?token=, as this endpoint once took it) is refused
// before the upgrade: URLs are written to the access logs of every proxy
// on the way, where the token would be read by whoever reads the logs.
func (a *api) gameSocket(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	if r.URL.Query().Has("token") {
		return httpError(http.StatusBadRequest, `a token does not go in the URL, which proxies log: send {"type":"auth","token":TOKEN} as the socket's first message (or Authorization: Bearer TOKEN outside a browser), and sign in again: this token may have been logged`)
	}
	done, err := a.openStream(r)
	if err != nil {
		return err
	}
	defer done()
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	v, err := since(r)
	if err != nil {
		return err
	}
	var user *server.User
	if bearer(r) != "" {
		u, err := a.auth(r)
		if err != nil {
			return err
		}
		user = &u
	}
	if _, err := a.svc.GameInfo(r.Context(), id); err != nil {
		return err
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil // Accept has answered
	}
	defer c.CloseNow()
	c.SetReadLimit(4096)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	// signedIn ends the socket when the token it was signed in with is
	// revoked (server.Service.Session), whether it came in the header or
	// in the first message.
	var revoked atomic.Bool
	signedIn := func(u server.User, tok string) {
		sctx, end := a.svc.Session(r.Context(), u, tok)
		go func() {
			defer end()
			select {
			case <-sctx.Done():
				if r.Context().Err() == nil {
					revoked.Store(true)
					cancel()
				}
			case <-ctx.Done():
			}
		}()
	}
	if user != nil {
		signedIn(*user, bearer(r))
	}
	// The viewer's blocks hide chat lines from the moment it is signed in.
	viewer := server.NewViewer(user)

	// write sends one message, one writer at a time (events and answers).
	// Once the socket is ending it sends nothing, and a write's context is
	// the request's, not ctx: a write whose context ends closes the
	// connection at once (coder/websocket), and a socket whose token was
	// revoked while a line was on its way must still be closed with a word.
	var mu sync.Mutex
	write := func(b []byte) error {
		mu.Lock()
		defer mu.Unlock()
		if err := ctx.Err(); err != nil {
			return err
		}
		wctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		return c.Write(wctx, websocket.MessageText, b)
	}
	// The reader's context is the request's, not the session's: a read
	// whose context ends closes the connection at once, and a revoked
	// token's socket is to be closed with a word (below).
	readCtx, cancelRead := context.WithCancel(r.Context())
	defer cancelRead()
	// The reader is a goroutine of its own, which net/http does not
	// recover: a command that panics is answered as a handler's panic
	// would be (500), logged, and the socket goes on.
	go func() {
		defer cancel()
		first := true
		for {
			_, data, err := c.Read(readCtx)
			if err != nil {
				return
			}
			var ans socketAnswer
			if err := server.Safely(a.log, "websocket command", func() {
				if m, ok := authMessage(data); ok {
					ans = a.socketAuth(r, &user, first, m)
					if ans.Type == "ack" {
						signedIn(*user, m.Token)
						viewer.SignIn(*user)
					}
				} else {
					ans = a.socketCommand(ctx, r, user, id, data)
				}
			}, "game", id); err != nil {
				var m struct{ ID int64 }
				_ = json.Unmarshal(data, &m)
				ans = socketAnswer{Type: "error", ID: m.ID, Error: "internal error", Code: http.StatusInternalServerError}
			}
			first = false
			b, _ := json.Marshal(ans)
			if write(b) != nil {
				return
			}
			if ans.Type == "error" && ans.close {
				// A sign-in refused ends the socket: the client knows at
				// once, instead of finding out at its first move.
				c.Close(websocket.StatusPolicyViolation, "sign-in refused")
				return
			}
		}
	}()
	keepAlive := []byte(`{"type":"keepAlive"}`)
	err = a.svc.WatchGameAs(ctx, id, v, viewer, func(line []byte) error {
		if line == nil {
			line = keepAlive
		}
		return write(line)
	})
	if revoked.Load() {
		c.Close(websocket.StatusPolicyViolation, "signed out: the token was revoked")
		return nil
	}
	if err != nil {
		a.log.Debug("socket ended", "game", id, "err", err)
		c.Close(websocket.StatusInternalError, "stream ended")
		return nil
	}
	c.Close(websocket.StatusNormalClosure, "")
	return nil
}

// authMessage reads a socket message of type auth.
func authMessage(data []byte) (socketMessage, bool) {
	var m socketMessage
	if json.Unmarshal(data, &m) != nil || m.Type != "auth" {
		return m, false
	}
	return m, true
}

// socketAuth signs the socket's player in with the token of an auth
// message, the socket's first. A refused token ends the socket.
func (a *api) socketAuth(r *http.Request, user **server.User, first bool, m socketMessage) socketAnswer {
	switch {
	case *user != nil:
		return socketAnswer{Type: "error", ID: m.ID, Error: "this socket is signed in already", Code: http.StatusConflict}
	case !first:
		return socketAnswer{Type: "error", ID: m.ID, Error: "auth is the socket's first message: connect again to sign in", Code: http.StatusBadRequest}
	}
	u, err := a.authToken(r, m.Token)
	if err != nil {
		ans := a.failure(r, err, "socket", "auth")
		return socketAnswer{Type: "error", ID: m.ID, Error: ans.msg, Code: ans.code, Request: ans.request, close: true}
	}
	*user = &u
	return socketAnswer{Type: "ack", ID: m.ID}
}

func (a *api) socketCommand(ctx context.Context, r *http.Request, user *server.User, id int64, data []byte) socketAnswer {
	if h := a.cfg.socketHook; h != nil {
		h(data)
	}
	var m socketMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return socketAnswer{Type: "error", Error: jsonMessage("the message", err), Code: http.StatusBadRequest}
	}
	fail := func(err error) socketAnswer {
		ans := a.failure(r, err, "game", id, "socket", m.Type)
		return socketAnswer{Type: "error", ID: m.ID, Error: ans.msg, Code: ans.code, Request: ans.request}
	}
	if user == nil {
		return socketAnswer{Type: "error", ID: m.ID, Error: `spectators only watch: sign in with {"type":"auth","token":TOKEN} as the socket's first message to play`, Code: http.StatusUnauthorized}
	}
	if !a.svc.Allow("user:" + strconv.FormatInt(user.ID, 10)) {
		return socketAnswer{Type: "error", ID: m.ID, Error: "too many requests: slow down", Code: http.StatusTooManyRequests}
	}
	var err error
	switch m.Type {
	case "move":
		ply := server.AnyPly
		if m.Ply != nil {
			ply = *m.Ply
		}
		_, err = a.svc.Move(ctx, *user, id, m.Move, ply)
	case "resign":
		err = a.svc.Resign(ctx, *user, id)
	case "claim-victory":
		err = a.svc.ClaimVictory(ctx, *user, id)
	case "draw", "takeback":
		kind := server.Draw
		if m.Type == "takeback" {
			kind = server.Takeback
		}
		switch m.Action {
		case "offer":
			err = a.svc.Offer(ctx, *user, id, kind)
		case "accept":
			err = a.svc.Answer(ctx, *user, id, kind, true)
		case "decline":
			err = a.svc.Answer(ctx, *user, id, kind, false)
		default:
			return socketAnswer{Type: "error", ID: m.ID, Error: "action is offer, accept or decline", Code: http.StatusBadRequest}
		}
	case "chat":
		err = a.svc.Chat(ctx, *user, id, m.Text)
	default:
		return socketAnswer{Type: "error", ID: m.ID, Error: "type is auth, move, resign, claim-victory, draw, takeback or chat", Code: http.StatusBadRequest}
	}
	if err != nil {
		return fail(err)
	}
	return socketAnswer{Type: "ack", ID: m.ID}
}
