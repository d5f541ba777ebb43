package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEGoClients builds the Go programs of site/docs/clients.md ("Verify from
// your own code") exactly as written there (go-client with the public
// package; a2a-go-client with the real a2a-go v2.4.0, in the separate
// module testdata/clients), and runs each against the example site served
// on 127.0.0.1: every card verifies and the agent's name is printed; a
// tampered card, and a card whose key the JWKS lacks, are refused with a
// reason.
func TestREADMEGoClients(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a2a-go")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	copyTree(t, filepath.Join(root, "testdata", "clients"), mod)
	gocmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gocmd("mod", "edit", "-replace", "github.com/agentcards/agentcards="+root)
	programs := []string{"go-client", "a2a-go-client"}
	for _, name := range programs {
		if err := os.MkdirAll(filepath.Join(mod, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name, "main.go"), []byte(readmeExample(t, name)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd(append([]string{"build", "-o", filepath.Join(mod, "bin") + string(filepath.Separator)}, prefixed("./", programs)...)...)

	site := newExampleSite(t)
	names := map[string]string{"": "Voyager Travel Planner", "travel-planner": "Voyager Travel Planner", "invoice-reader": "Ledger Lens", "support-triage": "Helpdesk Triage"}
	for _, name := range programs {
		bin := filepath.Join(mod, "bin", name)
		t.Run(name, func(t *testing.T) {
			for _, variant := range []string{"good", "tampered", "foreign-key"} {
				site.Serve(variant)
				for _, agent := range append([]string{""}, site.Agents...) {
					cardURL := site.URL + "/.well-known/agent-card.json"
					if agent != "" {
						cardURL = site.URL + "/agents/" + agent + "/.well-known/agent-card.json"
					}
					var stdout, stderr bytes.Buffer
					cmd := exec.Command(bin, cardURL)
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					err := cmd.Run()
					altered := variant == "foreign-key" || (variant == "tampered" && (agent == "" || agent == site.Agents[0]))
					switch {
					case !altered && (err != nil || stdout.String() != names[agent]+"\n"):
						t.Errorf("%s %s: %v, stdout %q, stderr %s", variant, cardURL, err, stdout.String(), stderr.String())
					case altered && err == nil:
						t.Errorf("%s %s: verified (stdout %q)", variant, cardURL, stdout.String())
					case altered && (stdout.Len() != 0 || !strings.Contains(stderr.String(), wantReason[variant])):
						t.Errorf("%s %s: stdout %q, stderr %q: want the reason %q", variant, cardURL, stdout.String(), stderr.String(), wantReason[variant])
					}
				}
			}
		})
	}
}

// wantReason is what a client says of a card of each altered variant.
var wantReason = map[string]string{
	"tampered":    "signature does not verify",
	"foreign-key": "is not among the trusted keys",
}

func prefixed(p string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p + n
	}
	return out
}
