package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/morrisgame/morris/book"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
	"github.com/morrisgame/morris/search"
)

const playSynopsis = `[position flags] [-level N] [-color white|black|random] [-save FILE] [-plain] [-movetime MS]

Play against the engine. Type a move in either notation (d6, d6-d5, a4-a7xd2,
D6-D5, A4-A7,D2), or its number in the list of legal moves, or:
  undo   take back your last move and the engine's reply
  hint   the engine's suggestion
  resign give up the game
  quit   leave (the game is saved unfinished with -save)
In a terminal the board is redrawn in place and the arrow keys pick a move from
the list (enter plays it); -plain, or an input that is not a terminal, reads
one line at a time. The board marks the last move in brackets ([B]; x where it
took a piece) and has the moves beside it.

Flags:`

func cmdPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parsePlayFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	return c.run(ctx, stdin, stdout)
}

// playConfig is what play's flags say.
type playConfig struct {
	pf       positionFlags
	level    int
	color    string // white, black or random
	save     string // the file of the record, or ""
	plain    bool
	movetime int
	pbm      bool
	tbDir    string
}

func parsePlayFlags(args []string, stderr io.Writer) (*playConfig, error) {
	c := &playConfig{}
	fs := newFlags("play", playSynopsis, stderr)
	c.pf.register(fs)
	fs.IntVar(&c.level, "level", 5, "the engine's level, 1 (a beginner) to 10 (full strength)")
	fs.StringVar(&c.color, "color", "white", "your colour: white, black or random")
	fs.StringVar(&c.save, "save", "", "save the game record to this file at the end")
	fs.BoolVar(&c.plain, "plain", false, "line mode even in a terminal")
	fs.IntVar(&c.movetime, "movetime", 0, "milliseconds per engine move and per hint (default: the level's own; hints 1000)")
	fs.BoolVar(&c.pbm, "pbm", false, "draw the board as pbmserv does, rank 1 at the top")
	fs.StringVar(&c.tbDir, "tablebases", "", tablebaseUsage)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *playConfig) validate() error {
	switch {
	case c.level < 1 || c.level > 10:
		return badInput("-level %d: want 1 to 10", c.level)
	case c.movetime < 0:
		return badInput("-movetime %d: want 0 or more", c.movetime)
	case c.color != "white" && c.color != "black" && c.color != "random":
		return badInput("-color %q: want white, black or random", c.color)
	}
	return nil
}

// session is the game the flags describe, the person's colour drawn if
// random, with its engine.
func (c *playConfig) session() (*playSession, error) {
	g, err := c.pf.game()
	if err != nil {
		return nil, err
	}
	seed := rand.Uint64()
	if c.pf.seeded {
		seed = c.pf.seed
	}
	rng := rand.New(rand.NewPCG(seed, 0x706c6179))
	human := mill.White
	switch c.color {
	case "black":
		human = mill.Black
	case "random":
		human = mill.Color(rng.IntN(2))
	}
	s := newPlaySession(g, human, c.level, time.Duration(c.movetime)*time.Millisecond, rng)
	tb, err := openTablebase(c.tbDir)
	if err != nil {
		return nil, usageError{err}
	}
	s.eng = search.New(search.Options{HashMB: 32, Tablebase: tb, Book: book.Default()})
	if c.pbm {
		s.orientation = mill.RankOneTop
	}
	return s, nil
}

// run plays the game in the terminal (or line by line) and saves it.
func (c *playConfig) run(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	s, err := c.session()
	if err != nil {
		return err
	}
	// Fail on an unwritable -save now, not after the game.
	var saveFile *os.File
	if c.save != "" {
		if saveFile, err = os.Create(c.save); err != nil {
			return usageError{err}
		}
		defer saveFile.Close()
	}
	f, isFile := stdin.(*os.File)
	terminal := isFile && isTerminal(f)
	if terminal && !c.plain {
		err = playTerminal(ctx, s, f, stdout)
	} else {
		err = playLines(ctx, s, stdin, stdout, !terminal)
	}
	if err != nil {
		return err
	}
	if saveFile != nil {
		w := record.NewWriter(saveFile)
		if err := w.Write(s.record()); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "saved to %s\n", c.save)
	}
	return nil
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// playSession is a game between a person and the engine, whatever shows it.
type playSession struct {
	g           *mill.Game
	human       mill.Color
	fixed       int // plies given with -moves: not taken back
	eng         *search.Engine
	level       search.Level
	lim         search.Limits // per engine move; zero: the level's own
	hintTime    time.Duration
	rng         *rand.Rand
	names       [2]string
	orientation mill.Orientation
	quit        bool
}

func newPlaySession(g *mill.Game, human mill.Color, level int, movetime time.Duration, rng *rand.Rand) *playSession {
	s := &playSession{
		g:        g,
		human:    human,
		fixed:    len(g.Moves()),
		eng:      search.New(search.Options{HashMB: 32, Book: book.Default()}),
		level:    search.LevelFor(level),
		lim:      search.Limits{MoveTime: movetime},
		hintTime: time.Second,
		rng:      rng,
	}
	if movetime > 0 {
		s.hintTime = movetime
	}
	s.names[human] = "human"
	s.names[human.Other()] = "morris level " + strconv.Itoa(level)
	return s
}

func (s *playSession) over() bool { return s.g.Outcome() != mill.NoOutcome }

func (s *playSession) enginesTurn() bool {
	return !s.over() && !s.quit && s.g.Position().SideToMove() != s.human
}

// think returns the engine's move for positions (a copy of the game's, so
// that it can run while the screen is drawn).
func (s *playSession) think(ctx context.Context, positions []mill.Position) mill.Move {
	return s.eng.Choose(ctx, positions, s.level, s.lim, s.rng, nil).Move
}

// hint returns the engine's best move at full strength in the hint time.
func (s *playSession) hint(ctx context.Context) string {
	p := s.g.Position()
	res := s.eng.Search(ctx, s.g.Positions(), search.Limits{MoveTime: s.hintTime}, nil)
	if res.Move.IsZero() {
		return "no move to suggest"
	}
	return fmt.Sprintf("hint: %s (%s, depth %d)", p.MoveText(res.Move), scoreWords(res.Score, p.SideToMove()), res.Depth)
}

// scoreWords says what a score means for side, the side it is from: in
// pieces, the words the web client uses too ("+0.53 pieces for white").
func scoreWords(score int, side mill.Color) string {
	if search.IsMate(score) {
		plies := search.MatePlies(score)
		if score > 0 {
			return fmt.Sprintf("%s wins in %d plies", side, plies)
		}
		return fmt.Sprintf("%s loses in %d plies", side, plies)
	}
	switch search.Proved(score) {
	case 1:
		return fmt.Sprintf("%s wins (the databases)", side)
	case -1:
		return fmt.Sprintf("%s loses (the databases)", side)
	}
	return fmt.Sprintf("%+.2f pieces for %s", float64(score)/100, side)
}

// lastMove returns the game's last move and the position it was played
// in; ok is false before the first.
func (s *playSession) lastMove() (before mill.Position, m mill.Move, ok bool) {
	moves := s.g.Moves()
	if len(moves) == 0 {
		return mill.Position{}, mill.Move{}, false
	}
	return s.g.Positions()[len(moves)-1], moves[len(moves)-1], true
}

// diagram draws the board with the last move marked, so that the engine's
// answer is seen at once: brackets round the point its piece went to
// ("-[B]-"), and x on the points its captures emptied.
func (s *playSession) diagram() string {
	p := s.g.Position()
	_, last, ok := s.lastMove()
	to := mill.NoPoint
	if ok && last.Kind() != mill.PassMove {
		to = last.To()
	}
	var caps mill.Points
	if ok {
		caps = last.Captures()
	}
	const here = '\x01' // where the piece went: bracketed below
	letter := func(pt mill.Point) byte {
		switch c, has := p.At(pt); {
		case p.Marked().Has(pt):
			return 'X'
		case !has && caps.Has(pt):
			return 'x'
		case !has:
			return '.'
		case c == mill.White:
			return 'W'
		default:
			return 'B'
		}
	}
	d := p.Rules().Board().Diagram(func(pt mill.Point) byte {
		if pt == to {
			return here
		}
		return letter(pt)
	}, s.orientation)
	i := strings.IndexByte(d, here)
	if i < 0 {
		return d
	}
	b := []byte(d)
	b[i] = letter(to)
	b[i-1] = '['
	if i+1 < len(b) && b[i+1] != '\n' {
		b[i+1] = ']'
		return string(b)
	}
	return string(b[:i+1]) + "]" + string(b[i+1:])
}

// lastMoveLine says what the last move was and who played it.
func (s *playSession) lastMoveLine() string {
	before, m, ok := s.lastMove()
	if !ok {
		return ""
	}
	c := before.SideToMove()
	who := "you"
	if c != s.human {
		who = "morris"
	}
	line := fmt.Sprintf("last move: %s %s (%s)", c, before.MoveText(m), who)
	if m.Kind() != mill.PassMove {
		line += ", in brackets on the board"
	}
	return line
}

// history returns the moves of the game numbered as records number them
// (two plies a number, from the start position's ply), one row a number
// under a head naming the columns, at most rows rows (the last ones).
func (s *playSession) history(rows int) []string {
	moves := s.g.Moves()
	positions := s.g.Positions()
	if len(moves) == 0 {
		return nil
	}
	ply0 := positions[0].Ply()
	// The left column holds the even plies: the first mover's.
	left := positions[0].SideToMove()
	if ply0%2 == 1 {
		left = left.Other()
	}
	var out []string
	row := ""
	for i, m := range moves {
		ply := ply0 + i
		text := positions[i].MoveText(m)
		if ply%2 == 0 {
			row = fmt.Sprintf("%3d. %-12s", ply/2+1, text)
			if i == len(moves)-1 {
				out = append(out, strings.TrimRight(row, " "))
			}
			continue
		}
		if i == 0 {
			row = fmt.Sprintf("%3d. %-12s", ply/2+1, "...")
		}
		out = append(out, row+" "+text)
		row = ""
	}
	if rows > 1 && len(out) > rows-1 {
		out = append([]string{"     ..."}, out[len(out)-(rows-2):]...)
	}
	head := fmt.Sprintf("     %-12s %s", left, left.Other())
	return append([]string{head}, out...)
}

// board returns the board with the last move marked and the move history
// beside it.
func (s *playSession) board() string {
	lines := strings.Split(strings.TrimSuffix(s.diagram(), "\n"), "\n")
	hist := s.history(len(lines))
	width := 0
	for _, l := range lines {
		width = max(width, len(l))
	}
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i < len(hist) {
			b.WriteString(strings.Repeat(" ", width+4-len(l)))
			b.WriteString(hist[i])
		}
		b.WriteByte('\n')
	}
	if l := s.lastMoveLine(); l != "" {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// undo takes back the person's last move and whatever the engine played
// after it. It says what it did.
func (s *playSession) undo() string {
	moves := s.g.Moves()
	positions := s.g.Positions()
	last := -1 // the index of the person's last move
	for i := len(moves) - 1; i >= s.fixed; i-- {
		if positions[i].SideToMove() == s.human {
			last = i
			break
		}
	}
	if last < 0 {
		return "nothing to take back"
	}
	var taken []string
	for len(s.g.Moves()) > last {
		i := len(s.g.Moves()) - 1
		taken = append(taken, positions[i].MoveText(moves[i]))
		s.g.Undo()
	}
	for i, j := 0, len(taken)-1; i < j; i, j = i+1, j-1 {
		taken[i], taken[j] = taken[j], taken[i]
	}
	return "took back " + strings.Join(taken, " ")
}

// input handles a line typed by the person: a command, a move, or the
// number of a move in the list. It returns what to say.
func (s *playSession) input(ctx context.Context, line string) string {
	line = strings.TrimSpace(line)
	switch strings.ToLower(line) {
	case "":
		return ""
	case "quit", "q", "exit":
		s.quit = true
		return ""
	case "undo", "u":
		return s.undo()
	case "help", "?":
		return "type a move (d6, d6-d5, a4-a7xd2) or its number, undo, hint, resign or quit"
	}
	if s.over() {
		return fmt.Sprintf("the game is over (%s by %s): undo or quit", s.g.Outcome(), s.g.Method())
	}
	switch strings.ToLower(line) {
	case "hint", "h":
		return s.hint(ctx)
	case "resign":
		_ = s.g.Resign(s.human)
		return "you resign"
	}
	p := s.g.Position()
	if n, err := strconv.Atoi(line); err == nil {
		moves := s.g.LegalMoves()
		if n < 1 || n > len(moves) {
			return fmt.Sprintf("no move number %d: the legal moves are numbered 1 to %d", n, len(moves))
		}
		line = p.MoveText(moves[n-1])
	}
	if err := s.g.PlayText(line); err != nil {
		var se *mill.SyntaxError
		if errors.As(err, &se) {
			return fmt.Sprintf("%q is not a move (%s); type help for the commands", line, se.Msg)
		}
		return err.Error()
	}
	return ""
}

// status says whose turn it is and what each side has, or how the game ended.
func (s *playSession) status() string {
	p := s.g.Position()
	var b strings.Builder
	for _, c := range []mill.Color{mill.White, mill.Black} {
		fmt.Fprintf(&b, "%s (%s): %d on the board, %d in hand\n", c, s.names[c], p.OnBoard(c), p.InHand(c))
	}
	if s.over() {
		fmt.Fprintf(&b, "game over: %s by %s", s.g.Outcome(), s.g.Method())
		switch s.g.Outcome() {
		case mill.Won(s.human):
			b.WriteString(", you win")
		case mill.Won(s.human.Other()):
			b.WriteString(", the engine wins")
		}
		return b.String()
	}
	c := p.SideToMove()
	who := "your move"
	if c != s.human {
		who = "the engine's move"
	}
	fmt.Fprintf(&b, "%s to move (%s)", c, who)
	if pc, ok := p.Pending(); ok {
		fmt.Fprintf(&b, ": %s removes a piece", pc)
	} else if p.Flying(c) {
		b.WriteString(": flying")
	}
	return b.String()
}

// moveList returns the legal moves numbered from 1, wrapped at width.
func (s *playSession) moveList(selected, width int) string {
	p := s.g.Position()
	var b strings.Builder
	col := 0
	for i, m := range s.g.LegalMoves() {
		item := strconv.Itoa(i+1) + " " + p.MoveText(m)
		if i == selected {
			item = "[" + item + "]"
		} else if selected >= 0 {
			item = " " + item + " "
		}
		if col > 0 && col+2+len(item) > width {
			b.WriteByte('\n')
			col = 0
		}
		if col > 0 {
			b.WriteString("  ")
			col += 2
		}
		b.WriteString(item)
		col += len(item)
	}
	return b.String()
}

func (s *playSession) record() *record.Record {
	return record.FromGame(s.g,
		record.Tag{Name: "Event", Value: "morris play"},
		record.Tag{Name: "Date", Value: time.Now().Format("2006.01.02")},
		record.Tag{Name: "White", Value: s.names[mill.White]},
		record.Tag{Name: "Black", Value: s.names[mill.Black]})
}

// playLines is the line mode: the board after every move, one line of input
// at a time, the end of the input as quit. With echo (an input that is not a
// terminal) it repeats each line read after the prompt, so that the output
// reads as a dialogue.
func playLines(ctx context.Context, s *playSession, in io.Reader, out io.Writer, echo bool) error {
	sc := bufio.NewScanner(in)
	fmt.Fprintf(out, "you play %s against morris level %d; type help for the commands\n", s.human, s.level.N)
	show := true
	for !s.quit {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if s.enginesTurn() {
			p := s.g.Position()
			m := s.think(ctx, s.g.Positions())
			if err := s.g.Play(m); err != nil {
				return fmt.Errorf("the engine played %s: %w", p.MoveText(m), err)
			}
			fmt.Fprintf(out, "morris plays %s\n", p.MoveText(m))
			show = true
			continue
		}
		if show {
			fmt.Fprint(out, "\n"+s.board())
			fmt.Fprintln(out, s.status())
			if !s.over() {
				fmt.Fprintln(out, "moves: "+s.moveList(-1, 72))
			}
		}
		fmt.Fprint(out, "> ")
		if !sc.Scan() {
			fmt.Fprintln(out)
			break
		}
		if echo {
			fmt.Fprintln(out, sc.Text())
		}
		before := len(s.g.Moves())
		msg := s.input(ctx, sc.Text())
		if msg != "" {
			fmt.Fprintln(out, msg)
		}
		show = len(s.g.Moves()) != before || s.over()
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if !s.over() {
		fmt.Fprintln(out, "game left unfinished")
	}
	return nil
}

// The terminal UI (bubbletea): the board redrawn in place, the legal moves
// picked with the arrow keys or typed.

type engineMoveMsg struct {
	ply int // the ply the move was chosen for: a stale answer is dropped
	m   mill.Move
}

type hintMsg string

type playModel struct {
	ctx      context.Context
	s        *playSession
	cursor   int
	typed    string
	msg      string
	thinking bool
}

func (m *playModel) Init() tea.Cmd { return m.engineCmd() }

// engineCmd starts the engine's search if it is its turn.
func (m *playModel) engineCmd() tea.Cmd {
	if !m.s.enginesTurn() || m.thinking {
		return nil
	}
	m.thinking = true
	positions := m.s.g.Positions()
	ply := len(positions)
	return func() tea.Msg {
		return engineMoveMsg{ply: ply, m: m.s.think(m.ctx, positions)}
	}
}

func (m *playModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case engineMoveMsg:
		m.thinking = false
		if msg.ply != len(m.s.g.Positions()) || !m.s.enginesTurn() {
			return m, m.engineCmd()
		}
		p := m.s.g.Position()
		if err := m.s.g.Play(msg.m); err != nil {
			m.msg = "the engine played an illegal move: " + err.Error()
			return m, nil
		}
		m.msg = "morris plays " + p.MoveText(msg.m)
		m.cursor = 0
		return m, m.engineCmd()
	case hintMsg:
		m.thinking = false
		m.msg = string(msg)
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *playModel) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "ctrl+c":
		m.s.quit = true
		return m, tea.Quit
	case "esc":
		m.typed = ""
		return m, nil
	}
	if m.thinking {
		return m, nil // one thing at a time: the engine has the engine
	}
	n := len(m.s.g.LegalMoves())
	switch k.String() {
	case "left", "up":
		if n > 0 {
			m.cursor = (m.cursor + n - 1) % n
		}
	case "right", "down", "tab":
		if n > 0 {
			m.cursor = (m.cursor + 1) % n
		}
	case "backspace":
		if m.typed != "" {
			m.typed = m.typed[:len(m.typed)-1]
		}
	case "enter":
		line := m.typed
		m.typed = ""
		if line == "" {
			if n == 0 {
				return m, nil
			}
			line = strconv.Itoa(m.cursor + 1)
		}
		if strings.EqualFold(strings.TrimSpace(line), "hint") || strings.EqualFold(strings.TrimSpace(line), "h") {
			if m.s.over() {
				m.msg = "the game is over"
				return m, nil
			}
			m.thinking = true
			m.msg = "thinking about a hint..."
			return m, func() tea.Msg { return hintMsg(m.s.hint(m.ctx)) }
		}
		before := len(m.s.g.Moves())
		m.msg = m.s.input(m.ctx, line)
		if m.s.quit {
			return m, tea.Quit
		}
		if len(m.s.g.Moves()) != before {
			m.cursor = 0
		}
		return m, m.engineCmd()
	default:
		if t := k.Text; t != "" && len(m.typed) < 40 {
			m.typed += t
		}
	}
	return m, nil
}

func (m *playModel) View() tea.View {
	var b strings.Builder
	b.WriteString(m.s.board())
	b.WriteString(m.s.status() + "\n\n")
	switch {
	case m.thinking:
		b.WriteString("thinking...\n")
	case !m.s.over():
		b.WriteString(m.s.moveList(m.cursor, 76) + "\n")
	}
	b.WriteString("\n> " + m.typed + "\n")
	if m.msg != "" {
		b.WriteString(m.msg + "\n")
	}
	b.WriteString("\narrows pick a move, enter plays it; or type a move, undo, hint, resign, quit; ctrl+c leaves\n")
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func playTerminal(ctx context.Context, s *playSession, in *os.File, out io.Writer) error {
	m := &playModel{ctx: ctx, s: s}
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return err
	}
	// The alternate screen is gone: leave the end of the game in the scrollback.
	fmt.Fprint(out, s.board())
	fmt.Fprintln(out, s.status())
	return nil
}
