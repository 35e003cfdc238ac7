package clientaddr

import (
	"context"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestAddrBehindProxies: the address the limits count is the peer's,
// unless the peer is a trusted proxy: then the last address in
// X-Forwarded-For that is not a trusted proxy's. A header the proxy did not
// write cannot make an untrusted peer someone else.
func TestAddrBehindProxies(t *testing.T) {
	a := Resolver{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8")}}
	none := Resolver{}
	for _, tc := range []struct {
		a    Resolver
		peer string
		xff  []string
		want string
	}{
		{a, "127.0.0.1:5000", []string{"203.0.113.5"}, "203.0.113.5"},
		{a, "127.0.0.1:5000", []string{"203.0.113.5, 10.1.2.3"}, "203.0.113.5"},
		{a, "127.0.0.1:5000", []string{"198.51.100.1, 203.0.113.5", "10.1.2.3"}, "203.0.113.5"},
		{a, "127.0.0.1:5000", nil, "127.0.0.1"},
		{a, "127.0.0.1:5000", []string{"garbage"}, "127.0.0.1"},
		{a, "127.0.0.1:5000", []string{"10.0.0.1, 10.0.0.2"}, "127.0.0.1"},
		{a, "[::ffff:127.0.0.1]:5000", []string{"2001:db8::7"}, "2001:db8::7"},
		{a, "198.51.100.7:5000", []string{"1.2.3.4"}, "198.51.100.7"},
		{none, "127.0.0.1:5000", []string{"1.2.3.4"}, "127.0.0.1"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := tc.a.Addr(r); got != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: got %s, want %s", tc.peer, tc.xff, got, tc.want)
		}
	}
}

// TestKey: IPv4 is its own key, IPv6 is keyed by its /64 (2^64 addresses
// of one client are one budget), mapped addresses as the IPv4 they hold,
// and the port never counts.
func TestKey(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"203.0.113.5", "203.0.113.5"},
		{"203.0.113.5:4000", "203.0.113.5"},
		{"[::ffff:203.0.113.5]:4000", "203.0.113.5"},
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2::1]:7070", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"2001:db8:1:2::/64", "2001:db8:1:2::/64"}, // a key is its own key
		{"unknown", "unknown"},
	} {
		if got := Key(tc.addr); got != tc.want {
			t.Errorf("Key(%q): got %q, want %q", tc.addr, got, tc.want)
		}
	}
	long := string(make([]byte, 1000))
	if got := Key(long); len(got) > 64 {
		t.Errorf("Key of 1000 bytes: %d bytes, want at most 64", len(got))
	}
}

// TestResolverKey: behind a trusted proxy, two IPv6 clients of one /64
// share a key and a client of another /64 does not.
func TestResolverKey(t *testing.T) {
	res := Resolver{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	key := func(xff string) string {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.2:5000"
		r.Header.Set("X-Forwarded-For", xff)
		return res.Key(r)
	}
	a, b, c := key("2001:db8:0:1::10"), key("2001:db8:0:1:ffff::99"), key("2001:db8:0:2::10")
	if a != b || a == c {
		t.Errorf("keys %q, %q (same /64) and %q (another): want the first two equal and the third apart", a, b, c)
	}
}

func TestContext(t *testing.T) {
	if _, ok := FromContext(context.Background()); ok {
		t.Fatal("a key in an empty context")
	}
	if k, ok := FromContext(NewContext(context.Background(), "203.0.113.5")); !ok || k != "203.0.113.5" {
		t.Fatalf("got %q, %v; want 203.0.113.5, true", k, ok)
	}
}
