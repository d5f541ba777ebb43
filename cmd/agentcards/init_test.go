package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/preview"
)

// TestInitThenServe: what init writes in an empty folder previews with
// `serve` (the preview server on 127.0.0.1) with nothing else: the front
// page lists the agent, its page and its card are served.
func TestInitThenServe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", dir}, &stdout, &stderr, func(string) string { return "" }); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	var log bytes.Buffer
	srv, err := preview.Start(ctx, preview.Config{Manifest: filepath.Join(dir, "agents.toml"), Addr: "127.0.0.1:0", Poll: time.Hour, Log: &log})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-srv.Done() })
	if n, e := srv.Status(); n != 1 || e != "" {
		t.Fatalf("first build: %d builds, error %q; log:\n%s", n, e, log.String())
	}
	for path, want := range map[string]string{
		"/":                                   "Echo",
		"/agents/echo/":                       "Repeats back the text it is sent",
		"/.well-known/agent-card.json":        `"name": "Echo"`,
		"/agents/echo/.well-known/agent.json": `"protocolVersion": "0.3.0"`,
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %s, body lacks %q", path, resp.Status, want)
		}
	}
}
