package mill

import (
	"errors"
	"fmt"
)

// Sentinel errors; the errors returned by this package wrap them.
var (
	ErrSyntax         = errors.New("syntax error")
	ErrIllegalMove    = errors.New("illegal move")
	ErrGameOver       = errors.New("game over")
	ErrUnknownVariant = errors.New("unknown variant")
	ErrRules          = errors.New("invalid rules")
	ErrPosition       = errors.New("invalid position")
)

// SyntaxError reports text that does not parse: what was being parsed, the
// input, and the byte offset where the trouble starts.
type SyntaxError struct {
	What   string // "move", "position", ...
	Input  string
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s %q: at offset %d: %s", e.What, e.Input, e.Offset, e.Msg)
}

func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// MoveError reports a move that is not legal in a position, and why.
type MoveError struct {
	Move   string // the move as given
	Reason string
}

func (e *MoveError) Error() string { return fmt.Sprintf("illegal move %s: %s", e.Move, e.Reason) }

func (e *MoveError) Unwrap() error { return ErrIllegalMove }
