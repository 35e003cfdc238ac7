package server

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// A panic in a goroutine that no HTTP handler runs (an engine worker, the
// reviewer, the explorer, a flag's timer, a WebSocket's reader, the relay)
// ends the whole process: net/http recovers only its own handlers. A bug
// that one stored game or job sets off every time would then end the
// process at each restart, for every player. So every such goroutine runs
// its work through Safely: the panic is logged with its stack and becomes
// an error, and the caller marks the job failed and goes on.

// PanicError is a panic recovered by Safely.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the goroutine's stack where it panicked
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Safely runs fn and returns nil, or, if fn panics, logs the panic (what
// names the work; args are more attributes, such as the game) with its
// stack at Error level and returns it as a *PanicError.
func Safely(log *slog.Logger, what string, fn func(), args ...any) (err error) {
	defer func() {
		if v := recover(); v != nil {
			pe := &PanicError{Value: v, Stack: debug.Stack()}
			log.Error(what+": panic recovered", append(args, "panic", fmt.Sprint(v), "stack", string(pe.Stack))...)
			err = pe
		}
	}()
	fn()
	return nil
}

// testHooks let the tests make work off the request path fail as a bug
// would, with a panic, where it runs. Every hook is nil outside tests
// (Config.hooks).
type testHooks struct {
	engineMove func(game int64) // before the engine's search
	review     func(id int64)   // before a review
	explore    func(game int64) // before a finished game is explored
	flag       func(game int64) // when a flag's timer fires
	analysis   func()           // before an analysis handed over by another process
	relay      func(payload string)
	direct     func(tournament int64) // before the director takes an event's steps
}
