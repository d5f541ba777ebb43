package remote

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/sign"
)

// partner serves a card and a JWKS on 127.0.0.1, as the files say; the
// card may be changed between requests.
type partner struct {
	*httptest.Server
	mu         sync.Mutex
	card, jwks []byte
}

func newPartner(t *testing.T) *partner {
	p := &partner{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch r.URL.Path {
		case "/.well-known/agent-card.json":
			w.Write(p.card)
		case "/.well-known/jwks.json":
			w.Write(p.jwks)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(p.Close)
	return p
}

// serve signs text with the key of seed (jku: the partner's JWKS; 0:
// unsigned) and serves it, with that key's JWKS.
func (p *partner) serve(t *testing.T, text string, seed byte) {
	t.Helper()
	cardText, jwks := []byte(text), []byte(`{"keys":[]}`)
	if seed != 0 {
		cardText, jwks = signedAt(t, text, seed, p.URL+"/.well-known/jwks.json")
	}
	p.mu.Lock()
	p.card, p.jwks = cardText, jwks
	p.mu.Unlock()
}

// signedAt is signed with the jku given.
func signedAt(t *testing.T, text string, seed byte, jku string) (cardText, jwks []byte) {
	t.Helper()
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, 32))
	s, err := sign.NewSigner(key, "EdDSA", jku)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := s.Sign([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	json.Unmarshal([]byte(text), &doc)
	doc["signatures"] = []any{sig}
	cardText, _ = json.Marshal(doc)
	jwk, err := sign.PublicJWK(key.Public(), "EdDSA")
	if err != nil {
		t.Fatal(err)
	}
	set := &sign.KeySet{}
	set.Add(jwk)
	jwks, err = set.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return cardText, jwks
}

// TestFetch: a card signed by its origin's key is taken from the origin's
// well-known URL, with that JWKS, and the snapshot reads back; its keys
// follow it through a refetch.
func TestFetch(t *testing.T) {
	p := newPartner(t)
	p.serve(t, unsigned, 1)
	ctx := context.Background()
	s, err := Fetch(ctx, p.URL, FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.URL != p.URL+"/.well-known/agent-card.json" || s.JWKSURL != p.URL+"/.well-known/jwks.json" ||
		s.Verification.KeySource != KeysFromOrigin || s.Verification.Result != "verified" || s.Card != string(p.card) || s.JWKS != string(p.jwks) {
		t.Fatalf("snapshot %+v", s)
	}
	path := filepath.Join(t.TempDir(), "partner.json")
	if err := s.Write(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err != nil {
		t.Fatal(err)
	}
	// Pinned: the JWKS given, whatever the origin serves; a refetch keeps it.
	pinnedJWKS := p.jwks
	pinned, err := Fetch(ctx, p.URL+"/.well-known/agent-card.json", FetchOptions{Pinned: pinnedJWKS})
	if err != nil || pinned.Verification.KeySource != KeysPinned || pinned.JWKSURL != "" {
		t.Fatalf("pinned: %v %+v", err, pinned)
	}
	p.serve(t, unsigned, 2) // the origin moves to another key
	if _, err := Refetch(ctx, pinned, nil, nil); err == nil || !strings.Contains(err.Error(), "does not verify with the pinned JWKS") {
		t.Errorf("a refetch with the pinned JWKS, of a card signed by another key: %v", err)
	}
	if again, err := Refetch(ctx, s, nil, nil); err != nil || again.Verification.KIDs[0] == s.Verification.KIDs[0] {
		t.Errorf("a refetch from the origin, which moved to another key: %v", err)
	}
	// A URL a file records leads only to public addresses, unless the
	// caller vouches for it.
	if _, err := Refetch(ctx, s, nil, fetch.PublicNetwork()); !errors.Is(err, ErrFetch) || !fetch.IsRefused(err) {
		t.Errorf("a refetch of a loopback URL held to the public rule: %v", err)
	}
}

// TestFetchRefusals: each card that must not be taken is refused with
// ErrFetch, and words that say why.
func TestFetchRefusals(t *testing.T) {
	p := newPartner(t)
	ctx := context.Background()
	cardURL := p.URL + "/.well-known/agent-card.json"
	deep := strings.Replace(unsigned, `"capabilities":{}`, `"capabilities":`+strings.Repeat(`{"a":`, 70)+"1"+strings.Repeat("}", 70), 1)
	tests := []struct {
		name  string
		serve func()
		opts  FetchOptions
		url   string
		want  string
	}{
		{"unsigned", func() { p.serve(t, unsigned, 0) }, FetchOptions{}, p.URL,
			"the card at " + cardURL + " carries no signature (take it unsigned on purpose with -allow-unsigned, which the snapshot records)"},
		{"tampered", func() {
			p.serve(t, unsigned, 1)
			p.mu.Lock()
			defer p.mu.Unlock()
			p.card = bytes.Replace(p.card, []byte(`"version":"1"`), []byte(`"version":"2"`), 1)
		}, FetchOptions{AllowUnsigned: true}, p.URL,
			"the card at " + cardURL + " does not verify with the JWKS at " + p.URL + "/.well-known/jwks.json: signature"},
		{"signed by a key the origin does not publish", func() {
			p.serve(t, unsigned, 1)
			p.mu.Lock()
			defer p.mu.Unlock()
			_, p.jwks = signedAt(t, unsigned, 2, "x")
		}, FetchOptions{}, p.URL, "is not among the trusted keys"},
		{"a jku elsewhere", func() {
			p.serve(t, unsigned, 1)
			p.mu.Lock()
			defer p.mu.Unlock()
			p.card, p.jwks = signedAt(t, unsigned, 1, jwksURL)
		}, FetchOptions{}, p.URL, `jku "` + jwksURL + `" is not the trusted JWKS`},
		{"a JWKS with a private key", func() {
			p.serve(t, unsigned, 1)
			p.mu.Lock()
			defer p.mu.Unlock()
			p.jwks = []byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","kid":"k","alg":"EdDSA"}]}`)
		}, FetchOptions{}, p.URL, "cannot be checked: the JWKS at " + p.URL + "/.well-known/jwks.json publishes a private key, so none of it can be trusted"},
		{"too big", func() { p.serve(t, unsigned, 1) }, FetchOptions{Client: &fetch.Client{MaxBytes: 100}}, p.URL, "over the 100-byte limit"},
		{"deeply nested", func() { p.serve(t, deep, 0) }, FetchOptions{AllowUnsigned: true}, p.URL, "the card at " + cardURL + ": "},
		{"not found", func() {}, FetchOptions{}, p.URL + "/agents/x/.well-known/agent-card.json", "HTTP 404"},
		{"unreachable", func() {}, FetchOptions{}, "http://127.0.0.1:1", "fetch http://127.0.0.1:1/.well-known/agent-card.json"},
		{"plain http", func() {}, FetchOptions{}, "http://partner.example.com", "plain http is refused"},
		{"not a URL", func() {}, FetchOptions{}, "partner.example.com", `"partner.example.com" is not an absolute URL`},
		{"an HTML page", func() { p.serve(t, "<!doctype html><title>Echo</title>", 0) }, FetchOptions{AllowUnsigned: true}, p.URL, "is an HTML page, not a card: give the card's URL"},
		{"a token in the query", func() { p.serve(t, unsigned, 1) }, FetchOptions{}, cardURL + "?access_token=ghp_R8x2Lq9VtY4mKc7WnB3pZs6DfH1jGa5EoU0i", "the URL carries a credential"},
		{"a key in the query", func() { p.serve(t, unsigned, 1) }, FetchOptions{}, cardURL + "?key=Zq8rT2vX9kLm4Np7", "the URL carries a credential"},
		{"a password in the URL", func() { p.serve(t, unsigned, 1) }, FetchOptions{}, strings.Replace(cardURL, "://", "://admin:Hunter2024x@", 1), "the URL carries a credential"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.serve()
			s, err := Fetch(ctx, tt.url, tt.opts)
			if !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Fetch = %v, %v; want ErrFetch saying %q", s, err, tt.want)
			}
		})
	}
}
