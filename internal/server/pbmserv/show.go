package pbmserv

import (
	"context"
	"fmt"
	"strings"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// maxShown is how many boards show USERID prints in full.
const maxShown = 20

// boardText prints a game as it was after its first played moves (all of
// them for the board as it is now), with its players, the move that led
// there and, at the end of a finished game, the stored result: a
// resignation or an agreed draw is not in the position.
func boardText(v server.GameView, played int) string {
	positions := v.Play.Positions()
	moves := v.Play.Moves()
	h := pbm.Header{Board: int(v.ID), White: v.WhiteName, Black: v.BlackName}
	if played > 0 {
		h.LastMove, h.Before = moves[played-1], &positions[played-1]
	}
	if played == len(moves) && v.Status == server.Finished {
		o, ok1 := mill.ParseOutcome(v.Result)
		m, ok2 := mill.ParseMethod(v.Method)
		if ok1 && ok2 {
			h.Outcome, h.Method = o, m
		}
	}
	return pbm.Board(positions[played], h)
}

// showBoard: GAME show BOARD[#N].
func (g *Gateway) showBoard(ctx context.Context, cmd pbm.Command) (string, error) {
	v, err := g.view(ctx, cmd)
	if err != nil {
		return "", err
	}
	played := len(v.Play.Moves())
	if cmd.MoveNumber != 0 {
		ply, err := plyOf(v.Game, cmd.MoveNumber)
		if err != nil {
			return "", err
		}
		if ply > played {
			return "", fail(server.BadRequest, "board %d is at move %d: there is no move %d yet",
				cmd.Board, moveNumber(v.Game, played), cmd.MoveNumber)
		}
		played = ply
	}
	return boardText(v, played), nil
}

// showUser: GAME show USERID [active]: the player's boards of the game,
// newest first, each in full.
func (g *Gateway) showUser(ctx context.Context, cmd pbm.Command) (string, error) {
	gs, err := g.svc.Games(ctx, server.GamesQuery{User: cmd.User, Active: cmd.Active, Variant: cmd.Game})
	if err != nil {
		return "", err
	}
	which := "games"
	if cmd.Active {
		which = "active games"
	}
	if len(gs) == 0 {
		return fmt.Sprintf("%s has no %s of %s\n", cmd.User, which, pbm.ShortName(cmd.Game)), nil
	}
	var b strings.Builder
	ids := make([]string, len(gs))
	for i, s := range gs {
		ids[i] = fmt.Sprint(s.ID)
	}
	fmt.Fprintf(&b, "%s's %s of %s: boards %s\n", cmd.User, which, pbm.ShortName(cmd.Game), strings.Join(ids, ", "))
	for i, s := range gs {
		if i == maxShown {
			fmt.Fprintf(&b, "\n(%d boards more: show them one by one)\n", len(gs)-maxShown)
			break
		}
		v, err := g.svc.View(ctx, s.ID)
		if err != nil {
			return "", err
		}
		b.WriteByte('\n')
		b.WriteString(boardText(v, len(v.Play.Moves())))
	}
	return b.String(), nil
}

// preview: GAME preview BOARD MOVE...: the moves tried on a copy of the
// position; the game does not change.
func (g *Gateway) preview(ctx context.Context, cmd pbm.Command) (string, error) {
	v, err := g.view(ctx, cmd)
	if err != nil {
		return "", err
	}
	if v.Status == server.Finished || v.Play.Outcome() != mill.NoOutcome {
		return "", fail(server.Conflict, "board %d is over (%s): there is nothing to try", cmd.Board, resultText(v.Result, v.Method, v.WhiteName, v.BlackName))
	}
	pos := v.Play.Position()
	var last mill.Move
	var before mill.Position
	tried := make([]string, 0, len(cmd.Moves))
	for i, cm := range cmd.Moves {
		text := pbmText(cmd.Game, cm)
		if o, _ := pos.Status(); o != mill.NoOutcome {
			return "", fail(server.BadRequest, "preview of board %d: the game is over after %s, before %s (move %d of the preview)",
				cmd.Board, strings.Join(tried, " "), text, i+1)
		}
		m, err := pos.ParseMove(standardText(cmd.Game, cm))
		if err == nil {
			err = pos.Check(m)
		}
		if err != nil {
			return "", fail(server.BadRequest, "preview of board %d: move %d of the preview, %s: %v", cmd.Board, i+1, text, err)
		}
		before, last = pos, m
		pos = pos.Play(m)
		tried = append(tried, text)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "preview of board %d after %s (nothing is played):\n", cmd.Board, strings.Join(tried, " "))
	b.WriteString(pbm.Board(pos, pbm.Header{Board: int(v.ID), White: v.WhiteName, Black: v.BlackName, LastMove: last, Before: &before}))
	return b.String(), nil
}

// history: GAME history: the finished games, newest first.
func (g *Gateway) history(ctx context.Context, cmd pbm.Command) (string, error) {
	gs, err := g.svc.Games(ctx, server.GamesQuery{Over: true, Variant: cmd.Game})
	if err != nil {
		return "", err
	}
	name := pbm.ShortName(cmd.Game)
	if len(gs) == 0 {
		return fmt.Sprintf("%s history: no finished games\n", name), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s history: %s\n", name, count(len(gs), "finished game"))
	for _, s := range gs {
		b.WriteString(summaryLine(s))
	}
	return b.String(), nil
}

// games: GAME games USERID: the player's games, newest first.
func (g *Gateway) games(ctx context.Context, cmd pbm.Command) (string, error) {
	gs, err := g.svc.Games(ctx, server.GamesQuery{User: cmd.User, Variant: cmd.Game})
	if err != nil {
		return "", err
	}
	name := pbm.ShortName(cmd.Game)
	if len(gs) == 0 {
		return fmt.Sprintf("%s has no games of %s\n", cmd.User, name), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s's games of %s: %s\n", cmd.User, name, count(len(gs), "game"))
	for _, s := range gs {
		b.WriteString(summaryLine(s))
	}
	return b.String(), nil
}

// summaryLine is a game in a list:
//
//	board 101: White ann - Black bob, move 12, White (W) ann to move
//	board 102: White ann - Black bob, White (W) ann wins (1-0) by blocked after 27 moves
func summaryLine(s wire.GameSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "board %d: White %s - Black %s", s.ID, s.White.Name, s.Black.Name)
	if s.Status == string(server.Active) {
		fmt.Fprintf(&b, ", move %d", s.Ply+1)
		switch s.ToMove {
		case "white":
			fmt.Fprintf(&b, ", %s to move", playerLabel(mill.White, s.White.Name))
		case "black":
			fmt.Fprintf(&b, ", %s to move", playerLabel(mill.Black, s.Black.Name))
		}
	} else {
		fmt.Fprintf(&b, ", %s after %s", resultText(s.Result, s.Method, s.White.Name, s.Black.Name), count(s.Ply, "move"))
	}
	if s.Rated {
		b.WriteString(", rated")
	}
	if s.Rules != s.Variant {
		fmt.Fprintf(&b, ", rules %s", s.Rules)
	}
	b.WriteByte('\n')
	return b.String()
}

// standings: GAME standings and GAME ratings: the rating list, best first.
func (g *Gateway) standings(ctx context.Context, cmd pbm.Command) (string, error) {
	rs, err := g.svc.Standings(ctx, cmd.Game, 0)
	if err != nil {
		return "", err
	}
	name := pbm.ShortName(cmd.Game)
	if len(rs) == 0 {
		return fmt.Sprintf("%s standings: no rated games yet\n", name), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s standings: rating ± deviation (Glicko-2); ? marks a provisional rating\n", name)
	for i, r := range rs {
		mark := ""
		if r.Provisional {
			mark = "?"
		}
		fmt.Fprintf(&b, "%3d. %-20s %5.0f%-1s ± %3.0f  %s\n", i+1, r.User, r.Rating, mark, r.Deviation, count(r.Games, "game"))
	}
	return b.String(), nil
}

// count writes "1 game", "2 games".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
