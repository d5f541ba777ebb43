package site

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
)

// agentFile names one file of an agent, relative to the output.
func agentFile(id, name string) string { return layout.AgentFile(id, name) }

// agentFileNames are the files every agent has.
var agentFileNames = []string{layout.CardFile, layout.LegacyFile, layout.IndexFile}

// names are the files of the agent rec records: agentFileNames, then its
// Extra files in its .well-known folder.
func (rec *agentRecord) names() []string {
	return append(slices.Clip(agentFileNames), rec.Extra...)
}

// index is the index in rec.names() of the file name of an agent's
// folder (agentFile); -1 for any other.
func (rec *agentRecord) index(name string) int {
	i := agentFileIndex(name)
	if i < 0 {
		if rest, ok := strings.CutPrefix(name, layout.WellKnown+"/"); ok {
			if j := slices.Index(rec.Extra, rest); j >= 0 {
				i = len(agentFileNames) + j
			}
		}
	}
	if i >= len(rec.Stats) || i >= len(rec.Sums) {
		return -1
	}
	return i
}

// agentFiles brings an agent's own files in the tree up to date: kept when
// the tree has them for the same inputs, copied from the live output when
// it has, built otherwise.
func (b *builder) agentFiles(mem *member, mu *sync.Mutex, res *groupResult) error {
	t := b.tree
	have := t.agent(mem.id)
	var live agentRecord
	if b.live.st != nil {
		live, _ = b.live.st.Agents.get(mem.id)
	}
	if have.Key == mem.key && agentIntact(t.root, mem.id, have) {
		mem.id = t.keepAgent(mem.id, have, mem.rawK)
		if have.Extended {
			b.noteExtended(mem, mu, res)
		}
		return nil
	}
	// From here until the files are written, the tree's copy is unknown.
	t.forgetAgent(mem.id)
	if t.fresh {
		// In a new tree the agent's folder is new too: made first, its
		// .well-known is made at the first try (mkdirNew).
		if err := t.mkdir(layout.AgentDir(mem.id)); err != nil {
			return err
		}
	}
	if err := t.mkdir(layout.AgentWellKnown(mem.id)); err != nil {
		return err
	}
	if err := t.clearAgentFolders(mem.id); err != nil {
		return err
	}
	rec := agentRecord{Key: mem.key}
	copied := false
	if live.Key == mem.key && b.live.dir != "" && agentIntact(b.live.dir, mem.id, live) {
		rec.Extra = live.Extra
		rec.Stats, rec.Sums, copied = t.copyAgent(b.live.dir, mem.id, rec.names())
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
		data := [][]byte{out.cardJSON, out.legacyJSON, out.page}
		// Held for every agent until the build ends: no room to spare.
		n := len(data) + len(out.extra)
		rec.Stats, rec.Sums = make([]fileStat, 0, n), make([][32]byte, 0, n)
		for _, f := range out.extra {
			rec.Extra = append(rec.Extra, f.name)
			data = append(data, f.data)
		}
		for i, name := range rec.names() {
			w, err := t.write(agentFile(mem.id, name), data[i])
			if err != nil {
				return err
			}
			rec.Stats, rec.Sums = append(rec.Stats, w.Stat), append(rec.Sums, w.Sum)
		}
		rec.Projected = strings.Join(out.projected, "\n")
		rec.Extended = mem.agent.Extended != nil
		if len(out.notes) > 0 {
			b.notes.add(out.notes...)
		}
	} else {
		t.kept(len(rec.names()))
	}
	for i, dir := range agentFolders(mem.id) {
		st, ok := statFile(filepath.Join(t.root, filepath.FromSlash(dir)))
		if !ok {
			return fmt.Errorf("%s vanished while the build wrote into it", dir)
		}
		rec.Folders[i] = st
	}
	mem.id = t.setAgent(mem.id, rec, mem.rawK)
	if rec.Extended {
		b.noteExtended(mem, mu, res)
	}
	return nil
}

// copyAgent copies an agent's files, names, from the live output dir
// into the tree, scanning them like every output.
func (t *tree) copyAgent(dir, id string, names []string) (stats []fileStat, sums [][32]byte, ok bool) {
	for _, name := range names {
		w, err := t.copyFrom(dir, agentFile(id, name))
		if err != nil {
			return nil, nil, false
		}
		stats, sums = append(stats, w.Stat), append(sums, w.Sum)
	}
	return stats, sums, true
}

// agentIntact reports whether the tree at root (a clean path) still holds
// an agent's files as they were written, and its two folders as they were
// once the files were in them. It runs for every agent a build keeps, so
// it makes each path by concatenation, and looks each up once.
func agentIntact(root, id string, rec agentRecord) bool {
	n := len(agentFileNames) + len(rec.Extra)
	if len(rec.Stats) != n || len(rec.Sums) != n {
		return false
	}
	sep := string(filepath.Separator)
	dirs := [2]string{root + sep + filepath.FromSlash(layout.AgentDir(id)), root + sep + filepath.FromSlash(layout.AgentWellKnown(id))}
	for i, dir := range dirs {
		if !folderIntact(dir, rec.Folders[i]) {
			return false
		}
	}
	for i := range n {
		var p string
		switch {
		case i >= len(agentFileNames):
			p = dirs[1] + sep + filepath.FromSlash(rec.Extra[i-len(agentFileNames)])
		case agentFileNames[i] == layout.IndexFile:
			p = dirs[0] + sep + layout.IndexFile
		default:
			p = dirs[1] + sep + agentFileNames[i]
		}
		if !intact(p, rec.Stats[i]) {
			return false
		}
	}
	return true
}

// agentFolders are the folders of an agent's files.
func agentFolders(id string) [2]string {
	return [2]string{layout.AgentDir(id), layout.AgentWellKnown(id)}
}

// clearAgentFolders removes from a tree kept from an earlier build
// whatever else is in an agent's folders: a file or link planted there
// would otherwise be published with the agent.
func (t *tree) clearAgentFolders(id string) error {
	if t.fresh {
		return nil
	}
	dirs := agentFolders(id)
	if err := t.removeOthers(dirs[0], map[string]bool{layout.IndexFile: true, layout.WellKnown: true}); err != nil {
		return err
	}
	return t.removeOthers(dirs[1], map[string]bool{layout.CardFile: true, layout.LegacyFile: true})
}

// agentOutput is what building one agent produced.
type agentOutput struct {
	cardJSON, legacyJSON, page []byte
	extra                      []namedFile    // in its .well-known folder
	unsigned                   []byte         // the v1.0 card before signing
	doc                        map[string]any // unsigned decoded (decodedCard), shared: never changed
	notes                      []string
	projected                  []string
}

// buildAgent makes an agent's two signed cards and its page.
func (b *builder) buildAgent(a *manifest.Agent) (*agentOutput, error) {
	cards := signedCards
	if a.Remote != nil {
		cards = gatewayCards
	}
	out, err := cards(b.m, b.opts.Signers, a)
	if err != nil {
		return nil, err
	}
	if b.opts.Inspect != nil {
		if err := b.opts.Inspect(a, out.unsigned, out.doc); err != nil {
			return nil, err
		}
	}
	if a.Remote != nil && b.opts.InspectUpstream != nil {
		if err := b.opts.InspectUpstream(a, []byte(a.Remote.Upstream.Card), []byte(a.Remote.Upstream.JWKS)); err != nil {
			return nil, err
		}
	}
	if out.page, err = b.pages.agentPage(a, len(out.projected) > 0 && b.m.Site.ProjectionSignatures()); err != nil {
		return nil, fmt.Errorf("page: %w", err)
	}
	return out, nil
}
