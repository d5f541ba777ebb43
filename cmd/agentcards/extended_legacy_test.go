package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestLegacyExtendedCardJSSDK: the SDK's v0.3 client (legacyCompat) reads
// the public agent.json, whose protocolVersion is "0.3.0", picks its v0.3
// JSON-RPC transport for it (the SDK compares major.minor, so "0.3.0" is
// v0.3), and gets the built v0.3 extended card from
// agent/getAuthenticatedExtendedCard; without the key it gets the 401.
// verify -extended verifies the same card from the same server. The SDK's
// verifier cannot verify a v0.3 card (it reads one through its v1.0 types).
func TestLegacyExtendedCardJSSDK(t *testing.T) {
	node := interopNode(t)
	port := freePort(t)
	dir, cardURL := extendedProject(t, port)
	legacyURL := strings.TrimSuffix(cardURL, "agent-card.json") + "agent.json"
	extended, err := os.ReadFile(filepath.Join(dir, "private", "agents", extendedAgent, "extended-agent.json"))
	if err != nil {
		t.Fatal(err)
	}

	// A v0.3 JSON-RPC server that returns the built file as it is.
	var mu sync.Mutex
	var versions []string
	mux := http.NewServeMux()
	mux.HandleFunc("POST /a2a/jsonrpc", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		versions = append(versions, r.Header.Get("A2A-Version"))
		mu.Unlock()
		if r.Header.Get("X-API-Key") != extendedKey {
			w.Header().Set("WWW-Authenticate", `ApiKey header="X-API-Key"`)
			http.Error(w, `{"error":"unauthenticated"}`, http.StatusUnauthorized)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		resp := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if req.Method == "agent/getAuthenticatedExtendedCard" {
			resp["result"] = json.RawMessage(extended)
		} else {
			resp["error"] = map[string]any{"code": -32601, "message": "Method not found"}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	})
	l, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	client := exec.Command(node, "extended-client.mjs", legacyURL, extendedKey, "legacy")
	client.Dir = interopDir
	out, err := client.Output()
	if err != nil {
		t.Fatalf("extended-client.mjs: %v\n%s", err, out)
	}
	var r struct {
		Binding, Name, Error, VerifyError, Unauthenticated, ProtocolVersion string
		Skills                                                              []string
		Verified, ExtendedAgentCard                                         bool
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Error != "" || r.ProtocolVersion != "0.3" || r.Name != "Ledger" || !r.ExtendedAgentCard || !strings.Contains(strings.Join(r.Skills, ","), "bulk-export") {
		t.Errorf("the SDK's v0.3 client did not get the v0.3 extended card: %+v", r)
	}
	if !strings.Contains(r.Unauthenticated, "401") {
		t.Errorf("without the key: %q, want HTTP 401", r.Unauthenticated)
	}
	mu.Lock()
	for _, v := range versions {
		if v != "0.3" {
			t.Errorf("the SDK's v0.3 client sent A2A-Version %q", v)
		}
	}
	mu.Unlock()

	code, got := verifyExtended(t, legacyURL, extendedKey)
	if code != 0 || strings.Count(got, "VERIFIED") != 2 || !strings.Contains(got, "(JSON-RPC agent/getAuthenticatedExtendedCard)") {
		t.Errorf("verify -extended: exit %d\n%s", code, got)
	}
}
