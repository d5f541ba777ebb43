package prefilter

// table finds which of a set of literals a text holds, in one pass over
// the text: at each position, the next four bytes (or two, for shorter
// literals, or one) are looked up in bit tables of the literals' first
// bytes, and only literals that start so are compared.
type table struct {
	hasSingle bool
	single    [256 / 64]uint64 // one-byte literals
	singleIDs map[byte][]int
	heads     [256 * 256 / 64]uint64 // the first two bytes of every literal of two bytes or more
	pairs     [256 * 256 / 64]uint64 // the first two bytes of two- and three-byte literals
	byPair    map[uint16][]entry
	quads     [1 << quadBits / 64]uint64 // a hash of the first four bytes of longer literals
	byQuad    map[uint32][]entry
}

// quadBits is the size of the hash of four bytes: 8 KiB of bits.
const quadBits = 16

// entry is a literal of two bytes or more and what it stands for.
type entry struct {
	lit string
	id  int
}

func newTable() *table {
	return &table{singleIDs: map[byte][]int{}, byPair: map[uint16][]entry{}, byQuad: map[uint32][]entry{}}
}

// add adds lit, standing for id.
func (t *table) add(lit string, id int) {
	switch {
	case len(lit) == 0:
	case len(lit) == 1:
		t.hasSingle = true
		t.single[lit[0]/64] |= 1 << (lit[0] % 64)
		t.singleIDs[lit[0]] = append(t.singleIDs[lit[0]], id)
	case len(lit) < 4:
		k := uint16(lit[0])<<8 | uint16(lit[1])
		t.heads[k/64] |= 1 << (k % 64)
		t.pairs[k/64] |= 1 << (k % 64)
		t.byPair[k] = append(t.byPair[k], entry{lit, id})
	default:
		k := uint16(lit[0])<<8 | uint16(lit[1])
		t.heads[k/64] |= 1 << (k % 64)
		q := quad(lit, 0)
		h := quadHash(q)
		t.quads[h/64] |= 1 << (h % 64)
		t.byQuad[q] = append(t.byQuad[q], entry{lit, id})
	}
}

// quad is the four bytes of text at i, as a number.
func quad[T string | []byte](text T, i int) uint32 {
	return uint32(text[i]) | uint32(text[i+1])<<8 | uint32(text[i+2])<<16 | uint32(text[i+3])<<24
}

func quadHash(q uint32) uint32 { return q * 0x9E3779B1 >> (32 - quadBits) }

// scan calls found with the id of each literal of t that text holds, at
// each place it holds it, until found returns true.
func scan[T string | []byte](t *table, text T, found func(id int) bool) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if t.hasSingle && t.single[c/64]&(1<<(c%64)) != 0 {
			for _, id := range t.singleIDs[c] {
				if found(id) {
					return
				}
			}
		}
		if i+1 == len(text) {
			break
		}
		k := uint16(c)<<8 | uint16(text[i+1])
		if t.heads[k/64]&(1<<(k%64)) == 0 {
			continue // no literal of two bytes or more starts here
		}
		if t.pairs[k/64]&(1<<(k%64)) != 0 {
			for _, e := range t.byPair[k] {
				if hasAt(text, i, e.lit) && found(e.id) {
					return
				}
			}
		}
		if i+4 > len(text) {
			continue
		}
		q := quad(text, i)
		if h := quadHash(q); t.quads[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, e := range t.byQuad[q] {
			if hasAt(text, i, e.lit) && found(e.id) {
				return
			}
		}
	}
}

// hasAt reports whether text holds lit at i.
func hasAt[T string | []byte](text T, i int, lit string) bool {
	return len(text)-i >= len(lit) && string(text[i:i+len(lit)]) == lit
}
