package pbmserv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/clientaddr"
	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// Session is what the gateway knows of one client: its address (the key
// of its rate limits) and, on a connection, the boards it follows without
// a user id, each watched by a goroutine that pushes the game's news.
type Session struct {
	addr string
	// push writes a pushed line to the client; nil where nothing can be
	// pushed (an HTTP request).
	push func(text string) error

	ctx    context.Context // ends the follows
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	follows map[int64]*follow
}

// follow is a board followed by a session.
type follow struct {
	cancel context.CancelFunc
}

// NewSession returns the session of a client at addr (an IP address, or
// host:port, whose port is dropped: a client does not get a fresh rate by
// connecting again; or the key clientaddr gives). push, when not nil, writes one pushed text to the
// client in one piece; subscribe and notify without a user id need it.
func NewSession(addr string, push func(text string) error) *Session {
	if addr != "" {
		addr = clientaddr.Key(addr) // IPv6 by its /64
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Session{addr: addr, push: push, ctx: ctx, cancel: cancel, follows: map[int64]*follow{}}
}

// Addr returns the client's address, the key of its rate limits.
func (s *Session) Addr() string { return s.addr }

// rateKey is the key of the session's command rate: its address, as the
// HTTP API keys the calls it cannot tie to a user ("addr:IP"), so that a
// client has one budget across both gateways.
func (s *Session) rateKey() string { return "addr:" + s.from() }

// from is the client's address as the service's sign-up and sign-in
// limits take it, as the HTTP API gives it.
func (s *Session) from() string {
	if s.addr == "" {
		return "unknown"
	}
	return s.addr
}

// Close ends the session's follows and waits for their goroutines.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// following reports whether the session follows a board.
func (s *Session) following() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.follows) > 0
}

// subscribe: GAME subscribe|notify BOARD [USERID PASSWORD].
func (g *Gateway) subscribe(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	endOnly := cmd.Verb == pbm.Notify
	what := "every move"
	if endOnly {
		what = "the end"
	}
	if cmd.User != "" {
		info, u, err := g.gameAndLogin(ctx, sess, cmd)
		if err != nil {
			return "", err
		}
		kind := server.FollowMoves
		if endOnly {
			kind = server.FollowEnd
		}
		if err := g.svc.Follow(ctx, u, info.ID, kind); err != nil {
			return "", err
		}
		return fmt.Sprintf("ok: %s follows board %d: %s comes to %s's account stream\n", u.Name, info.ID, what, u.Name), nil
	}
	if sess.push == nil {
		return "", fail(server.BadRequest, "%s without USERID PASSWORD lasts as long as a connection: use the TCP port, or give USERID PASSWORD", cmd.Verb)
	}
	v, err := g.view(ctx, cmd)
	if err != nil {
		return "", err
	}
	if v.Status == server.Finished {
		return "", fail(server.Conflict, "board %d is over: %s", v.ID, resultText(v.Result, v.Method, v.WhiteName, v.BlackName))
	}
	if err := g.watch(sess, v, endOnly); err != nil {
		return "", err
	}
	return fmt.Sprintf("ok: this connection follows board %d: %s comes here as lines starting with \"* \"\n", v.ID, what), nil
}

// unsubscribe: GAME unsubscribe BOARD [USERID PASSWORD].
func (g *Gateway) unsubscribe(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	if cmd.User != "" {
		info, u, err := g.gameAndLogin(ctx, sess, cmd)
		if err != nil {
			return "", err
		}
		if err := g.svc.Unfollow(ctx, u, info.ID); err != nil {
			return "", err
		}
		return fmt.Sprintf("ok: %s no longer follows board %d\n", u.Name, info.ID), nil
	}
	if _, err := g.game(ctx, cmd); err != nil {
		return "", err
	}
	id := int64(cmd.Board)
	sess.mu.Lock()
	f := sess.follows[id]
	delete(sess.follows, id)
	sess.mu.Unlock()
	if f == nil {
		return "", fail(server.NotFound, "this connection does not follow board %d", id)
	}
	f.cancel()
	return fmt.Sprintf("ok: this connection no longer follows board %d\n", id), nil
}

// errFollowEnded stops a watch after the game's end was pushed.
var errFollowEnded = errors.New("pbmserv: the game ended")

// watch starts the goroutine that follows a board for a session, or
// changes what it is told if it follows the board already.
func (g *Gateway) watch(sess *Session, v server.GameView, endOnly bool) error {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.closed {
		return fail(server.Unavailable, "the connection is closing")
	}
	if old := sess.follows[v.ID]; old != nil {
		old.cancel()
		delete(sess.follows, v.ID)
	} else if len(sess.follows) >= g.maxFollows() {
		return fail(server.TooMany, "this connection follows %s already, the most it may: unsubscribe from one first", count(len(sess.follows), "board"))
	}
	ctx, cancel := context.WithCancel(sess.ctx)
	f := &follow{cancel: cancel}
	sess.follows[v.ID] = f
	w := newWatcher(v, endOnly, sess.push)
	forget := func() {
		sess.mu.Lock()
		if sess.follows[v.ID] == f {
			delete(sess.follows, v.ID)
		}
		sess.mu.Unlock()
	}
	w.ended = forget
	sess.wg.Add(1)
	go func() {
		defer sess.wg.Done()
		defer cancel()
		var err error
		if perr := server.Safely(g.log, "pbmserv follow", func() { err = g.svc.WatchGame(ctx, v.ID, v.Version, w.event) }, "board", v.ID); perr != nil {
			err = perr
		}
		forget()
		switch {
		case errors.Is(err, errFollowEnded) || ctx.Err() != nil:
			// The end was pushed, or the client unsubscribed or left.
		case err == nil:
			// The service ends its streams when it shuts down.
			_ = sess.push(fmt.Sprintf("* %s board %d: no longer followed: the server is shutting down\n", w.game, v.ID))
		default:
			g.log.Warn("pbmserv follow ended", "board", v.ID, "client", sess.addr, "err", err)
			_ = sess.push(fmt.Sprintf("* %s board %d: no longer followed: the server stopped watching it; subscribe again\n", w.game, v.ID))
		}
	}()
	return nil
}

// watcher turns a game stream's JSON lines into pushed text lines. Each
// is "* " (so that a client tells it from an answer) and then, say,
//
//	nmm board 101: move 5, White (W) ann: D2
//	nmm board 101: ann says: good luck
//	nmm board 101: Black (B) bob offers a draw
//	nmm board 101: 2 moves taken back, move 4 to play
//	nmm board 101: game over: White (W) ann wins (1-0) by blocked
type watcher struct {
	id           int64
	game         string // the short game name
	board        *mill.Board
	white, black string
	toMove       mill.Color // who is to move as last seen: the mover of the next move event
	start        int        // the start position's ply: move numbers go on from it
	endOnly      bool
	push         func(string) error
	// ended, if set, runs before the end is pushed: the follow is over
	// by the time the client reads that it is.
	ended func()

	ply    int // moves played as last seen
	offers []wire.Offer
}

func newWatcher(v server.GameView, endOnly bool, push func(string) error) *watcher {
	start := v.Play.Start()
	return &watcher{
		id: v.ID, game: pbm.ShortName(v.Variant), board: v.Play.Rules().Board(), white: v.WhiteName, black: v.BlackName,
		toMove: v.Play.Position().SideToMove(), start: start.Ply(), endOnly: endOnly, push: push, ply: len(v.Moves),
	}
}

// streamLine holds the fields of every line of a game stream that the
// watcher reads: a move, a chat message or a game state (Type says).
type streamLine struct {
	Type   string       `json:"type"`
	Ply    int          `json:"ply"`
	Move   string       `json:"move"`
	ToMove string       `json:"toMove"`
	Status string       `json:"status"`
	Result string       `json:"result"`
	Method string       `json:"method"`
	User   string       `json:"user"`
	Text   string       `json:"text"`
	Offers []wire.Offer `json:"offers"`
}

func (w *watcher) event(line []byte) error {
	if line == nil {
		return nil // a keep-alive
	}
	var e streamLine
	if err := json.Unmarshal(line, &e); err != nil {
		return err
	}
	prefix := fmt.Sprintf("* %s board %d: ", w.game, w.id)
	var out strings.Builder
	ended := false
	switch e.Type {
	case "move":
		w.ply, w.offers = e.Ply+1, nil
		// The mover is the side that was to move: turns do not always
		// alternate (removals owed, a blocked side's removal).
		mover := w.toMove
		w.setToMove(e.ToMove)
		if !w.endOnly {
			text := e.Move
			if pbm, err := w.board.Rewrite(e.Move, mill.Pbm); err == nil {
				text = pbm // the captures in the order the server wrote them
			}
			fmt.Fprintf(&out, "%smove %d, %s: %s\n", prefix, w.start+e.Ply+1, w.label(mover), text)
		}
		ended = e.Status == string(server.Finished)
	case "chat":
		if !w.endOnly {
			fmt.Fprintf(&out, "%s%s says: %s\n", prefix, e.User, e.Text)
		}
	case "gameState":
		w.setToMove(e.ToMove)
		ended = e.Status == string(server.Finished)
		if !ended && !w.endOnly {
			if e.Ply < w.ply {
				fmt.Fprintf(&out, "%s%s taken back, move %d to play\n", prefix, count(w.ply-e.Ply, "move"), w.start+e.Ply+1)
			} else {
				for _, of := range w.offers {
					if !hasOffer(e.Offers, of) {
						fmt.Fprintf(&out, "%sthe %s is declined\n", prefix, offerName(server.OfferKind(of.Kind)))
					}
				}
			}
			for _, of := range e.Offers {
				if hasOffer(w.offers, of) {
					continue
				}
				c := mill.White
				if of.By == "black" {
					c = mill.Black
				}
				if of.Kind == string(server.Takeback) {
					fmt.Fprintf(&out, "%s%s asks to take back a move\n", prefix, w.label(c))
				} else {
					fmt.Fprintf(&out, "%s%s offers a draw\n", prefix, w.label(c))
				}
			}
		}
		w.ply, w.offers = e.Ply, e.Offers
	}
	if ended {
		fmt.Fprintf(&out, "%sgame over: %s\n", prefix, resultText(e.Result, e.Method, w.white, w.black))
	}
	if ended && w.ended != nil {
		w.ended()
	}
	if out.Len() > 0 {
		if err := w.push(out.String()); err != nil {
			return err
		}
	}
	if ended {
		return errFollowEnded
	}
	return nil
}

func (w *watcher) setToMove(side string) {
	switch side {
	case "white":
		w.toMove = mill.White
	case "black":
		w.toMove = mill.Black
	}
}

func (w *watcher) label(c mill.Color) string {
	if c == mill.White {
		return playerLabel(c, w.white)
	}
	return playerLabel(c, w.black)
}

func hasOffer(offers []wire.Offer, of wire.Offer) bool {
	for _, o := range offers {
		if o == of {
			return true
		}
	}
	return false
}
