package preview

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeLog: a preview given no key says once that the development key
// signs it, and, not verbose, leaves out the notes that ask nothing of
// the user (the example's scope-less requirements).
func TestServeLog(t *testing.T) {
	dir, _ := exampleProject(t)
	var log syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := Start(ctx, Config{Manifest: filepath.Join(dir, "agents.toml"), Addr: "127.0.0.1:0", Poll: time.Hour, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if n, e := srv.Status(); n != 1 || e != "" {
		t.Fatalf("first build: %d builds, error %q", n, e)
	}
	cancel()
	<-srv.Done()
	const dev = "note: previewing with the development key (fine for a local preview; `build` refuses it under CI)\n"
	if got := strings.Count(log.String(), dev); got != 1 {
		t.Errorf("the development key is noted %d times, want 1:\n%s", got, log.String())
	}
	if strings.Contains(log.String(), "security requirements without scopes") {
		t.Errorf("a note that asks nothing, without Verbose:\n%s", log.String())
	}
}
