package lint_test

import (
	"slices"
	"testing"

	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/lintrule"
)

// TestRulesDescribeEveryID: lint describes each rule id of package
// lintrule once, in lintrule's order, and Lookup finds each of them.
func TestRulesDescribeEveryID(t *testing.T) {
	var ids []string
	for _, r := range lint.Rules() {
		ids = append(ids, r.ID)
		if r.Finds == "" || r.Fix == "" || r.Severity == "" || r.Category == "" {
			t.Errorf("rule %s is not fully described: %+v", r.ID, r)
		}
		if got, ok := lint.Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%q) = %v, %v", r.ID, got.ID, ok)
		}
	}
	if want := lintrule.IDs(); !slices.Equal(ids, want) {
		t.Errorf("lint's rules are %v,\nlintrule's ids are %v", ids, want)
	}
}
