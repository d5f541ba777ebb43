package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBuildScansForTheEnvironmentKey: a key given only through
// $AGENTCARDS_SIGNING_KEY is among those the output is scanned for, so a
// page quoting its seed (here in hex, which no generic detector knows)
// fails the build and publishes nothing.
func TestBuildScansForTheEnvironmentKey(t *testing.T) {
	dir := t.TempDir()
	keys, _ := filepath.Abs("../../testdata/keys")
	pemBytes, err := os.ReadFile(filepath.Join(keys, "test-ed25519.pem"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"agents.toml": `[site]
baseUrl = "https://agents.example.test"
[[agents]]
id = "echo"
name = "Echo"
description = "Repeats what it is told."
version = "1.0.0"
supportedInterfaces = [{url = "https://echo.example.test/a2a", protocolBinding = "JSONRPC", protocolVersion = "1.0"}]
skills = [{id = "echo", name = "Echo", description = "Echoes.", tags = ["demo"]}]
`,
		"site/notes.md": "# Notes\n\nSeed: 72FC0818B49935AAA069571E1A58AD8633592198EC57E321E71F2E7026536DD0\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pub, _ := os.ReadFile(filepath.Join(keys, "public", "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM.json"))
	os.MkdirAll(filepath.Join(dir, "keys"), 0o755)
	os.WriteFile(filepath.Join(dir, "keys", "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM.json"), pub, 0o644)
	getenv := func(k string) string {
		switch k {
		case "AGENTCARDS_SIGNING_KEY":
			return string(pemBytes)
		case "CI":
			return "true"
		}
		return ""
	}
	var stdout, stderr strings.Builder
	code := run([]string{"build", "-manifest", filepath.Join(dir, "agents.toml")}, &stdout, &stderr, getenv)
	if code != 1 || !strings.Contains(stderr.String(), "notes/index.html would publish the signing key in use (hex)") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "public")); !os.IsNotExist(err) {
		t.Errorf("the output folder exists after a failed first build: %v", err)
	}
	// Without the page, the same key builds.
	os.Remove(filepath.Join(dir, "site", "notes.md"))
	stderr.Reset()
	if code := run([]string{"build", "-manifest", filepath.Join(dir, "agents.toml")}, &stdout, &stderr, getenv); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// TestKidsAfterFlags: a kid that starts with '-' (one thumbprint in 64) is
// a kid, not an unknown flag; real flags and their values stay flags.
func TestKidsAfterFlags(t *testing.T) {
	fs := flag.NewFlagSet("keys", flag.ContinueOnError)
	fs.String("keys", "", "")
	fs.Bool("force", false, "")
	got := kidsAfterFlags(fs, []string{"-force", "-8cWPdXcuQdvuI0pHqiTJkVrx7RT790Q2lBrz0Xdguo", "-keys", "k", "-h"})
	want := []string{"-force", "-keys", "k", "-h", "--", "-8cWPdXcuQdvuI0pHqiTJkVrx7RT790Q2lBrz0Xdguo"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := fs.Parse(got[:len(got)-3]); err != nil {
		t.Fatal(err)
	}
}
