package store

import (
	"net/url"
	"regexp"
	"strings"
)

// RedactDSN returns dsn fit for a log line or an error message: the
// password of a PostgreSQL URL, in its user part or in its query
// (password=, sslpassword=; libpq and pgx take both), is replaced by
// "xxxxx"; everything else (host, database, settings) stays, since that
// is what an operator needs to read. An SQLite path holds no secret and
// comes back as it is.
//
// A URL that does not parse is redacted by pattern instead, so that a
// typo in a DSN (a stray space, a bad port) never prints its password in
// the error that reports the typo.
func RedactDSN(dsn string) string {
	if !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		s := userPassword.ReplaceAllString(dsn, "${1}:xxxxx@")
		return queryPassword.ReplaceAllString(s, "${1}xxxxx")
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			k, _, _ := strings.Cut(p, "=")
			if key, err := url.QueryUnescape(k); err == nil && secretParam(key) || err != nil && secretParam(k) {
				parts[i] = k + "=xxxxx"
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return u.String()
}

// secretParam reports whether a query parameter of a PostgreSQL URL holds
// a secret (the file parameters, sslkey and passfile, name paths).
func secretParam(key string) bool {
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "password", "sslpassword":
		return true
	}
	return false
}

var (
	// userPassword is the user:password@ of a URL that url.Parse refused.
	userPassword = regexp.MustCompile(`^(postgres(?:ql)?://[^:@/?#]*):[^@]*@`)
	// queryPassword is a password parameter, by pattern.
	queryPassword = regexp.MustCompile(`(?i)([?&](?:ssl)?password=)[^&#]*`)
)
