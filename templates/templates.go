// Package templates embeds the html/template files and static assets the
// site is rendered with. A file of the same name in the templates/ folder
// beside agents.toml overrides the embedded one.
package templates

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"path/filepath"

	"github.com/agentcards/agentcards/internal/htmlexec"
	"github.com/agentcards/agentcards/internal/regular"
)

//go:embed *.html *.css *.js *.svg
var files embed.FS

// Pages are the page templates; each is parsed with layout.html.
var Pages = []string{"index.html", "agent.html", "page.html", "404.html", "mcp.html", "keys.html", "catalog.html"}

// Assets are copied to the site root as they are.
var Assets = []string{"style.css", "search.js", "copy.js", "signature.js", "favicon.svg"}

// Set is the templates and assets for one build.
type Set struct {
	pages map[string]*template.Template
	// compiled are the pages whose templates package htmlexec compiles.
	compiled map[string]*htmlexec.Template
	assets   map[string][]byte
	digest   []byte
	// Overridden lists the files taken from the override folder.
	Overridden []string
}

// Load parses the embedded templates, each replaced by dir/<name> when that
// file exists (dir may be ""). dir must be a real folder holding no
// symbolic links (package regular).
func Load(dir string) (*Set, error) {
	s := &Set{pages: map[string]*template.Template{}, compiled: map[string]*htmlexec.Template{}, assets: map[string][]byte{}}
	if dir != "" {
		// What the folder holds is published: no symbolic links in it.
		if _, err := regular.ReadDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	h := sha256.New()
	read := func(name string) ([]byte, error) {
		b, err := readFile(dir, name, s)
		if err == nil {
			fmt.Fprintf(h, "%s %d\n", name, len(b))
			h.Write(b)
		}
		return b, err
	}
	layout, err := read("layout.html")
	if err != nil {
		return nil, err
	}
	for _, p := range Pages {
		src, err := read(p)
		if err != nil {
			return nil, err
		}
		t, err := template.New("layout.html").Parse(string(layout))
		if err != nil {
			return nil, templateError("layout.html", dir, err)
		}
		if _, err := t.New(p).Parse(string(src)); err != nil {
			return nil, templateError(p, dir, err)
		}
		s.pages[p] = t
		// The set has no functions of its own (Funcs) and no Option, as
		// htmlexec requires: it knows html/template's defaults only.
		// A page whose templates do not compile is rendered by
		// html/template alone, which reports the error of one that
		// cannot be escaped when the page is rendered, as it always did.
		if c, err := htmlexec.Compile(t, "layout"); err == nil {
			s.compiled[p] = c
		}
	}
	for _, a := range Assets {
		b, err := read(a)
		if err != nil {
			return nil, err
		}
		s.assets[a] = b
	}
	s.digest = h.Sum(nil)
	return s, nil
}

// readFile reads a template or asset: dir/name when it exists, else the
// built-in one.
func readFile(dir, name string, s *Set) ([]byte, error) {
	if dir != "" {
		b, err := regular.ReadFile(filepath.Join(dir, name))
		if err == nil {
			s.Overridden = append(s.Overridden, name)
			return b, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return files.ReadFile(name)
}

// Digest identifies every template and asset of the set (a SHA-256).
func (s *Set) Digest() []byte { return s.digest }

func templateError(name, dir string, err error) error {
	if dir != "" {
		return errors.New(filepath.Join(dir, name) + " (or the built-in one): " + err.Error())
	}
	return err
}

// Page returns the template set for a page; execute "layout".
func (s *Set) Page(name string) *template.Template { return s.pages[name] }

// Compiled reports whether the page name renders by a compiled program:
// whether its templates compile.
func (s *Set) Compiled(name string) bool { return s.compiled[name] != nil }

// Execute renders the page name with data into buf: what
// Page(name).ExecuteTemplate(buf, "layout", data) writes and returns, by
// the page's compiled program when its templates compile (package
// htmlexec).
func (s *Set) Execute(buf *bytes.Buffer, name string, data any) error {
	if c := s.compiled[name]; c != nil {
		return c.Execute(buf, data)
	}
	return s.pages[name].ExecuteTemplate(buf, "layout", data)
}

// Asset returns a static asset's bytes.
func (s *Set) Asset(name string) []byte { return s.assets[name] }

// EmbeddedFiles are the embedded templates and assets by name: what a
// site built with them may show whatever its manifest says.
func EmbeddedFiles() map[string][]byte {
	out := map[string][]byte{}
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		b, _ := fs.ReadFile(files, e.Name())
		out[e.Name()] = b
	}
	return out
}
