package manifest

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies: the manifest knows the lint rule ids from lintrule and
// never imports the linter itself (go list -deps is the proof), nor
// anything downstream of the manifest.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/agentcards/agentcards/internal/"
	deps := strings.Fields(string(out))
	seen := map[string]bool{}
	for _, p := range deps {
		seen[p] = true
	}
	for _, never := range []string{"lint", "compose", "site", "build", "keyring", "verify", "importer", "preview"} {
		if seen[mod+never] {
			t.Errorf("the manifest depends on %s", mod+never)
		}
	}
	if !seen[mod+"lintrule"] || !seen[mod+"manifest"] {
		t.Errorf("go list found only %v", deps)
	}
}
