package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/compose"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/templates"
)

// builder is one build: it brings the tree at root up to date, agent group
// by agent group, reusing what the tree holds and copying what the live
// output holds when their inputs are unchanged.
type builder struct {
	opts Options
	plan plan
	keys inputKeys
	src  *manifest.Source
	m    *manifest.Manifest // the head: site and provider
	tree *tree              // the standby tree, brought up to date
	live liveTree           // the previous output
	mu   sync.Mutex         // guards notes, projected, extended

	site  *siteDir // what site/ holds
	pages *pages   // renders the HTML pages

	miscNames map[string]bool // the files misc wrote
	// extended are the agents with extended cards (guarded by mu).
	extended    []*manifest.Agent
	leakScanned int // public files the leak check read
	// private is the private output's files (extendedFiles), and
	// extendedCount how many extended cards they hold.
	private       map[string][]byte
	extendedCount int
	notes         []string
	projected     map[string][]string
}

// groupResult is what one group of agents gave.
type groupResult struct {
	ids      []string // "" where an agent has problems and no id
	problems manifest.Errors
	err      error
}

// run builds everything into root and returns the report.
func (b *builder) run() (*Report, error) {
	b.plan = newPlan(b.src.Len(), b.m.Site.DefaultAgent)
	b.projected = map[string][]string{}
	if err := b.prepare(); err != nil {
		return nil, err
	}
	results := make([]groupResult, b.plan.groups)
	workers := b.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Groups are independent; within one, agents are built on all cores
	// too (a small site is one group).
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(b.plan.groups, 1)) {
		wg.Go(func() {
			for g := range next {
				results[g] = b.group(g, workers)
			}
		})
	}
	for g := range b.plan.groups {
		next <- g
	}
	close(next)
	wg.Wait()

	problems, _ := b.src.Problems()
	problems = slices.Clone(problems)
	ids := make([]string, 0, b.plan.n)
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		problems = append(problems, r.problems...)
		ids = append(ids, r.ids...)
	}
	problems = append(problems, b.src.CheckIDs(ids)...)
	if len(problems) > 0 {
		sortProblems(problems)
		return nil, problems
	}
	if err := b.site.checkDocs(ids); err != nil {
		return nil, err
	}
	if err := b.misc(ids); err != nil {
		return nil, err
	}
	if err := b.prune(ids); err != nil {
		return nil, err
	}
	if err := b.tree.checksums(); err != nil {
		return nil, err
	}
	if err := b.checkLeaks(); err != nil {
		return nil, err
	}
	var err error
	if b.private, err = b.extendedFiles(); err != nil {
		return nil, err
	}
	rep := &Report{Agents: b.plan.n, Files: int(b.tree.files.Load()), Notes: b.notes, Projected: b.projected, LeakScanned: b.leakScanned}
	return rep, nil
}

func sortProblems(e manifest.Errors) {
	slices.SortStableFunc(e, func(a, b manifest.Diagnostic) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
}

// prepare reads what every page needs (templates, site/ pages) and works
// out the key of everything the whole site shares.
func (b *builder) prepare() error {
	m := b.m
	tpl, err := templates.Load(filepath.Join(m.Dir, TemplatesDir))
	if err != nil {
		return fmt.Errorf("templates: %w", err)
	}
	if b.site, err = readSiteDir(m.Dir); err != nil {
		return err
	}
	b.pages = newPages(m, b.plan, tpl, b.site, b.opts.Signers)
	b.keys.docs = b.site.docKeys
	if b.keys.site, err = siteKey(m, b.opts, b.site.key, tpl); err != nil {
		return err
	}
	b.keys.mcp, err = mcpKey(m)
	return err
}

// member is one agent of a group as the group sees it.
type member struct {
	index int
	raw   []byte
	rawK  key
	id    string
	key   key
	agent *manifest.Agent
	bad   bool // the agent has problems
}

// group builds the agents of group g and their listing pieces.
func (b *builder) group(g, workers int) groupResult {
	lo, hi := b.plan.bounds(g)
	ms := make([]member, hi-lo)
	var res groupResult
	res.ids = make([]string, len(ms))
	var mu sync.Mutex
	raws, err := b.src.Raws(lo, hi)
	if err != nil {
		res.err = err
		return res
	}
	// Pass 1: the source of each agent, and its id (from the state when
	// this source was built before, else by decoding it).
	b.parallel(len(ms), workers, func(j int) error {
		mem := &ms[j]
		mem.index = lo + j
		mem.raw, mem.rawK = raws[j], hashParts(raws[j])
		mem.id = b.tree.knownID(mem.rawK, b.live)
		if mem.id == "" {
			if !b.decode(mem, &mu, &res) {
				return nil
			}
		}
		mem.key = b.keys.agent(mem.rawK, mem.id, b.plan.isDefault(mem.id))
		return nil
	}, &res)
	if res.err != nil {
		return res
	}
	for j := range ms {
		res.ids[j] = ms[j].id
		if ms[j].bad {
			res.ids[j] = manifest.DeclaredID(ms[j].raw)
		}
	}
	if len(res.problems) > 0 {
		// Keep checking the rest; write nothing more for this group.
		b.parallel(len(ms), workers, func(j int) error {
			if ms[j].agent == nil && !ms[j].bad {
				b.decode(&ms[j], &mu, &res)
			}
			return nil
		}, &res)
		return res
	}
	gk := b.keys.group(g, b.plan.n, ms)
	pieces := b.plan.pieces(g)
	listings := false
	for _, p := range pieces {
		if !b.tree.fileIntact(p, gk) {
			listings = true
		}
	}
	// Pass 2: each agent's own files.
	b.parallel(len(ms), workers, func(j int) error {
		mem := &ms[j]
		if listings && mem.agent == nil && !b.decode(mem, &mu, &res) {
			return nil
		}
		return b.agentFiles(mem, &mu, &res)
	}, &res)
	if res.err != nil || len(res.problems) > 0 {
		return res
	}
	if listings {
		res.err = b.writeListings(g, ms, pieces, gk)
	} else {
		b.tree.kept(len(pieces))
	}
	return res
}

// parallel runs f(0..n-1) on up to workers goroutines, keeping the first
// error in res.
func (b *builder) parallel(n, workers int, f func(int) error, res *groupResult) {
	var mu sync.Mutex
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for {
				j := int(next.Add(1)) - 1
				if j >= n {
					return
				}
				if err := f(j); err != nil {
					mu.Lock()
					if res.err == nil {
						res.err = err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
}

// decode decodes and checks an agent; false when it has problems, which
// go into res.
func (b *builder) decode(mem *member, mu *sync.Mutex, res *groupResult) bool {
	a, problems := b.src.Agent(mem.index, mem.raw)
	if problems != nil {
		mu.Lock()
		res.problems = append(res.problems, problems...)
		mu.Unlock()
		mem.bad = true
		return false
	}
	// A copy: the decoded strings share the memory of the agent's whole
	// source, which the id must not keep alive once the agent is built.
	mem.agent, mem.id = a, strings.Clone(a.ID)
	return true
}

// agentFile names one file of an agent, relative to the output.
func agentFile(id, name string) string {
	if name == "index.html" {
		return "agents/" + id + "/index.html"
	}
	return "agents/" + id + "/" + WellKnown + "/" + name
}

// agentFileNames are the files every agent has.
var agentFileNames = []string{CardFile, LegacyFile, "index.html"}

// agentFiles brings an agent's own files in the tree up to date: kept when
// the tree has them for the same inputs, copied from the live output when
// it has, built otherwise.
func (b *builder) agentFiles(mem *member, mu *sync.Mutex, res *groupResult) error {
	t := b.tree
	have := t.agent(mem.id)
	var live agentRecord
	if b.live.st != nil {
		live = b.live.st.Agents[mem.id]
	}
	if have.Key == mem.key && agentIntact(t.root, mem.id, have) {
		t.setRaw(mem.rawK, mem.id)
		t.kept(len(agentFileNames))
		b.noteProjected(mem.id, have.Projected)
		if have.Extended {
			b.noteExtended(mem, mu, res)
		}
		return nil
	}
	// From here until the files are written, the tree's copy is unknown.
	t.forgetAgent(mem.id)
	if err := t.mkdir("agents/" + mem.id + "/" + WellKnown); err != nil {
		return err
	}
	if err := t.clearAgentFolders(mem.id); err != nil {
		return err
	}
	rec := agentRecord{Key: mem.key}
	copied := false
	if live.Key == mem.key && b.live.dir != "" && agentIntact(b.live.dir, mem.id, live) {
		rec.Stats, rec.Sums, copied = t.copyAgent(b.live.dir, mem.id)
		rec.Projected, rec.Extended = live.Projected, live.Extended
	}
	if !copied {
		if mem.agent == nil && !b.decode(mem, mu, res) {
			return nil
		}
		out, err := b.buildAgent(mem.agent)
		if err != nil {
			return fmt.Errorf("agent %q: %w", mem.id, err)
		}
		for i, data := range [][]byte{out.cardJSON, out.legacyJSON, out.page} {
			w, err := t.write(agentFile(mem.id, agentFileNames[i]), data)
			if err != nil {
				return err
			}
			rec.Stats[i], rec.Sums[i] = w.Stat, w.Sum
		}
		rec.Projected = strings.Join(out.projected, "\n")
		rec.Extended = mem.agent.Extended != nil
		if len(out.notes) > 0 {
			b.mu.Lock()
			b.notes = append(b.notes, out.notes...)
			b.mu.Unlock()
		}
	} else {
		t.kept(len(agentFileNames))
	}
	for i, dir := range agentFolders(mem.id) {
		st, ok := statFile(filepath.Join(t.root, filepath.FromSlash(dir)))
		if !ok {
			return fmt.Errorf("%s vanished while the build wrote into it", dir)
		}
		rec.Folders[i] = st
	}
	t.setAgent(mem.id, rec, mem.rawK)
	b.noteProjected(mem.id, rec.Projected)
	if rec.Extended {
		b.noteExtended(mem, mu, res)
	}
	return nil
}

func (b *builder) noteProjected(id, projected string) {
	if projected == "" {
		return
	}
	b.mu.Lock()
	b.projected[id] = strings.Split(projected, "\n")
	b.mu.Unlock()
}

// copyAgent copies an agent's files from the live output dir into the
// tree, scanning them like every output.
func (t *tree) copyAgent(dir, id string) (stats [3]fileStat, sums [3][32]byte, ok bool) {
	for i, name := range agentFileNames {
		w, err := t.copyFrom(dir, agentFile(id, name))
		if err != nil {
			return stats, sums, false
		}
		stats[i], sums[i] = w.Stat, w.Sum
	}
	return stats, sums, true
}

// agentIntact reports whether the tree at root still holds an agent's
// files as they were written.
func agentIntact(root, id string, rec agentRecord) bool {
	for i, name := range agentFileNames {
		if !intact(filepath.Join(root, filepath.FromSlash(agentFile(id, name))), rec.Stats[i]) {
			return false
		}
	}
	for i, dir := range agentFolders(id) {
		if !folderIntact(filepath.Join(root, filepath.FromSlash(dir)), rec.Folders[i]) {
			return false
		}
	}
	return true
}

// agentFolders are the folders of an agent's files.
func agentFolders(id string) [2]string {
	return [2]string{"agents/" + id, "agents/" + id + "/" + WellKnown}
}

// clearAgentFolders removes from a tree kept from an earlier build
// whatever else is in an agent's folders: a file or link planted there
// would otherwise be published with the agent.
func (t *tree) clearAgentFolders(id string) error {
	if t.fresh {
		return nil
	}
	dirs := agentFolders(id)
	if err := t.removeOthers(dirs[0], map[string]bool{"index.html": true, WellKnown: true}); err != nil {
		return err
	}
	return t.removeOthers(dirs[1], map[string]bool{CardFile: true, LegacyFile: true})
}

// agentOutput is what building one agent produced.
type agentOutput struct {
	cardJSON, legacyJSON, page []byte
	unsigned                   []byte // the v1.0 card before signing
	notes                      []string
	projected                  []string
}

// buildAgent makes an agent's two signed cards and its page.
func (b *builder) buildAgent(a *manifest.Agent) (*agentOutput, error) {
	out, err := b.signedCards(a)
	if err != nil {
		return nil, err
	}
	if b.opts.Inspect != nil {
		if err := b.opts.Inspect(a, out.unsigned); err != nil {
			return nil, err
		}
	}
	if out.page, err = b.pages.agentPage(a, len(out.projected) > 0 && b.m.Site.ProjectionSignatures()); err != nil {
		return nil, fmt.Errorf("page: %w", err)
	}
	return out, nil
}

// signedCards makes an agent's card in both shapes, each signed by every
// signer.
func (b *builder) signedCards(a *manifest.Agent) (*agentOutput, error) {
	m, signers := b.m, b.opts.Signers
	out := &agentOutput{}
	// Each card is encoded once: the signatures go in as its last member.
	unsigned, err := card.Compact(compose.NewV1(m, a))
	if err != nil {
		return nil, err
	}
	out.unsigned = unsigned
	project := m.Site.ProjectionSignatures()
	sigs, projected, err := signatures(unsigned, signers, project)
	if err != nil {
		return nil, err
	}
	out.projected = projected
	if out.cardJSON, err = card.MarshalSigned(unsigned, sigs); err != nil {
		return nil, err
	}
	v03, notes := compose.NewV03(m, a)
	out.notes = notes
	if unsigned, err = card.Compact(v03); err != nil {
		return nil, err
	}
	if sigs, _, err = signatures(unsigned, signers, project); err != nil {
		return nil, err
	}
	if out.legacyJSON, err = card.MarshalSigned(unsigned, sigs); err != nil {
		return nil, err
	}
	return out, nil
}

// writeListings writes group g's pages of the front list, catalog piece,
// search shard and sitemap piece.
func (b *builder) writeListings(g int, ms []member, pieces []string, gk key) error {
	agents := make([]*manifest.Agent, len(ms))
	for j := range ms {
		agents[j] = ms[j].agent
	}
	// The pieces are made on every core: a site of up to flatMax agents is
	// one group, whose listings would otherwise be its last, serial step.
	type piece struct {
		name string
		make func() ([]byte, error)
	}
	var todo []piece
	pages := b.plan.pages()
	for k := 0; k < len(agents); k += pageSize {
		p := (g*b.plan.size+k)/pageSize + 1
		list := agents[k:min(len(agents), k+pageSize)]
		todo = append(todo, piece{frontPage(p), func() ([]byte, error) { return b.pages.frontPage(p, pages, list) }})
	}
	if len(agents) == 0 {
		todo = append(todo, piece{frontPage(1), func() ([]byte, error) { return b.pages.frontPage(1, 1, nil) }})
	}
	todo = append(todo,
		piece{b.plan.catalogPiece(g), func() ([]byte, error) { return catalogDocument(b.m, agents, b.plan.flat()) }},
		piece{searchShard(g), func() ([]byte, error) {
			if g == 0 {
				return searchShardData(agents, b.m.MCPServers)
			}
			return searchShardData(agents, nil)
		}})
	if b.plan.indexed {
		todo = append(todo, piece{sitemapPiece(g), func() ([]byte, error) {
			var urls []string
			for _, a := range agents {
				urls = append(urls, AgentURL(b.m, a.ID))
			}
			return urlset(urls), nil
		}})
	}
	made := make([][]byte, len(todo))
	var res groupResult
	b.parallel(len(todo), runtime.GOMAXPROCS(0), func(i int) error {
		var err error
		made[i], err = todo[i].make()
		return err
	}, &res)
	if res.err != nil {
		return res.err
	}
	out := make(map[string][]byte, len(todo))
	for i, p := range todo {
		out[p.name] = made[i]
	}
	for _, rel := range pieces {
		if err := b.tree.replace(rel, gk, out[rel]); err != nil {
			return err
		}
	}
	return nil
}

// misc writes the files of the whole site that are not per agent or per
// group: the JWKS, the default agent's cards at the root, the catalog index,
// extra pages, the 404 page, assets, _headers, robots.txt and the sitemap.
// Each is written only when its bytes differ from what the tree holds.
func (b *builder) misc(ids []string) error {
	m := b.m
	files := map[string][]byte{}
	jwks, err := b.opts.Keys.JSON()
	if err != nil {
		return err
	}
	files[WellKnown+"/"+JWKSFile] = jwks
	// GitHub Pages deployed from a branch runs Jekyll, which drops
	// dot-folders such as .well-known unless this file exists.
	files[".nojekyll"] = []byte{}
	if !b.plan.flat() {
		idx, err := catalogIndex(m, b.plan.size, b.plan.groups, b.plan.n)
		if err != nil {
			return err
		}
		files[WellKnown+"/"+CatalogFile] = idx
	}
	if err := b.pages.extraPages(files); err != nil {
		return err
	}
	nf, err := b.pages.notFound()
	if err != nil {
		return err
	}
	files[NotFoundFile] = nf
	for _, a := range templates.Assets {
		files[a] = b.pages.tpl.Asset(a)
	}
	agents := make(map[string]bool, len(ids))
	for _, id := range ids {
		agents[id] = true
	}
	if err := b.mcpFiles(files, agents); err != nil {
		return err
	}
	var slugs []string
	for _, p := range b.pages.info.all() {
		slugs = append(slugs, p.Slug)
	}
	files[HeadersFile] = renderHeaders(slugs, len(m.MCPServers) > 0)
	if n := len(headerRules(slugs, len(m.MCPServers) > 0)); n > CloudflareMaxRules {
		b.notes = append(b.notes, fmt.Sprintf("_headers has %d rules; Cloudflare Pages reads only the first %d (fewer extra pages in site/ keep it under)", n, CloudflareMaxRules))
	}
	files[RobotsFile] = []byte("User-agent: *\nAllow: /\nSitemap: " + m.Site.BaseURL + "/" + SitemapFile + "\n")
	files[SitemapFile] = b.sitemap(ids)
	if b.plan.indexed {
		// The pages that are not an agent's, for the sitemap index.
		urls := []string{m.Site.BaseURL + "/"}
		for _, p := range b.pages.info.all() {
			urls = append(urls, m.Site.BaseURL+"/"+p.Slug+"/")
		}
		for _, s := range m.MCPServers {
			urls = append(urls, m.MCPPageURL(s.ID))
		}
		files[SitemapsFolder+"/site.xml"] = urlset(urls)
	}
	b.miscNames = map[string]bool{}
	if len(ids) > 0 {
		b.miscNames[WellKnown+"/"+CardFile] = true
		b.miscNames[WellKnown+"/"+LegacyFile] = true
	}
	for name := range files {
		b.miscNames[name] = true
	}
	b.miscNames[SumsFile] = true // written last, by checksums

	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := b.tree.put(name, hashParts(files[name]), files[name]); err != nil {
			return err
		}
	}
	return b.rootCards(ids)
}

// rootCards puts the default agent's cards at /.well-known/.
func (b *builder) rootCards(ids []string) error {
	def := b.m.Site.DefaultAgent
	if def == "" && len(ids) == 1 {
		def = ids[0]
	}
	if def == "" && len(ids) == 0 {
		return nil // MCP servers only: no agent card at the root
	}
	t := b.tree
	k := t.agent(def).Key
	if k == (key{}) {
		return fmt.Errorf("default agent %q was not built", def)
	}
	for _, name := range []string{CardFile, LegacyFile} {
		rel := WellKnown + "/" + name
		if t.fileIntact(rel, k) {
			t.kept(1)
			continue
		}
		t.record(rel, key{}, fileSum{})
		data, err := regular.ReadFile(filepath.Join(t.root, filepath.FromSlash(agentFile(def, name))))
		if err != nil {
			return err
		}
		if err := t.replace(rel, k, data); err != nil {
			return err
		}
	}
	return nil
}

// sitemap is sitemap.xml: every page's URL, or, past SitemapMaxURLs, an
// index of the per-group pieces.
func (b *builder) sitemap(ids []string) []byte {
	m := b.m
	if b.plan.indexed {
		var locs []string
		for g := range b.plan.groups {
			locs = append(locs, m.Site.BaseURL+"/"+sitemapPiece(g))
		}
		return sitemapIndex(append(locs, m.Site.BaseURL+"/"+SitemapsFolder+"/site.xml"))
	}
	urls := []string{m.Site.BaseURL + "/"}
	for _, id := range ids {
		urls = append(urls, AgentURL(m, id))
	}
	for _, p := range b.pages.info.all() {
		urls = append(urls, m.Site.BaseURL+"/"+p.Slug+"/")
	}
	for _, s := range m.MCPServers {
		urls = append(urls, m.MCPPageURL(s.ID))
	}
	return urlset(urls)
}

// prune removes from the tree what this build no longer produces: agents
// that left the manifest, listing pieces and pages that no longer exist.
func (b *builder) prune(ids []string) error {
	keep := make(map[string]bool, len(ids))
	for _, id := range ids {
		keep[id] = true
	}
	want := map[string]bool{}
	maps.Copy(want, b.miscNames)
	if len(ids) > 0 {
		want[WellKnown+"/"+CardFile] = true
		want[WellKnown+"/"+LegacyFile] = true
	}
	for g := range b.plan.groups {
		for _, p := range b.plan.pieces(g) {
			want[p] = true
		}
	}
	if b.plan.groups == 0 {
		want[frontPage(1)] = true
	}
	return b.tree.prune(keep, want)
}

// sitemapIndex is a sitemaps.org sitemap index of locs.
func sitemapIndex(locs []string) []byte {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		buf.WriteString("  <sitemap>\n    <loc>")
		xmlEscape(&buf, l)
		buf.WriteString("</loc>\n  </sitemap>\n")
	}
	buf.WriteString("</sitemapindex>\n")
	return buf.Bytes()
}

// xmlEscape writes s escaped as XML text.
func xmlEscape(buf *bytes.Buffer, s string) { xml.EscapeText(buf, []byte(s)) }

// urlset is a sitemaps.org urlset of urls.
func urlset(urls []string) []byte {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, u := range urls {
		buf.WriteString("  <url>\n    <loc>")
		xmlEscape(&buf, u)
		buf.WriteString("</loc>\n  </url>\n")
	}
	buf.WriteString("</urlset>\n")
	return buf.Bytes()
}
