package pbm

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/morrisgame/morris/mill"
)

// ErrSyntax is the sentinel every error of Parse wraps.
var ErrSyntax = errors.New("syntax error")

// SyntaxError is a command line that does not parse. Its message names the
// offending word and says what was expected. It does not hold the line,
// which may carry a password.
type SyntaxError struct {
	Command string // the command as far as it was understood: "nmm move", "signup"; "" before that
	Msg     string
}

func (e *SyntaxError) Error() string {
	if e.Command == "" {
		return e.Msg
	}
	return e.Command + ": " + e.Msg
}

func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Limits of the language.
const (
	MaxLine     = 4096 // bytes in a command line
	MinBoard    = 101  // the first board number, as in pbmserv
	MaxPassword = 128  // bytes in a password
	MaxEmail    = 254  // bytes in an e-mail address
	MaxDays     = 1000 // the longest timer of a challenge
	MaxLimit    = 1000 // the largest N of limit
	MaxSeek     = 100  // the largest N of seek
	maxDigits   = 9    // numbers stay well inside an int
	minUserLen  = 2
	maxUserLen  = 20
	maxQuoted   = 40 // bytes of a bad word quoted in a message
)

// Parse parses one command line (without its line break). Words are
// separated by white space; game names, commands, option names and move
// words may be in any case. The error of a line that does not parse wraps
// ErrSyntax and says which word is wrong and what was expected.
func Parse(line string) (Command, error) {
	if len(line) > MaxLine {
		return Command{}, &SyntaxError{Msg: fmt.Sprintf("the line is longer than %d bytes", MaxLine)}
	}
	if !utf8.ValidString(line) {
		return Command{}, &SyntaxError{Msg: "the line is not valid UTF-8"}
	}
	for _, r := range line {
		// Tabs separate words; other control characters (line breaks,
		// terminal escapes) have no place in a command, nor in a chat
		// message echoed to other players.
		if r != '\t' && unicode.IsControl(r) {
			return Command{}, &SyntaxError{Msg: fmt.Sprintf("the line holds the control character %U", r)}
		}
	}
	p := &parser{line: line, toks: tokenize(line)}
	if len(p.toks) == 0 {
		return Command{}, &SyntaxError{Msg: "an empty line: try help"}
	}
	if err := p.parse(); err != nil {
		return Command{}, err
	}
	return p.cmd, nil
}

type token struct {
	text  string
	start int // byte offset in the line
}

// tokenize splits the line at white space, as strings.Fields does, keeping
// where each word starts (chat takes the rest of the line as it is).
func tokenize(line string) []token {
	var toks []token
	start := -1
	for i, r := range line {
		switch {
		case unicode.IsSpace(r) && start >= 0:
			toks = append(toks, token{line[start:i], start})
			start = -1
		case !unicode.IsSpace(r) && start < 0:
			start = i
		}
	}
	if start >= 0 {
		toks = append(toks, token{line[start:], start})
	}
	return toks
}

type parser struct {
	line  string
	toks  []token
	i     int // the next word
	cmd   Command
	board *mill.Board // the game's board, for moves
}

// prefix is the command as far as it is known, for messages.
func (p *parser) prefix() string {
	var parts []string
	if p.cmd.Game != "" {
		parts = append(parts, ShortName(p.cmd.Game))
	}
	if p.cmd.Verb != NoVerb {
		parts = append(parts, p.cmd.Verb.String())
	}
	return strings.Join(parts, " ")
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Command: p.prefix(), Msg: fmt.Sprintf(format, args...)}
}

// usage is the verb's syntax with the game name typed.
func (p *parser) usage() string {
	u := Usage(p.cmd.Verb)
	if p.cmd.Game != "" && p.cmd.Verb != Help {
		u = strings.ReplaceAll(u, "GAME", ShortName(p.cmd.Game))
	}
	return u
}

func (p *parser) more() bool { return p.i < len(p.toks) }

// need returns the next word, or an error that says field is missing.
func (p *parser) need(field string) (string, error) {
	if !p.more() {
		return "", p.errorf("missing %s; usage: %s", field, p.usage())
	}
	p.i++
	return p.toks[p.i-1].text, nil
}

// end fails if words are left.
func (p *parser) end() error {
	if p.more() {
		return p.errorf("unexpected %q after the last argument; usage: %s", clip(p.toks[p.i].text), p.usage())
	}
	return nil
}

// clip shortens a word quoted in a message.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	n := maxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

func (p *parser) parse() error {
	first := p.toks[0].text
	p.i = 1
	if v, ok := lookupVerb(first); ok && (v == Signup || v == Change || v == Help) {
		p.cmd.Verb = v
		switch v {
		case Signup:
			return p.signup()
		case Change:
			return p.change()
		}
		return p.help()
	}
	variant, ok := LookupGame(first)
	if !ok {
		if v, ok := lookupVerb(first); ok {
			return p.errorf("%q: a command starts with the game name, as in %s; the games are %s",
				clip(first), strings.Replace(Usage(v), "GAME", "nmm", 1), gameList())
		}
		return p.errorf("unknown game %q: want one of %s (or a preset id), or signup, change or help", clip(first), gameList())
	}
	p.cmd.Game = variant
	p.board = boardOf(variant)
	if !p.more() {
		return p.errorf("missing the command after the game name: want one of %s", verbList())
	}
	word := p.toks[p.i].text
	p.i++
	v, ok := lookupVerb(word)
	if !ok || v == Signup || v == Change {
		return p.errorf("unknown command %q: want one of %s", clip(word), verbList())
	}
	p.cmd.Verb = v
	switch v {
	case Help:
		return p.help()
	case Challenge:
		return p.challenge()
	case Move, Queue:
		return p.move()
	case Show:
		return p.show()
	case Preview:
		return p.preview()
	case History, Standings, Ratings:
		return p.end()
	case Games:
		if err := p.user("USERID", &p.cmd.User); err != nil {
			return err
		}
		return p.end()
	case Subscribe, Unsubscribe, Notify:
		if err := p.boardNumber(&p.cmd.Board); err != nil {
			return err
		}
		if p.more() {
			if err := p.login(); err != nil {
				return err
			}
		}
		return p.end()
	case Limit, Seek:
		if err := p.login(); err != nil {
			return err
		}
		max := MaxLimit
		if v == Seek {
			max = MaxSeek
		}
		if err := p.count(max); err != nil {
			return err
		}
		return p.end()
	case Accept, Reject:
		if err := p.login(); err != nil {
			return err
		}
		for p.more() {
			var u string
			if err := p.user("CHALLENGER", &u); err != nil {
				return err
			}
			p.cmd.Users = append(p.cmd.Users, u)
		}
		return nil
	case Chat:
		return p.chat()
	case Tournaments:
		if p.more() {
			if err := p.tournamentNumber(); err != nil {
				return err
			}
		}
		return p.end()
	case Join, Withdraw:
		if err := p.tournamentNumber(); err != nil {
			return err
		}
		if err := p.login(); err != nil {
			return err
		}
		return p.end()
	}
	return p.errorf("unknown command %q", clip(word)) // not reached: every verb is above
}

// verbList lists the verbs that follow a game name, for messages.
func verbList() string {
	var names []string
	for v := Help; v < numVerbs; v++ {
		names = append(names, v.String())
	}
	return strings.Join(names, ", ")
}

func (p *parser) signup() error {
	if err := p.login(); err != nil {
		return err
	}
	if p.more() {
		email, _ := p.need("EMAIL")
		if !validEmail(email) {
			return p.errorf("EMAIL %q: want an e-mail address like ann@example.com", clip(email))
		}
		p.cmd.Email = email
	}
	return p.end()
}

// change parses "change password USERID PASSWORD NEWPASSWORD", pbmserv's
// command for a new password. pbmserv also has "change address", which
// this server does not.
func (p *parser) change() error {
	what, err := p.need("password")
	if err != nil {
		return err
	}
	if !strings.EqualFold(what, "password") {
		return p.errorf("%q: this server changes only passwords; usage: %s", clip(what), p.usage())
	}
	if err := p.login(); err != nil {
		return err
	}
	pw, err := p.need("NEWPASSWORD")
	if err != nil {
		return err
	}
	if len(pw) > MaxPassword {
		return p.errorf("NEWPASSWORD: longer than %d bytes", MaxPassword)
	}
	p.cmd.NewPassword = pw
	return p.end()
}

// help parses "help [GAME] [COMMAND]" and "GAME help [COMMAND]".
func (p *parser) help() error {
	if p.more() && p.cmd.Game == "" {
		if variant, ok := LookupGame(p.toks[p.i].text); ok {
			p.cmd.Game = variant
			p.i++
		}
	}
	if p.more() {
		word, _ := p.need("COMMAND")
		v, ok := lookupVerb(word)
		if !ok {
			if p.cmd.Game == "" {
				return p.errorf("%q is neither a game nor a command: want one of %s, or signup, change, %s", clip(word), gameList(), verbList())
			}
			return p.errorf("COMMAND %q: want one of signup, change, %s", clip(word), verbList())
		}
		p.cmd.Topic = v
	}
	return p.end()
}

// login parses USERID PASSWORD.
func (p *parser) login() error {
	if err := p.user("USERID", &p.cmd.User); err != nil {
		return err
	}
	pw, err := p.need("PASSWORD")
	if err != nil {
		return err
	}
	if len(pw) > MaxPassword {
		// The password is not quoted: error messages get logged.
		return p.errorf("PASSWORD: longer than %d bytes", MaxPassword)
	}
	p.cmd.Password = pw
	return nil
}

// user parses a user id: 2 to 20 ASCII letters, digits, _ or -, starting
// with a letter, so that it is never taken for a board number.
func (p *parser) user(field string, dst *string) error {
	u, err := p.need(field)
	if err != nil {
		return err
	}
	if !validUser(u) {
		return p.errorf("%s %q: want a user id: %d to %d letters, digits, _ or -, starting with a letter",
			field, clip(u), minUserLen, maxUserLen)
	}
	*dst = u
	return nil
}

func validUser(u string) bool {
	if len(u) < minUserLen || len(u) > maxUserLen || !isLetter(u[0]) {
		return false
	}
	for i := 1; i < len(u); i++ {
		if c := u[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// validEmail accepts the common shape of an address: a local part of
// printable ASCII without quotes or brackets, an @, and a domain of at least
// two labels. Whether the address works is the mail's business.
func validEmail(s string) bool {
	if len(s) > MaxEmail {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || domain == "" || strings.Count(domain, ".") == 0 {
		return false
	}
	for i := 0; i < len(local); i++ {
		c := local[i]
		if !isLetter(c) && !isDigit(c) && !strings.ContainsRune(".!#$%&'*+/=?^_`{|}~-", rune(c)) {
			return false
		}
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isLetter(c) && !isDigit(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

// number parses a decimal number of ASCII digits (no sign), at most
// maxDigits long.
func number(s string) (int, bool) {
	if s == "" || len(s) > maxDigits {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func (p *parser) boardNumber(dst *int) error {
	w, err := p.need("BOARD")
	if err != nil {
		return err
	}
	return p.setBoard(w, w, dst)
}

// setBoard parses s, the board number in word.
func (p *parser) setBoard(s, word string, dst *int) error {
	n, ok := number(s)
	if !ok || n < MinBoard {
		return p.errorf("BOARD %q: want a board number, %d or more", clip(word), MinBoard)
	}
	*dst = n
	return nil
}

// moveNumber parses the N of #N in word.
func (p *parser) moveNumber(s, field, word string) error {
	n, ok := number(s)
	if !ok || n < 1 {
		return p.errorf("%s %q: want a move number after #, 1 or more", field, clip(word))
	}
	p.cmd.MoveNumber = n
	return nil
}

// tournamentNumber parses the N of a tournament: 1 or more.
func (p *parser) tournamentNumber() error {
	w, err := p.need("N")
	if err != nil {
		return err
	}
	n, ok := number(w)
	if !ok || n < 1 {
		return p.errorf("N %q: want a tournament's number, 1 or more (GAME tournaments lists them)", clip(w))
	}
	p.cmd.Tournament = n
	return nil
}

func (p *parser) count(max int) error {
	w, err := p.need("N")
	if err != nil {
		return err
	}
	n, ok := number(w)
	if !ok || n > max {
		return p.errorf("N %q: want a number of games from 0 to %d", clip(w), max)
	}
	p.cmd.N = n
	return nil
}

// parseMove parses a move in either notation on the game's board.
func (p *parser) parseMove(field, s, word string) (mill.Move, error) {
	m, err := p.board.ParseMove(s)
	if err == nil {
		return m, nil
	}
	msg := err.Error()
	var se *mill.SyntaxError
	if errors.As(err, &se) {
		msg = se.Msg
		// The offset tells where something is missing ("want ..."); after
		// other complaints it points past the word at fault.
		switch {
		case !strings.HasPrefix(msg, "want") || se.Offset == 0:
		case se.Offset < len(s):
			msg += fmt.Sprintf(", at %q", clip(s[se.Offset:]))
		default:
			msg += ", at the end"
		}
	}
	return mill.Move{}, p.errorf("%s %q: %s", field, clip(word), msg)
}

func (p *parser) move() error {
	if err := p.boardNumber(&p.cmd.Board); err != nil {
		return err
	}
	if err := p.login(); err != nil {
		return err
	}
	word, err := p.need("MOVE")
	if err != nil {
		return err
	}
	body, n, hasN := strings.Cut(word, "#")
	if hasN {
		if err := p.moveNumber(n, "MOVE", word); err != nil {
			return err
		}
	}
	if a, ok := lookupAction(body); ok {
		if p.cmd.Verb == Queue {
			return p.errorf("MOVE %q: queue stores moves; %s is played with move", clip(word), a)
		}
		p.cmd.Action = a
		return p.end()
	}
	m, err := p.parseMove("MOVE", body, word)
	if err != nil {
		return err
	}
	p.cmd.Move = m
	return p.end()
}

func (p *parser) show() error {
	word, err := p.need("BOARD or USERID")
	if err != nil {
		return err
	}
	if isDigit(word[0]) {
		b, n, hasN := strings.Cut(word, "#")
		if err := p.setBoard(b, word, &p.cmd.Board); err != nil {
			return err
		}
		if hasN {
			if err := p.moveNumber(n, "BOARD", word); err != nil {
				return err
			}
		}
		return p.end()
	}
	p.i-- // the word is the user id
	if err := p.user("USERID", &p.cmd.User); err != nil {
		return err
	}
	if p.more() && strings.EqualFold(p.toks[p.i].text, "active") {
		p.cmd.Active = true
		p.i++
	}
	return p.end()
}

func (p *parser) preview() error {
	if err := p.boardNumber(&p.cmd.Board); err != nil {
		return err
	}
	if !p.more() {
		_, err := p.need("MOVE")
		return err
	}
	for p.more() {
		word, _ := p.need("MOVE")
		m, err := p.parseMove("MOVE", word, word)
		if err != nil {
			return err
		}
		p.cmd.Moves = append(p.cmd.Moves, m)
	}
	return nil
}

func (p *parser) chat() error {
	if err := p.boardNumber(&p.cmd.Board); err != nil {
		return err
	}
	if err := p.login(); err != nil {
		return err
	}
	if !p.more() {
		_, err := p.need("TEXT")
		return err
	}
	p.cmd.Text = strings.TrimRightFunc(p.line[p.toks[p.i].start:], unicode.IsSpace)
	p.i = len(p.toks)
	return nil
}

// timerNames are challenge's double-dash options.
var timerNames = []string{"nagtime", "forfeittime", "totaltime"}

// challenge parses USERID PASSWORD OPPONENT [options]. The challenger
// proves who they are: pbmserv's own form, USERID1 USERID2 without a
// password, let anyone start rated games in two other players' names
// (and lose them on time for one of them), so it is refused with the new
// usage. The two forms tell apart by the third word: OPPONENT is a user
// id, which starts with a letter, where the old form has an option or
// nothing.
func (p *parser) challenge() error {
	if err := p.user("USERID", &p.cmd.User); err != nil {
		return err
	}
	p.i-- // login reads it again
	if p.i+2 >= len(p.toks) || strings.HasPrefix(p.toks[p.i+2].text, "-") {
		return p.oldChallenge()
	}
	if err := p.login(); err != nil {
		return err
	}
	if err := p.user("OPPONENT", &p.cmd.Opponent); err != nil {
		return err
	}
	if strings.EqualFold(p.cmd.User, p.cmd.Opponent) {
		return p.errorf("OPPONENT %q: the same player as USERID; a game needs two", clip(p.cmd.Opponent))
	}
	preset, err := mill.LookupVariant(p.cmd.Game)
	if err != nil {
		return p.errorf("%v", err) // not reached: the game name was looked up
	}
	var overrides []string
	seen := map[string]bool{}
	for p.more() {
		word, _ := p.need("OPTION")
		lower := strings.ToLower(word)
		switch {
		case strings.HasPrefix(lower, "--"):
			name, value, _ := strings.Cut(lower[2:], "=")
			var dst *int
			switch name {
			case "nagtime":
				dst = &p.cmd.Timers.NagDays
			case "forfeittime":
				dst = &p.cmd.Timers.ForfeitDays
			case "totaltime":
				dst = &p.cmd.Timers.TotalDays
			default:
				return p.errorf("option %q: unknown; the timers are --nagtime=D, --forfeittime=D and --totaltime=D (days)", clip(word))
			}
			if seen["--"+name] {
				return p.errorf("option %q: --%s is given twice", clip(word), name)
			}
			seen["--"+name] = true
			days, ok := number(value)
			if !ok || days < 1 || days > MaxDays {
				return p.errorf("option %q: want --%s=D, D a number of days from 1 to %d", clip(word), name, MaxDays)
			}
			*dst = days
		case strings.HasPrefix(lower, "-") && len(lower) > 1:
			name, value, hasValue := strings.Cut(lower[1:], "=")
			if name == "board" {
				return p.errorf("option %q: the game name sets the board (%s)", clip(word), gameList())
			}
			o, ok := mill.LookupOption(name)
			if !ok {
				return p.errorf("option %q: unknown rule option %q; the options are %s", clip(word), clip(name), ruleOptionList())
			}
			if !hasValue {
				if o.Values != "yes|no" {
					return p.errorf("option %q: want -%s=VALUE, VALUE one of %s", clip(word), name, o.Values)
				}
				value = "yes"
			}
			if seen[name] {
				return p.errorf("option %q: -%s is given twice", clip(word), name)
			}
			seen[name] = true
			opts := preset.Options
			if err := opts.Set(name, value); err != nil {
				return p.errorf("option %q: %v", clip(word), err)
			}
			overrides = append(overrides, name+"="+value)
		default:
			return p.errorf("%q: want an option, -OPTION=VALUE or --nagtime=D, --forfeittime=D, --totaltime=D; usage: %s", clip(word), p.usage())
		}
	}
	r, err := mill.NewRules(p.cmd.Game, overrides...)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), mill.ErrRules.Error()+": "+p.cmd.Game+": ")
		return p.errorf("the options do not go together: %s", msg)
	}
	p.cmd.Rules = r.Overrides()
	return nil
}

// oldChallenge is the error of a challenge without a password: pbmserv's
// two-user form, or the new form cut short. Neither word is quoted: the
// second may be a password.
func (p *parser) oldChallenge() error {
	return p.errorf("missing OPPONENT: a challenge names the challenger's own password now, and the two-user form (challenge USERID1 USERID2) is no longer taken; usage: %s", p.usage())
}

// ruleOptionList lists the rule options a challenge may set.
func ruleOptionList() string {
	var names []string
	for _, o := range mill.OptionList {
		if o.Name != "board" {
			names = append(names, o.Name)
		}
	}
	return strings.Join(names, ", ")
}
