package verify

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/site"
)

const testAPIKey = "k-0123456789abcdef"

// extendedSite is a built site on one loopback origin and the agent's own
// interface on another, which serves the agent's extended card.
type extendedSite struct {
	site, api *httptest.Server
	public    string // the public card's URL
	extended  []byte // the built extended card
	mu        sync.Mutex
	handler   http.HandlerFunc
	requests  []*http.Request // every request the interface saw
}

// newExtendedSite builds a one-agent site whose agent has an extended
// card; binding is the interface's ("JSONRPC" or "HTTP+JSON"), and
// advertise false leaves the overlay out.
func newExtendedSite(t *testing.T, binding string, overlay bool) *extendedSite {
	t.Helper()
	s := &extendedSite{}
	s.api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r)
		h := s.handler
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.api.Close)
	dir := t.TempDir()
	s.site = httptest.NewServer(http.FileServer(http.Dir(filepath.Join(dir, "public"))))
	t.Cleanup(s.site.Close)
	s.extended = buildLedger(t, dir, s.site.URL, s.api.URL+"/a2a", binding, overlay)
	s.public = s.site.URL + "/agents/ledger/.well-known/agent-card.json"
	s.handler = s.serve(s.extended)
	return s
}

// buildLedger builds, in dir/public, a signed one-agent site at baseURL
// whose agent's interface is apiURL, speaking binding, with an extended
// card when overlay is set (the built extended card is returned).
func buildLedger(t *testing.T, dir, baseURL, apiURL, binding string, overlay bool) (extended []byte) {
	t.Helper()
	out := filepath.Join(dir, "public")
	ext := ""
	if overlay {
		ext = `[agents.extended]
description = "Everything, for customers."
[[agents.extended.addSkills]]
id = "bulk-export"
name = "Bulk export"
description = "Exports a month at once."
tags = ["export"]
`
	}
	toml := fmt.Sprintf(`[site]
baseUrl = %q
[[agents]]
id = "ledger"
name = "Ledger"
description = "Reads invoices."
version = "1.0.0"
securityRequirements = [{ key = ["read"] }]
[[agents.supportedInterfaces]]
url = "%s"
protocolBinding = %q
protocolVersion = "1.0"
[agents.securitySchemes.key]
type = "oauth2"
[agents.securitySchemes.key.flows.clientCredentials]
tokenUrl = "https://auth.example.com/token"
scopes = { read = "Read" }
[[agents.skills]]
id = "extract"
name = "Extract"
description = "Extracts line items."
tags = ["finance"]
%s`, baseURL, apiURL, binding, ext)
	if err := os.WriteFile(filepath.Join(dir, "agents.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(filepath.Join(dir, "agents.toml"))
	if err != nil {
		t.Fatal(err)
	}
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	jwk, err := sign.PublicJWK(priv.Public(), sign.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	ks := &sign.KeySet{}
	ks.Add(jwk)
	signer, err := sign.NewSigner(priv, sign.EdDSA, site.JWKSURL(m))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := site.Build(site.Options{Manifest: m, OutDir: out, Keys: ks, Signers: []*sign.Signer{signer}}); err != nil {
		t.Fatal(err)
	}
	if overlay {
		if extended, err = os.ReadFile(filepath.Join(m.PrivateDir(), filepath.FromSlash(layout.ExtendedFile("ledger", "", false)))); err != nil {
			t.Fatal(err)
		}
	}
	return extended
}

// serve answers GetExtendedAgentCard (JSON-RPC) and GET /extendedAgentCard
// with card, after checking the API key as an agent's server would.
func (s *extendedSite) serve(card []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != testAPIKey {
			w.Header().Set("WWW-Authenticate", `ApiKey header="X-API-Key"`)
			http.Error(w, "unauthenticated", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodGet && r.URL.Path == "/a2a/extendedAgentCard" {
			w.Header().Set("Content-Type", "application/a2a+json")
			w.Write(card)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) != nil || req.Method != "GetExtendedAgentCard" || r.Header.Get("A2A-Version") != "1.0" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, card)
	}
}

func (s *extendedSite) verify(t *testing.T, h http.Header) *Report {
	t.Helper()
	rep := &Report{}
	if err := Extended(context.Background(), s.public, Options{Fetch: &fetch.Client{}}, ExtendedOptions{Header: h}, rep); err != nil {
		t.Fatal(err)
	}
	Finish(rep)
	return rep
}

func keyHeader(v string) http.Header { return http.Header{"X-Api-Key": {v}} }

func problems(rep *Report) string {
	var out []string
	for _, c := range rep.Cards {
		out = append(out, "name: "+c.Name)
		out = append(out, c.Problems...)
		for _, s := range c.Signatures {
			out = append(out, s.Reason)
		}
	}
	return strings.Join(append(out, rep.Problems...), "\n")
}

// TestExtendedLive: verify -extended fetches the extended card from the
// interface the verified public card names, with the caller's header,
// and verifies it with the public card's origin's keys.
func TestExtendedLive(t *testing.T) {
	for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
		t.Run(binding, func(t *testing.T) {
			s := newExtendedSite(t, binding, true)
			rep := s.verify(t, keyHeader(testAPIKey))
			if !rep.Verified || len(rep.Cards) != 2 || !rep.Cards[1].Verified || rep.Cards[1].Outcome != OutcomeVerified {
				t.Fatalf("not verified: %+v\n%s", rep, problems(rep))
			}
			if !strings.Contains(rep.Cards[1].Source, s.api.URL) {
				t.Errorf("source %q", rep.Cards[1].Source)
			}
			if rep.Cards[1].JWKS != s.site.URL+"/.well-known/jwks.json" {
				t.Errorf("keys from %q, not the public card's origin", rep.Cards[1].JWKS)
			}
		})
	}
}

// TestExtendedLiveRefusals: whatever the interface answers, only a card
// signed by the public card's origin's keys verifies, and the caller's
// header goes nowhere else.
func TestExtendedLiveRefusals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		header  http.Header
		handler func(s *extendedSite) http.HandlerFunc
		want    string
	}{
		{"no header", nil, nil, "refused the credentials (HTTP 401; it asks for: ApiKey header=\"X-API-Key\")"},
		{"wrong key", keyHeader("wrong-key-value"), nil, "refused the credentials (HTTP 401"},
		{"not configured", keyHeader(testAPIKey), func(s *extendedSite) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32007,"message":"Extended Agent Card not configured"}}`)
			}
		}, "ExtendedAgentCardNotConfiguredError"},
		{"altered card", keyHeader(testAPIKey), func(s *extendedSite) http.HandlerFunc {
			return s.serve([]byte(strings.Replace(string(s.extended), "Exports a month at once.", "Exports a year at once.", 1)))
		}, "signature"},
		{"the public card instead", keyHeader(testAPIKey), func(s *extendedSite) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				resp, err := http.Get(s.public)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				card, _ := io.ReadAll(resp.Body)
				s.serve(card)(w, r)
			}
		}, ""},
		{"another id", keyHeader(testAPIKey), func(s *extendedSite) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":7,"result":%s}`, s.extended)
			}
		}, "id is not the request's"},
		{"credential in the card's name", keyHeader(testAPIKey), func(s *extendedSite) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				card := strings.Replace(string(s.extended), `"name": "Ledger"`, `"name": "Key is `+r.Header.Get("X-API-Key")+`"`, 1)
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":%s}`, card)
			}
		}, "[header value]"},
		{"credential at the end of a long error body", keyHeader(testAPIKey), func(s *extendedSite) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprint(w, strings.Repeat("x", 190)+r.Header.Get("X-API-Key"))
			}
		}, "HTTP 500"},
		{"echoed credential", keyHeader(testAPIKey), func(s *extendedSite) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad key %s"}}`, r.Header.Get("X-API-Key"))
			}
		}, "bad key [header value]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newExtendedSite(t, "JSONRPC", true)
			if tc.handler != nil {
				s.handler = tc.handler(s)
			}
			rep := s.verify(t, tc.header)
			all := problems(rep)
			if tc.name == "the public card instead" {
				// Signed by the right key, so it verifies: the report
				// shows the card, and it is the public one.
				if !rep.Verified || strings.Contains(all, "bulk-export") {
					t.Fatalf("%+v", rep)
				}
				return
			}
			if rep.Verified || len(rep.Cards) != 2 || rep.Cards[1].Verified {
				t.Fatalf("verified: %+v", rep)
			}
			if !strings.Contains(all, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, all)
			}
			report, _ := json.Marshal(rep)
			for _, part := range []string{testAPIKey, testAPIKey[:8], testAPIKey[len(testAPIKey)-8:]} {
				if strings.Contains(string(report), part) {
					t.Errorf("the report repeats (part of) the key %q:\n%s", part, report)
				}
			}
		})
	}
}

// TestExtendedLiveNotAsked: no header leaves for an interface unless a
// verified public card that advertises an extended card names it.
func TestExtendedLiveNotAsked(t *testing.T) {
	t.Run("no overlay", func(t *testing.T) {
		s := newExtendedSite(t, "JSONRPC", false)
		rep := s.verify(t, keyHeader(testAPIKey))
		if rep.Verified || !strings.Contains(problems(rep), "does not advertise an extended card") {
			t.Errorf("%+v", rep)
		}
		if len(s.requests) != 0 {
			t.Errorf("the interface was asked %d times", len(s.requests))
		}
	})
	t.Run("public card not verified", func(t *testing.T) {
		s := newExtendedSite(t, "JSONRPC", true)
		// Trust a key that did not sign the card.
		rep := &Report{}
		err := Extended(context.Background(), s.public, Options{Fetch: &fetch.Client{}, JWKS: writeOtherJWKS(t)}, ExtendedOptions{Header: keyHeader(testAPIKey)}, rep)
		if err != nil {
			t.Fatal(err)
		}
		Finish(rep)
		if rep.Verified || !strings.Contains(problems(rep), "the public card did not verify") {
			t.Errorf("%+v", rep)
		}
		if len(s.requests) != 0 {
			t.Errorf("the interface was asked %d times", len(s.requests))
		}
	})
	t.Run("redirect to another origin", func(t *testing.T) {
		s := newExtendedSite(t, "JSONRPC", true)
		var leaked []string
		elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			leaked = append(leaked, r.Header.Get("X-API-Key"))
		}))
		defer elsewhere.Close()
		s.handler = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, elsewhere.URL+"/steal", http.StatusTemporaryRedirect)
		}
		err := Extended(context.Background(), s.public, Options{Fetch: &fetch.Client{}}, ExtendedOptions{Header: keyHeader(testAPIKey)}, &Report{})
		if err == nil || !strings.Contains(err.Error(), "redirect to another origin") || strings.Contains(err.Error(), testAPIKey) {
			t.Errorf("got %v", err)
		}
		if len(leaked) != 0 {
			t.Errorf("the header went elsewhere: %q", leaked)
		}
	})
}

// writeOtherJWKS writes a JWKS of a key that signs nothing here.
func writeOtherJWKS(t *testing.T) string {
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = 1
	jwk, err := sign.PublicJWK(ed25519.NewKeyFromSeed(seed).Public(), sign.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	ks := &sign.KeySet{}
	ks.Add(jwk)
	data, err := ks.JSON()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
