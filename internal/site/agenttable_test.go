package site

import (
	"fmt"
	"reflect"
	"testing"
)

// agentTableOf is a table holding recs, and sources (each source's id).
func agentTableOf(recs map[string]agentRecord, sources map[key]string) *agentTable {
	t := newAgentTable(len(recs))
	for id, rec := range recs {
		t.set(id, &rec)
	}
	for raw, id := range sources {
		t.setSource(raw, id)
	}
	return t
}

// agentsOf is what the table of tr holds: the records by id, and the id
// of each source (nil for a nil tree).
func agentsOf(tr *treeState) (map[string]agentRecord, map[key]string) {
	if tr == nil {
		return nil, nil
	}
	recs, sources := map[string]agentRecord{}, map[key]string{}
	for id, rec := range tr.Agents.all() {
		recs[id] = rec
	}
	for raw := range tr.Agents.sources {
		sources[raw], _ = tr.Agents.source(raw)
	}
	return recs, sources
}

// sameAgents reports whether the tables of a and b hold the same.
func sameAgents(a, b *treeState) bool {
	ra, sa := agentsOf(a)
	rb, sb := agentsOf(b)
	return reflect.DeepEqual(ra, rb) && reflect.DeepEqual(sa, sb)
}

// withoutAgents is st with its trees' tables left out, for
// reflect.DeepEqual (sameAgents compares them).
func withoutAgents(st *buildState) *buildState {
	out := *st
	for _, tr := range []**treeState{&out.Live, &out.Standby} {
		if *tr != nil {
			c := **tr
			c.Agents = nil
			*tr = &c
		}
	}
	return &out
}

// TestAgentTable checks that a table gives back what was recorded, by
// id, as it grows, and forgets what is removed.
func TestAgentTable(t *testing.T) {
	tab := newAgentTable(0)
	want := map[string]agentRecord{}
	for i := range 1000 {
		id := fmt.Sprintf("agent-%d", i)
		rec := agentRecord{Key: key{byte(i), byte(i >> 8)}, Folders: [2]fileStat{{Ino: uint64(i)}, {Size: 1}}, Extended: i%3 == 0}
		if i%7 == 0 {
			rec.Projected = "name\ndescription"
			rec.Extra = []string{fmt.Sprintf("up-%d.json", i), "other.json"}
		}
		for j := range 3 + len(rec.Extra) {
			rec.Stats = append(rec.Stats, fileStat{Size: int64(i), Ino: uint64(j)})
			rec.Sums = append(rec.Sums, [32]byte{byte(i), byte(j)})
		}
		tab.set(id, &rec)
		want[id] = rec
		if i%10 == 0 {
			tab.setSource(key{1, byte(i), byte(i >> 8)}, id)
		}
	}
	tab.setSource(key{2}, "agent-without-record")
	for i := range 1000 {
		if i%5 == 0 {
			id := fmt.Sprintf("agent-%d", i)
			tab.remove(id)
			delete(want, id)
		}
	}
	if tab.len() != len(want) {
		t.Errorf("%d records, want %d", tab.len(), len(want))
	}
	got := map[string]agentRecord{}
	for id, rec := range tab.all() {
		got[id] = rec
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the records read differ from those recorded")
	}
	for id, rec := range want {
		if r, ok := tab.get(id); !ok || !reflect.DeepEqual(r, rec) {
			t.Errorf("%s: %+v, %v; want %+v", id, r, ok, rec)
		}
		if tab.projected(id) != rec.Projected {
			t.Errorf("%s: projected %q", id, tab.projected(id))
		}
	}
	for _, id := range []string{"agent-0", "agent-1000", "agent-without-record", ""} {
		if r, ok := tab.get(id); ok {
			t.Errorf("%s: %+v, though not recorded", id, r)
		}
	}
	if id, ok := tab.source(key{1, 20}); !ok || id != "agent-20" {
		t.Errorf("source of agent-20: %q, %v", id, ok)
	}
	if id, ok := tab.source(key{2}); !ok || id != "agent-without-record" {
		t.Errorf("source of agent-without-record: %q, %v", id, ok)
	}
	if id, ok := tab.source(key{3}); ok {
		t.Errorf("an unknown source is %q's", id)
	}
}

// TestAgentTableRecordAgain checks that recording an agent again, as it
// was or with no more files, takes no more memory, and that a record
// read is the reader's own copy.
func TestAgentTableRecordAgain(t *testing.T) {
	tab := newAgentTable(0)
	rec := agentRecord{Key: key{1}, Projected: "name", Extra: []string{"up.json"}, Stats: make([]fileStat, 4), Sums: make([][32]byte, 4)}
	tab.set("a", &rec)
	texts, stats := tab.texts.Len(), len(tab.stats)
	for range 3 {
		got, _ := tab.get("a")
		got.Stats[0].Size, got.Sums[0][0] = 9, 9
		tab.set("a", &agentRecord{})
		tab.set("a", &rec)
	}
	if tab.texts.Len() != texts || len(tab.stats) != stats || len(tab.sums) != stats {
		t.Errorf("recorded again: %d texts, %d stats, %d sums; want %d, %d", tab.texts.Len(), len(tab.stats), len(tab.sums), texts, stats)
	}
	if got, _ := tab.get("a"); !reflect.DeepEqual(got, rec) {
		t.Errorf("got %+v, want %+v", got, rec)
	}
}

// TestAgentTableHoldsNoPointers checks that a table's entries, which a
// large site holds by the hundred thousand through the whole build, give
// the collector nothing to scan.
func TestAgentTableHoldsNoPointers(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[agentEntry](), reflect.TypeFor[span](), reflect.TypeFor[fileStat](), reflect.TypeFor[key]()} {
		if hasPointers(typ) {
			t.Errorf("%v holds pointers", typ)
		}
	}
	if !hasPointers(reflect.TypeFor[agentRecord]()) {
		t.Error("hasPointers finds none in agentRecord")
	}
}

// hasPointers reports whether a value of typ holds a pointer.
func hasPointers(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Array:
		return typ.Len() > 0 && hasPointers(typ.Elem())
	case reflect.Struct:
		for i := range typ.NumField() {
			if hasPointers(typ.Field(i).Type) {
				return true
			}
		}
		return false
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	}
	return true
}
