package fetch

import (
	"net"
	"net/netip"
)

// SetTestNetwork is for tests of packages that fetch: until restore is
// called, 127.0.0.2 plays a public address and 127.0.0.3 a private one
// (every other address keeps its class, 127.0.0.1 loopback), and names
// are resolved with r (a resolver that asks no DNS server: see
// fetchtest.DNS). Tests that call it must not run in parallel.
func SetTestNetwork(r *net.Resolver) (restore func()) {
	oldClassify, oldResolver := classify, resolver
	classify, resolver = testClassify, r
	return func() { classify, resolver = oldClassify, oldResolver }
}

// testClassify is classifyAddr with 127.0.0.2 public and 127.0.0.3
// private.
func testClassify(a netip.Addr) addrClass {
	switch a.WithZone("").Unmap() {
	case netip.AddrFrom4([4]byte{127, 0, 0, 2}):
		return classPublic
	case netip.AddrFrom4([4]byte{127, 0, 0, 3}):
		return classPrivate
	}
	return classifyAddr(a)
}
