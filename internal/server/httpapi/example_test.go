package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/httpapi"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// A bot is a program that plays over the HTTP API and chooses its moves
// with the library: package mill for the rules, package search for the
// move (docs/bot.md). This one signs up, starts a game against the
// server's engine at level 1, follows the game's stream and answers every
// turn of its own until the game is over.
//
// The server runs in this process, on a fresh database, as `morris serve`
// runs it; a bot of your own talks to a server at its address instead.
func Example_bot() {
	url, stop := startServer()
	defer stop()

	b := &bot{url: url, engine: search.New(search.Options{HashMB: 16})}
	b.signUp("robo", "correct-horse-battery")
	id := b.playEngine(1, "white")
	end := b.play(id)

	fmt.Println("the game is over:", end.Status == "finished" && end.Result != "*")
	fmt.Println("the server's last position is robo's:", end.Position == end.mine)
	// Output:
	// robo signed up
	// robo plays white against the engine at level 1
	// the game is over: true
	// the server's last position is robo's: true
}

// startServer starts the game service and its HTTP API on a database in a
// temporary directory, and returns the API's address and the function
// that stops it all.
func startServer() (url string, stop func()) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "morris-bot")
	check(err)
	st, err := store.Open(ctx, filepath.Join(dir, "morris.db"))
	check(err)
	svc, err := server.New(server.Config{Store: st, Logger: slog.New(slog.DiscardHandler)})
	check(err)
	check(svc.Start(ctx))
	ts := httptest.NewServer(httpapi.New(httpapi.Config{Service: svc}))
	return ts.URL, func() {
		svc.CloseStreams()
		ts.Close()
		svc.Close()
		st.Close()
		os.RemoveAll(dir)
	}
}

// bot is a player of the API: its account, its token, and the engine it
// chooses its moves with.
type bot struct {
	url, name, token string
	engine           *search.Engine
}

// signUp makes the bot's account and gets its token.
func (b *bot) signUp(name, password string) {
	account := map[string]string{"name": name, "password": password}
	b.call("POST", "/api/account", account, nil)
	var tok struct{ Token string }
	b.call("POST", "/api/token", account, &tok)
	b.name, b.token = name, tok.Token
	fmt.Println(name, "signed up")
}

// playEngine starts a game against the server's engine at level, the bot
// playing color, and returns the game's id.
func (b *bot) playEngine(level int, color string) int64 {
	var game struct{ ID int64 }
	b.call("POST", "/api/challenge/ai", map[string]any{"level": level, "color": color}, &game)
	fmt.Printf("%s plays %s against the engine at level %d\n", b.name, color, level)
	return game.ID
}

// state is what the bot follows of a game: the JSON of a gameFull's
// state, a gameState and a move line have these fields in common.
type state struct {
	Type     string
	Moves    []string // gameState only: every move from the start
	Move     string   // move only: the move just played
	Position string
	ToMove   string
	Status   string
	Result   string

	mine string // the position as the bot has it, by its own rules
}

// play follows game id on its stream and moves whenever it is the bot's
// turn, until the game is over; it returns the last state.
func (b *bot) play(id int64) state {
	resp, err := http.Get(fmt.Sprintf("%s/api/game/%d/stream", b.url, id))
	check(err)
	defer resp.Body.Close()
	// One JSON value a line; the empty lines that keep the stream alive
	// are white space to the decoder.
	lines := json.NewDecoder(resp.Body)
	var g *mill.Game
	var start, color string
	for {
		var line struct {
			state
			Start        string
			White, Black struct{ Name string }
			State        state
		}
		check(lines.Decode(&line))
		st := line.state
		switch line.Type {
		case "gameFull":
			start, st = line.Start, line.State
			color = "white"
			if line.Black.Name == b.name {
				color = "black"
			}
			g = replay(start, st.Moves)
		case "gameState": // an offer, a take-back, an end off the board
			g = replay(start, st.Moves)
		case "move":
			check(g.PlayText(st.Move))
		default: // chat
			continue
		}
		st.mine = g.Position().String()
		if st.Status == "finished" {
			return st
		}
		if st.ToMove == color {
			b.move(id, g)
		}
	}
}

// replay returns the game from the position text start after moves.
func replay(start string, moves []string) *mill.Game {
	p, err := mill.ParsePosition(start)
	check(err)
	g := mill.NewGame(p.Rules(), mill.FromPosition(p))
	for _, m := range moves {
		check(g.PlayText(m))
	}
	return g
}

// move searches the game's position to a fixed depth and sends the move.
// Its ply (the moves played before it) makes a retry safe: the server
// plays a move once.
func (b *bot) move(id int64, g *mill.Game) {
	p := g.Position()
	res := b.engine.Search(context.Background(), g.Positions(), search.Limits{Depth: 3}, nil)
	body := map[string]any{"move": p.MoveText(res.Move), "ply": len(g.Positions()) - 1}
	b.call("POST", fmt.Sprintf("/api/game/%d/move", id), body, nil)
}

// call sends a request with a JSON body and decodes the answer into out.
// A 429 or 503 is sent again after its Retry-After; any other failure
// ends the example.
func (b *bot) call(method, path string, body, out any) {
	buf, err := json.Marshal(body)
	check(err)
	for {
		req, err := http.NewRequest(method, b.url+path, bytes.NewReader(buf))
		check(err)
		if b.token != "" {
			req.Header.Set("Authorization", "Bearer "+b.token)
		}
		resp, err := http.DefaultClient.Do(req)
		check(err)
		answer, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		check(err)
		switch {
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
			wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			time.Sleep(time.Duration(max(wait, 1)) * time.Second)
			continue
		case resp.StatusCode >= 300:
			panic(fmt.Sprintf("%s %s: %s %s", method, path, resp.Status, answer))
		}
		if out != nil {
			check(json.Unmarshal(answer, out))
		}
		return
	}
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
