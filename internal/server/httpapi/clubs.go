package httpapi

import (
	"net/http"
	"strconv"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Clubs: POST /api/club (create), GET /api/clubs (list and search), GET
// /api/club/{id} (the club, its leaders, a page of members; the requests
// waiting for its leaders), and POST /api/club/{id}/join, leave, accept,
// remove and leader. Reading needs no token (with one, the answer says
// the caller's role, and shows a leader the requests); every change
// needs one, and the service says who may make it (internal/server/clubs.go).

type clubBody struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Open        bool   `json:"open"`
}

// createClub: POST /api/club {"name", "description", "open"}: 201 and the
// club as its leader sees it.
func (a *api) createClub(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b clubBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Name == "" {
		return httpError(http.StatusBadRequest, "a club needs a name: {\"name\": NAME, \"description\": TEXT, \"open\": true or false}")
	}
	c, err := a.svc.CreateClub(r.Context(), u, b.Name, b.Description, b.Open)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, c)
}

// clubEditBody is the body of POST /api/club/{id}/edit: the fields to
// change.
type clubEditBody struct {
	Description *string `json:"description"`
	Open        *bool   `json:"open"`
}

// editClub: POST /api/club/{id}/edit, a leader's: the club as they see it.
func (a *api) editClub(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var b clubEditBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Description == nil && b.Open == nil {
		return httpError(http.StatusBadRequest, `nothing to change: {"description": TEXT, "open": true or false} (a club's name stays)`)
	}
	c, err := a.svc.EditClub(r.Context(), u, id, b.Description, b.Open)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, c)
}

// pageLimit reads ?limit= of a page: 0 when it is not given (the
// service's default).
func pageLimit(r *http.Request) (int, error) {
	s := r.URL.Query().Get("limit")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > server.MaxClubPage {
		return 0, httpError(http.StatusBadRequest, "limit is 1 to %d, not %q", server.MaxClubPage, s)
	}
	return n, nil
}

// club: GET /api/club/{id}?after=ID&limit=N, the club with the page of
// its members after the member ID (by id), N of them (1 to 100, 50 by
// default).
func (a *api) club(w http.ResponseWriter, r *http.Request) error {
	u, err := a.maybeUser(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var after int64
	if s := r.URL.Query().Get("after"); s != "" {
		if after, err = strconv.ParseInt(s, 10, 64); err != nil || after < 1 {
			return httpError(http.StatusBadRequest, "after %q is not a member's id: a number from 1 up", s)
		}
	}
	limit, err := pageLimit(r)
	if err != nil {
		return err
	}
	c, err := a.svc.Club(r.Context(), u, id, after, limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, c)
}

// clubs: GET /api/clubs?q=TEXT&after=NAME&limit=N, the clubs whose names
// hold TEXT (ignoring case, spaces and punctuation), by name, after the
// club NAME, N of them (1 to 100, 50 by default).
func (a *api) clubs(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	limit, err := pageLimit(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	list, err := a.svc.Clubs(r.Context(), q.Get("q"), q.Get("after"), limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, list)
}

// clubAction authenticates, reads the club's id and answers fn's
// membership.
func (a *api) clubAction(w http.ResponseWriter, r *http.Request, fn func(u server.User, id int64) (wire.ClubMembership, error)) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	m, err := fn(u, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, m)
}

// joinClub: POST /api/club/{id}/join: a member at once of an open club, a
// request to a closed one.
func (a *api) joinClub(w http.ResponseWriter, r *http.Request) error {
	return a.clubAction(w, r, func(u server.User, id int64) (wire.ClubMembership, error) {
		return a.svc.JoinClub(r.Context(), u, id)
	})
}

// leaveClub: POST /api/club/{id}/leave: leaving, or withdrawing a request.
func (a *api) leaveClub(w http.ResponseWriter, r *http.Request) error {
	return a.clubAction(w, r, func(u server.User, id int64) (wire.ClubMembership, error) {
		return a.svc.LeaveClub(r.Context(), u, id)
	})
}

// clubUserBody names the player a leader acts on.
type clubUserBody struct {
	User    string `json:"user"`
	Decline bool   `json:"decline"` // accept only: decline the request instead
	Leader  *bool  `json:"leader"`  // leader only: make a leader (true) or set down (false)
}

// readClubUser reads the body of accept, remove and leader; decline and
// leader say whether the endpoint takes those fields (leader's needs its).
func readClubUser(r *http.Request, decline, leader bool) (clubUserBody, error) {
	var b clubUserBody
	if err := readJSON(r, &b); err != nil {
		return b, err
	}
	switch {
	case b.User == "":
		return b, httpError(http.StatusBadRequest, "name the player: {\"user\": NAME}")
	case b.Decline && !decline:
		return b, httpError(http.StatusBadRequest, "decline is for POST /api/club/{id}/accept")
	case b.Leader != nil && !leader:
		return b, httpError(http.StatusBadRequest, "leader is for POST /api/club/{id}/leader")
	case b.Leader == nil && leader:
		return b, httpError(http.StatusBadRequest, "say what to make of them: {\"user\": NAME, \"leader\": true or false}")
	}
	return b, nil
}

// acceptClubRequest: POST /api/club/{id}/accept {"user": NAME} accepts
// NAME's request to join; with "decline": true declines it.
func (a *api) acceptClubRequest(w http.ResponseWriter, r *http.Request) error {
	return a.clubAction(w, r, func(u server.User, id int64) (wire.ClubMembership, error) {
		b, err := readClubUser(r, true, false)
		if err != nil {
			return wire.ClubMembership{}, err
		}
		return a.svc.AnswerClubRequest(r.Context(), u, id, b.User, !b.Decline)
	})
}

// removeClubMember: POST /api/club/{id}/remove {"user": NAME}.
func (a *api) removeClubMember(w http.ResponseWriter, r *http.Request) error {
	return a.clubAction(w, r, func(u server.User, id int64) (wire.ClubMembership, error) {
		b, err := readClubUser(r, false, false)
		if err != nil {
			return wire.ClubMembership{}, err
		}
		return a.svc.RemoveClubMember(r.Context(), u, id, b.User)
	})
}

// setClubLeader: POST /api/club/{id}/leader {"user": NAME, "leader":
// true|false}.
func (a *api) setClubLeader(w http.ResponseWriter, r *http.Request) error {
	return a.clubAction(w, r, func(u server.User, id int64) (wire.ClubMembership, error) {
		b, err := readClubUser(r, false, true)
		if err != nil {
			return wire.ClubMembership{}, err
		}
		return a.svc.SetClubLeader(r.Context(), u, id, b.User, *b.Leader)
	})
}
