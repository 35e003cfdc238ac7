package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/morrisgame/morris/internal/server/store"
)

// cmdAdmin is the operator's command on a server's store: who is a
// moderator. Nothing over HTTP makes one (a moderator's endpoints would
// otherwise be a token away from anyone who steals one); the operator, who
// holds the machine and its database, does, here, with the server running
// or not: the server reads the flag from the store at each moderator's
// call. Each change is a line of the moderators' log, under "the
// operator".
func cmdAdmin(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	c, err := parseAdminFlags(args, stderr)
	if err != nil {
		return err
	}
	return c.run(ctx, stdout)
}

// adminConfig is what admin's flags and arguments say.
type adminConfig struct {
	data, db string
	note     string
	verb     string // mod, unmod, mods
	name     string
}

const adminSynopsis = "[-data DIR | -db postgres://...] [-note TEXT] mod NAME | unmod NAME | mods"

func parseAdminFlags(args []string, stderr io.Writer) (*adminConfig, error) {
	c := &adminConfig{}
	fs := newFlags("admin", adminSynopsis, stderr)
	fs.StringVar(&c.data, "data", "morris-data", "the server's data folder (its SQLite database)")
	fs.StringVar(&c.db, "db", "", "a postgres:// URL: the server's PostgreSQL database instead")
	fs.StringVar(&c.note, "note", "", "why, for the moderators' log")
	// The flags come before the verb: "morris admin -data DIR mod ann".
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err}
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fs.Usage()
		return nil, badInput("a verb is needed: mod NAME, unmod NAME or mods")
	}
	c.verb = rest[0]
	switch {
	case (c.verb == "mod" || c.verb == "unmod") && len(rest) == 2:
		c.name = rest[1]
	case c.verb == "mods" && len(rest) == 1:
	case c.verb == "mod" || c.verb == "unmod":
		return nil, badInput("%s takes one user name", c.verb)
	case c.verb == "mods":
		return nil, badInput("mods takes no argument")
	default:
		return nil, badInput("unknown verb %q: mod NAME, unmod NAME or mods", c.verb)
	}
	return c, nil
}

func (c *adminConfig) run(ctx context.Context, stdout io.Writer) error {
	dsn := c.db
	if dsn == "" {
		dsn = filepath.Join(c.data, "morris.db")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	switch c.verb {
	case "mods":
		mods, err := st.Moderators(ctx)
		if err != nil {
			return err
		}
		if len(mods) == 0 {
			fmt.Fprintln(stdout, "no moderators")
		}
		for _, u := range mods {
			state := ""
			if !u.ClosedAt.IsZero() {
				state = " (closed: no moderator while closed)"
			}
			fmt.Fprintf(stdout, "%s%s\n", u.Name, state)
		}
		return nil
	}
	on := c.verb == "mod"
	u, err := st.UserByName(ctx, c.name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return badInput("no user %q", c.name)
	case err != nil:
		return err
	case on && u.Bot:
		return badInput("%s is the engine, no moderator", u.Name)
	case on && strings.HasPrefix(strings.ToLower(u.Name), "guest-"):
		return badInput("%s is a guest: guests have no password to sign in with once their token expires", u.Name)
	case on && !u.ClosedAt.IsZero():
		return badInput("%s's account is closed: a moderator reopens it first", u.Name)
	}
	u, err = st.SetModerator(ctx, c.name, on, c.note)
	if errors.Is(err, store.ErrConflict) {
		if on {
			return badInput("%s is a moderator already", c.name)
		}
		return badInput("%s is no moderator", c.name)
	}
	if err != nil {
		return err
	}
	if on {
		fmt.Fprintf(stdout, "%s is a moderator now\n", u.Name)
	} else {
		fmt.Fprintf(stdout, "%s is no moderator now\n", u.Name)
	}
	return nil
}
