package prefilter

import (
	"bytes"
	"encoding/binary"
)

// table finds which of a set of literals folded ASCII text holds, in one
// pass over the text: at each position, the next four bytes (or two, for
// shorter literals, or one) are looked up in bit tables of the literals'
// first bytes, and only literals that start so are compared.
type table struct {
	single    [2]uint64 // one-byte literals
	singleIDs map[byte][]int
	pairs     [128 * 128 / 64]uint64 // the first two bytes of two- and three-byte literals
	byPair    map[uint16][]entry
	quads     [1 << quadBits / 64]uint64 // a hash of the first four bytes of longer literals
	byQuad    map[uint32][]entry
}

// quadBits is the size of the hash of four bytes: 8 KiB of bits.
const quadBits = 16

// entry is a literal of two bytes or more and what it stands for.
type entry struct {
	lit []byte
	id  int
}

func newTable() *table {
	return &table{singleIDs: map[byte][]int{}, byPair: map[uint16][]entry{}, byQuad: map[uint32][]entry{}}
}

// add adds lit, folded, standing for id. A literal with a byte outside
// ASCII is left out: the text fold returns never holds it.
func (t *table) add(lit []byte, id int) {
	switch {
	case len(lit) == 0 || bytes.ContainsFunc(lit, func(r rune) bool { return r >= 0x80 }):
	case len(lit) == 1:
		t.single[lit[0]/64] |= 1 << (lit[0] % 64)
		t.singleIDs[lit[0]] = append(t.singleIDs[lit[0]], id)
	case len(lit) < 4:
		k := pairKey(lit[0], lit[1])
		t.pairs[k/64] |= 1 << (k % 64)
		t.byPair[k] = append(t.byPair[k], entry{lit, id})
	default:
		q := binary.LittleEndian.Uint32(lit)
		h := quadHash(q)
		t.quads[h/64] |= 1 << (h % 64)
		t.byQuad[q] = append(t.byQuad[q], entry{lit, id})
	}
}

func pairKey(a, b byte) uint16 { return uint16(a)<<7 | uint16(b) }

func quadHash(q uint32) uint32 { return q * 0x9E3779B1 >> (32 - quadBits) }

// scan calls found with the id of each literal text holds, at each place
// it holds it, until found returns true.
func (t *table) scan(text []byte, found func(id int) bool) {
	for i, c := range text {
		if t.single[c/64]&(1<<(c%64)) != 0 {
			for _, id := range t.singleIDs[c] {
				if found(id) {
					return
				}
			}
		}
		if i+1 == len(text) {
			break
		}
		if k := pairKey(c, text[i+1]); t.pairs[k/64]&(1<<(k%64)) != 0 {
			for _, e := range t.byPair[k] {
				if bytes.HasPrefix(text[i:], e.lit) && found(e.id) {
					return
				}
			}
		}
		if i+4 > len(text) {
			continue
		}
		q := binary.LittleEndian.Uint32(text[i:])
		if h := quadHash(q); t.quads[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, e := range t.byQuad[q] {
			if bytes.HasPrefix(text[i:], e.lit) && found(e.id) {
				return
			}
		}
	}
}
