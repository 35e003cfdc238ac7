// Package clientaddr says who a client is for the limits by address: the
// address of an HTTP request's client behind trusted reverse proxies, and
// the key an address is limited by.
//
// An IPv4 address is its own key. An IPv6 address is keyed by its /64,
// the smallest network a provider hands out: a client given a /64 has
// 2^64 addresses to rotate through, and keying each by itself would give
// it as many fresh budgets. IPv4-mapped IPv6 addresses are keyed as the
// IPv4 address they hold.
//
// # Where things are
//
//	clientaddr.go  Key, Resolver (X-Forwarded-For behind trusted proxies), the key carried in a context
package clientaddr

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Key returns the key of the limits by address of addr: an IP address,
// or host:port (the port is dropped: a client does not get a fresh budget
// by connecting again). IPv6 addresses are keyed by their /64. Text that
// is not an address is its own key, cut to 64 bytes so that it cannot
// grow the limiters (it does not come from clients: net/http and net give
// addresses).
func Key(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		if len(addr) > 64 {
			addr = addr[:64]
		}
		return addr
	}
	return KeyOf(a)
}

// KeyOf returns the key of an address (see Key).
func KeyOf(a netip.Addr) string {
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// Resolver finds the client of an HTTP request.
type Resolver struct {
	// Trusted are the reverse proxies in front of the server: for a
	// request from one of them the client's address is read from
	// X-Forwarded-For. Empty: the peer's address, whatever the headers.
	Trusted []netip.Prefix
}

// Addr returns the client's address: the peer's, or, when the peer is a
// trusted proxy, the last address in X-Forwarded-For that is not one (the
// first hop a trusted proxy saw; what comes before it is the client's own
// word). A header that cannot be read gives the proxy's address.
func (res Resolver) Addr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !res.trusted(peer) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		addr, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return host
		}
		if !res.trusted(addr) {
			return addr.Unmap().String()
		}
	}
	return host
}

// Key returns the key of the request's client for the limits by address:
// Key of Addr.
func (res Resolver) Key(r *http.Request) string { return Key(res.Addr(r)) }

func (res Resolver) trusted(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, p := range res.Trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

type ctxKey struct{}

// NewContext returns ctx carrying the key of a request's client, as the
// handler that resolved it (behind the trusted proxies) found it, for a
// handler mounted below it.
func NewContext(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, ctxKey{}, key)
}

// FromContext returns the client's key carried by ctx, if any.
func FromContext(ctx context.Context) (string, bool) {
	k, ok := ctx.Value(ctxKey{}).(string)
	return k, ok
}
