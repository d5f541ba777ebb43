package lintrule_test

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/lintrule"
)

// TestIDs: every id is listed once, in the lower-case, hyphenated form
// that output and agents.toml spell, and IDs hands out a copy.
func TestIDs(t *testing.T) {
	ids := lintrule.IDs()
	if len(ids) == 0 {
		t.Fatal("no rule ids")
	}
	form := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, id := range ids {
		if !form.MatchString(id) {
			t.Errorf("rule id %q is not lower-case words joined by hyphens", id)
		}
		if seen[id] {
			t.Errorf("rule id %q is listed twice", id)
		}
		seen[id] = true
	}
	ids[0] = "changed"
	if lintrule.IDs()[0] == "changed" {
		t.Error("IDs returns the package's own slice")
	}
}

// TestKnown: each listed id is known; anything else is not, a near miss,
// another case or the empty id included.
func TestKnown(t *testing.T) {
	for _, id := range lintrule.IDs() {
		if !lintrule.Known(id) {
			t.Errorf("Known(%q) = false for a listed id", id)
		}
	}
	for _, id := range []string{"", "prompt-injections", "Prompt-Injection", "prompt_injection", " no-security"} {
		if lintrule.Known(id) {
			t.Errorf("Known(%q) = true", id)
		}
	}
}

// TestNoDependencies: the vocabulary imports nothing of this module, so
// that any package may use it without pulling in the linter.
func TestNoDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if want := []string{"github.com/agentcards/agentcards/internal/lintrule"}; !slices.Equal(deps, want) {
		t.Errorf("lintrule depends on %v, want only itself", deps)
	}
}
