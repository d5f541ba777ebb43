package main

import (
	"bytes"
	"strings"
	"testing"
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
