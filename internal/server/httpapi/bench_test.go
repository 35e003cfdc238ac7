package httpapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// BenchmarkMove is one durable move over the HTTP API on loopback, on
// SQLite, with a spectator's stream open on the game: the request, the
// token, the game's lock, the commit (synchronous=FULL, so one fsync a
// move here, where nothing else commits at once), and the stream's event.
// The client's side (this process sends the requests and reads the
// stream) is in the figures too. A game that ends is followed by another
// (its challenge and stream are timed as well, about one in 40 moves).
//
//	go test ./internal/server/httpapi -run '^$' -bench Move -benchmem
func BenchmarkMove(b *testing.B) {
	ts := newTestServer(b, server.Config{})
	ann, bob := ts.account(b, "ann"), ts.account(b, "bob")
	client := ts.Client()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var (
		game  *mill.Game
		id    int64
		ply   int
		games int
	)
	newGame := func() {
		var c wire.Challenge
		ts.must(b, 201, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
		ts.must(b, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
		id = c.Game
		var full wire.GameFull
		ts.must(b, 200, "GET", fmt.Sprintf("/api/game/%d", id), "", nil, &full)
		start, err := mill.ParsePosition(full.Start)
		if err != nil {
			b.Fatal(err)
		}
		game, ply = mill.NewGame(start.Rules(), mill.FromPosition(start)), 0
		req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/game/%d/stream", ts.URL, id), nil)
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("stream: %v %v", err, resp)
		}
		go func() {
			defer resp.Body.Close()
			io.Copy(io.Discard, resp.Body)
		}()
		games++
	}
	var moves []mill.Move
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if game == nil || game.Outcome() != mill.NoOutcome {
			newGame()
		}
		p := game.Position()
		moves = p.Moves(moves[:0])
		// The same choice every run: the pseudo-random pick spreads the
		// games over the board without a generator's state.
		m := moves[(i*7919)%len(moves)]
		token := ann
		if p.SideToMove() == mill.Black {
			token = bob
		}
		req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/game/%d/move/%s?ply=%d", ts.URL, id, p.MoveText(m), ply), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("move %s: %d", p.MoveText(m), resp.StatusCode)
		}
		if err := game.Play(m); err != nil {
			b.Fatal(err)
		}
		ply++
	}
	b.ReportMetric(float64(b.N)/float64(games), "moves/game")
}
