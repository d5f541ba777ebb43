package templates

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCompiled: the built-in pages are compiled (package htmlexec); an
// override gets a compiled program when it compiles, and html/template
// otherwise, which gives the same bytes and errors.
func TestCompiled(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Pages {
		if !s.Compiled(p) {
			t.Errorf("%s is not compiled", p)
		}
	}
	type data struct{ Title, Root string }
	layout := `{{define "layout"}}<title>{{.Title}}</title><a href="{{.Root}}x">{{template "content" .}}</a>{{end}}`
	for _, tc := range []struct {
		name, agent string
		compiled    bool
	}{
		{"compiles", `{{define "content"}}<p title="{{.Title}}">{{.Title}}</p>{{end}}`, true},
		{"unknown function", `{{define "content"}}<p>{{printf "%q" .Title}}</p>{{end}}`, false},
		{"cannot be escaped", `{{define "content"}}<p title="{{.Title}}{{end}}`, false},
		{"no content", `{{define "other"}}{{end}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "layout.html"), []byte(layout), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "agent.html"), []byte(tc.agent), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Compiled("agent.html"); got != tc.compiled {
				t.Fatalf("compiled %v, want %v", got, tc.compiled)
			}
			d := &data{Title: `"quoted" <b>`, Root: "../../"}
			var got, want bytes.Buffer
			gerr := s.Execute(&got, "agent.html", d)
			werr := s.Page("agent.html").ExecuteTemplate(&want, "layout", d)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("Execute: %q (%v)\nhtml/template: %q (%v)", got.Bytes(), gerr, want.Bytes(), werr)
			}
			if tc.compiled && want.Len() == 0 {
				t.Error("nothing rendered")
			}
		})
	}
}
