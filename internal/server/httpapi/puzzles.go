package httpapi

import (
	"net/http"

	"github.com/morrisgame/morris/internal/server"
)

// Puzzles: GET /api/puzzle/daily (204 when the server has none), GET /api/puzzle/next, GET
// /api/puzzle/{id}, POST /api/puzzle/{id}/moves, POST
// /api/puzzle/{id}/solution (giving up: the line), GET
// /api/user/{name}/puzzles. A token is optional: with one, the attempts
// are the player's and rated.

// maybeUser returns the signed-in user of a request with a token, nil for
// one without; a bad token is an error, not an anonymous request.
func (a *api) maybeUser(r *http.Request) (*server.User, error) {
	if bearer(r) == "" {
		return nil, a.anonymous(r)
	}
	u, err := a.auth(r)
	if err != nil {
		return nil, err
	}
	return &u, nil
}

func (a *api) dailyPuzzle(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	p, err := a.svc.DailyPuzzle(r.Context())
	if server.KindOf(err) == server.NotFound {
		// No puzzles on this server: nothing to show, which is no error.
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, p)
}

func (a *api) nextPuzzle(w http.ResponseWriter, r *http.Request) error {
	u, err := a.maybeUser(r)
	if err != nil {
		return err
	}
	p, err := a.svc.NextPuzzle(r.Context(), u)
	if server.KindOf(err) == server.NotFound {
		w.WriteHeader(http.StatusNoContent) // none left to try
		return nil
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, p)
}

func (a *api) puzzle(w http.ResponseWriter, r *http.Request) error {
	return readByID(a, w, r, a.svc.Puzzle)
}

type puzzleMovesBody struct {
	Moves []string `json:"moves"`
}

func (a *api) puzzleMoves(w http.ResponseWriter, r *http.Request) error {
	u, err := a.maybeUser(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var b puzzleMovesBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	ans, err := a.svc.PuzzleMoves(r.Context(), a.remote(r), u, id, b.Moves)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, ans)
}

// puzzleSolution: POST /api/puzzle/{id}/solution, no body. A POST, not a
// GET: for a signed-in player who had not tried the puzzle it is a failed
// attempt.
func (a *api) puzzleSolution(w http.ResponseWriter, r *http.Request) error {
	u, err := a.maybeUser(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	ans, err := a.svc.PuzzleSolution(r.Context(), u, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, ans)
}

func (a *api) userPuzzles(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	h, err := a.svc.PuzzleHistory(r.Context(), r.PathValue("name"), 50)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, h)
}
