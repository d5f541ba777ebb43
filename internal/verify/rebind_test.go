package verify

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/fetch/fetchtest"
)

// rebindSite is the ledger site at https://rebind.test:PORT, its
// interface at /a2a, served alike by twin servers on the test's public
// and private addresses: which one a fetch reaches is what the name
// answers (DNS rebinding, played on loopback).
type rebindSite struct {
	base            string
	client          *fetch.Client // without Pins: the run gets its own
	public, private *fetchtest.Server
	api             *extendedSite // the interface, and the requests it saw
}

// newRebindSite serves the site with the name answering the addresses in
// turn (the last one from then on).
func newRebindSite(t *testing.T, answers ...string) *rebindSite {
	t.Helper()
	dns := fetchtest.NewDNS("rebind.test", answers...)
	t.Cleanup(fetch.SetTestNetwork(dns.Resolver()))
	cert, pool := fetchtest.Cert(t, "rebind.test")
	dir := t.TempDir()
	api := &extendedSite{}
	files := http.FileServer(http.Dir(filepath.Join(dir, "public")))
	port, public, private := fetchtest.Twins(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/a2a") {
			files.ServeHTTP(w, r)
			return
		}
		api.mu.Lock()
		api.requests = append(api.requests, r)
		h := api.handler
		api.mu.Unlock()
		h(w, r)
	}), cert)
	base := "https://rebind.test:" + port
	extended := buildLedger(t, dir, base, base+"/a2a", "JSONRPC", true)
	api.mu.Lock()
	api.handler = api.serve(extended)
	api.mu.Unlock()
	return &rebindSite{base: base, client: &fetch.Client{Timeout: 5 * time.Second, RootCAs: pool}, public: public, private: private, api: api}
}

// checkRefused: text says the origin answered from another network than
// before, and nothing of what answered; the private twin saw nothing.
func (s *rebindSite) checkRefused(t *testing.T, text string) {
	t.Helper()
	t.Logf("refused: %s", text)
	want := "refused: " + strings.TrimPrefix(s.base, "https://") + " answered from another network than before"
	if !strings.Contains(text, want) {
		t.Errorf("got %q, want it to say %q", text, want)
	}
	if strings.Contains(text, fetchtest.Private) {
		t.Errorf("the error names the private address: %q", text)
	}
	if n := s.private.Conns.Load(); n != 0 {
		t.Errorf("the private address got %d connection(s)", n)
	}
}

// TestVerifyURLRebound: verify URL fetches the card from the public
// address the name answered first; the name then answers a private
// address for the JWKS, which is refused, without saying what answered.
func TestVerifyURLRebound(t *testing.T) {
	s := newRebindSite(t, fetchtest.Public, fetchtest.Private)
	rep := &Report{}
	err := Target(context.Background(), s.base+"/agents/ledger/.well-known/agent-card.json", Options{Fetch: s.client}, rep)
	if err == nil {
		t.Fatalf("verified with a JWKS from another network: %+v", rep.Cards)
	}
	s.checkRefused(t, err.Error())
	if !strings.Contains(err.Error(), "/.well-known/jwks.json") {
		t.Errorf("the error does not name the JWKS: %v", err)
	}
}

// TestExtendedRebound: verify -extended gets the card from the public
// address the name answered first; when the name then answers a private
// one, for the JWKS or for the agent's interface, that fetch is refused
// without saying what answered, and the caller's headers go nowhere.
func TestExtendedRebound(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers []string
	}{
		{"at the JWKS", []string{fetchtest.Public, fetchtest.Private}},
		{"at the interface", []string{fetchtest.Public, fetchtest.Public, fetchtest.Private}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRebindSite(t, tc.answers...)
			rep := &Report{}
			err := Extended(context.Background(), s.base+"/agents/ledger/.well-known/agent-card.json", Options{Fetch: s.client}, ExtendedOptions{Header: keyHeader(testAPIKey)}, rep)
			if tc.name == "at the interface" && (len(rep.Cards) == 0 || !rep.Cards[0].Verified) {
				t.Fatalf("the public card did not verify: %v\n%s", err, problems(rep))
			}
			text := problems(rep)
			if err != nil {
				text += "\n" + err.Error()
			}
			s.checkRefused(t, text)
			if strings.Contains(text, testAPIKey) {
				t.Errorf("the key is shown: %s", text)
			}
			s.api.mu.Lock()
			defer s.api.mu.Unlock()
			if len(s.api.requests) != 0 {
				t.Errorf("the interface got %d request(s)", len(s.api.requests))
			}
		})
	}
}

// TestCatalogRebound: a catalog walk fetches the catalog from the public
// address; when the name then answers a private one, for an entry's card
// or its JWKS, that fetch is refused, and the entry's problem does not
// say what answered.
func TestCatalogRebound(t *testing.T) {
	for name, answers := range map[string][]string{
		"at the cards": {fetchtest.Public, fetchtest.Private},
		"at the JWKS":  {fetchtest.Public, fetchtest.Public, fetchtest.Private},
	} {
		t.Run(name, func(t *testing.T) {
			s := newRebindSite(t, answers...)
			rep := &Report{}
			if err := Catalog(context.Background(), s.base+"/.well-known/ai-catalog.json", Options{Fetch: s.client}, CatalogOptions{}, rep); err != nil {
				t.Fatal(err)
			}
			var text []string
			for _, e := range rep.Entries {
				if e.Outcome == OutcomeVerified {
					t.Errorf("entry %s verified", e.Identifier)
				}
				text = append(text, e.Outcome+": "+e.Problem)
			}
			if len(rep.Entries) == 0 {
				t.Fatal("no entries")
			}
			s.checkRefused(t, strings.Join(append(text, rep.Problems...), "\n"))
		})
	}
}
