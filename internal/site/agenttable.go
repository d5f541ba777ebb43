package site

import (
	"iter"
	"slices"

	"github.com/agentcards/agentcards/internal/strtab"
)

// agentTable is what a tree holds of its agents (treeState.Agents): the
// record of each agent by id, and the id of each source an agent was
// built from. A large site's table is live through the whole build, and
// the collector marks what is live on every cycle, so the table holds
// nothing it would have to follow: the ids are numbered in a strtab, the
// entry of each (of the same number) is of fixed size, the projected
// fields and extra file names are numbered in a second strtab (number 0
// is ""), and the files' stats and sums are runs of two shared arrays. Reads of a table that no one writes may run
// at once; the tree guards its own (tree.mu).
type agentTable struct {
	idTab   *strtab.Table  // the ids, numbered
	entries []agentEntry   // by id number
	texts   *strtab.Table  // every projected text and extra name, numbered
	extras  []uint32       // Extra names (numbers in texts), runs of entries
	stats   []fileStat     // agentRecord.Stats, runs of entries' files
	sums    [][32]byte     // agentRecord.Sums, alongside stats
	records int            // entries holding a record
	sources map[key]uint32 // the source of an agent -> its entry
}

// source is the id of the agent built from the source raw.
func (t *agentTable) source(raw key) (string, bool) {
	e, ok := t.sources[raw]
	if !ok {
		return "", false
	}
	return t.id(e), true
}

// setSource records that agent id was built from the source raw.
func (t *agentTable) setSource(raw key, id string) { t.sources[raw] = uint32(t.entry(id)) }

// span is a run of a table's arrays.
type span struct{ off, n uint32 }

// agentEntry is one id of a table, with its agentRecord when it has one
// (an id may be known only as the one a source names).
type agentEntry struct {
	Key       key
	projected uint32 // in texts
	extra     span   // in extras
	// files is where its runs of stats and sums begin, of nstats and
	// nsums; cap is how long they may grow in place, so that recording
	// an agent again adds nothing.
	files, nstats, nsums, cap uint32
	Folders                   [2]fileStat
	// has says the entry holds a record; extended and checked are its
	// Extended and checked.
	has, extended, checked bool
}

// newAgentTable is an empty table, sized for about n agents.
func newAgentTable(n int) *agentTable {
	t := &agentTable{idTab: strtab.New(n), texts: strtab.New(n), entries: make([]agentEntry, 0, n), sources: make(map[key]uint32, n)}
	t.texts.Add("") // number 0, an entry's zero value
	return t
}

// text is text number i.
func (t *agentTable) text(i uint32) string { return t.texts.At(int(i)) }

// find is the entry of id, or -1.
func (t *agentTable) find(id string) int {
	if e, ok := t.idTab.Find(id); ok {
		return e
	}
	return -1
}

// entry is the entry of id, added (with no record) when there is none.
func (t *agentTable) entry(id string) int {
	e := t.idTab.Add(id)
	if e == len(t.entries) {
		t.entries = append(t.entries, agentEntry{})
	}
	return e
}

// id is the id of entry e.
func (t *agentTable) id(e uint32) string { return t.idTab.At(int(e)) }

// len is how many agents the table has a record of.
func (t *agentTable) len() int { return t.records }

// get is the record of agent id: its own copy of the stats and sums.
func (t *agentTable) get(id string) (agentRecord, bool) {
	e := t.find(id)
	if e < 0 || !t.entries[e].has {
		return agentRecord{}, false
	}
	return t.record(&t.entries[e]), true
}

// record is the agentRecord entry en holds.
func (t *agentTable) record(en *agentEntry) agentRecord {
	rec := agentRecord{Key: en.Key, Projected: t.text(en.projected), Extra: t.extraNames(en), Folders: en.Folders, Extended: en.extended, checked: en.checked}
	if en.nstats > 0 {
		rec.Stats = slices.Clone(t.stats[en.files : en.files+en.nstats])
	}
	if en.nsums > 0 {
		rec.Sums = slices.Clone(t.sums[en.files : en.files+en.nsums])
	}
	return rec
}

// extraNames is the Extra of the record entry en holds (nil for none).
func (t *agentTable) extraNames(en *agentEntry) []string {
	if en.extra.n == 0 {
		return nil
	}
	names := make([]string, en.extra.n)
	for i, x := range t.extras[en.extra.off : en.extra.off+en.extra.n] {
		names[i] = t.text(x)
	}
	return names
}

// projected is the Projected of agent id's record ("" for none).
func (t *agentTable) projected(id string) string {
	e := t.find(id)
	if e < 0 || !t.entries[e].has {
		return ""
	}
	return t.text(t.entries[e].projected)
}

// set records agent id as rec, and returns the entry.
func (t *agentTable) set(id string, rec *agentRecord) uint32 {
	e := t.entry(id)
	en := &t.entries[e]
	if !en.has {
		t.records++
	}
	en.has, en.Key, en.Folders, en.extended, en.checked = true, rec.Key, rec.Folders, rec.Extended, rec.checked
	en.projected = uint32(t.texts.Add(rec.Projected))
	// The names the entry held may be held again: they are still where
	// they were, whatever the entry held since.
	if x := (span{en.extra.off, uint32(len(rec.Extra))}); t.sameExtra(x, rec.Extra) {
		en.extra = x
	} else {
		en.extra = span{uint32(len(t.extras)), uint32(len(rec.Extra))}
		for _, name := range rec.Extra {
			t.extras = append(t.extras, uint32(t.texts.Add(name)))
		}
	}
	// The two runs begin at the same place (a record read from a state
	// file may hold more of one than of the other).
	if n := uint32(max(len(rec.Stats), len(rec.Sums))); n > en.cap {
		en.files, en.cap = uint32(len(t.stats)), n
		t.stats = append(t.stats, make([]fileStat, n)...)
		t.sums = append(t.sums, make([][32]byte, n)...)
	}
	en.nstats, en.nsums = uint32(len(rec.Stats)), uint32(len(rec.Sums))
	copy(t.stats[en.files:], rec.Stats)
	copy(t.sums[en.files:], rec.Sums)
	return uint32(e)
}

// sameExtra reports whether the names at s are names.
func (t *agentTable) sameExtra(s span, names []string) bool {
	if int(s.off)+len(names) > len(t.extras) {
		return false
	}
	for i, name := range names {
		if t.text(t.extras[s.off+uint32(i)]) != name {
			return false
		}
	}
	return true
}

// remove forgets the record of agent id.
func (t *agentTable) remove(id string) {
	if e := t.find(id); e >= 0 && t.entries[e].has {
		t.entries[e] = agentEntry{}
		t.records--
	}
}

// all yields the id and record of every agent the table has a record
// of; set may change the records of those ids meanwhile.
func (t *agentTable) all() iter.Seq2[string, agentRecord] {
	return func(yield func(string, agentRecord) bool) {
		for e := range t.entries {
			if en := &t.entries[e]; en.has && !yield(t.id(uint32(e)), t.record(en)) {
				return
			}
		}
	}
}

// ids are the ids of the agents the table has a record of.
func (t *agentTable) ids() []string {
	out := make([]string, 0, t.records)
	for e := range t.entries {
		if t.entries[e].has {
			out = append(out, t.id(uint32(e)))
		}
	}
	return out
}
