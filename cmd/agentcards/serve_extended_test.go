package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/preview"
)

// startAgent serves, on 127.0.0.1:port, the JSON-RPC interface of the
// extendedProject agent as the README's Go server does: the extended
// card at the path *card holds, to callers with the key.
func startAgent(t *testing.T, port string, card *atomic.Pointer[string]) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/a2a/jsonrpc" || r.Header.Get("X-API-Key") != extendedKey {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		body, err := os.ReadFile(*card.Load())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": json.RawMessage(body)})
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
}

// TestServeExtendedCard: verify -extended against serve's preview
// verifies when the agent's server returns the extended card the preview
// built (ExtendedDir), signed with the preview's jku; the one build wrote
// to private/ names the production JWKS and is refused, and the preview
// leaves it alone.
func TestServeExtendedCard(t *testing.T) {
	port := freePort(t)
	dir, _ := extendedProject(t, port)
	production := filepath.Join(dir, "private", "agents", extendedAgent, layout.ExtendedCardFile)
	before, err := os.ReadFile(production)
	if err != nil {
		t.Fatal(err)
	}
	privs, err := keyring.Read([]string{"../../testdata/keys/test-ed25519.pem"}, "")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := preview.Start(ctx, preview.Config{Manifest: filepath.Join(dir, "agents.toml"), Addr: "127.0.0.1:0", Keys: privs, Poll: time.Hour, Log: &log})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-srv.Done() })
	if n, e := srv.Status(); n != 1 || e != "" {
		t.Fatalf("first build: %d builds, error %q", n, e)
	}
	ext := srv.ExtendedDir()
	if ext == "" || strings.HasPrefix(ext, dir) {
		t.Fatalf("ExtendedDir %q: want a folder outside the project %s", ext, dir)
	}
	if !strings.Contains(log.String(), "extended cards signed for this preview (jku "+srv.URL+"/.well-known/jwks.json): "+ext) {
		t.Errorf("serve does not say where the preview's extended cards are:\n%s", log.String())
	}
	cardURL := srv.URL + "/agents/" + extendedAgent + "/.well-known/agent-card.json"

	var card atomic.Pointer[string]
	card.Store(&production)
	startAgent(t, port, &card)
	if code, got := verifyExtended(t, cardURL, extendedKey); code != 1 || !strings.Contains(got, "is not the trusted JWKS") {
		t.Errorf("verify -extended of the preview, with the production extended card: exit %d\n%s", code, got)
	}

	previewCard := filepath.Join(ext, "agents", extendedAgent, layout.ExtendedCardFile)
	card.Store(&previewCard)
	code, got := verifyExtended(t, cardURL, extendedKey)
	if code != 0 || strings.Count(got, "VERIFIED") != 2 || !strings.Contains(got, "extended card from http://127.0.0.1:"+port+"/a2a/jsonrpc") {
		t.Errorf("verify -extended of the preview, with the preview's extended card: exit %d\n%s", code, got)
	}
	if after, err := os.ReadFile(production); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the preview changed the production extended card (%v)", err)
	}
}
