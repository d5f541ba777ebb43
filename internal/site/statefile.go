package site

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/agentcards/agentcards/internal/atomicfile"
	"github.com/agentcards/agentcards/internal/regular"
)

// The state file (.OUT.state) is the builder's own record beside the
// output, never published. It is read and written whole on every build, so
// its layout is one that costs little either way: stateMagic and the
// format, then the private output's record and the two trees, each a flat
// run of fields (unsigned numbers and lengths as uvarints, signed ones as
// varints, keys and sums as their bytes, strings as a length and the
// bytes), and last the CRC-32C of everything before it. A file that is
// damaged, cut short, longer than what it holds, or of another format is
// no state at all: the next build starts afresh.

// stateMagic begins every state file.
const stateMagic = "agentcards build state\n"

// stateFormat is the version of the state file's layout.
const stateFormat = 8

// stateCRC is the checksum of the state file: CRC-32C, which the processor
// computes.
var stateCRC = crc32.MakeTable(crc32.Castagnoli)

// encode is the state file's bytes.
func (st *buildState) encode() []byte {
	w := stateWriter{b: make([]byte, 0, 64+st.Live.sizeHint()+st.Standby.sizeHint())}
	w.b = append(w.b, stateMagic...)
	w.uint(stateFormat)
	w.private(st.Private)
	w.tree(st.Live)
	w.tree(st.Standby)
	return sealState(w.b)
}

// sealState appends to b, a state file's magic and fields, its checksum.
func sealState(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, stateCRC))
}

// sizeHint is about how many bytes t takes in the state file.
func (t *treeState) sizeHint() int {
	if t == nil {
		return 1
	}
	if t.raw != nil {
		return 1 + len(t.raw)
	}
	return 64 + t.Agents.len()*320 + len(t.Agents.sources)*32 + len(t.Files)*96
}

// stateBody checks the state file's frame (magic, format and checksum) and
// returns what lies between; ok is false for anything else.
func stateBody(data []byte) (body []byte, ok bool) {
	if len(data) < len(stateMagic)+1+4 || string(data[:len(stateMagic)]) != stateMagic {
		return nil, false
	}
	n := len(data) - 4
	if crc32.Checksum(data[:n], stateCRC) != binary.LittleEndian.Uint32(data[n:]) {
		return nil, false
	}
	r := stateReader{s: data[len(stateMagic):n]}
	if r.uint() != stateFormat || r.bad {
		return nil, false
	}
	return r.s[r.off:], true
}

// decodeState is the state data holds, or nil when it is no state file of
// this format.
func decodeState(data []byte) *buildState {
	body, ok := stateBody(data)
	if !ok {
		return nil
	}
	r := stateReader{s: body}
	st := &buildState{Private: r.private()}
	st.Live = r.tree()
	st.Standby = r.tree()
	if r.bad || r.off != len(r.s) {
		return nil
	}
	return st
}

// loadPrivateRecord is the private output's record in the state file at
// path (nil when there is none, or no readable state).
func loadPrivateRecord(path string) *privateRecord {
	data, err := regular.ReadFile(path)
	if err != nil {
		return nil
	}
	return decodePrivateRecord(data)
}

// decodePrivateRecord is the private output's record in the state data
// holds (nil when there is none, or no state), read without decoding the
// trees that follow it.
func decodePrivateRecord(data []byte) *privateRecord {
	body, ok := stateBody(data)
	if !ok {
		return nil
	}
	r := stateReader{s: body}
	rec := r.private()
	if r.bad {
		return nil
	}
	return rec
}

// save writes the state file atomically.
func (st *buildState) save(path string) error {
	return atomicfile.Write(path, st.encode(), 0o644)
}

// stateWriter appends a state file's fields to b.
type stateWriter struct{ b []byte }

func (w *stateWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *stateWriter) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *stateWriter) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}
func (w *stateWriter) flag(b bool) {
	if b {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *stateWriter) stat(s fileStat) {
	w.int(s.Size)
	w.int(s.Mtime)
	w.int(s.Ctime)
	w.uint(s.Ino)
	w.uint(uint64(s.Mode))
}

func (w *stateWriter) private(p *privateRecord) {
	w.flag(p != nil)
	if p == nil {
		return
	}
	w.str(p.Path)
	w.uint(p.Dev)
	w.uint(p.Ino)
	w.uint(p.OwnerIno)
	w.int(p.OwnerCtime)
}

// tree writes t: a flag (false for nil), the folder's identity, Clean,
// then the agents, the sources and the other files.
func (w *stateWriter) tree(t *treeState) {
	w.flag(t != nil)
	if t == nil {
		return
	}
	if t.raw != nil {
		// Read from a state file and not changed since: the same bytes.
		w.b = append(w.b, t.raw...)
		return
	}
	w.uint(t.Dev)
	w.uint(t.Ino)
	w.b = append(w.b, t.Clean[:]...)
	a := t.Agents
	w.uint(uint64(a.len()))
	for e := range a.entries {
		if en := &a.entries[e]; en.has {
			w.str(a.id(uint32(e)))
			w.agent(a, en)
		}
	}
	w.uint(uint64(len(a.sources)))
	for raw, e := range a.sources {
		w.b = append(w.b, raw[:]...)
		w.str(a.id(e))
	}
	w.uint(uint64(len(t.Files)))
	for name, rec := range t.Files {
		w.str(name)
		w.b = append(w.b, rec.Key[:]...)
		w.stat(rec.Stat)
		w.b = append(w.b, rec.Sum[:]...)
	}
}

// agent writes the record en of the table a holds.
func (w *stateWriter) agent(a *agentTable, en *agentEntry) {
	w.b = append(w.b, en.Key[:]...)
	w.str(a.text(en.projected))
	w.uint(uint64(en.extra.n))
	for _, x := range a.extras[en.extra.off : en.extra.off+en.extra.n] {
		w.str(a.text(x))
	}
	w.uint(uint64(en.nstats))
	for _, s := range a.stats[en.files : en.files+en.nstats] {
		w.stat(s)
	}
	w.uint(uint64(en.nsums))
	for _, s := range a.sums[en.files : en.files+en.nsums] {
		w.b = append(w.b, s[:]...)
	}
	w.stat(en.Folders[0])
	w.stat(en.Folders[1])
	w.flag(en.extended)
}

// stateReader reads a state file's fields from s, from off on; bad is set
// once anything was missing or malformed, after which every read gives
// zero values.
type stateReader struct {
	s   []byte
	off int
	bad bool
}

func (r *stateReader) uint() uint64 {
	var v uint64
	for shift := uint(0); shift < 64 && r.off < len(r.s); shift += 7 {
		c := r.s[r.off]
		r.off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.bad = true
	return 0
}

func (r *stateReader) int() int64 {
	u := r.uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// fixed is the next n bytes.
func (r *stateReader) fixed(n int) []byte {
	if r.bad || n > len(r.s)-r.off {
		r.bad = true
		return nil
	}
	s := r.s[r.off : r.off+n]
	r.off += n
	return s
}

// str is a string (a copy).
func (r *stateReader) str() string { return string(r.fixed(r.count(1))) }

// count is a length or a number of elements each written in at least
// size bytes: never more than what is left can hold, so that a damaged or
// crafted count cannot make a reader allocate much more than the file's
// size (a record in memory is a few times its bytes in the file).
func (r *stateReader) count(size int) int {
	n := r.uint()
	if r.bad || n > uint64((len(r.s)-r.off)/size) {
		r.bad = true
		return 0
	}
	return int(n)
}

// The fewest bytes a tree's agent, source and file entries take in a
// state file: every string at least its length's byte, every number at
// least one byte.
const (
	minStat      = 5
	minExtraSize = 1 + len("a.json") // sane refuses shorter names
	minAgentSize = 1 + len(key{}) + 1 + 3 + 2*minStat + 1
	minRawSize   = len(key{}) + 1
	minFileSize  = 1 + len(key{}) + minStat + 32
)

func (r *stateReader) flag() bool {
	switch b := r.fixed(1); {
	case len(b) == 0 || b[0] == 0:
		return false
	case b[0] == 1:
		return true
	}
	r.bad = true
	return false
}

func (r *stateReader) stat() fileStat {
	return fileStat{Size: r.int(), Mtime: r.int(), Ctime: r.int(), Ino: r.uint(), Mode: uint32(r.uint())}
}

func (r *stateReader) private() *privateRecord {
	if !r.flag() {
		return nil
	}
	return &privateRecord{Path: r.str(), Dev: r.uint(), Ino: r.uint(), OwnerIno: r.uint(), OwnerCtime: r.int()}
}

func (r *stateReader) tree() *treeState {
	if !r.flag() {
		return nil
	}
	start := r.off
	t := &treeState{Dev: r.uint(), Ino: r.uint()}
	defer func() {
		if !r.bad {
			t.raw = r.s[start:r.off:r.off]
		}
	}()
	copy(t.Clean[:], r.fixed(len(t.Clean)))
	n := r.count(minAgentSize)
	t.Agents = newAgentTable(n)
	var rec agentRecord // read into, and copied into the table
	for range n {
		id := r.fixed(r.count(1))
		r.agent(&rec)
		t.Agents.set(string(id), &rec)
	}
	n = r.count(minRawSize)
	for range n {
		var raw key
		copy(raw[:], r.fixed(len(raw)))
		t.Agents.setSource(raw, string(r.fixed(r.count(1))))
	}
	n = r.count(minFileSize)
	t.Files = make(map[string]fileRecord, n)
	for range n {
		name := r.str()
		var rec fileRecord
		copy(rec.Key[:], r.fixed(len(rec.Key)))
		rec.Stat = r.stat()
		copy(rec.Sum[:], r.fixed(len(rec.Sum)))
		t.Files[name] = rec
	}
	return t
}

// agent reads an agent's record into rec, reusing its slices.
func (r *stateReader) agent(rec *agentRecord) {
	copy(rec.Key[:], r.fixed(len(rec.Key)))
	rec.Projected = r.str()
	rec.Extra = rec.Extra[:0]
	for range r.count(minExtraSize) {
		rec.Extra = append(rec.Extra, r.str())
	}
	rec.Stats = rec.Stats[:0]
	for range r.count(minStat) {
		rec.Stats = append(rec.Stats, r.stat())
	}
	rec.Sums = rec.Sums[:0]
	for range r.count(32) {
		var sum [32]byte
		copy(sum[:], r.fixed(32))
		rec.Sums = append(rec.Sums, sum)
	}
	rec.Folders = [2]fileStat{r.stat(), r.stat()}
	rec.Extended = r.flag()
}
