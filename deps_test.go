package agentcards

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies: the public package pulls in the standard library,
// go-jose and jcs, and of this module only the wire format and the
// verifying path: never the manifest, the site, the keyring or the
// importer (go list -deps is the proof).
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/agentcards/agentcards"
	// Never manifest, site, keyring, importer, compose or lint.
	allowed := map[string]bool{
		mod: true, mod + "/internal/card": true, mod + "/internal/fetch": true, mod + "/internal/sign": true,
		mod + "/internal/trust": true, mod + "/internal/secret": true, mod + "/internal/regular": true,
		mod + "/internal/terminal": true, mod + "/internal/layout": true, "github.com/gowebpki/jcs": true,
		// secret's expressions run through it; it needs only the standard
		// library.
		mod + "/internal/prefilter": true, mod + "/internal/ascii": true,
		// How the wire format writes JSON strings; standard library only.
		mod + "/internal/jsonstr": true,
	}
	var deps []string
	for _, p := range strings.Fields(string(out)) {
		deps = append(deps, p)
		if !allowed[p] && !strings.HasPrefix(p, "github.com/go-jose/go-jose/v4") {
			t.Errorf("the public package depends on %s", p)
		}
	}
	if len(deps) < 3 {
		t.Errorf("go list found only %v", deps)
	}
}
