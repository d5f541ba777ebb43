package agentcards

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/fetch/fetchtest"
)

// rebindVerifier serves a signed card and its JWKS at
// https://rebind.test:PORT on twin servers at the test's public and
// private addresses, the name answering the addresses in turn, and
// returns a TrustOrigin Verifier for it.
func rebindVerifier(t *testing.T, answers ...string) (v *Verifier, base string, private *fetchtest.Server) {
	t.Helper()
	dns := fetchtest.NewDNS("rebind.test", answers...)
	t.Cleanup(fetch.SetTestNetwork(dns.Resolver()))
	k := newTestKey(t, "")
	files := map[string][]byte{"/.well-known/agent-card.json": signCard(t, unsignedCard, k), "/.well-known/jwks.json": k.jwks}
	cert, pool := fetchtest.Cert(t, "rebind.test")
	port, _, private := fetchtest.Twins(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, ok := files[r.URL.Path]; ok {
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}), cert)
	v, err := NewVerifier(TrustOrigin(), WithRootCAs(pool))
	if err != nil {
		t.Fatal(err)
	}
	return v, "https://rebind.test:" + port, private
}

// checkRebound: err is the FetchError of an origin that answered from
// another network than before, and does not say what answered.
func checkRebound(t *testing.T, err error, base string, private *fetchtest.Server) {
	t.Helper()
	var fe *FetchError
	want := "refused: " + strings.TrimPrefix(base, "https://") + " answered from another network than before"
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want a FetchError saying %q", err, want)
	}
	if err != nil && strings.Contains(err.Error(), fetchtest.Private) {
		t.Errorf("the error names the private address: %v", err)
	}
	if n := private.Conns.Load(); n != 0 {
		t.Errorf("the private address got %d connection(s)", n)
	}
}

// TestFetchRebound: with TrustOrigin, the card comes from the public
// address the name answered first; the JWKS, asked for next, from the
// private one it answers then: refused, without saying what answered.
func TestFetchRebound(t *testing.T) {
	v, base, private := rebindVerifier(t, fetchtest.Public, fetchtest.Private)
	res, err := v.Fetch(context.Background(), base)
	if err == nil {
		t.Fatalf("verified with keys from another network (%s)", res.JWKS)
	}
	checkRebound(t, err, base, private)
}

// TestFetchReboundLater: the first answer pins the origin for the
// Verifier's life: a later Fetch, once the name answers a private
// address, is refused.
func TestFetchReboundLater(t *testing.T) {
	v, base, private := rebindVerifier(t, fetchtest.Public, fetchtest.Public, fetchtest.Private)
	if _, err := v.Fetch(context.Background(), base); err != nil {
		t.Fatal(err)
	}
	_, err := v.Fetch(context.Background(), base+"/.well-known/agent-card.json")
	checkRebound(t, err, base, private)
}
