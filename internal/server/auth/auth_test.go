package auth

import (
	"errors"
	"strings"
	"testing"
)

func TestHashVerify(t *testing.T) {
	for _, p := range []Params{Test, Default} {
		h, err := Hash("chocolate", p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(h, "$argon2id$v=19$") {
			t.Errorf("Hash: got %q, want a PHC argon2id string", h)
		}
		if err := Verify("chocolate", h); err != nil {
			t.Errorf("Verify(right password): %v", err)
		}
		if err := Verify("chocolatE", h); !errors.Is(err, ErrMismatch) {
			t.Errorf("Verify(wrong password): got %v, want ErrMismatch", err)
		}
		h2, _ := Hash("chocolate", p)
		if h2 == h {
			t.Error("two hashes of one password are equal: the salt is not random")
		}
	}
}

func TestVerifyBadHashes(t *testing.T) {
	good, _ := Hash("x", Test)
	parts := strings.Split(good, "$")
	for _, h := range []string{
		"", "plain", "$argon2i$v=19$m=64,t=1,p=1$AAAA$AAAA",
		"$argon2id$v=18$" + strings.Join(parts[3:], "$"),
		"$argon2id$v=19$m=1,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=0,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$!!$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$" + parts[4] + "$",
	} {
		if err := Verify("x", h); err == nil || errors.Is(err, ErrMismatch) {
			t.Errorf("Verify(%q): got %v, want an error about the hash", h, err)
		}
	}
}

func TestTokens(t *testing.T) {
	a, ha, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, hb, _ := NewToken()
	if a == b || ha == hb || TokenHash(a) != ha || len(ha) != 64 {
		t.Errorf("tokens: %q %q hashes %q %q", a, b, ha, hb)
	}
}

func BenchmarkHashDefault(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Hash("chocolate", Default); err != nil {
			b.Fatal(err)
		}
	}
}
