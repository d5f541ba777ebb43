package site

import (
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/templates"
)

// builder is one build: it brings the standby tree up to date, agent
// group by agent group, reusing what the tree holds and copying what the
// live output holds when their inputs are unchanged.
type builder struct {
	opts  Options
	src   *manifest.Source
	m     *manifest.Manifest // the head: site and provider
	plan  plan
	keys  inputKeys
	site  *siteDir // what site/ holds
	pages *pages   // renders the HTML pages
	tree  *tree    // the standby tree, brought up to date
	live  liveTree // the previous output

	notes    buildNotes
	extended extendedAgents
}

// buildNotes gathers, from many goroutines, what a build has to tell.
type buildNotes struct {
	mu    sync.Mutex
	lines []string // Report.Notes
}

// add notes lines.
func (n *buildNotes) add(lines ...string) {
	n.mu.Lock()
	n.lines = append(n.lines, lines...)
	n.mu.Unlock()
}

// projected is Report.Projected: the fields the SDK-projection signatures
// of the cards of each agent of ids leave out, from what the tree records
// of it once every agent is built. (Gathered agent by agent instead, a
// large site's map would be held, and scanned by the collector, through
// the whole build.)
func (b *builder) projected(ids []string) map[string][]string {
	out := map[string][]string{}
	for _, id := range ids {
		if p := b.tree.projected(id); p != "" {
			out[id] = strings.Split(p, "\n")
		}
	}
	return out
}

// groupResult is what one group of agents gave.
type groupResult struct {
	ids      []string // "" where an agent has problems and no id
	problems manifest.Errors
	err      error
}

// run builds everything into the standby tree and returns the report, and
// the private output's files (nil when the site has no extended cards).
func (b *builder) run() (*Report, map[string][]byte, error) {
	b.plan = newPlan(b.src.Len(), b.m.Site.DefaultAgent)
	if err := b.prepare(); err != nil {
		return nil, nil, err
	}
	ids, err := b.collect(b.groups())
	if err != nil {
		return nil, nil, err
	}
	if err := b.site.checkDocs(ids); err != nil {
		return nil, nil, err
	}
	names, err := b.siteFiles(ids)
	if err != nil {
		return nil, nil, err
	}
	if err := b.prune(ids, names); err != nil {
		return nil, nil, err
	}
	// Nothing reads the live tree's record from here on, and the last
	// steps hold the most (the sums file, its scan).
	b.live.st.dropRecord()
	if err := b.tree.checksums(); err != nil {
		return nil, nil, err
	}
	scanned, err := b.checkLeaks()
	if err != nil {
		return nil, nil, err
	}
	private, extended, err := b.extended.files(b.m, b.opts.Signers)
	if err != nil {
		return nil, nil, err
	}
	rep := &Report{Agents: b.plan.n, Files: int(b.tree.files.Load()), Extended: extended, Notes: b.notes.lines, Projected: b.projected(ids), LeakScanned: scanned}
	return rep, private, nil
}

// groups builds every group of agents.
func (b *builder) groups() []groupResult {
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
	return results
}

// collect joins what the groups gave: the ids of all agents, or the first
// error, or else every problem of the manifest, in the order of the file.
func (b *builder) collect(results []groupResult) ([]string, error) {
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
		problems.Sort()
		return nil, problems
	}
	return ids, nil
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
	parallel(len(ms), workers, func(j int) error {
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
		parallel(len(ms), workers, func(j int) error {
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
	parallel(len(ms), workers, func(j int) error {
		mem := &ms[j]
		if listings && mem.agent == nil && !b.decode(mem, &mu, &res) {
			return nil
		}
		return b.agentFiles(mem, &mu, &res)
	}, &res)
	if res.err != nil || len(res.problems) > 0 {
		return res
	}
	for j := range ms {
		// The ids as the tree records them (setAgent): the build's own
		// copies, one object per agent, are not kept to its end.
		res.ids[j] = ms[j].id
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
func parallel(n, workers int, f func(int) error, res *groupResult) {
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

// prune removes from the tree what this build no longer produces: agents
// that left the manifest, listing pieces and pages that no longer exist;
// names are the whole site's files (siteFiles).
func (b *builder) prune(ids []string, names map[string]bool) error {
	keep := make(map[string]bool, len(ids))
	for _, id := range ids {
		keep[id] = true
	}
	want := maps.Clone(names)
	if len(ids) > 0 {
		want[layout.WellKnown+"/"+layout.CardFile] = true
		want[layout.WellKnown+"/"+layout.LegacyFile] = true
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
