package fetch

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/fetch/fetchtest"
)

// rebinding serves {"ok":true} at https://rebind.test:PORT/ on the twin
// servers, /go?to=URL redirecting there (and closing the connection, so
// that the next request connects anew), with names resolved by dns.
func rebinding(t *testing.T, dns *fetchtest.DNS) (base string, c *Client, public, private *fetchtest.Server) {
	t.Helper()
	t.Cleanup(SetTestNetwork(dns.Resolver()))
	cert, pool := fetchtest.Cert(t, "rebind.test")
	port, public, private := fetchtest.Twins(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			w.Header().Set("Connection", "close")
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}), cert)
	return "https://rebind.test:" + port, &Client{Timeout: 2 * time.Second, RootCAs: pool, Pins: &Pins{}}, public, private
}

// checkRebound: err is the refusal of an origin that answered from
// another network, and says nothing of what answered.
func checkRebound(t *testing.T, err error, origin string) {
	t.Helper()
	want := "refused: " + origin + " answered from another network than before in this run"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error with %q", err, want)
	}
	for _, leak := range []string{fetchtest.Private, fetchtest.Public, "private", "public", "loopback"} {
		if strings.Contains(err.Error(), leak) {
			t.Errorf("the error says %q: %v", leak, err)
		}
	}
}

// TestPinsHoldEachOrigin: once an origin answered from a network, every
// later fetch of the run (one Client, or copies sharing its Pins) that
// reaches it from another network is refused before it connects, public
// then private or private then public; and the refusal does not say what
// answered.
func TestPinsHoldEachOrigin(t *testing.T) {
	for _, tc := range []struct{ name, first, then string }{
		{"public then private", fetchtest.Public, fetchtest.Private},
		{"private then public", fetchtest.Private, fetchtest.Public},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dns := fetchtest.NewDNS("rebind.test", tc.first, tc.then)
			base, c, public, private := rebinding(t, dns)
			second := private
			if tc.then == fetchtest.Public {
				second = public
			}
			ctx := context.Background()
			if _, _, err := c.Get(ctx, base+"/card"); err != nil {
				t.Fatal(err)
			}
			before := second.Conns.Load()
			_, _, err := c.Get(ctx, base+"/.well-known/jwks.json")
			checkRebound(t, err, strings.TrimPrefix(base, "https://"))
			// A copy of the Client (another size limit, say) is the same
			// run.
			copied := *c
			copied.MaxBytes = 4096
			_, _, _, err = copied.GetWithin(ctx, base+"/other", nil)
			checkRebound(t, err, strings.TrimPrefix(base, "https://"))
			if n := second.Conns.Load() - before; n != 0 {
				t.Errorf("the refused address got %d connection(s)", n)
			}
			if dns.Asked() < 3 {
				t.Errorf("the name was resolved %d times, want 3", dns.Asked())
			}
		})
	}
}

// TestPinsWithinOneFetch: without a run's Pins, one fetch still holds an
// origin to its first answer: a redirect to the same origin that
// resolves anew to another network is refused without saying where.
func TestPinsWithinOneFetch(t *testing.T) {
	dns := fetchtest.NewDNS("rebind.test", fetchtest.Public, fetchtest.Private)
	base, c, _, private := rebinding(t, dns)
	c.Pins = nil
	_, _, err := c.Get(context.Background(), base+"/go?to="+url.QueryEscape(base+"/card"))
	checkRebound(t, err, strings.TrimPrefix(base, "https://"))
	if !strings.Contains(err.Error(), "redirect to "+base+"/card: refused") {
		t.Errorf("the error does not name the redirect: %v", err)
	}
	if n := private.Conns.Load(); n != 0 {
		t.Errorf("the refused address got %d connection(s)", n)
	}
}

// TestPinsAllowTheSameNetwork: an origin that keeps answering from its
// network is fetched as often as asked.
func TestPinsAllowTheSameNetwork(t *testing.T) {
	dns := fetchtest.NewDNS("rebind.test", fetchtest.Public)
	base, c, public, _ := rebinding(t, dns)
	for range 3 {
		if _, _, err := c.Get(context.Background(), base+"/card"); err != nil {
			t.Fatal(err)
		}
	}
	if n := public.Conns.Load(); n != 3 {
		t.Errorf("%d connections, want 3", n)
	}
}

// TestPinsIgnoreTrailingDot: "rebind.test." is the name "rebind.test", so
// a second spelling of the origin finds the first one's pin.
func TestPinsIgnoreTrailingDot(t *testing.T) {
	dns := fetchtest.NewDNS("rebind.test", fetchtest.Public, fetchtest.Private)
	base, c, _, private := rebinding(t, dns)
	ctx := context.Background()
	if _, _, err := c.Get(ctx, base+"/card"); err != nil {
		t.Fatal(err)
	}
	dotted := strings.Replace(base, "rebind.test", "rebind.test.", 1)
	_, _, err := c.Get(ctx, dotted+"/.well-known/jwks.json")
	if err == nil || !strings.Contains(err.Error(), "another network") {
		t.Errorf("the dotted spelling: %v", err)
	}
	if n := private.Conns.Load(); n != 0 {
		t.Errorf("the private address got %d connection(s)", n)
	}
	if got := originOf("Rebind.Test.:443"); got != "rebind.test:443" {
		t.Errorf("originOf: %q", got)
	}
}
