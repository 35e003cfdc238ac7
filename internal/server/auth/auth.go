// Package auth hashes passwords with argon2id (RFC 9106) in the PHC string
// format, and makes and hashes API tokens. It keeps no state.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost parameters.
type Params struct {
	Time    uint32 // passes over the memory
	MemKiB  uint32 // memory in KiB
	Threads uint8
}

// Default is OWASP's recommended minimum for argon2id (19 MiB, 2 passes,
// one lane): about 25 ms a hash on this machine's cores.
var Default = Params{Time: 2, MemKiB: 19 * 1024, Threads: 1}

// Test is a cheap setting for tests only.
var Test = Params{Time: 1, MemKiB: 64, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
)

// ErrMismatch is a password that does not match its hash.
var ErrMismatch = errors.New("auth: wrong password")

// Hash returns the PHC string of password under p:
// $argon2id$v=19$m=19456,t=2,p=1$SALT$KEY (base64 without padding).
func Hash(password string, p Params) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemKiB, p.Threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemKiB, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify checks password against a PHC string made by Hash, with the
// parameters the string gives. It returns ErrMismatch for a wrong password
// and another error for a hash it cannot read.
func Verify(password, phc string) error {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return errors.New("auth: not an argon2id hash")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return fmt.Errorf("auth: argon2 version %q", parts[2])
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemKiB, &p.Time, &p.Threads); err != nil {
		return fmt.Errorf("auth: parameters %q: %v", parts[3], err)
	}
	if p.Time == 0 || p.Threads == 0 || p.MemKiB < 8 || p.MemKiB > 1<<21 || p.Time > 100 {
		return fmt.Errorf("auth: parameters %q out of range", parts[3])
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return fmt.Errorf("auth: salt: %v", err)
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return fmt.Errorf("auth: key: %v", err)
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemKiB, p.Threads, uint32(len(want)))
	if subtle.ConstantTimeCompare(got, want) != 1 {
		return ErrMismatch
	}
	return nil
}

// NewToken returns a new random API token (256 bits, URL-safe base64) and
// the hash under which it is stored.
func NewToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = "mt_" + base64.RawURLEncoding.EncodeToString(b)
	return token, TokenHash(token), nil
}

// TokenHash is the stored form of a token: its SHA-256 in hex. Tokens are
// random and long, so a fast hash is enough; a copy of the database holds
// no usable token.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
