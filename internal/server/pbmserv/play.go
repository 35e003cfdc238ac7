package pbmserv

import (
	"context"
	"fmt"
	"strings"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
)

// The correspondence timers of a challenge that sets none, as pbmserv's.
const (
	defaultNagDays     = 7
	defaultForfeitDays = 21
)

// signup: signup USERID PASSWORD [EMAIL].
func (g *Gateway) signup(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	u, err := g.svc.SignUp(ctx, sess.from(), cmd.User, cmd.Password, cmd.Email)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ok: signed up %s; start a game with: nmm challenge %s PASSWORD OPPONENT; "+
		"to be challenged yourself: nmm accept %s PASSWORD\n", u.Name, u.Name, u.Name), nil
}

// changePassword: change password USERID PASSWORD NEWPASSWORD, pbmserv's
// own command. The gateway has no token of its own, so every token of the
// account is revoked: the web and API sessions sign in again.
func (g *Gateway) changePassword(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	u, err := g.svc.ChangePassword(ctx, sess.from(), cmd.User, cmd.Password, cmd.NewPassword, "")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ok: the password of %s is changed; its other sessions are signed out\n", u.Name), nil
}

// challenge: GAME challenge USERID PASSWORD OPPONENT [options]: a game at
// once, the challenger white. The challenger signs in as every other
// command does (a wrong password spends the sign-in limit); the opponent
// must have opted in (Service.PbmChallenge). Games under the preset's own
// rules are rated; a game with rule options is not, as it does not belong
// in the preset's rating list.
func (g *Gateway) challenge(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	if cmd.Timers.TotalDays != 0 {
		return "", fail(server.BadRequest, "--totaltime is not supported by this server: a game has a reminder (--nagtime) and a forfeit (--forfeittime) per move, no limit on the whole game; nothing was started")
	}
	nag, forfeit := cmd.Timers.NagDays, cmd.Timers.ForfeitDays
	// A default gives way to the one timer given, so that the reminder
	// still comes before the forfeit.
	switch {
	case nag == 0 && forfeit == 0:
		nag, forfeit = defaultNagDays, defaultForfeitDays
	case nag == 0:
		nag = min(defaultNagDays, forfeit-1) // 0: no reminder before a 1-day forfeit
	case forfeit == 0:
		forfeit = max(defaultForfeitDays, nag+1)
	}
	sp := server.GameSpec{
		Variant:   cmd.Game,
		Overrides: cmd.Rules,
		Rated:     len(cmd.Rules) == 0,
		Control:   server.TimeControl{NagDays: nag, ForfeitDays: forfeit},
	}
	u, err := g.login(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	info, err := g.svc.PbmChallenge(ctx, u, cmd.Opponent, sp)
	if err != nil {
		return "", err
	}
	v, err := g.svc.View(ctx, info.ID)
	if err != nil {
		return "", err
	}
	rated := "unrated"
	if info.Rated {
		rated = "rated"
	}
	reminder := fmt.Sprintf("a reminder after %s without a move, ", count(nag, "day"))
	if nag == 0 {
		reminder = ""
	}
	return fmt.Sprintf("ok: board %d started: White %s, Black %s, %s, %sforfeit after %s\n",
		info.ID, info.WhiteName, info.BlackName, rated, reminder, count(forfeit, "day")) + boardText(v, 0), nil
}

// move: GAME move BOARD USERID PASSWORD MOVE[#N].
func (g *Gateway) move(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	info, u, err := g.gameAndLogin(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	ply, err := plyOf(info, cmd.MoveNumber)
	if err != nil {
		return "", err
	}
	p, err := g.svc.Move(ctx, u, info.ID, standardText(cmd.Game, cmd.Move), ply)
	if err != nil {
		return "", err
	}
	return g.played(ctx, info, p.Ply, pbmText(cmd.Game, cmd.Move), u.Name)
}

// played is the answer to a move played: a line, then the board as it is
// now (with the opponent's queued reply, if it came at once).
func (g *Gateway) played(ctx context.Context, info server.Game, ply int, text, name string) (string, error) {
	v, err := g.svc.View(ctx, info.ID)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ok: board %d: move %d %s played by %s\n", info.ID, moveNumber(info, ply), text, name) +
		boardText(v, len(v.Play.Moves())), nil
}

// action: GAME move BOARD USERID PASSWORD propose|undo|accept|reject|resign[#N].
func (g *Gateway) action(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	info, u, err := g.gameAndLogin(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	if cmd.MoveNumber != 0 {
		// The service takes no move number for these; the check here
		// keeps a retried undo#N from asking for a second take-back once
		// the first was granted.
		ply, err := plyOf(info, cmd.MoveNumber)
		if err != nil {
			return "", err
		}
		if ply != info.Ply {
			return "", fail(server.Conflict, "board %d is at move %d, not move %d: nothing was done",
				info.ID, moveNumber(info, info.Ply), cmd.MoveNumber)
		}
	}
	id := info.ID
	switch cmd.Action {
	case pbm.Propose:
		if err := g.svc.Offer(ctx, u, id, server.Draw); err != nil {
			return "", err
		}
		return g.afterOffer(ctx, info, u, server.Draw)
	case pbm.Undo:
		if err := g.svc.Offer(ctx, u, id, server.Takeback); err != nil {
			return "", err
		}
		return g.afterOffer(ctx, info, u, server.Takeback)
	case pbm.AcceptOffer, pbm.RejectOffer:
		kind, err := g.svc.PendingOffer(ctx, u, id)
		if err != nil {
			return "", err
		}
		accept := cmd.Action == pbm.AcceptOffer
		if err := g.svc.Answer(ctx, u, id, kind, accept); err != nil {
			return "", err
		}
		if !accept {
			return fmt.Sprintf("ok: board %d: %s declines the %s\n", id, u.Name, offerName(kind)), nil
		}
		return g.afterOffer(ctx, info, u, kind)
	case pbm.Resign:
		if err := g.svc.Resign(ctx, u, id); err != nil {
			return "", err
		}
		v, err := g.svc.View(ctx, id)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("ok: board %d: %s resigns: %s\n", id, u.Name, resultText(v.Result, v.Method, v.WhiteName, v.BlackName)), nil
	}
	return "", fail(server.BadRequest, "the action %q is not served here", cmd.Action)
}

func offerName(kind server.OfferKind) string {
	if kind == server.Takeback {
		return "take-back request"
	}
	return "draw offer"
}

// afterOffer says what an offer, or the acceptance of one, did: an offer
// the opponent had made already is taken by making it too.
func (g *Gateway) afterOffer(ctx context.Context, before server.Game, u server.User, kind server.OfferKind) (string, error) {
	v, err := g.svc.View(ctx, before.ID)
	if err != nil {
		return "", err
	}
	switch {
	case v.Status == server.Finished:
		return fmt.Sprintf("ok: board %d is over: %s\n", v.ID, resultText(v.Result, v.Method, v.WhiteName, v.BlackName)), nil
	case v.Ply < before.Ply:
		return fmt.Sprintf("ok: board %d: %s taken back\n", v.ID, count(before.Ply-v.Ply, "move")) +
			boardText(v, len(v.Play.Moves())), nil
	case kind == server.Takeback:
		return fmt.Sprintf("ok: board %d: %s asks to take back a move; the opponent answers with accept or reject\n", v.ID, u.Name), nil
	}
	return fmt.Sprintf("ok: board %d: %s offers a draw; the opponent answers with accept or reject\n", v.ID, u.Name), nil
}

// queue: GAME queue BOARD USERID PASSWORD MOVE[#N].
func (g *Gateway) queue(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	info, u, err := g.gameAndLogin(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	ply, err := plyOf(info, cmd.MoveNumber)
	if err != nil {
		return "", err
	}
	text := pbmText(cmd.Game, cmd.Move)
	now, err := g.svc.Queue(ctx, u, info.ID, standardText(cmd.Game, cmd.Move), ply)
	if err != nil {
		return "", err
	}
	if now {
		// It was the player's turn: the move is played at once.
		return g.played(ctx, info, info.Ply, text, u.Name)
	}
	if ply == server.AnyPly {
		ply = info.Ply + 1 // as the service counts it: the player's next turn
	}
	return fmt.Sprintf("ok: board %d: %s queued for move %d; it is played when your turn comes, if it is legal then\n",
		info.ID, text, moveNumber(info, ply)), nil
}

// chat: GAME chat BOARD USERID PASSWORD TEXT.
func (g *Gateway) chat(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	info, u, err := g.gameAndLogin(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	if err := g.svc.Chat(ctx, u, info.ID, cmd.Text); err != nil {
		return "", err
	}
	return fmt.Sprintf("ok: board %d: message sent\n", info.ID), nil
}

// limit: GAME limit USERID PASSWORD N.
func (g *Gateway) limit(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	u, err := g.login(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	if err := g.svc.SetLimit(ctx, u, cmd.Game, cmd.N); err != nil {
		return "", err
	}
	if cmd.N == 0 {
		return fmt.Sprintf("ok: %s takes no challenges of %s\n", u.Name, pbm.ShortName(cmd.Game)), nil
	}
	return fmt.Sprintf("ok: %s takes challenges of %s while playing fewer than %s of it\n",
		u.Name, pbm.ShortName(cmd.Game), count(cmd.N, "game")), nil
}

// filter: GAME accept|reject USERID PASSWORD [CHALLENGER...].
func (g *Gateway) filter(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	u, err := g.login(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	allow := cmd.Verb == pbm.Accept
	if err := g.svc.SetFilter(ctx, u, cmd.Game, cmd.Users, allow); err != nil {
		return "", err
	}
	verb, who := "takes", "anyone"
	if !allow {
		verb, who = "refuses", "everyone"
	}
	if len(cmd.Users) > 0 {
		who = strings.Join(cmd.Users, ", ")
	}
	return fmt.Sprintf("ok: %s %s challenges of %s from %s\n", u.Name, verb, pbm.ShortName(cmd.Game), who), nil
}

// seek: GAME seek USERID PASSWORD N.
func (g *Gateway) seek(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	u, err := g.login(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	started, err := g.svc.Seek(ctx, u, cmd.Game, cmd.N)
	if err != nil {
		if len(started) == 0 {
			return "", err
		}
		// Some games started before the failure: they are real, say so.
		return fmt.Sprintf("ok: board(s) %s started; then: %s\n", boards(started), g.errorMessage(cmd, err)), nil
	}
	name := pbm.ShortName(cmd.Game)
	if cmd.N == 0 {
		return fmt.Sprintf("ok: %s's seeks of %s are withdrawn\n", u.Name, name), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ok: %s seeks %s of %s", u.Name, count(cmd.N, "game"), name)
	if len(started) > 0 {
		fmt.Fprintf(&b, "; started at once: board %s", boards(started))
	}
	if waiting := cmd.N - len(started); waiting > 0 {
		fmt.Fprintf(&b, "; %d waiting for an opponent", waiting)
	}
	b.WriteByte('\n')
	return b.String(), nil
}

func boards(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}
