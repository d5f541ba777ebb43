package mcp_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcards/agentcards/internal/mcp"
	"github.com/agentcards/agentcards/internal/mcp/mcptest"
)

var update = flag.Bool("update", false, "rewrite testdata/mcp/weather.json from the test server")

// TestExampleSnapshot holds testdata/mcp/weather.json (the snapshot the
// example MCP manifest and the site tests build from) to what mcp fetch
// writes for the test server; -update rewrites it.
func TestExampleSnapshot(t *testing.T) {
	srv := mcptest.New(mcptest.Options{})
	defer srv.Close()
	s, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "testdata", "mcp", "weather.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s is not what mcp fetch writes for the test server; run go test ./internal/mcp -run ExampleSnapshot -update", path)
	}
}
