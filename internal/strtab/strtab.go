// Package strtab numbers distinct strings in a table that holds no
// pointers for the garbage collector to follow: their bytes in one text
// that only grows (a string cut from it stays valid as it grows), each
// string's place in it, and an index by hash of the strings' numbers. A
// large site's build or verify keeps hundreds of thousands of ids and
// paths live to its end; held in maps of strings, every collection would
// visit each of them.
package strtab

import (
	"hash/maphash"
	"strings"
)

// Table numbers strings 0, 1, 2... in the order they were added. Reads
// of a table no one writes may run at once.
type Table struct {
	text  strings.Builder
	spans []span // where each string is in text, by number
	// index is open addressing by the hash of a string: its number + 1,
	// 0 where empty. Its length is a power of two, at least twice the
	// number of strings.
	index []uint32
	seed  maphash.Seed
}

// span is where a string is in a table's text.
type span struct{ off, n int }

// New is an empty table, sized for about n strings.
func New(n int) *Table {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return &Table{spans: make([]span, 0, n), index: make([]uint32, size), seed: maphash.MakeSeed()}
}

// Len is how many strings t holds.
func (t *Table) Len() int { return len(t.spans) }

// At is string number i.
func (t *Table) At(i int) string {
	s := t.spans[i]
	return t.text.String()[s.off : s.off+s.n]
}

// Find is the number of s, if t holds it.
func (t *Table) Find(s string) (int, bool) {
	mask := uint64(len(t.index) - 1)
	for i := maphash.String(t.seed, s) & mask; ; i = (i + 1) & mask {
		e := t.index[i]
		if e == 0 {
			return 0, false
		}
		if t.At(int(e-1)) == s {
			return int(e - 1), true
		}
	}
}

// Add is the number of s, added when t does not hold it yet.
func (t *Table) Add(s string) int {
	if i, ok := t.Find(s); ok {
		return i
	}
	if 2*(len(t.spans)+1) > len(t.index) {
		t.index = make([]uint32, 2*len(t.index))
		for i := range t.spans {
			t.place(i)
		}
	}
	i := len(t.spans)
	t.spans = append(t.spans, span{t.text.Len(), len(s)})
	t.text.WriteString(s)
	t.place(i)
	return i
}

// place puts string number i in the index.
func (t *Table) place(i int) {
	mask := uint64(len(t.index) - 1)
	h := maphash.String(t.seed, t.At(i)) & mask
	for t.index[h] != 0 {
		h = (h + 1) & mask
	}
	t.index[h] = uint32(i + 1)
}
