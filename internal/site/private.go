package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
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
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/templates"
)

// Files of the private output, the folder of extended cards
// (site.privateOutput): agents/<id>/ holds each agent's extended cards.
const (
	// ExtendedCardFile is an agent's extended card (A2A v1.0), what its
	// server returns from GetExtendedAgentCard.
	ExtendedCardFile = "extended-agent-card.json"
	// ExtendedLegacyFile is the same card in the v0.3.0 shape, for
	// agent/getAuthenticatedExtendedCard.
	ExtendedLegacyFile = "extended-agent.json"
	// privateIgnore keeps the folder out of git wherever it is.
	privateIgnore = ".gitignore"
)

// privateIgnoreText is the .gitignore of the private output.
var privateIgnoreText = []byte("# Written by agentcards build: extended cards are for authenticated callers only.\n# Never commit or publish this folder; deploy it with the agent's server.\n*\n")

// ExtendedFile is the path, relative to the private output, of agent
// id's extended card for tier ("" for the card of [agents.extended]
// itself), in the v1.0 shape or, when legacy is set, the v0.3.0 one.
func ExtendedFile(id, tier string, legacy bool) string {
	name := ExtendedCardFile
	if legacy {
		name = ExtendedLegacyFile
	}
	if tier != "" {
		name = strings.TrimSuffix(name, ".json") + "." + tier + ".json"
	}
	return "agents/" + id + "/" + name
}

// noteExtended records an agent with extended cards, decoding it when the
// build did not need to.
func (b *builder) noteExtended(mem *member, mu *sync.Mutex, res *groupResult) bool {
	if mem.agent == nil && !b.decode(mem, mu, res) {
		return false
	}
	b.mu.Lock()
	b.extended = append(b.extended, mem.agent)
	b.mu.Unlock()
	return true
}

// extendedFiles signs every extended card of the site: the private
// output's files by path, with the .gitignore; nil when no agent has one.
func (b *builder) extendedFiles() (map[string][]byte, error) {
	if len(b.extended) == 0 {
		return nil, nil
	}
	slices.SortFunc(b.extended, func(x, y *manifest.Agent) int { return strings.Compare(x.ID, y.ID) })
	files := map[string][]byte{privateIgnore: privateIgnoreText}
	for _, a := range b.extended {
		for _, ec := range a.ExtendedCards() {
			b.extendedCount++
			cards, err := signedCards(b.m, b.opts.Signers, ec.Agent)
			if err != nil {
				return nil, fmt.Errorf("agent %q: extended card %s: %w", a.ID, tierName(ec.Tier), err)
			}
			files[ExtendedFile(a.ID, ec.Tier, false)] = cards.cardJSON
			files[ExtendedFile(a.ID, ec.Tier, true)] = cards.legacyJSON
		}
	}
	return files, nil
}

func tierName(t string) string {
	if t == "" {
		return "[extended]"
	}
	return "tier " + t
}

// privateOnly is the text that only the extended cards hold, the private
// text the public site must not show: prose, and identifiers and URLs.
func (b *builder) privateOnly() (prose, ids []string) {
	for _, a := range b.extended {
		pub := cardText(a)
		public := map[string]bool{}
		for _, s := range append(pub.prose, pub.ids...) {
			public[s] = true
		}
		private := func(s string) bool {
			return !public[s] && !strings.HasPrefix(s, b.m.Site.BaseURL+"/") && s != b.m.Site.BaseURL
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
// read.
func (b *builder) checkLeaks() error {
	if len(b.extended) == 0 {
		return nil
	}
	prose, ids := b.privateOnly()
	finder := leak.New(prose, ids)
	if finder.Len() == 0 {
		return nil
	}
	parts := [][]byte{[]byte("prose")}
	for _, p := range prose {
		parts = append(parts, []byte(p))
	}
	parts = append(parts, []byte("ids"))
	for _, p := range ids {
		parts = append(parts, []byte(p))
	}
	textKey := hashParts(parts...)
	found := map[string][]string{}
	var mu sync.Mutex
	// look reads one file as written and as a reader sees it.
	look := func(name string, data []byte) {
		strs := finder.Find(data)
		for _, s := range finder.Find(leak.Text(name, data)) {
			if !slices.Contains(strs, s) {
				strs = append(strs, s)
			}
		}
		if len(strs) > 0 {
			mu.Lock()
			found[name] = strs
			mu.Unlock()
		}
	}
	for name, src := range b.site.sources {
		look(name, src)
	}
	var paths []string
	if b.tree.cleanBefore == textKey && !b.tree.fresh {
		paths = slices.Clone(b.tree.written)
	} else {
		err := filepath.WalkDir(b.tree.root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				rel, _ := filepath.Rel(b.tree.root, p)
				paths = append(paths, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var wg sync.WaitGroup
	next := make(chan string)
	errs := make(chan error, 1)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for rel := range next {
				data, err := regular.ReadFile(filepath.Join(b.tree.root, filepath.FromSlash(rel)))
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
				look(rel, data)
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	b.leakScanned = len(paths)
	select {
	case err := <-errs:
		return err
	default:
	}
	if err := b.dropPublic(found); err != nil {
		return err
	}
	if len(found) > 0 {
		return &PrivateLeakError{Found: found}
	}
	b.tree.mu.Lock()
	b.tree.st.Clean = textKey
	b.tree.mu.Unlock()
	return nil
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

// privateOutput is a private output folder about to be replaced.
type privateOutput struct {
	dir     string // the folder (a real path)
	owner   string // ownerFile's first line for this manifest
	next    string // the new tree, written beside dir; "" when none
	existed bool   // dir held a previous private output
	swapped bool
}

// openPrivate looks at the private output folder dir (a real path), whose
// parent the build has locked if it existed. When the site has extended
// cards (needed), dir must not overlap the public output or the folders a
// build keeps beside it, hold the manifest or the keys folder, or exist
// without being a private output a build of this manifest wrote. When it
// has none, a private output this manifest's builds wrote there is to be
// removed, and anything else there is none of the build's business. out,
// manifestDir and keysDir are real paths; manifest is the manifest's file.
func openPrivate(dir, out, manifestDir, keysDir, manifest string, needed bool) (*privateOutput, error) {
	p := &privateOutput{dir: dir, owner: ownerLine(dir, manifest)}
	st, err := os.Lstat(dir)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	overlap := overlapsOutput(dir, out)
	if !needed {
		if !exists || overlap != "" || !st.IsDir() || p.foreign() != "" {
			return p, nil
		}
	}
	if err := privateConflict(dir, out, manifestDir, keysDir); err != nil {
		return nil, err
	}
	if exists && !st.IsDir() {
		return nil, fmt.Errorf("private output folder %s is not a folder; move it away or choose another (site.privateOutput)", dir)
	}
	if exists {
		if why := p.foreign(); why != "" {
			return nil, fmt.Errorf("private output folder %s %s; move it away or choose another folder (site.privateOutput): a build replaces the whole folder", dir, why)
		}
	}
	p.existed = exists
	parent := filepath.Dir(dir)
	if _, err := os.Stat(parent); errors.Is(err, fs.ErrNotExist) {
		// Not there when the build took its locks: nothing can be in it.
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return nil, err
		}
	}
	removeStale(dir)
	return p, nil
}

// privateConflict refuses a private output folder dir (a real path) that
// overlaps the public output out or the folders a build keeps beside it,
// or holds the manifest's folder or the keys folder.
func privateConflict(dir, out, manifestDir, keysDir string) error {
	if overlap := overlapsOutput(dir, out); overlap != "" {
		return fmt.Errorf("private output folder %s %s: extended cards must never be inside what is published; set site.privateOutput to a folder beside the public one (default \"private\")", dir, overlap)
	}
	for _, in := range []struct{ dir, what string }{{manifestDir, "the manifest"}, {keysDir, "the keys folder (site.keys)"}} {
		if within(in.dir, dir) {
			return fmt.Errorf("private output folder %s holds %s, which a build would delete; choose a folder of its own (site.privateOutput)", dir, in.what)
		}
	}
	return nil
}

// overlapsOutput says how dir overlaps the public output out or the
// folders a build keeps beside it (.out.standby, .out.state, .out.build-*),
// "" when it does not.
func overlapsOutput(dir, out string) string {
	if within(out, dir) || within(dir, out) {
		return "and the output folder " + out + " overlap"
	}
	if rel, err := filepath.Rel(filepath.Dir(out), dir); err == nil && !strings.HasPrefix(rel, "..") {
		first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		if strings.HasPrefix(first, "."+filepath.Base(out)+".") {
			return "is inside " + filepath.Join(filepath.Dir(out), first) + ", which a build of " + out + " keeps and swaps in"
		}
	}
	return ""
}

// ownerFile names, in a private output, the manifest whose builds write
// it (as a path from the folder, so that a project copied elsewhere is
// still its own), then every file the last build wrote there.
const ownerFile = ".agentcards-owner"

// ownerLine is the first line of ownerFile for the private output dir of
// a manifest's file ("" when read from memory).
func ownerLine(dir, manifest string) string {
	if manifest == "" {
		return "extended cards built from a manifest read from memory"
	}
	if real, err := realPath(manifest); err == nil {
		manifest = real
	}
	if rel, err := filepath.Rel(dir, manifest); err == nil {
		manifest = filepath.ToSlash(rel)
	}
	return "extended cards built from " + manifest
}

// foreign says why the folder is not a private output this manifest's
// builds wrote, "" when it is: only our .gitignore, the owner file naming
// this manifest, and the files it lists, in agents/<id>/ folders.
func (p *privateOutput) foreign() string {
	ignore, err := regular.ReadFile(filepath.Join(p.dir, privateIgnore))
	if err != nil || !bytes.Equal(ignore, privateIgnoreText) {
		return "exists and is not one agentcards wrote (no .gitignore of ours)"
	}
	owner, err := regular.ReadFile(filepath.Join(p.dir, ownerFile))
	if err != nil {
		return "exists and is not one agentcards wrote (no " + ownerFile + ")"
	}
	lines := strings.Split(strings.TrimSuffix(string(owner), "\n"), "\n")
	if lines[0] != p.owner {
		return "holds " + lines[0] + ", not this manifest's: give each manifest a site.privateOutput of its own"
	}
	listed := map[string]bool{}
	for _, l := range lines[1:] {
		listed[l] = true
	}
	why := ""
	filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			why = "cannot be read: " + err.Error()
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(p.dir, path)
		rel = filepath.ToSlash(rel)
		parts := strings.Split(rel, "/")
		ok := false
		switch {
		case rel == ".":
			ok = true
		case len(parts) == 1:
			ok = (rel == privateIgnore || rel == ownerFile) && d.Type().IsRegular() || rel == "agents" && d.IsDir()
		case len(parts) == 2:
			ok = parts[0] == "agents" && d.IsDir() && validSlug(parts[1])
		case len(parts) == 3:
			ok = listed[rel] && d.Type().IsRegular()
		}
		if !ok {
			why = "holds " + rel + ", which a build did not write"
			return filepath.SkipAll
		}
		return nil
	})
	return why
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// prepare writes files, the new private output, beside the folder; with
// no files, the folder (if it is there) is to be removed.
func (p *privateOutput) prepare(files map[string][]byte, secrets *secret.Scanner) error {
	if files == nil && !p.existed {
		return nil
	}
	next, err := os.MkdirTemp(filepath.Dir(p.dir), buildPrefix(p.dir))
	if err != nil {
		return err
	}
	p.next = next
	if files != nil {
		owner := p.owner + "\n"
		for _, rel := range slices.Sorted(maps.Keys(files)) {
			if rel != privateIgnore {
				owner += rel + "\n"
			}
		}
		files = maps.Clone(files)
		files[ownerFile] = []byte(owner)
	}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(next, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			p.discard()
			return err
		}
		if f, found := secrets.Scan(path, files[rel]); found {
			p.discard()
			return &LeakError{File: "private output " + rel, Found: f}
		}
		if err := os.WriteFile(path, files[rel], 0o600); err != nil {
			p.discard()
			return err
		}
	}
	return nil
}

// swap puts the new private output in place.
func (p *privateOutput) swap() error {
	if p.next == "" {
		return nil
	}
	if err := exchangeTrees(p.next, p.dir); err != nil {
		return err
	}
	p.swapped = true
	return nil
}

// undo puts the previous private output back after swap.
func (p *privateOutput) undo() error {
	if !p.swapped {
		return nil
	}
	var err error
	if p.existed {
		err = exchange(p.next, p.dir)
	} else {
		err = os.Rename(p.dir, p.next)
	}
	if err == nil {
		p.swapped = false
	}
	return err
}

// finish removes what is left beside the folder: the previous output, or
// the new one that was never swapped in; and the folder itself when the
// site has no extended cards any more.
func (p *privateOutput) finish(empty bool) error {
	if p.next == "" {
		return nil
	}
	if err := os.RemoveAll(p.next); err != nil {
		return err
	}
	if empty && p.swapped {
		return os.Remove(p.dir)
	}
	return nil
}

// discard removes the new tree without swapping it in.
func (p *privateOutput) discard() {
	if p.next != "" && !p.swapped {
		os.RemoveAll(p.next)
	}
}
