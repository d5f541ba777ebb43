package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/mcp"
	"github.com/agentcards/agentcards/internal/mcp/mcptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFetchFromSDKServer snapshots a real MCP server (the official Go
// SDK's) on loopback: every page of tools/list, schemas as sent, the
// resources and prompts, and a second fetch giving the same bytes.
func TestFetchFromSDKServer(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		srv := mcptest.New(mcptest.Options{Stateless: stateless})
		defer srv.Close()
		s, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{})
		if err != nil {
			t.Fatalf("stateless=%v: %v", stateless, err)
		}
		if len(s.Tools) != len(mcptest.Tools) {
			t.Fatalf("stateless=%v: %d tools, want %d (all pages)", stateless, len(s.Tools), len(mcptest.Tools))
		}
		if stateless && s.ProtocolVersion != "2026-07-28" {
			t.Errorf("stateless server: protocol %q, want 2026-07-28 (server/discover)", s.ProtocolVersion)
		}
		if !stateless && s.ProtocolVersion == "" {
			t.Error("no protocol version")
		}
		if s.ServerInfo.Name != "weather-server" || s.ServerInfo.Version != "2.1.0" || s.ServerInfo.Title != "Weather" {
			t.Errorf("serverInfo %+v", s.ServerInfo)
		}
		if len(s.Resources) != 1 || len(s.Prompts) != 1 || s.Prompts[0].Arguments[0].Name != "city" {
			t.Errorf("resources %+v prompts %+v", s.Resources, s.Prompts)
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"default": ""`, `"maximum": 9007199254740993`, `"default": []`, `"default": {}`, `"enum": [`, `"destructiveHint": true`} {
			if !bytes.Contains(out, []byte(want)) {
				t.Errorf("stateless=%v: snapshot lacks %s:\n%s", stateless, want, out)
			}
		}
		again, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out2, _ := again.Marshal()
		if !bytes.Equal(out, out2) {
			t.Errorf("two fetches of one server differ")
		}
		parsed, err := mcp.Parse(out)
		if err != nil {
			t.Fatalf("the written snapshot does not read back: %v", err)
		}
		if out3, _ := parsed.Marshal(); !bytes.Equal(out, out3) {
			t.Error("read and written again, the snapshot changed")
		}
	}
}

// TestFetchSendsHeadersNeverWritesThem: the header reaches the server on
// every request and nowhere in the snapshot.
func TestFetchSendsHeadersNeverWritesThem(t *testing.T) {
	srv := mcptest.New(mcptest.Options{RequireToken: true})
	defer srv.Close()
	if _, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{}); err == nil {
		t.Fatal("fetched without the token")
	}
	h := http.Header{"Authorization": {"Bearer " + mcptest.Token}}
	s, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{Header: h})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := s.Marshal()
	if bytes.Contains(out, []byte(mcptest.Token)) || bytes.Contains(out, []byte("Authorization")) {
		t.Fatal("the snapshot holds the header")
	}
}

// TestFetchLimits: a body over the size limit, a redirect to http from
// https-less loopback beyond the limit count, and a cursor that repeats
// all stop the fetch.
func TestFetchLimits(t *testing.T) {
	big := strings.Repeat("x", 300<<10)
	srv := mcptest.New(mcptest.Options{Extra: []*sdk.Tool{{Name: "big", Description: big, InputSchema: json.RawMessage(`{"type":"object"}`)}}, PageSize: 100})
	defer srv.Close()
	_, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{Limits: fetch.Client{MaxBytes: 64 << 10}})
	if err == nil {
		t.Fatal("a 300 KiB answer passed a 64 KiB limit")
	}
	if _, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{Limits: fetch.Client{MaxBytes: 1 << 20}}); err != nil {
		t.Fatalf("within the limit: %v", err)
	}

	// Redirects: more than the limit fail.
	hops := 0
	var loop *httptest.Server
	loop = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops++
		http.Redirect(w, r, loop.URL+"/again", http.StatusTemporaryRedirect)
	}))
	defer loop.Close()
	// (server/discover, then initialize: each request is followed at most
	// DefaultMaxRedirects times.)
	if _, err := mcp.Fetch(context.Background(), loop.URL, mcp.FetchOptions{}); err == nil || !strings.Contains(err.Error(), "more than 3 redirects") || hops > 2*(fetch.DefaultMaxRedirects+1) {
		t.Fatalf("redirect loop: err %v after %d hops", err, hops)
	}

	// A plain-http URL to a non-loopback host is refused before any request.
	if _, err := mcp.Fetch(context.Background(), "http://mcp.example.com/mcp", mcp.FetchOptions{}); err == nil || !strings.Contains(err.Error(), "https") {
		t.Fatalf("plain http: %v", err)
	}
}
