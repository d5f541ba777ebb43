package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestColumnsFollowIndentation: every problem of every manifest in the
// testscript scenarios, with each line of the manifest indented by two
// spaces, is reported two columns further right, and nothing else about
// it changes. No problem sits at column 1 unless its key or table does.
func TestColumnsFollowIndentation(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "*.txtar"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	checked := 0
	for _, script := range scripts {
		for name, src := range archiveFiles(t, script) {
			if !strings.HasSuffix(name, ".toml") {
				continue
			}
			var want Errors
			if _, err := Parse("m.toml", []byte(src)); !errors.As(err, &want) {
				continue
			}
			var got Errors
			if _, err := Parse("m.toml", []byte(indent(src))); !errors.As(err, &got) || len(got) != len(want) {
				t.Errorf("%s %s: indented, the problems are\n%v\nnot\n%v", filepath.Base(script), name, err, want)
				continue
			}
			for i, w := range want {
				if w.Line > 0 {
					w.Col += 2
				}
				if g := got[i]; g.Line != w.Line || g.Col != w.Col || g.Path != w.Path || g.Msg != w.Msg {
					t.Errorf("%s %s: indented, got\n%s\nwant\n%s", filepath.Base(script), name, g, w)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d problems checked", checked)
	}
}

// indent puts two spaces before each line of TOML source that does not
// continue a multi-line string.
func indent(src string) string {
	lines := strings.Split(src, "\n")
	in := false
	for i, l := range lines {
		opens := (strings.Count(l, `"""`)+strings.Count(l, `'''`))%2 == 1
		if !in && l != "" {
			lines[i] = "  " + l
		}
		if opens {
			in = !in
		}
	}
	return strings.Join(lines, "\n")
}

var archiveHeader = regexp.MustCompile(`(?m)^-- (.+?) --$`)

// archiveFiles is the files of a txtar archive, by name.
func archiveFiles(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	out := map[string]string{}
	marks := archiveHeader.FindAllStringSubmatchIndex(s, -1)
	for i, m := range marks {
		end := len(s)
		if i+1 < len(marks) {
			end = marks[i+1][0]
		}
		body := s[min(m[1]+1, end):end]
		out[s[m[2]:m[3]]] = body
	}
	return out
}
