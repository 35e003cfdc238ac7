package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
)

// Kind is what went wrong, for the gateways to answer with: an HTTP status,
// a pbmserv error line.
type Kind uint8

const (
	Internal     Kind = iota // the server's fault (500)
	BadRequest               // the input is wrong: syntax, illegal move, bad option (400)
	Unauthorized             // no valid credentials (401)
	Forbidden                // not allowed to do this: not your game, not your turn (403)
	NotFound                 // no such game, user or challenge (404)
	Conflict                 // the state moved on: wrong move number, game over, answered already (409)
	TooMany                  // rate limited (429)
	Unavailable              // shutting down, overloaded (503)
)

var kindStatus = [...]int{500, 400, 401, 403, 404, 409, 429, 503}

// Status returns the HTTP status of the kind.
func (k Kind) Status() int { return kindStatus[k] }

// Error is an error of the service: a kind and a message for the user.
// The message never holds a password.
type Error struct {
	Kind Kind
	Msg  string
	Err  error // the cause, if any
	// RetryAfter, for TooMany and Unavailable, is when to try again
	// (0: a second).
	RetryAfter time.Duration
}

// RetryAfter is when a caller refused with err may try again, in whole
// seconds, at least 1: the Retry-After of a 429 or 503.
func RetryAfter(err error) int {
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		return int(math.Ceil(e.RetryAfter.Seconds()))
	}
	if errors.Is(err, store.ErrFull) {
		return int(RetryFull / time.Second)
	}
	return 1
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

func errorf(k Kind, format string, args ...any) error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// KindOf returns the kind of an error of the service: the kind of an
// *Error, the store's sentinels mapped, Internal otherwise.
func KindOf(err error) Kind {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Kind
	case errors.Is(err, store.ErrNotFound):
		return NotFound
	case errors.Is(err, store.ErrConflict):
		return Conflict
	case errors.Is(err, store.ErrDuplicate):
		return Conflict
	case errors.Is(err, store.ErrFull):
		return Unavailable
	}
	return Internal
}

// Public returns what a client may be told of err: its kind and a message
// in the service's words. The message of an *Error is the service's own
// and is passed on. The store's sentinels come with the store's and the
// driver's text (a table, a constraint, the SQL error), which is for the
// log only: they are answered with a message of their kind. Anything
// else is the server's fault: Internal and "internal error"; the caller
// logs err itself, with something the client sees to find the line by.
func Public(err error) (Kind, string) {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Kind, e.Msg
	case errors.Is(err, store.ErrNotFound):
		return NotFound, "not found"
	case errors.Is(err, store.ErrConflict):
		return Conflict, "that changed meanwhile: read it again and retry"
	case errors.Is(err, store.ErrDuplicate):
		return Conflict, "that exists already"
	case errors.Is(err, store.ErrFull):
		return Unavailable, DiskFull
	}
	return Internal, "internal error"
}

// NewRequestID returns a name for one request, random and short, which a
// client is shown beside "internal error" and the log holds beside the
// detail.
func NewRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return hex.EncodeToString(b[:])
}

// ErrFull is the error of a change the store refused for want of room on
// its disk (store.ErrFull itself, so errors.Is finds it in what the
// service returns): Unavailable, answered with DiskFull. The store logs
// the full disk itself, once rather than once per refusal, so a gateway
// does not log it again.
var ErrFull = store.ErrFull

// DiskFull is what the gateways tell the user of a change the store
// refused for want of room (ErrFull, a 503): the store's own text
// names the driver's error. The store logs the full disk itself, once
// rather than once per refusal.
const DiskFull = "the server cannot store anything at the moment (its disk is full): nothing was done; try again in a minute"

// RetryFull is how long a client is told to wait (Retry-After) before it
// tries again a change refused for want of room: long enough not to
// hammer a server whose operator is making room, short enough that play
// resumes soon after.
const RetryFull = 10 * time.Second
