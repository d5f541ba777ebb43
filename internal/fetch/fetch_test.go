package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/fetch/fetchtest"
)

func TestGet(t *testing.T) {
	var gotUA string
	mux := http.NewServeMux()
	mux.HandleFunc("/card", func(w http.ResponseWriter, r *http.Request) {
		gotUA = r.UserAgent()
		w.Write([]byte(`{"name":"x"}`))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 2048)))
	})
	mux.HandleFunc("/chunked-big", func(w http.ResponseWriter, r *http.Request) {
		for range 4 {
			w.Write([]byte(strings.Repeat("x", 1024)))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	c := &Client{MaxBytes: 1024, Timeout: 200 * time.Millisecond}
	ctx := context.Background()
	body, final, err := c.Get(ctx, srv.URL+"/card")
	if err != nil || string(body) != `{"name":"x"}` || final.Path != "/card" {
		t.Fatalf("got %q %v %v", body, final, err)
	}
	if !strings.HasPrefix(gotUA, "agentcards/") {
		t.Errorf("User-Agent %q", gotUA)
	}
	for path, want := range map[string]string{
		"/big":         "over the 1024-byte limit",
		"/chunked-big": "over the 1024-byte limit",
		"/loop":        "more than 3 redirects",
		"/slow":        "Timeout",
		"/missing":     "HTTP 404",
	} {
		if _, _, err := c.Get(ctx, srv.URL+path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", path, err, want)
		}
	}
	for _, u := range []string{"http://example.com/x", "ftp://127.0.0.1/x", "file:///etc/passwd", "/relative"} {
		if _, _, err := c.Get(ctx, u); err == nil {
			t.Errorf("%s: fetched", u)
		}
	}
}

func TestRedirectToPlainHTTPRefused(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) }))
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/card", http.StatusFound)
	}))
	defer tlsSrv.Close()
	pool := tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	c := &Client{RootCAs: pool}
	_, _, err := c.Get(context.Background(), tlsSrv.URL+"/card")
	if err == nil || !strings.Contains(err.Error(), "redirect from https to") {
		t.Fatalf("got %v", err)
	}
}

func TestClassifyAddr(t *testing.T) {
	for addr, want := range map[string]addrClass{
		"127.0.0.1": classLoopback, "127.9.9.9": classLoopback, "::1": classLoopback,
		"0.0.0.0": classUnspecified, "0.1.2.3": classUnspecified, "::": classUnspecified,
		"10.1.2.3": classPrivate, "172.16.0.1": classPrivate, "172.31.255.255": classPrivate,
		"172.32.0.1": classPublic, "192.168.1.1": classPrivate, "100.64.0.1": classPrivate,
		"169.254.169.254": classLinkLocal, "fe80::1": classLinkLocal, "fe80::1%eth0": classLinkLocal,
		"fc00::1": classPrivate, "fd12::1": classPrivate, "fec0::1": classPrivate, "fec0::1%eth0": classPrivate,
		"::ffff:10.0.0.1": classPrivate, "::ffff:127.0.0.1": classLoopback, "::ffff:169.254.1.1": classLinkLocal,
		"64:ff9b::a00:1": classPrivate, "64:ff9b::7f00:1": classLoopback, "64:ff9b::a00:1%eth0": classPrivate,
		"64:ff9b::808:808": classPublic,
		"224.0.0.1":        classMulticast, "239.1.1.1": classMulticast, "ff02::1": classMulticast, "ff0e::1": classMulticast,
		"8.8.8.8": classPublic, "2001:4860::8888": classPublic,
		"192.0.0.8": classPrivate, "198.18.0.1": classPrivate, "240.0.0.1": classPrivate, "168.63.129.16": classPrivate,
		"64:ff9b:1::a00:1": classPrivate, "2002:7f00:1::": classLoopback, "2002:a9fe:a9fe::": classLinkLocal, "2002:808:808::": classPublic,
	} {
		if got := classifyAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
}

// TestClassifyEmbeddedIPv4: every IPv6 form that embeds an IPv4 address
// is classed by that address (10.0.0.5, 127.0.0.1, 169.254.169.254 and
// 8.8.8.8 here); :: and ::1 keep their IPv6 meaning.
func TestClassifyEmbeddedIPv4(t *testing.T) {
	for addr, want := range map[string]addrClass{
		// IPv4-compatible (::/96)
		"::a00:5": classPrivate, "::10.0.0.5": classPrivate, "::7f00:1": classLoopback,
		"::a9fe:a9fe": classLinkLocal, "::808:808": classPublic, "::a00:5%eth0": classPrivate,
		// IPv4-mapped, IPv4-translated
		"::ffff:10.0.0.5": classPrivate, "::ffff:7f00:1": classLoopback,
		"::ffff:0:a00:5": classPrivate, "::ffff:0:7f00:1": classLoopback, "::ffff:0:808:808": classPublic,
		// 6to4
		"2002:a00:5::": classPrivate, "2002:a00:5:1::1": classPrivate,
		// NAT64 well-known prefix
		"64:ff9b::a00:5": classPrivate, "64:ff9b::10.0.0.5": classPrivate,
		// Teredo: 2001:0:server:flags:port:client, the client's IPv4
		// address inverted bit by bit (^10.0.0.5 = f5ff:fffa).
		"2001:0:4136:e378:8000:63bf:f5ff:fffa": classPrivate,
		"2001::f5ff:fffa":                      classPrivate,
		"2001:0:4136:e378:8000:63bf:80ff:fffe": classLoopback,
		"2001:0:4136:e378:8000:63bf:5601:5601": classLinkLocal,
		"2001:0:4136:e378:8000:63bf:f7f7:f7f7": classPublic,
		// ISATAP: the IPv4 address in the last 32 bits.
		"2001:db8:1:2:0:5efe:a00:5": classPrivate, "fe80::200:5efe:a9fe:a9fe%eth0": classLinkLocal,
		"2001:db8:1:2:200:5efe:808:808": classPublic,
		// NAT64 local-use prefix, at any RFC 6052 length: a local network.
		"64:ff9b:1::a00:5": classPrivate, "64:ff9b:1:cb00:71:700::": classPrivate, "64:ff9b:1:1:a:0:500:0": classPrivate,
		// Unchanged: the IPv6 unspecified and loopback addresses, and
		// 2001:db8:: outside Teredo's 2001::/32.
		"::": classUnspecified, "::1": classLoopback, "2001:4860::8888": classPublic,
	} {
		if got := classifyAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
}

// TestMain keeps every test off DNS servers: names come from the hosts
// file or not at all, so no test sends a packet off this host.
func TestMain(m *testing.M) {
	resolver = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("tests ask no DNS server")
	}}
	os.Exit(m.Run())
}

// roles makes 127.0.0.2 play a public address and 127.0.0.3 a private one
// for the test, so every connection stays on loopback.
func roles(t *testing.T) {
	t.Helper()
	classify = func(a netip.Addr) addrClass {
		switch a.String() {
		case "127.0.0.2":
			return classPublic
		case "127.0.0.3":
			return classPrivate
		}
		return classifyAddr(a)
	}
	t.Cleanup(func() { classify = classifyAddr })
}

// testServer counts what reaches it.
type testServer struct {
	URL   string
	hits  atomic.Int32 // HTTP requests
	conns atomic.Int32 // connections accepted
}

// serveOn starts a server on ip (a loopback address), over TLS with cert
// if it is not nil, that redirects /go?to=URL and answers {"ok":true}
// otherwise.
func serveOn(t *testing.T, ip string, cert *tls.Certificate) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	ts := &testServer{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.hits.Add(1)
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			ts.conns.Add(1)
		}
	}
	srv.Listener.Close()
	srv.Listener = ln
	if cert != nil {
		srv.TLS = &tls.Config{Certificates: []tls.Certificate{*cert}}
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	ts.URL = srv.URL
	return ts
}

// testCert makes a self-signed certificate for localhost and 127.0.0.1-3,
// and a pool that trusts it.
func testCert(t *testing.T) (*tls.Certificate, *x509.CertPool) {
	return fetchtest.Cert(t, "localhost")
}

// redirectVia is the URL on origin that redirects to to.
func redirectVia(origin *testServer, to string) string {
	return origin.URL + "/go?to=" + url.QueryEscape(to)
}

// refusedCase is a fetch that must fail with want in the message without
// dest seeing a connection.
type refusedCase struct {
	url, want string
	dest      *testServer
}

func checkRefused(t *testing.T, c *Client, tc refusedCase) {
	t.Helper()
	hits, conns := tc.dest.hits.Load(), tc.dest.conns.Load()
	_, _, err := c.Get(context.Background(), tc.url)
	if err == nil || !strings.Contains(err.Error(), tc.want) {
		t.Errorf("got %v, want an error with %q", err, tc.want)
	}
	if n, m := tc.dest.hits.Load()-hits, tc.dest.conns.Load()-conns; n != 0 || m != 0 {
		t.Errorf("the refused destination got %d connection(s) and %d request(s)", m, n)
	}
}

func checkAllowed(t *testing.T, c *Client, u string) {
	t.Helper()
	if body, _, err := c.Get(context.Background(), u); err != nil || string(body) != `{"ok":true}` {
		t.Errorf("got %q, %v", body, err)
	}
}

// TestRedirectsStayOffPrivateNetworks: a redirect from a public origin to
// a loopback, private or link-local address is refused before any
// connection reaches it, however the address is written; an origin on
// loopback may redirect anywhere, a private one to private addresses, and
// public to public is fine.
func TestRedirectsStayOffPrivateNetworks(t *testing.T) {
	roles(t)
	public := serveOn(t, "127.0.0.2", nil)
	private := serveOn(t, "127.0.0.3", nil)
	loop := serveOn(t, "127.0.0.1", nil)
	_, loopPort, _ := net.SplitHostPort(strings.TrimPrefix(loop.URL, "http://"))
	c := &Client{Timeout: 2 * time.Second}

	for name, tc := range map[string]refusedCase{
		"public to loopback":            {redirectVia(public, loop.URL+"/card"), "redirect to " + loop.URL + "/card: refused: 127.0.0.1 is a loopback address, and redirects from a public origin, like the URLs its documents name, may lead only to public addresses", loop},
		"public to localhost":           {redirectVia(public, "http://localhost:"+loopPort+"/card"), "refused: localhost:" + loopPort + " answered from an address that redirects from a public origin", loop},
		"public to private":             {redirectVia(public, private.URL+"/card"), "127.0.0.3 is a private address", private},
		"public to mapped loopback":     {redirectVia(public, "http://[::ffff:127.0.0.1]:"+loopPort+"/card"), "is a loopback address", loop},
		"private to loopback":           {redirectVia(private, loop.URL+"/card"), "127.0.0.1 is a loopback address, and redirects from a private origin, like the URLs its documents name, may lead only to private or public addresses", loop},
		"public via public to loopback": {redirectVia(public, redirectVia(public, loop.URL+"/card")), "127.0.0.1 is a loopback address", loop},
	} {
		t.Run(name, func(t *testing.T) { checkRefused(t, c, tc) })
	}
	for name, u := range map[string]string{
		"loopback to private":  redirectVia(loop, private.URL+"/card"),
		"loopback to public":   redirectVia(loop, public.URL+"/card"),
		"localhost to private": "http://localhost:" + loopPort + "/go?to=" + url.QueryEscape(private.URL+"/card"),
		"private to private":   redirectVia(private, private.URL+"/card"),
		"private to public":    redirectVia(private, public.URL+"/card"),
		"public to public":     redirectVia(public, public.URL+"/card"),
	} {
		t.Run(name, func(t *testing.T) { checkAllowed(t, c, u) })
	}
}

// TestRedirectsStayOffPrivateNetworksTLS: the same over https, the way a
// hostile site would do it, and through a name (localhost), which only the
// check on the address dialled can refuse: the certificate is good for
// it, and a loopback origin reaches it.
func TestRedirectsStayOffPrivateNetworksTLS(t *testing.T) {
	roles(t)
	cert, pool := testCert(t)
	public := serveOn(t, "127.0.0.2", cert)
	private := serveOn(t, "127.0.0.3", cert)
	loop := serveOn(t, "127.0.0.1", cert)
	_, loopPort, _ := net.SplitHostPort(strings.TrimPrefix(loop.URL, "https://"))
	byName := "https://localhost:" + loopPort + "/card"
	c := &Client{Timeout: 2 * time.Second, RootCAs: pool}

	for name, tc := range map[string]refusedCase{
		"public to private":              {redirectVia(public, private.URL+"/card"), "redirect to " + private.URL + "/card: refused: 127.0.0.3 is a private address, and redirects from a public origin", private},
		"public to loopback":             {redirectVia(public, loop.URL+"/card"), "127.0.0.1 is a loopback address", loop},
		"public to loopback by name":     {redirectVia(public, byName), "redirect to " + byName + ": refused: localhost:" + loopPort + " answered from an address that redirects from a public origin, like the URLs its documents name, may not reach (they may lead only to public addresses)", loop},
		"private to loopback by name":    {redirectVia(private, byName), "localhost:" + loopPort + " answered from an address that redirects from a private origin", loop},
		"public via public to localhost": {redirectVia(public, redirectVia(public, byName)), "localhost:" + loopPort + " answered from an address that redirects", loop},
	} {
		t.Run(name, func(t *testing.T) { checkRefused(t, c, tc) })
	}
	for name, u := range map[string]string{
		"loopback to loopback by name": redirectVia(loop, byName),
		"loopback to private":          redirectVia(loop, private.URL+"/card"),
		"private to private":           redirectVia(private, private.URL+"/card"),
		"public to public":             redirectVia(public, public.URL+"/card"),
	} {
		t.Run(name, func(t *testing.T) { checkAllowed(t, c, u) })
	}
}

// TestUserInfoRefused: user info is never sent (Go would send it as Basic
// authentication) and its password never echoed, whether in the URL asked
// for or in a redirect.
func TestUserInfoRefused(t *testing.T) {
	loop := serveOn(t, "127.0.0.1", nil)
	host := strings.TrimPrefix(loop.URL, "http://")
	c := &Client{Timeout: 2 * time.Second}
	for _, u := range []string{
		"https://a@127.0.0.1/",
		"http://u:secret@localhost/",
		"http://a@" + host + "/card",
		"http://u:secret@" + host + "/card",
		redirectVia(loop, "http://u:secret@"+host+"/card"),
		redirectVia(loop, "https://a@"+host+"/card"),
	} {
		_, _, err := c.Get(context.Background(), u)
		// The URL asked for may hold the redirect's (in its query).
		if err == nil || !strings.Contains(err.Error(), "URL carries user info (user@ or user:password@): refused") || strings.Contains(strings.ReplaceAll(err.Error(), u, ""), "secret") {
			t.Errorf("%s: got %v", u, err)
		}
	}
	if n := loop.hits.Load(); n != 2 {
		t.Errorf("%d requests reached the server, want 2 (the redirects)", n)
	}
	u, _ := url.Parse("https://user:pw@example.com/")
	if err := CheckURL(u); err == nil {
		t.Error("CheckURL allowed user info")
	}
}

// TestDialChecksResolvedAddresses: the check runs on the addresses a name
// resolves to, at connection time, so a name (or a name rebound by DNS)
// cannot reach what its literal address could not; nothing connects.
func TestDialChecksResolvedAddresses(t *testing.T) {
	loop := serveOn(t, "127.0.0.1", nil)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(loop.URL, "http://"))
	// Only addresses on this host: a broken check must send nothing off it.
	// A literal address is named; what a name resolved to is not.
	for addr, want := range map[string]string{
		"localhost:" + port:          "refused: localhost:" + port + " answered from an address that redirects from a public origin",
		"127.0.0.1:" + port:          "127.0.0.1 is a loopback address, and redirects from a public origin",
		"0.0.0.0:" + port:            "0.0.0.0 is an unspecified address, and redirects from a public origin",
		"[::ffff:127.0.0.1]:" + port: "is a loopback address, and redirects from a public origin",
	} {
		p := &addressPolicy{}
		p.setOrigin(classPublic)
		conn, err := p.dialer(time.Second)(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			t.Errorf("%s: connected from a public origin", addr)
			continue
		}
		if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), want) || strings.HasPrefix(addr, "localhost") && strings.Contains(err.Error(), "127.0.0.1") {
			t.Errorf("%s: %v", addr, err)
		}
	}
	// The first connection sets the origin: then the same name is fine.
	p := &addressPolicy{}
	for range 2 {
		conn, err := p.dialer(time.Second)(context.Background(), "tcp", "localhost:"+port)
		if err != nil {
			t.Fatal(err)
		}
		conn.Close()
	}
	if !p.known || p.origin != classLoopback {
		t.Errorf("origin %v (known %v) after connecting to localhost", p.origin, p.known)
	}
	// An address only tried (nothing listens there) does not set it.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := ln.Addr().String()
	ln.Close()
	p = &addressPolicy{}
	if conn, err := p.dialer(time.Second)(context.Background(), "tcp", dead); err == nil {
		conn.Close()
	}
	if p.known {
		t.Errorf("a failed connection set the origin to %v", p.origin)
	}
	if n := loop.hits.Load(); n != 0 {
		t.Errorf("%d HTTP requests", n)
	}
}

// TestErrorIsTerminalSafe: a server's text in an error (a certificate's
// names can hold line breaks) cannot forge lines of output.
func TestErrorIsTerminalSafe(t *testing.T) {
	e := &Error{URL: "https://x.example/", Err: errors.New("x509: certificate is valid for a.example\n\nverified: 1 card(s)\x1b[8m")}
	if msg := e.Error(); strings.ContainsAny(msg, "\n\x1b") {
		t.Errorf("%q", msg)
	}
}

// TestGetWithinHoldsTheFirstConnection: a URL named by a document fetched
// from a public origin is held to the redirect rule from its very first
// connection, by address or by name.
func TestGetWithinHoldsTheFirstConnection(t *testing.T) {
	roles(t)
	public := serveOn(t, "127.0.0.2", nil)
	private := serveOn(t, "127.0.0.3", nil)
	loop := serveOn(t, "127.0.0.1", nil)
	_, loopPort, _ := net.SplitHostPort(strings.TrimPrefix(loop.URL, "http://"))
	c := &Client{Timeout: 2 * time.Second}
	ctx := context.Background()
	_, _, fromPublic, err := c.GetWithin(ctx, public.URL+"/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, fromPrivate, err := c.GetWithin(ctx, private.URL+"/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, fromLoop, err := c.GetWithin(ctx, loop.URL+"/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		from *Network
		url  string
		want string // "" when allowed
	}{
		{fromPublic, loop.URL + "/card", "127.0.0.1 is a loopback address"},
		{fromPublic, "http://localhost:" + loopPort + "/card", "localhost:" + loopPort + " answered from an address that redirects from a public origin"},
		{fromPublic, private.URL + "/card", "127.0.0.3 is a private address"},
		{fromPublic, public.URL + "/card", ""},
		{fromPrivate, private.URL + "/card", ""},
		{fromPrivate, loop.URL + "/card", "127.0.0.1 is a loopback address"},
		{fromLoop, private.URL + "/card", ""},
		{fromLoop, loop.URL + "/card", ""},
	} {
		hitsBefore := loop.hits.Load() + private.hits.Load()
		_, _, _, err := c.GetWithin(ctx, tc.url, tc.from)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s from %v: %v", tc.url, tc.from.class, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s from %v: got %v, want %q", tc.url, tc.from.class, err, tc.want)
		case tc.want != "" && loop.hits.Load()+private.hits.Load() != hitsBefore:
			t.Errorf("%s from %v: the refused server was reached", tc.url, tc.from.class)
		}
	}
}

// TestNetworkIsWhereTheDocumentCameFrom: a document's network is the one
// of the address that served it, not the one of the document that named
// it: a public catalog nested in a loopback or private one may still lead
// only to public addresses.
func TestNetworkIsWhereTheDocumentCameFrom(t *testing.T) {
	roles(t)
	public := serveOn(t, "127.0.0.2", nil)
	private := serveOn(t, "127.0.0.3", nil)
	loop := serveOn(t, "127.0.0.1", nil)
	c := &Client{Timeout: 2 * time.Second}
	ctx := context.Background()
	_, _, fromLoop, err := c.GetWithin(ctx, loop.URL+"/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, fromPrivate, err := c.GetWithin(ctx, private.URL+"/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []*Network{fromLoop, fromPrivate} {
		_, _, nested, err := c.GetWithin(ctx, public.URL+"/nested", from)
		if err != nil {
			t.Fatal(err)
		}
		if nested.class != classPublic {
			t.Fatalf("a public catalog named from %v counts as %v", from.class, nested.class)
		}
		before := private.hits.Load() + loop.hits.Load()
		for _, target := range []string{private.URL + "/admin", loop.URL + "/admin"} {
			if _, _, _, err := c.GetWithin(ctx, target, nested); err == nil {
				t.Errorf("a public catalog nested in a %v one reached %s", from.class, target)
			}
		}
		if private.hits.Load()+loop.hits.Load() != before {
			t.Error("a refused server was reached")
		}
	}
	// A redirect from the private catalog to a public one: public.
	_, _, redirected, err := c.GetWithin(ctx, private.URL+"/go?to="+public.URL+"/nested", fromPrivate)
	if err != nil {
		t.Fatal(err)
	}
	if redirected.class != classPublic {
		t.Errorf("redirected to a public address, the document counts as %v", redirected.class)
	}
}
