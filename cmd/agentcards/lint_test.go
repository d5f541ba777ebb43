package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/lint"
)

// TestExampleLintsClean: the example manifest, and the site it builds (the
// golden copy), give no lint finding at all, even with -strict.
func TestExampleLintsClean(t *testing.T) {
	for _, target := range []string{"../../agents.toml", "../../testdata/golden/example-site"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"lint", "-strict", target}, &stdout, &stderr, func(string) string { return "" })
		if code != 0 || !strings.Contains(stdout.String(), "lint: 0 errors, 0 warnings in ") || strings.Contains(stdout.String(), "silenced") {
			t.Errorf("lint -strict %s: exit %d\n%s%s", target, code, stdout.String(), stderr.String())
		}
	}
}

// TestBenchCardsLintWithoutErrors: the benchmark's generated agents
// (testdata/bench/gen: realistic descriptions, skills and requests, many
// of them) are ordinary cards, and no safety rule may call any of them an
// error ("cancel all orders" is a request, not an override).
func TestBenchCardsLintWithoutErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 3,000 agents")
	}
	dir := t.TempDir()
	gen := exec.Command("go", "run", "./testdata/bench/gen", "-n", "3000", "-o", dir)
	gen.Dir = filepath.Join("..", "..")
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("bench/gen: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	run([]string{"lint", "-json", filepath.Join(dir, "agents.toml")}, &stdout, &stderr, func(string) string { return "" })
	var rep lintReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if len(rep.Cards) != 3000 || rep.Errors != 0 {
		for _, c := range rep.Cards {
			for _, f := range c.Findings {
				if f.Severity == lint.Error {
					t.Errorf("agent %s: %s %s: %s", c.Agent, f.Rule, f.Path, f.Message)
				}
			}
		}
		t.Fatalf("%d cards, %d errors", len(rep.Cards), rep.Errors)
	}
}
