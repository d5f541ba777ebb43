package site

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestReportProjectedEveryBuild checks that the report names the fields
// the SDK projection leaves out of every agent's cards whether the build
// makes them (first build), copies them from the live output (second) or
// keeps them in the standby tree (third).
func TestReportProjectedEveryBuild(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 6)
	out := filepath.Join(t.TempDir(), "public")
	var first map[string][]string
	for i, how := range []string{"made", "copied", "kept"} {
		rep, err := p.build(out)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = rep.Projected
			if len(first) != 3 {
				t.Fatalf("%s: projected %v, want the 3 agents with an empty security requirement", how, first)
			}
			continue
		}
		if !reflect.DeepEqual(rep.Projected, first) {
			t.Errorf("%s: projected %v, want %v", how, rep.Projected, first)
		}
	}
}
