package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
		"0.0.0.0": classLoopback, "0.1.2.3": classLoopback, "::": classLoopback,
		"10.1.2.3": classPrivate, "172.16.0.1": classPrivate, "172.31.255.255": classPrivate,
		"172.32.0.1": classPublic, "192.168.1.1": classPrivate, "100.64.0.1": classPrivate,
		"169.254.169.254": classLinkLocal, "fe80::1": classLinkLocal,
		"fc00::1": classPrivate, "fd12::1": classPrivate, "fec0::1": classPrivate,
		"::ffff:10.0.0.1": classPrivate, "::ffff:127.0.0.1": classLoopback, "::ffff:169.254.1.1": classLinkLocal,
		"64:ff9b::a00:1": classPrivate, "64:ff9b::7f00:1": classLoopback,
		"224.0.0.1": classLinkLocal, "239.1.1.1": classMulticast, "ff02::1": classLinkLocal, "ff0e::1": classMulticast,
		"8.8.8.8": classPublic, "2001:4860::8888": classPublic,
	} {
		if got := classifyAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
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

// serveOn starts a server on ip (a loopback address) that counts requests
// and redirects /go?to=URL.
func serveOn(t *testing.T, ip string, hits *atomic.Int32) string {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRedirectsStayOffPrivateNetworks: a redirect from a public origin to
// a loopback, private or link-local address is refused before any packet
// reaches it, whether the address is written out or reached through a
// name; an origin on loopback may redirect anywhere, a private one to
// private addresses, and public to public is fine.
func TestRedirectsStayOffPrivateNetworks(t *testing.T) {
	roles(t)
	var pubHits, privHits, loopHits atomic.Int32
	public := serveOn(t, "127.0.0.2", &pubHits)
	private := serveOn(t, "127.0.0.3", &privHits)
	loop := serveOn(t, "127.0.0.1", &loopHits)
	_, loopPort, _ := net.SplitHostPort(strings.TrimPrefix(loop, "http://"))
	c := &Client{Timeout: 2 * time.Second}
	ctx := context.Background()
	go1 := func(origin, to string) string { return origin + "/go?to=" + url.QueryEscape(to) }

	for name, tc := range map[string]struct {
		url, want string
		hits      *atomic.Int32
	}{
		"public to loopback":            {go1(public, loop+"/card"), "127.0.0.1 is a loopback address, and redirects from a public origin may not lead", &loopHits},
		"public to private":             {go1(public, private+"/card"), "127.0.0.3 is a private address", &privHits},
		"public to mapped loopback":     {go1(public, "http://[::ffff:127.0.0.1]:"+loopPort+"/card"), "is a loopback address", &loopHits},
		"private to loopback":           {go1(private, loop+"/card"), "127.0.0.1 is a loopback address, and redirects from a private origin", &loopHits},
		"public via public to loopback": {go1(public, go1(public, loop+"/card")), "127.0.0.1 is a loopback address", &loopHits},
	} {
		t.Run(name, func(t *testing.T) {
			before := tc.hits.Load()
			_, _, err := c.Get(ctx, tc.url)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
			if n := tc.hits.Load() - before; n != 0 {
				t.Errorf("the refused destination got %d request(s)", n)
			}
		})
	}
	for name, u := range map[string]string{
		"loopback to private": go1(loop, private+"/card"),
		"loopback to public":  go1(loop, public+"/card"),
		"private to private":  go1(private, private+"/card"),
		"public to public":    go1(public, public+"/card"),
	} {
		t.Run(name, func(t *testing.T) {
			if body, _, err := c.Get(ctx, u); err != nil || string(body) != `{"ok":true}` {
				t.Errorf("got %q, %v", body, err)
			}
		})
	}
}

// TestUserInfoRefused: user info is never sent (Go would send it as Basic
// authentication) and never echoed.
func TestUserInfoRefused(t *testing.T) {
	var hits atomic.Int32
	loop := serveOn(t, "127.0.0.1", &hits)
	host := strings.TrimPrefix(loop, "http://")
	c := &Client{Timeout: 2 * time.Second}
	for _, u := range []string{"http://a@" + host + "/card", "http://u:hunter2@" + host + "/card", loop + "/go?to=" + url.QueryEscape("http://u:hunter2@"+host+"/card")} {
		_, _, err := c.Get(context.Background(), u)
		if err == nil || !strings.Contains(err.Error(), "user info") || strings.Contains(err.Error(), "u:hunter2@") {
			t.Errorf("%s: got %v", u, err)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("%d requests reached the server, want 1 (the redirect)", n)
	}
}

// TestDialChecksResolvedAddresses: the check runs on the addresses a name
// resolves to, at connection time, so a name (or a name rebound by DNS)
// cannot reach what its literal address could not; nothing connects.
func TestDialChecksResolvedAddresses(t *testing.T) {
	var hits atomic.Int32
	loop := serveOn(t, "127.0.0.1", &hits)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(loop, "http://"))
	for _, addr := range []string{"localhost:" + port, "127.0.0.1:" + port, "0.0.0.0:" + port, "[::ffff:127.0.0.1]:" + port} {
		p := &addressPolicy{}
		p.setOrigin(classPublic)
		conn, err := p.dialer(time.Second)(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			t.Errorf("%s: connected from a public origin", addr)
			continue
		}
		if !strings.Contains(err.Error(), "is a loopback address, and redirects from a public origin") {
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
	if hits.Load() != 0 {
		t.Errorf("%d HTTP requests", hits.Load())
	}
}
