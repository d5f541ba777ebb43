package site

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/leak"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/templates"
)

// privateOnly is the text that only the extended cards of agents hold, the
// private text the public site at baseURL must not show: prose, and
// identifiers and URLs.
func privateOnly(agents []*manifest.Agent, baseURL string) (prose, ids []string) {
	for _, a := range agents {
		pub := cardText(a)
		public := map[string]bool{}
		for _, s := range append(pub.prose, pub.ids...) {
			public[s] = true
		}
		private := func(s string) bool {
			return !public[s] && !strings.HasPrefix(s, baseURL+"/") && s != baseURL
		}
		for _, ec := range a.ExtendedCards() {
			t := cardText(ec.Agent)
			for _, s := range t.prose {
				if private(s) {
					prose = append(prose, s)
				}
			}
			for _, s := range t.ids {
				if private(s) {
					ids = append(ids, s)
				}
			}
		}
	}
	slices.Sort(prose)
	slices.Sort(ids)
	return slices.Compact(prose), slices.Compact(ids)
}

// agentText is the text of an agent a reader could recognise as its own.
type agentText struct {
	prose []string // names, descriptions (and each of their lines and sentences), examples
	ids   []string // skill ids, URLs, extension URIs, tenants
}

// cardText is an agent's agentText. Tags, media types, versions, scheme
// and scope names are left out: they are words any page may hold.
func cardText(a *manifest.Agent) agentText {
	var t agentText
	id := func(s ...string) {
		for _, x := range s {
			if x != "" {
				t.ids = append(t.ids, x)
			}
		}
	}
	text := func(s string) {
		if s != "" {
			t.prose = append(t.prose, leak.Pieces(s)...)
		}
	}
	text(a.Name)
	id(a.DocumentationURL, a.IconURL)
	text(a.Description)
	if a.Provider != nil {
		text(a.Provider.Organization)
		id(a.Provider.URL)
	}
	for _, in := range a.SupportedInterfaces {
		id(in.URL, in.Tenant)
	}
	for _, e := range a.Capabilities.Extensions {
		id(e.URI)
		text(e.Description)
		collectStrings(reflect.ValueOf(e.Params), func(s string) { text(s) })
	}
	for _, s := range a.SecuritySchemes {
		text(s.Description)
		id(s.OAuth2MetadataURL, s.OpenIDConnectURL)
		if f := s.Flows; f != nil {
			if c := f.AuthorizationCode; c != nil {
				id(c.AuthorizationURL, c.TokenURL, c.RefreshURL)
			}
			if c := f.ClientCredentials; c != nil {
				id(c.TokenURL, c.RefreshURL)
			}
			if c := f.DeviceCode; c != nil {
				id(c.DeviceAuthorizationURL, c.TokenURL, c.RefreshURL)
			}
		}
		for _, d := range s.Scopes() {
			text(d)
		}
	}
	for _, s := range a.Skills {
		id(s.ID)
		text(s.Name)
		text(s.Description)
		for _, e := range s.Examples {
			text(e)
		}
	}
	return t
}

// collectStrings calls add with every string v holds, at any depth,
// except in an agent's overlay.
func collectStrings(v reflect.Value, add func(string)) {
	switch v.Kind() {
	case reflect.String:
		add(v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectStrings(v.Elem(), add)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.Type == reflect.TypeFor[*manifest.Extended]() || !f.IsExported() || unpublished(f) {
				continue
			}
			collectStrings(v.Field(i), add)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectStrings(v.Index(i), add)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			collectStrings(iter.Key(), add)
			collectStrings(iter.Value(), add)
		}
	}
}

// unpublished reports whether a manifest field is never shown on the
// site: where the manifest and its folders are (Dir, Path, output, keys,
// privateOutput, an MCP snapshot's file and its serverInfo), and lint
// silences and their reasons.
func unpublished(f reflect.StructField) bool {
	if f.Name == "ServerInfo" {
		return true // an MCP snapshot's serverInfo: no page shows it
	}
	switch f.Tag.Get("toml") {
	case "-", "output", "keys", "privateOutput", "tools", "lint":
		return f.Name != "Snapshot"
	}
	return false
}

// PrivateLeakError is text only extended cards hold, found in what the
// build would publish.
type PrivateLeakError struct {
	// Found maps each file (relative to the output folder, or a site/
	// source) to the private strings it holds.
	Found map[string][]string
}

// Error lists up to ten files with the private text each holds, and what
// to do.
func (e *PrivateLeakError) Error() string {
	var b strings.Builder
	files := slices.Sorted(maps.Keys(e.Found))
	fmt.Fprintf(&b, "text that only extended cards hold would be published, so the build stopped and published nothing:")
	for i, f := range files {
		if i == 10 {
			fmt.Fprintf(&b, "\n  (and %d more files)", len(files)-10)
			break
		}
		quoted := make([]string, len(e.Found[f]))
		for j, s := range e.Found[f] {
			quoted[j] = fmt.Sprintf("%q", s)
		}
		fmt.Fprintf(&b, "\n  %s: %s", f, strings.Join(quoted, ", "))
	}
	b.WriteString("\nremove it from where that file comes from (site/ Markdown, templates/, the public part of agents.toml), or, if it is not private, put it in the public part of the agent too")
	return b.String()
}

// checkLeaks looks for private text (privateOnly) in every file of the
// public tree and in the site/ Markdown it is made from, as written and as
// a reader sees it (leak.Text). Text found that some published part of
// the site holds too, as a whole word (another agent, the built-in
// templates' own words: dropPublic), is not private after all; anything
// else fails the build. When the tree was last found
// free of the same private text, only the files this build wrote are
// read. It returns how many files of the tree it read.
func (b *builder) checkLeaks() (scanned int, err error) {
	agents := b.extended.agents
	if len(agents) == 0 {
		return 0, nil
	}
	prose, ids := privateOnly(agents, b.m.Site.BaseURL)
	finder := leak.New(prose, ids)
	if finder.Len() == 0 {
		return 0, nil
	}
	textKey := privateTextKey(prose, ids)
	finds := &leakFinds{finder: finder, found: map[string][]string{}}
	for name, src := range b.site.sources {
		finds.look(name, src)
	}
	paths, err := b.tree.leakPaths(textKey)
	if err != nil {
		return 0, err
	}
	if err := finds.readAll(b.tree.root, paths); err != nil {
		return len(paths), err
	}
	if err := b.dropPublic(finds.found); err != nil {
		return len(paths), err
	}
	if len(finds.found) > 0 {
		return len(paths), &PrivateLeakError{Found: finds.found}
	}
	b.tree.markClean(textKey)
	return len(paths), nil
}

// privateTextKey is the key of the private text: its prose and ids.
func privateTextKey(prose, ids []string) key {
	parts := [][]byte{[]byte("prose")}
	for _, p := range prose {
		parts = append(parts, []byte(p))
	}
	parts = append(parts, []byte("ids"))
	for _, p := range ids {
		parts = append(parts, []byte(p))
	}
	return hashParts(parts...)
}

// leakPaths are the files of the tree the leak check reads: only those
// this build wrote when the tree was last found free of the same private
// text (textKey), else every file.
func (t *tree) leakPaths(textKey key) ([]string, error) {
	if t.keepsWritten() && t.cleanBefore == textKey {
		return slices.Clone(t.written), nil
	}
	var paths []string
	err := filepath.WalkDir(t.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(t.root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	return paths, err
}

// leakFinds are the private strings found so far, by file, gathered from
// many goroutines.
type leakFinds struct {
	finder *leak.Finder
	mu     sync.Mutex
	found  map[string][]string
}

// look reads one file as written and as a reader sees it.
func (f *leakFinds) look(name string, data []byte) {
	strs := f.finder.Find(data)
	for _, s := range f.finder.Find(leak.Text(name, data)) {
		if !slices.Contains(strs, s) {
			strs = append(strs, s)
		}
	}
	if len(strs) > 0 {
		f.mu.Lock()
		f.found[name] = strs
		f.mu.Unlock()
	}
}

// readAll looks at the files paths of the tree at root, on every core;
// a file gone since it was written (pruned) is skipped.
func (f *leakFinds) readAll(root string, paths []string) error {
	var wg sync.WaitGroup
	next := make(chan string)
	errs := make(chan error, 1)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for rel := range next {
				data, err := regular.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
				if errors.Is(err, fs.ErrNotExist) {
					continue // written, then pruned
				}
				if err != nil {
					select {
					case errs <- err:
					default:
					}
					continue
				}
				f.look(rel, data)
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// dropPublic drops from found the text the public site holds anyway
// (publicText), and the files left with none.
func (b *builder) dropPublic(found map[string][]string) error {
	if len(found) == 0 {
		return nil
	}
	public, err := b.publicText()
	if err != nil {
		return err
	}
	for f, strs := range found {
		strs = slices.DeleteFunc(strs, public.Holds)
		if len(strs) == 0 {
			delete(found, f)
		} else {
			found[f] = strs
		}
	}
	return nil
}

// publicText is the text the public output holds whatever its Markdown
// and template overrides say: each agent's public part and the head of the
// manifest, but for what never reaches the site (where its folders are,
// lint silences), and the built-in templates and assets the build uses,
// without their template actions.
func (b *builder) publicText() (*leak.Public, error) {
	var strs []string
	add := func(s string) { strs = append(strs, s) }
	head := *b.m
	head.Agents = nil
	collectStrings(reflect.ValueOf(head), add)
	for i := range b.src.Len() {
		raw, err := b.src.Raw(i)
		if err != nil {
			return nil, err
		}
		a, problems := b.src.Agent(i, raw)
		if problems != nil {
			return nil, problems
		}
		collectStrings(reflect.ValueOf(a), add)
	}
	for name, data := range templates.EmbeddedFiles() {
		if b.pages != nil && slices.Contains(b.pages.tpl.Overridden, name) {
			continue // the site shows the override, which is what is checked
		}
		if strings.HasSuffix(name, ".html") {
			data = templateActions.ReplaceAll(data, []byte(" "))
		}
		add(string(data))
		add(string(leak.Text(name, data)))
	}
	return leak.NewPublic(strs), nil
}

// templateActions are the actions and comments of an html/template:
// what they write is the manifest's, not the template's.
var templateActions = regexp.MustCompile(`(?s)\{\{.*?\}\}`)
