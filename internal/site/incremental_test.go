package site

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/verify"
)

// smallGroups makes groups of 4 agents and pages of 2 for the test, and
// cuts every site into groups, so that a few agents exercise nested
// catalogs, shards and pagination.
func smallGroups(t *testing.T) {
	g, f, p := groupSize, flatMax, pageSize
	groupSize, flatMax, pageSize = 4, 0, 2
	t.Cleanup(func() { groupSize, flatMax, pageSize = g, f, p })
}

// TestGroupsHoldWholePages guards the layout: a page of the front list
// shared by two groups would be rewritten by both, so that no build could
// keep it and every change would redo the listings of both groups.
func TestGroupsHoldWholePages(t *testing.T) {
	if GroupSize%PageSize != 0 || FlatMax%PageSize != 0 || groupSize%pageSize != 0 {
		t.Fatalf("GroupSize %d or FlatMax %d is not a multiple of PageSize %d", GroupSize, FlatMax, PageSize)
	}
}

// project is a manifest folder with what a build reads.
type project struct {
	t       *testing.T
	dir     string
	toml    string
	keys    *sign.KeySet
	signers []crypto.Signer
	secrets *secret.Scanner
}

func newProject(t *testing.T, agents int) *project {
	t.Helper()
	p := &project{t: t, dir: t.TempDir(), toml: generatedManifest(agents)}
	ks, err := sign.LoadKeySet(testKeysDir + "/public")
	if err != nil {
		t.Fatal(err)
	}
	p.keys = ks
	data, err := os.ReadFile(filepath.Join(testKeysDir, "test-ed25519.pem"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := sign.ParsePrivatePEM(data)
	if err != nil {
		t.Fatal(err)
	}
	p.signers = k
	return p
}

func (p *project) write(rel, data string) {
	p.t.Helper()
	path := filepath.Join(p.dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// build builds the project into out.
func (p *project) build(out string) (*Report, error) {
	p.t.Helper()
	p.write("agents.toml", p.toml)
	src, err := manifest.Open(filepath.Join(p.dir, "agents.toml"))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var signers []*sign.Signer
	for _, k := range p.signers {
		s, err := sign.NewSigner(k, sign.EdDSA, JWKSURL(src.Head))
		if err != nil {
			p.t.Fatal(err)
		}
		signers = append(signers, s)
	}
	return Build(Options{Source: src, OutDir: out, Keys: p.keys, Signers: signers, Secrets: p.secrets})
}

// sameAsClean builds the project into out (incrementally) and into a new
// folder (from nothing) and checks that the trees are byte-identical.
func (p *project) sameAsClean(out, step string) {
	p.t.Helper()
	if _, err := p.build(out); err != nil {
		p.t.Fatalf("%s: incremental build: %v", step, err)
	}
	clean := filepath.Join(p.t.TempDir(), "public")
	if _, err := p.build(clean); err != nil {
		p.t.Fatalf("%s: clean build: %v", step, err)
	}
	got, want := readTree(p.t, out), readTree(p.t, clean)
	checkSums(p.t, step, got)
	for name, b := range want {
		if g, ok := got[name]; !ok {
			p.t.Errorf("%s: %s missing from the incremental build", step, name)
		} else if !bytes.Equal(g, b) {
			p.t.Errorf("%s: %s is stale in the incremental build", step, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			p.t.Errorf("%s: %s is left over in the incremental build", step, name)
		}
	}
}

// TestIncrementalEqualsClean changes each kind of input in turn and checks
// that the incremental build's tree is byte-identical to a clean build's:
// nothing stale is ever served, and nothing is left over.
func TestIncrementalEqualsClean(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 8)
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "first build")
	p.sameAsClean(out, "no change (standby still empty)")
	p.sameAsClean(out, "no change")

	steps := []struct {
		name   string
		change func()
	}{
		{"one description", func() {
			p.toml = strings.Replace(p.toml, "Generated agent number 4 ", "Changed agent number 4 ", 1)
		}},
		{"a skill of one agent", func() { p.toml = strings.Replace(p.toml, `name = "Skill 3"`, `name = "Skill three"`, 1) }},
		{"an agent added", func() { p.toml = generatedManifest(9) }},
		{"agents removed", func() { p.toml = generatedManifest(5) }},
		{"agents reordered", func() {
			parts := strings.Split(p.toml, "\n[[agents]]\n")
			parts[1], parts[2] = parts[2], parts[1]
			p.toml = strings.Join(parts, "\n[[agents]]\n")
		}},
		{"site title", func() { p.toml = strings.Replace(p.toml, `title = "Bench"`, `title = "Bench two"`, 1) }},
		{"provider", func() {
			p.toml = strings.Replace(p.toml, `organization = "Bench Co."`, `organization = "Bench Ltd."`, 1)
		}},
		{"default agent", func() {
			p.toml = strings.Replace(p.toml, `defaultAgent = "agent-0"`, `defaultAgent = "agent-3"`, 1)
		}},
		{"base URL", func() {
			p.toml = strings.Replace(p.toml, `baseUrl = "https://agents.example.com"`, `baseUrl = "https://cards.example.org"`, 1)
		}},
		{"projection signatures off", func() {
			p.toml = strings.Replace(p.toml, "[site]\n", "[site]\nsdkProjectionSignatures = false\n", 1)
		}},
		{"agent docs added", func() { p.write("site/agents/agent-2.md", "# More\n\nLong-form docs.\n") }},
		{"agent docs changed", func() { p.write("site/agents/agent-2.md", "# More\n\nOther docs.\n") }},
		{"agent docs removed", func() { os.Remove(filepath.Join(p.dir, "site/agents/agent-2.md")) }},
		{"intro", func() { p.write("site/index.md", "Welcome.\n") }},
		{"extra page added", func() { p.write("site/about.md", "# About\n\nUs.\n") }},
		{"extra page removed", func() { os.Remove(filepath.Join(p.dir, "site/about.md")) }},
		{"template override", func() {
			p.write("templates/agent.html", `{{define "content"}}<h1>{{.Agent.Name}}</h1>{{end}}`)
		}},
		{"asset override", func() { p.write("templates/style.css", "body { color: red; }\n") }},
		{"template override removed", func() {
			os.Remove(filepath.Join(p.dir, "templates/agent.html"))
			os.Remove(filepath.Join(p.dir, "templates/style.css"))
		}},
		{"key set", func() {
			k := slices.Clone(p.keys.Keys)
			p.keys = &sign.KeySet{Keys: k[:len(k)-1]}
		}},
		{"signing key", func() {
			_, priv, _ := ed25519.GenerateKey(nil)
			s, _ := sign.NewSigner(priv, sign.EdDSA, "")
			p.keys = &sign.KeySet{Keys: append(slices.Clone(p.keys.Keys), s.Public)}
			p.signers = append(p.signers, priv)
		}},
		{"many agents (several pages per group)", func() { p.toml = generatedManifest(14) }},
	}
	for _, s := range steps {
		s.change()
		p.sameAsClean(out, s.name)
	}
}

// TestIncrementalWritesOnlyWhatChanged checks that a one-agent change
// rewrites that agent's files and its group's listings, and nothing else.
func TestIncrementalWritesOnlyWhatChanged(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 9)
	out := filepath.Join(t.TempDir(), "public")
	for range 3 { // the third build finds both trees up to date
		if _, err := p.build(out); err != nil {
			t.Fatal(err)
		}
	}
	before := stats(t, out)
	standby := stats(t, standbyPath(out))
	p.toml = strings.Replace(p.toml, "Generated agent number 7 ", "Changed agent number 7 ", 1)
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	// The standby became live: what changed in it is what was written.
	after := stats(t, out)
	var rewritten []string
	for name, st := range after {
		if old, ok := standby[name]; !ok || !old.ModTime().Equal(st.ModTime()) || old.Size() != st.Size() {
			rewritten = append(rewritten, name)
		}
	}
	slices.Sort(rewritten)
	want := []string{
		"agents/agent-7/.well-known/agent-card.json", "agents/agent-7/.well-known/agent.json", "agents/agent-7/index.html",
		"catalog/2.json", "page/3/index.html", "page/4/index.html", "search/2.json",
		"sha256sums.txt", // lists every file, so changes with any
	}
	if !slices.Equal(rewritten, want) {
		t.Errorf("rewritten:\n%v\nwant:\n%v", rewritten, want)
	}
	if len(before) != len(after) {
		t.Errorf("%d files before, %d after", len(before), len(after))
	}
}

func stats(t *testing.T, dir string) map[string]os.FileInfo {
	t.Helper()
	out := map[string]os.FileInfo{}
	for name := range readTree(t, dir) {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = st
	}
	return out
}

// TestIncrementalFailureKeepsOutput checks that a build failing half-way
// (a bad agent in the last group, after other groups were written) leaves
// the live output byte-identical, and that the next good build is still
// identical to a clean one; also after a build killed mid-way (the state
// file says the standby is unknown).
func TestIncrementalFailureKeepsOutput(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 8)
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "first")
	p.sameAsClean(out, "second")
	before := readTree(t, out)
	good := p.toml
	p.toml = strings.Replace(generatedManifest(8), "Generated agent number 1 ", "Other 1 ", 1)
	p.toml = strings.Replace(p.toml, `id = "agent-7"`, `id = "Agent 7"`, 1)
	_, err := p.build(out)
	if err == nil || !strings.Contains(err.Error(), "agents[7].id") {
		t.Fatalf("bad agent: %v", err)
	}
	after := readTree(t, out)
	if len(after) != len(before) {
		t.Fatalf("%d files, was %d", len(after), len(before))
	}
	for name, b := range before {
		if !bytes.Equal(b, after[name]) {
			t.Errorf("%s changed by a failed build", name)
		}
	}
	p.toml = good
	p.sameAsClean(out, "after a failed build")

	// A build killed while writing the standby leaves the state saying so.
	st := loadState(statePath(out))
	if err := (&buildState{Live: st.Live}).save(statePath(out)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(standbyPath(out), "index.html"), []byte("half-written"), 0o644)
	p.sameAsClean(out, "after a killed build")
}

// TestIncrementalIgnoresForeignState checks that the state of another
// folder (the output replaced by hand) is never trusted.
func TestIncrementalIgnoresForeignState(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 5)
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "first")
	p.sameAsClean(out, "second")
	// Replace the output by a copy whose page was edited by hand.
	copyTree(t, out, out+".copy")
	os.WriteFile(filepath.Join(out+".copy", "agents", "agent-1", "index.html"), []byte("edited"), 0o644)
	os.RemoveAll(out)
	os.Rename(out+".copy", out)
	p.toml = strings.Replace(p.toml, "Generated agent number 3 ", "Changed 3 ", 1)
	p.sameAsClean(out, "after the output was replaced")
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	for name, data := range readTree(t, from) {
		path := filepath.Join(to, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLargeSiteLayout checks the pieces a site of several groups gets.
func TestLargeSiteLayout(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 7)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	tree := readTree(t, out)
	for _, name := range []string{"catalog/1.json", "catalog/2.json", "search/1.json", "search/2.json", "page/2/index.html", "page/4/index.html"} {
		if _, ok := tree[name]; !ok {
			t.Errorf("%s missing", name)
		}
	}
	root := string(tree[".well-known/ai-catalog.json"])
	for k := 1; k <= 2; k++ {
		if !strings.Contains(root, fmt.Sprintf(`"url": "https://agents.example.com/catalog/%d.json"`, k)) {
			t.Errorf("root catalog does not point at catalog/%d.json:\n%s", k, root)
		}
	}
	if !strings.Contains(root, `"type": "application/ai-catalog+json"`) {
		t.Errorf("nested entries are not typed as catalogs:\n%s", root)
	}
	if _, ok := tree["page/5/index.html"]; ok {
		t.Error("page 5 of 4")
	}
	if !strings.Contains(string(tree["page/2/index.html"]), `href="../../page/3/"`) {
		t.Error("page 2 does not link page 3")
	}
	// verify follows the nested catalogs.
	rep := &verify.Report{}
	if err := verify.Target(context.Background(), out, verify.Options{}, rep); err != nil {
		t.Fatal(err)
	}
	verify.Finish(rep)
	if !rep.Verified || len(rep.Cards) != 2*7+2 {
		t.Fatalf("verify: %d cards, problems %v", len(rep.Cards), rep.Problems)
	}
	os.RemoveAll(filepath.Join(out, "agents", "agent-5"))
	rep = &verify.Report{}
	if err := verify.Target(context.Background(), out, verify.Options{}, rep); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rep.Problems, func(p string) bool { return strings.Contains(p, "catalog/2.json entry 1") }) {
		t.Errorf("a nested catalog entry whose card is gone was not reported: %v", rep.Problems)
	}
}

// TestStateNamesCannotLeaveTheTree checks that a state file naming an agent
// or a file outside the tree is not trusted (a build would remove what it
// names once it is no longer produced), nor one naming an agent's file
// twice (its sum would be listed twice, one of them the state's).
func TestStateNamesCannotLeaveTheTree(t *testing.T) {
	for _, st := range []*treeState{
		{Agents: agentTableOf(map[string]agentRecord{"../../victim": {}}, nil)},
		{Agents: agentTableOf(map[string]agentRecord{"a": {Extra: []string{"../../../victim"}}}, nil)},
		// Names sha256sums.txt would list twice, or that are no extra
		// JSON file of the .well-known folder.
		{Agents: agentTableOf(map[string]agentRecord{"a": {Extra: []string{"agent-card.json"}}}, nil)},
		{Agents: agentTableOf(map[string]agentRecord{"a": {Extra: []string{"up.json", "up.json"}}}, nil)},
		{Agents: agentTableOf(map[string]agentRecord{"a": {Extra: []string{"index"}}}, nil)},
		{Agents: agentTableOf(nil, map[key]string{{1}: "../x"})},
		{Files: map[string]fileRecord{"../victim.txt": {}}},
		{Files: map[string]fileRecord{"/etc/passwd": {}}},
	} {
		fixNil(st)
		path := filepath.Join(t.TempDir(), ".public.state")
		if err := (&buildState{Live: st, Standby: st}).save(path); err != nil {
			t.Fatal(err)
		}
		if got := loadState(path); got.Live != nil || got.Standby != nil {
			recs, sources := agentsOf(st)
			t.Errorf("state naming %v %v %v was trusted", recs, sources, st.Files)
		}
	}
}

// TestSitemapIndex checks that past the URL limit sitemap.xml becomes an
// index of one sitemap per group plus one for the other pages, and that
// the incremental build follows the switch both ways.
func TestSitemapIndex(t *testing.T) {
	smallGroups(t)
	m := sitemapMaxURLs
	sitemapMaxURLs = 6
	t.Cleanup(func() { sitemapMaxURLs = m })
	p := newProject(t, 5)
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "under the limit")
	if strings.Contains(string(readTree(t, out)["sitemap.xml"]), "sitemapindex") {
		t.Fatal("5 agents: a sitemap index")
	}
	p.toml = generatedManifest(7)
	p.sameAsClean(out, "over the limit")
	tree := readTree(t, out)
	sm := string(tree["sitemap.xml"])
	for _, loc := range []string{"/sitemaps/1.xml", "/sitemaps/2.xml", "/sitemaps/site.xml"} {
		if !strings.Contains(sm, "<loc>https://agents.example.com"+loc+"</loc>") {
			t.Errorf("sitemap index lacks %s:\n%s", loc, sm)
		}
	}
	if !strings.Contains(string(tree["sitemaps/2.xml"]), "/agents/agent-6/") {
		t.Errorf("sitemaps/2.xml lacks agent-6:\n%s", tree["sitemaps/2.xml"])
	}
	p.toml = generatedManifest(4)
	p.sameAsClean(out, "back under the limit")
}

// TestStandbyLinksRefused plants symbolic links in the standby tree, where
// the next build writes, and checks that the build refuses to follow them
// and leaves what they point at untouched.
func TestStandbyLinksRefused(t *testing.T) {
	smallGroups(t)
	for _, plant := range []struct{ at, what string }{
		{"agents/agent-1/index.html", "file"},
		{"agents/agent-1/.well-known", "folder"},
		{"page/2", "folder"},
	} {
		t.Run(plant.at, func(t *testing.T) {
			p := newProject(t, 6)
			out := filepath.Join(t.TempDir(), "public")
			p.sameAsClean(out, "first")
			p.sameAsClean(out, "second")
			victim := filepath.Join(t.TempDir(), "victim")
			os.MkdirAll(victim, 0o755)
			os.WriteFile(filepath.Join(victim, "index.html"), []byte("mine"), 0o644)
			target := victim
			if plant.what == "file" {
				target = filepath.Join(victim, "index.html")
			}
			at := filepath.Join(standbyPath(out), filepath.FromSlash(plant.at))
			os.RemoveAll(at)
			if err := os.Symlink(target, at); err != nil {
				t.Fatal(err)
			}
			p.toml = strings.Replace(p.toml, "Generated agent number 1 ", "Changed 1 ", 1)
			_, err := p.build(out)
			if err == nil || !strings.Contains(err.Error(), "standby tree") {
				t.Fatalf("build through a planted link: %v", err)
			}
			entries, _ := os.ReadDir(victim)
			if b, _ := os.ReadFile(filepath.Join(victim, "index.html")); string(b) != "mine" || len(entries) != 1 {
				t.Errorf("the build wrote through the link: %v", entries)
			}
		})
	}
}

// TestSingleAgentIsDefault: without site.defaultAgent, the only agent is
// the default one, on its page and on the front page.
func TestSingleAgentIsDefault(t *testing.T) {
	p := newProject(t, 1)
	p.toml = strings.Replace(p.toml, "defaultAgent = \"agent-0\"\n", "", 1)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	tree := readTree(t, out)
	if !strings.Contains(string(tree["agents/agent-0/index.html"]), "served at <code>/.well-known/agent-card.json</code>") {
		t.Error("the only agent's page does not say it is served at the root")
	}
	if !strings.Contains(string(tree["index.html"]), `<span class="badge">default</span>`) {
		t.Error("the front page does not mark the only agent as the default")
	}
	if !bytes.Equal(tree[".well-known/agent-card.json"], tree["agents/agent-0/.well-known/agent-card.json"]) {
		t.Error("the root card is not the only agent's")
	}
}

// TestKeptFilesScannedForNewKeys: a key the build holds for the first time
// (a "next" key added to the secret) must be looked for in every file,
// including those kept from earlier builds.
func TestKeptFilesScannedForNewKeys(t *testing.T) {
	p := newProject(t, 3)
	_, next, _ := ed25519.GenerateKey(nil)
	p.toml = strings.Replace(p.toml, "Generated agent number 1 ", fmt.Sprintf("Generated agent number 1 %x ", next.Seed()), 1)
	out := filepath.Join(t.TempDir(), "public")
	for range 2 {
		if _, err := p.build(out); err != nil {
			t.Fatal(err)
		}
	}
	s, err := secret.NewScanner([]crypto.Signer{next})
	if err != nil {
		t.Fatal(err)
	}
	p.secrets = s
	_, err = p.build(out)
	var leak *LeakError
	if !errors.As(err, &leak) {
		t.Fatalf("a kept file holding a key the build now holds was published: %v", err)
	}
}

// TestVerifyHostileNestedCatalogs: verify reads a nested catalog named many
// times once, and follows no link out of the site.
func TestVerifyHostileNestedCatalogs(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 7)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	rootPath := filepath.Join(out, ".well-known", "ai-catalog.json")
	var root map[string]any
	data, _ := os.ReadFile(rootPath)
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	entries := root["entries"].([]any)
	for range 5 {
		entries = append(entries, entries[1])
	}
	root["entries"] = entries
	data, _ = json.Marshal(root)
	os.WriteFile(rootPath, data, 0o644)
	os.RemoveAll(filepath.Join(out, "agents", "agent-5"))
	rep := &verify.Report{}
	if err := verify.Target(context.Background(), out, verify.Options{}, rep); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, pr := range rep.Problems {
		if strings.Contains(pr, "catalog/2.json entry 1") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("a nested catalog named 6 times was checked %d times: %v", n, rep.Problems)
	}
	// A nested catalog that is a link out of the site.
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	os.WriteFile(outside, []byte(`{"entries":[]}`), 0o644)
	os.Remove(filepath.Join(out, "catalog", "1.json"))
	if err := os.Symlink(outside, filepath.Join(out, "catalog", "1.json")); err != nil {
		t.Fatal(err)
	}
	rep = &verify.Report{}
	if err := verify.Target(context.Background(), out, verify.Options{}, rep); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rep.Problems, func(p string) bool { return strings.Contains(p, "leads outside the site") }) {
		t.Errorf("a nested catalog linking out of the site was read: %v", rep.Problems)
	}
}

// TestHandChangesNeverKept: files changed, added or removed by hand in the
// output (or restored from an older copy in place) are never kept or
// copied as if the build had written them.
func TestHandChangesNeverKept(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 5)
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "first")
	old := filepath.Join(t.TempDir(), "old")
	copyTree(t, out, old)
	p.toml = strings.Replace(p.toml, "Generated agent number 2 ", "Changed agent number 2 ", 1)
	p.sameAsClean(out, "changed")
	// Restore the older tree's files in place (same folder, old bytes).
	for name, data := range readTree(t, old) {
		os.WriteFile(filepath.Join(out, filepath.FromSlash(name)), data, 0o644)
	}
	os.WriteFile(filepath.Join(out, "CNAME"), []byte("agents.example.com\n"), 0o644)
	os.Remove(filepath.Join(out, "robots.txt"))
	os.WriteFile(filepath.Join(out, "agents", "agent-4", "index.html"), []byte("edited"), 0o644)
	p.sameAsClean(out, "after hand changes (1)")
	p.sameAsClean(out, "after hand changes (2)")
	p.sameAsClean(out, "after hand changes (3)")
}

// TestStandbyLinksNeverFollowed: links planted in the standby where the
// build keeps a file, or removes one, are neither published nor followed.
func TestStandbyLinksNeverFollowed(t *testing.T) {
	smallGroups(t)
	cases := []struct {
		at     string
		change func(p *project)
	}{
		{"agents/agent-1/index.html", func(p *project) {}},                                       // kept as it is
		{"agents", func(p *project) { p.toml = generatedManifest(4) }},                           // an agent removed
		{"page", func(p *project) { p.toml = generatedManifest(2) }},                             // fewer pages
		{"agents/agent-1/.well-known", func(p *project) {}},                                      // kept as it is
		{".well-known", func(p *project) { p.toml = strings.Replace(p.toml, "Bench", "B2", 1) }}, // misc rewritten
	}
	for _, c := range cases {
		t.Run(c.at, func(t *testing.T) {
			p := newProject(t, 6)
			out := filepath.Join(t.TempDir(), "public")
			p.sameAsClean(out, "first")
			p.sameAsClean(out, "second")
			victim := filepath.Join(t.TempDir(), "victim")
			copyTree(t, filepath.Join(standbyPath(out), filepath.FromSlash(c.at)), victim)
			if st, _ := os.Stat(filepath.Join(standbyPath(out), filepath.FromSlash(c.at))); !st.IsDir() {
				os.MkdirAll(victim, 0o755)
				os.WriteFile(filepath.Join(victim, "secret"), []byte("-----BEGIN NOT A KEY-----"), 0o644)
			}
			before := readTree(t, victim)
			target := victim
			if st, _ := os.Stat(filepath.Join(standbyPath(out), filepath.FromSlash(c.at))); !st.IsDir() {
				target = filepath.Join(victim, "secret")
			}
			at := filepath.Join(standbyPath(out), filepath.FromSlash(c.at))
			os.RemoveAll(at)
			if err := os.Symlink(target, at); err != nil {
				t.Fatal(err)
			}
			c.change(p)
			if _, err := p.build(out); err == nil {
				// The build may also replace the link; then nothing may be
				// a link in what it published.
				filepath.WalkDir(out, func(q string, d fs.DirEntry, err error) error {
					if err == nil && d.Type()&fs.ModeSymlink != 0 {
						t.Errorf("published a link: %s", q)
					}
					return nil
				})
			}
			after := readTree(t, victim)
			if len(after) != len(before) {
				t.Errorf("files behind the link changed: %d -> %d", len(before), len(after))
			}
			for name, b := range before {
				if !bytes.Equal(b, after[name]) {
					t.Errorf("%s behind the link changed", name)
				}
			}
		})
	}
}

// TestFlatUpToFlatMax: a site of up to flatMax agents is one group (one
// flat catalog, which clients that do not follow nested catalogs read
// whole, and one search shard); one more agent cuts it into groups.
func TestFlatUpToFlatMax(t *testing.T) {
	smallGroups(t)
	flatMax = 8
	for _, n := range []int{8, 9} {
		p := newProject(t, n)
		out := filepath.Join(t.TempDir(), "public")
		if _, err := p.build(out); err != nil {
			t.Fatal(err)
		}
		tree := readTree(t, out)
		root := string(tree[".well-known/ai-catalog.json"])
		_, nested := tree["catalog/1.json"]
		_, shard2 := tree["search/2.json"]
		flat := strings.Count(root, `"type": "application/a2a-agent-card+json"`) == n
		if want := n <= 8; flat != want || nested == want || shard2 == want {
			t.Errorf("%d agents: flat catalog %v, nested catalogs %v, second search shard %v", n, flat, nested, shard2)
		}
	}
}

// TestPlantedInAgentFoldersRemoved: a file or link put into an agent's
// folders in either tree is gone after the builds that bring each tree up
// to date, even though the agent's own files are kept.
func TestPlantedInAgentFoldersRemoved(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 4)
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "first")
	p.sameAsClean(out, "second")
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, []byte("not for publishing"), 0o644)
	for _, tree := range []string{out, standbyPath(out)} {
		os.WriteFile(filepath.Join(tree, "agents", "agent-1", layout.WellKnown, "extra.json"), []byte(`{"planted":1}`), 0o644)
		os.WriteFile(filepath.Join(tree, "agents", "agent-2", "key.pem"), []byte("planted"), 0o644)
		if err := os.Symlink(outside, filepath.Join(tree, "agents", "agent-3", "passwd")); err != nil {
			t.Fatal(err)
		}
	}
	p.sameAsClean(out, "after planting (1)")
	p.sameAsClean(out, "after planting (2)")
	for _, tree := range []string{out, standbyPath(out)} {
		for _, rel := range []string{"agents/agent-1/.well-known/extra.json", "agents/agent-2/key.pem", "agents/agent-3/passwd"} {
			if _, err := os.Lstat(filepath.Join(tree, filepath.FromSlash(rel))); err == nil {
				t.Errorf("%s survived in %s", rel, tree)
			}
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "not for publishing" {
		t.Errorf("the file behind the link changed: %q", data)
	}
}

// TestEditWithTimeSetBackNotKept: a file of the standby overwritten with
// as many bytes, its modification time set back, is rebuilt, not kept.
func TestEditWithTimeSetBackNotKept(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 3)
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "first")
	p.sameAsClean(out, "second")
	for _, rel := range []string{"agents/agent-1/index.html", "agents/agent-2/.well-known/agent-card.json", "index.html"} {
		f := filepath.Join(standbyPath(out), filepath.FromSlash(rel))
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(f)
		evil := bytes.Repeat([]byte("x"), len(data))
		if err := os.WriteFile(f, evil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	p.sameAsClean(out, "after edits with the time set back")
}

// TestVerifyTamperedCatalogEntries: verify of a site vouches for no catalog
// entry that leads to content no key signed.
func TestVerifyTamperedCatalogEntries(t *testing.T) {
	p := newProject(t, 3)
	built := filepath.Join(t.TempDir(), "public")
	if _, err := p.build(built); err != nil {
		t.Fatal(err)
	}
	const base = "https://agents.example.com"
	entry := func(change func(e map[string]any)) func(string) []byte {
		return func(path string) []byte {
			var doc map[string]any
			data, _ := os.ReadFile(path)
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			change(doc["entries"].([]any)[0].(map[string]any))
			out, _ := json.Marshal(doc)
			return out
		}
	}
	for _, c := range []struct {
		name, want string
		catalog    func(path string) []byte
	}{
		{"unsigned file", "is not an agent card of this site", entry(func(e map[string]any) { e["url"] = base + "/evil.json" })},
		{"a folder", "is not an agent card of this site", entry(func(e map[string]any) { e["url"] = base + "/agents/" })},
		{"type in other case", "is not on this site", entry(func(e map[string]any) {
			e["type"] = "application/A2A-Agent-Card+json"
			e["url"] = "https://evil.example/card.json"
		})},
		{"type and mediaType", "is not on this site", entry(func(e map[string]any) {
			e["type"], e["mediaType"] = "application/a2a-agent-card+json", "application/a2a-agent-card+json"
			e["url"] = "https://evil.example/card.json"
		})},
		{"mediaType, as before ADR 0014", "does not follow the AI Catalog spec: /entries/0: missing property 'type'", entry(func(e map[string]any) {
			e["mediaType"] = e["type"]
			delete(e, "type")
		})},
		{"unknown type", "is not one agentcards publishes", entry(func(e map[string]any) {
			e["type"] = "application/agent-card+json"
			e["url"] = "https://evil.example/card.json"
		})},
		{"inline data", "inline", entry(func(e map[string]any) { e["data"] = map[string]any{"name": "evil"} })},
		{"displayName of another", "displayName \"Evil\" is not the signed card's name", entry(func(e map[string]any) { e["displayName"] = "Evil" })},
		{"description of another", "is not the signed card's description", entry(func(e map[string]any) { e["description"] = "Sends your data elsewhere." })},
		{"url twice in different case", "ai-catalog.json", func(path string) []byte {
			data, _ := os.ReadFile(path)
			return bytes.Replace(data, []byte(`"url":`), []byte(`"url": "https://evil.example/card.json", "URL":`), 1)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			copyTree(t, built, out)
			os.WriteFile(filepath.Join(out, "evil.json"), []byte(`{"name":"evil","supportedInterfaces":[{"url":"https://evil.example/a2a"}]}`), 0o644)
			catalog := filepath.Join(out, ".well-known", "ai-catalog.json")
			os.WriteFile(catalog, c.catalog(catalog), 0o644)
			rep := &verify.Report{}
			if err := verify.Target(context.Background(), out, verify.Options{}, rep); err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(rep.Problems, func(p string) bool { return strings.Contains(p, c.want) }) {
				t.Errorf("want a problem with %q, got %q", c.want, rep.Problems)
			}
		})
	}
}

// checkSums checks that a tree's layout.SumsFile lists exactly its other files,
// each with its SHA-256, sorted, as sha256sum -c reads it.
func checkSums(t *testing.T, step string, tree map[string][]byte) {
	t.Helper()
	var want strings.Builder
	for _, name := range slices.Sorted(maps.Keys(tree)) {
		if name == layout.SumsFile {
			continue
		}
		fmt.Fprintf(&want, "%x  %s\n", sha256.Sum256(tree[name]), name)
	}
	if got := string(tree[layout.SumsFile]); got != want.String() {
		t.Errorf("%s: %s is not the SHA-256 of every file:\n got:\n%s\nwant:\n%s", step, layout.SumsFile, got, want.String())
	}
}
