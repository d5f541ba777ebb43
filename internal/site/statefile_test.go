package site

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// sampleState is a state with every kind of field set.
func sampleState() *buildState {
	live := newTreeState()
	live.Dev, live.Ino, live.Clean = 7, 1<<40, key{1, 2, 3}
	live.Agents.set("agent-1", &agentRecord{
		Key:       key{9},
		Projected: "name\ndescription",
		Extra:     []string{"upstream.json"},
		Stats:     []fileStat{{Size: 10, Mtime: -5, Ctime: 1 << 62, Ino: 3, Mode: 0o644}, {Size: 1}, {Ino: 2}, {Mode: 1 << 31}},
		Sums:      [][32]byte{{1}, {2}, {3}, {4}},
		Folders:   [2]fileStat{{Ino: 11, Mode: 1 << 31}, {Ino: 12, Ctime: 99}},
		Extended:  true,
	})
	live.Agents.set("agent-2", &agentRecord{}) // unknown: to be rewritten
	live.Agents.setSource(key{5}, "agent-1")
	live.Agents.setSource(key{6}, "agent-2")
	live.Agents.setSource(key{7}, "agent-3") // a source whose agent has no record
	live.Files["index.html"] = fileRecord{Key: key{8}, Stat: fileStat{Size: 100, Mtime: 1, Ctime: 2, Ino: 4, Mode: 0o644}, Sum: [32]byte{7}}
	live.Files["page/2/index.html"] = fileRecord{}
	standby := newTreeState()
	standby.Dev, standby.Ino = 7, 8
	return &buildState{
		Live:    live,
		Standby: standby,
		Private: &privateRecord{Path: "/srv/private", Dev: 7, Ino: 9, OwnerIno: 10, OwnerCtime: -1},
	}
}

// TestStateRoundTrip checks that a state file gives back the state saved,
// with or without a standby and a private output.
func TestStateRoundTrip(t *testing.T) {
	for _, st := range []*buildState{sampleState(), {Live: sampleState().Live}, {}} {
		path := filepath.Join(t.TempDir(), ".public.state")
		if err := st.save(path); err != nil {
			t.Fatal(err)
		}
		got := loadState(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Saved again unchanged, the trees are copied as they were read.
		if again := got.encode(); !bytes.Equal(again, data) {
			t.Error("the state read and saved again differs")
		}
		for _, tr := range []*treeState{got.Live, got.Standby} {
			if tr != nil {
				tr.raw = nil
			}
		}
		for _, tr := range [][2]*treeState{{got.Live, st.Live}, {got.Standby, st.Standby}} {
			if !sameAgents(tr[0], tr[1]) {
				gotRecs, gotSources := agentsOf(tr[0])
				recs, sources := agentsOf(tr[1])
				t.Errorf("loaded agents %+v %v\nsaved %+v %v", gotRecs, gotSources, recs, sources)
			}
		}
		if !reflect.DeepEqual(withoutAgents(got), withoutAgents(st)) {
			t.Errorf("loaded %+v\nsaved %+v", got, st)
		}

		if rec := loadPrivateRecord(path); !reflect.DeepEqual(rec, st.Private) {
			t.Errorf("private record %+v, saved %+v", rec, st.Private)
		}
	}
}

// TestStateDamagedRejected checks that a state file with any byte changed,
// cut short anywhere, with bytes added, of another format, or in the gob
// layout of earlier versions is no state.
func TestStateDamagedRejected(t *testing.T) {
	data := sampleState().encode()
	if decodeState(data) == nil {
		t.Fatal("the sample state does not decode")
	}
	rejected := func(what string, d []byte) {
		t.Helper()
		if st := decodeState(d); st != nil {
			t.Errorf("%s: decoded", what)
		}
		if rec := decodePrivateRecord(d); rec != nil {
			t.Errorf("%s: private record %+v", what, rec)
		}
	}
	for i := range data {
		d := bytes.Clone(data)
		d[i] ^= 0x10
		rejected("byte "+strconv.Itoa(i)+" changed", d)
	}
	for n := range len(data) {
		rejected("cut to "+strconv.Itoa(n)+" bytes", data[:n])
	}
	rejected("a byte added", append(bytes.Clone(data), 0))

	// Another format, its checksum right.
	w := stateWriter{b: []byte(stateMagic)}
	w.uint(stateFormat + 1)
	w.private(nil)
	w.tree(nil)
	w.tree(nil)
	rejected("another format", sealState(w.b))

	// The gob layout of format 7, whose trees held their agents and
	// sources in maps.
	type gobTree struct {
		Dev, Ino uint64
		Agents   map[string]agentRecord
		Raws     map[key]string
		Files    map[string]fileRecord
		Clean    key
	}
	live := sampleState().Live
	recs, sources := agentsOf(live)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(struct {
		Format int
		Live   *gobTree
	}{7, &gobTree{live.Dev, live.Ino, recs, sources, live.Files, live.Clean}}); err != nil {
		t.Fatal(err)
	}
	rejected("gob", buf.Bytes())

	// Through the file.
	path := filepath.Join(t.TempDir(), ".public.state")
	if err := os.WriteFile(path, data[:len(data)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if st := loadState(path); st.Live != nil || st.Standby != nil || st.Private != nil {
		t.Errorf("a state cut short loaded: %+v", st)
	}
	if rec := loadPrivateRecord(path); rec != nil {
		t.Errorf("a state cut short gave a private record: %+v", rec)
	}
}

// craftedState is a sealed state file with no private record whose live
// tree has an identity and Clean, then the given counts, then tail.
func craftedState(counts []uint64, tail []byte) []byte {
	w := stateWriter{b: []byte(stateMagic)}
	w.uint(stateFormat)
	w.private(nil)
	w.flag(true)
	w.uint(1)
	w.uint(2)
	w.b = append(w.b, make([]byte, len(key{}))...)
	for _, n := range counts {
		w.uint(n)
	}
	return sealState(append(w.b, tail...))
}

// TestStateCountsBounded checks that a count larger than what is left of
// the file fails the read rather than allocating for it.
func TestStateCountsBounded(t *testing.T) {
	data := craftedState([]uint64{1 << 60}, nil) // agents
	allocs := testing.AllocsPerRun(10, func() {
		if decodeState(data) != nil {
			t.Error("decoded")
		}
	})
	if allocs > 10 {
		t.Errorf("%v allocations for a state of %d bytes", allocs, len(data))
	}
}

// TestStateCountsNeedTheirBytes checks that a count the bytes left could
// hold one byte per element, but not one entry per element, fails the
// read before allocating for it: a crafted state with a matching CRC makes
// a build allocate little more than its own size.
func TestStateCountsNeedTheirBytes(t *testing.T) {
	const rest = 1 << 20
	for _, before := range [][]uint64{nil, {0}, {0, 0}} { // agents, raws, files
		data := craftedState(append(before, rest), bytes.Repeat([]byte{0x7f}, rest))
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		if decodeState(data) != nil {
			t.Errorf("count %d after %v: decoded", rest, before)
		}
		runtime.ReadMemStats(&m1)
		// Generous, as other tests may allocate meanwhile: the unchecked
		// counts took 50 to 250 times the size.
		if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 16*uint64(len(data)) {
			t.Errorf("count %d after %v: %d bytes allocated for a state of %d", rest, before, grew, len(data))
		}
	}
}

// TestStateDescribesTrees checks that after each build the state holds
// both trees as they are: every agent and file it records is intact, in
// the output and in the standby, and each tree has a record of every
// agent. (A tree saved as it was read, after the build changed it, would
// not be.)
func TestStateDescribesTrees(t *testing.T) {
	smallGroups(t)
	p := newProject(t, 9)
	out := filepath.Join(t.TempDir(), "public")
	for i := range 4 {
		if i > 0 {
			p.toml = strings.Replace(p.toml, "agent number 7 ", "agent number 7 changed ", 1)
		}
		if _, err := p.build(out); err != nil {
			t.Fatal(err)
		}
		st := loadState(statePath(out))
		trees := []struct {
			dir string
			t   *treeState
		}{{out, st.Live}}
		if i > 0 {
			trees = append(trees, struct {
				dir string
				t   *treeState
			}{standbyPath(out), st.Standby})
		}
		for _, tr := range trees {
			if tr.t == nil || !tr.t.matches(tr.dir) || tr.t.Agents.len() != 9 {
				t.Fatalf("build %d: the state of %s: %+v", i, tr.dir, tr.t)
			}
			for id, rec := range tr.t.Agents.all() {
				if !agentIntact(tr.dir, id, rec) {
					t.Errorf("build %d: %s: agent %s is not as recorded", i, tr.dir, id)
				}
			}
			for name, rec := range tr.t.Files {
				if !intact(filepath.Join(tr.dir, filepath.FromSlash(name)), rec.Stat) {
					t.Errorf("build %d: %s: %s is not as recorded", i, tr.dir, name)
				}
			}
		}
	}
}

// TestDropRecordSavesTheSame: a tree read from a state file saves the
// same bytes once its record is dropped (it is saved from those bytes),
// and drops nothing otherwise; either way, the state file saved with it
// reads back as before.
func TestDropRecordSavesTheSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".public.state")
	if err := sampleState().save(path); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	read := loadState(path)
	if read.Live.raw == nil {
		t.Fatal("a tree read from a state file has no raw bytes")
	}
	read.Live.dropRecord()
	if read.Live.Agents.len() != 0 || len(read.Live.Files) != 0 {
		t.Error("the record of a tree read from a state file is kept")
	}
	if got := read.encode(); !bytes.Equal(got, want) {
		t.Error("a tree whose record was dropped saves other bytes")
	}
	made := sampleState()
	made.Live.dropRecord()
	if !sameAgents(made.Live, sampleState().Live) || !reflect.DeepEqual(made.Live.Files, sampleState().Live.Files) {
		t.Error("the record of a tree not read from a state file is dropped: saving it would lose it")
	}
	var none *treeState
	none.dropRecord()
}
