package pbmserv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/mill"
)

// Gateway executes pbmserv command lines against the game service. It
// holds no game state of its own: every answer comes from the service,
// and the only thing it keeps is what a connection follows (Session).
type Gateway struct {
	svc *server.Service
	log *slog.Logger

	// IdleTimeout closes a TCP connection that sends no line for this long
	// (30 minutes when zero), unless it follows a board.
	IdleTimeout time.Duration
	// WriteTimeout bounds each write to a TCP connection (1 minute when
	// zero): a client that does not read its answers or pushes is dropped
	// rather than holding a game's watcher.
	WriteTimeout time.Duration
	// MaxFollows is how many boards one connection may follow at once
	// without a user id (32 when zero).
	MaxFollows int
	// KeepAlive is the idle time before the first TCP keep-alive probe of
	// a connection, and the time between probes (1 minute when zero): a
	// dead peer is found within about five times that (tcp.go).
	KeepAlive time.Duration
}

// New returns a gateway over svc. A nil logger discards.
func New(svc *server.Service, logger *slog.Logger) *Gateway {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Gateway{svc: svc, log: logger}
}

func (g *Gateway) idleTimeout() time.Duration     { return orDefault(g.IdleTimeout, 30*time.Minute) }
func (g *Gateway) writeTimeout() time.Duration    { return orDefault(g.WriteTimeout, time.Minute) }
func (g *Gateway) keepAlivePeriod() time.Duration { return orDefault(g.KeepAlive, time.Minute) }
func (g *Gateway) maxFollows() int {
	if g.MaxFollows <= 0 {
		return 32
	}
	return g.MaxFollows
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Exec parses one command line and executes it for the session, and
// returns the answer: text of one or more lines, each ending with a line
// break. An answer that starts with "error: " says what was wrong, and
// then nothing changed. Every command spends one token of the session's
// command rate (server.Service.Allow), bad ones included.
func (g *Gateway) Exec(ctx context.Context, sess *Session, line string) string {
	if sess == nil {
		sess = NewSession("", nil)
		defer sess.Close()
	}
	if !g.svc.Allow(sess.rateKey()) {
		return "error: too many commands: wait a moment and send it again\n"
	}
	line = strings.TrimRight(line, "\r\n")
	cmd, err := pbm.Parse(line)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	out, err := g.run(ctx, sess, cmd)
	if err != nil {
		return g.errorText(cmd, err)
	}
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out
}

// errorText is the answer to a command the service refused, in the
// service's words (server.Public): the store's and the driver's text
// (tables, constraints) stays in the log. An internal error is logged with
// a request id, and answered with the id only.
func (g *Gateway) errorText(cmd pbm.Command, err error) string {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "error: the server is shutting down or the command took too long; nothing was done if the board does not show it\n"
	}
	kind, msg := server.Public(err)
	if kind == server.Internal {
		id := server.NewRequestID()
		g.log.Error("pbmserv command failed", "request", id, "verb", cmd.Verb.String(), "board", cmd.Board, "err", err)
		return "error: the server failed to do that: try again later (request " + id + ")\n"
	}
	return "error: " + strings.TrimSuffix(msg, "\n") + "\n"
}

// errorMessage is errorText without its "error: " and line break, for an
// answer that goes on after a failure.
func (g *Gateway) errorMessage(cmd pbm.Command, err error) string {
	return strings.TrimSuffix(strings.TrimPrefix(g.errorText(cmd, err), "error: "), "\n")
}

// fail is an error of the gateway's own checks, as the service words its
// refusals.
func fail(kind server.Kind, format string, args ...any) error {
	return &server.Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// run executes a parsed command.
func (g *Gateway) run(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	switch cmd.Verb {
	case pbm.Signup:
		return g.signup(ctx, sess, cmd)
	case pbm.Change:
		return g.changePassword(ctx, sess, cmd)
	case pbm.Help:
		return help(cmd), nil
	case pbm.Challenge:
		return g.challenge(ctx, sess, cmd)
	case pbm.Move:
		if cmd.Action != pbm.NoAction {
			return g.action(ctx, sess, cmd)
		}
		return g.move(ctx, sess, cmd)
	case pbm.Queue:
		return g.queue(ctx, sess, cmd)
	case pbm.Show:
		if cmd.Board != 0 {
			return g.showBoard(ctx, cmd)
		}
		return g.showUser(ctx, cmd)
	case pbm.Preview:
		return g.preview(ctx, cmd)
	case pbm.History:
		return g.history(ctx, cmd)
	case pbm.Games:
		return g.games(ctx, cmd)
	case pbm.Standings, pbm.Ratings:
		return g.standings(ctx, cmd)
	case pbm.Subscribe, pbm.Notify:
		return g.subscribe(ctx, sess, cmd)
	case pbm.Unsubscribe:
		return g.unsubscribe(ctx, sess, cmd)
	case pbm.Limit:
		return g.limit(ctx, sess, cmd)
	case pbm.Accept, pbm.Reject:
		return g.filter(ctx, sess, cmd)
	case pbm.Seek:
		return g.seek(ctx, sess, cmd)
	case pbm.Chat:
		return g.chat(ctx, sess, cmd)
	case pbm.Tournaments:
		return g.tournaments(ctx, cmd)
	case pbm.Join:
		return g.join(ctx, sess, cmd)
	case pbm.Withdraw:
		return g.withdraw(ctx, sess, cmd)
	}
	return "", fail(server.BadRequest, "the command %q is not served here", cmd.Verb)
}

// login authenticates the command's USERID PASSWORD.
func (g *Gateway) login(ctx context.Context, sess *Session, cmd pbm.Command) (server.User, error) {
	return g.svc.Login(ctx, sess.from(), cmd.User, cmd.Password)
}

// game returns the stored game of the command's board, checked to be a
// game of the command's game name: "tmm move 101 ..." on a game of nmm is
// a mistake, and its move would be read on the wrong board.
func (g *Gateway) game(ctx context.Context, cmd pbm.Command) (server.Game, error) {
	info, err := g.svc.GameInfo(ctx, int64(cmd.Board))
	if err != nil {
		if server.KindOf(err) == server.NotFound {
			return server.Game{}, fail(server.NotFound, "there is no board %d", cmd.Board)
		}
		return server.Game{}, err
	}
	if info.Variant != cmd.Game {
		return server.Game{}, fail(server.BadRequest, "board %d is a game of %s (%s), not of %s: send %s %s ...",
			cmd.Board, pbm.ShortName(info.Variant), info.Variant, pbm.ShortName(cmd.Game),
			pbm.ShortName(info.Variant), cmd.Verb)
	}
	return info, nil
}

// gameAndLogin returns the command's board, checked as game does, and the
// player its USERID and PASSWORD log in.
func (g *Gateway) gameAndLogin(ctx context.Context, sess *Session, cmd pbm.Command) (server.Game, server.User, error) {
	info, err := g.game(ctx, cmd)
	if err != nil {
		return server.Game{}, server.User{}, err
	}
	u, err := g.login(ctx, sess, cmd)
	if err != nil {
		return server.Game{}, server.User{}, err
	}
	return info, u, nil
}

// view reads the command's board in full, checked as game does.
func (g *Gateway) view(ctx context.Context, cmd pbm.Command) (server.GameView, error) {
	if _, err := g.game(ctx, cmd); err != nil {
		return server.GameView{}, err
	}
	return g.svc.View(ctx, int64(cmd.Board))
}

// startPly is the ply of a game's start position: 0 unless the game began
// from a set-up position, whose moves are numbered on from it.
func startPly(info server.Game) int {
	if info.Start == "" {
		return 0
	}
	p, err := mill.ParsePosition(info.Start)
	if err != nil {
		return 0
	}
	return p.Ply()
}

// plyOf turns the N of MOVE#N into the service's ply (the number of moves
// stored before it), or server.AnyPly without #N.
func plyOf(info server.Game, n int) (int, error) {
	if n == 0 {
		return server.AnyPly, nil
	}
	start := startPly(info)
	if n <= start {
		return 0, fail(server.BadRequest, "board %d starts at move %d: #%d is before it", info.ID, start+1, n)
	}
	return n - 1 - start, nil
}

// moveNumber is the number a board shows for the move at the service's ply.
func moveNumber(info server.Game, ply int) int { return startPly(info) + ply + 1 }

// standardText writes a move of the command, whose points are those of
// the command's preset board, in standard notation: the service reads it
// on the game's own board by the points' names.
func standardText(variant string, m mill.Move) string {
	if b := presetBoard(variant); b != nil {
		return b.MoveText(m, mill.Standard)
	}
	return ""
}

// pbmText writes a move of the command in pbmserv notation.
func pbmText(variant string, m mill.Move) string {
	if b := presetBoard(variant); b != nil {
		return b.MoveText(m, mill.Pbm)
	}
	return "?"
}

// presetBoard is the board the parser read a command's moves on.
func presetBoard(variant string) *mill.Board {
	v, err := mill.LookupVariant(variant)
	if err != nil {
		return nil
	}
	b, _ := mill.BoardByID(v.Options.Board)
	return b
}

// playerLabel names a side as pbm.Board does: "White (W) ann".
func playerLabel(c mill.Color, name string) string {
	s := "White (W)"
	if c == mill.Black {
		s = "Black (B)"
	}
	if name != "" {
		s += " " + name
	}
	return s
}

// resultText says how a finished game ended, as pbm.Board does:
// "White (W) ann wins (1-0) by material", "a draw (1/2-1/2) by agreement".
func resultText(result, method, white, black string) string {
	o, _ := mill.ParseOutcome(result)
	switch o {
	case mill.WhiteWon:
		return fmt.Sprintf("%s wins (%s) by %s", playerLabel(mill.White, white), result, method)
	case mill.BlackWon:
		return fmt.Sprintf("%s wins (%s) by %s", playerLabel(mill.Black, black), result, method)
	case mill.Draw:
		return fmt.Sprintf("a draw (%s) by %s", result, method)
	}
	return fmt.Sprintf("%s by %s", result, method)
}
