package prefilter

// table finds which of a set of literals a text holds, in one pass over
// the text: at each position, the next four bytes (or two, for shorter
// literals, or one) are looked up in bit tables of the literals' first
// bytes, and only literals that start so are compared.
type table struct {
	hasSingle bool
	single    [256 / 64]uint64 // one-byte literals
	singleIDs map[byte][]int
	heads     [256 * 256 / 64]uint64     // the first two bytes of every literal of two bytes or more
	pairs     [256 * 256 / 64]uint64     // the first two bytes of two- and three-byte literals
	byPair    groups                     // two- and three-byte literals, by their first two bytes
	quads     [1 << quadBits / 64]uint64 // a hash of the first four bytes of longer literals
	byQuad    groups                     // longer literals, by their first four bytes
}

// quadBits is the size of the hash of four bytes: 8 KiB of bits.
const quadBits = 16

// entry is a literal of two bytes or more and what it stands for.
type entry struct {
	lit string
	id  int
	// next is the literal's bytes 4 to 7, as quad reads them, of which
	// mask keeps those it has: text holds a literal of four bytes or more
	// at i only if quad(text, i+4)&mask is next, which is compared
	// before the literal itself (the literals sharing a first four bytes,
	// "you are now", "you will act as" ..., are many).
	next, mask uint32
}

// newEntry is the entry of lit, standing for id.
func newEntry(lit string, id int) entry {
	e := entry{lit: lit, id: id}
	for j := 4; j < min(len(lit), 8); j++ {
		e.next |= uint32(lit[j]) << (8 * (j - 4))
		e.mask |= 0xFF << (8 * (j - 4))
	}
	return e
}

func newTable() *table {
	return &table{singleIDs: map[byte][]int{}}
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
		t.byPair.add(uint32(k), newEntry(lit, id))
	default:
		k := uint16(lit[0])<<8 | uint16(lit[1])
		t.heads[k/64] |= 1 << (k % 64)
		q := quad(lit, 0)
		h := quadHash(q)
		t.quads[h/64] |= 1 << (h % 64)
		t.byQuad.add(q, newEntry(lit, id))
	}
}

// groups holds entries by a key of 32 bits: an open-addressing table of
// the keys, each with its entries, looked up in a few instructions where
// a Go map's lookup takes tens (the scans look one up at every place a
// text holds a literal's first bytes).
type groups struct {
	n     int
	slots []group // a power of two of them, at most half used; nil when empty
}

// group is the entries of one key; ents is nil in an empty slot.
type group struct {
	key  uint32
	ents []entry
}

// slot is where key's probe sequence starts.
func (g *groups) slot(key uint32) uint32 {
	h := key * 0x85EBCA6B
	return (h ^ h>>15) & uint32(len(g.slots)-1)
}

// get returns the entries of key, or nil.
func (g *groups) get(key uint32) []entry {
	if g.slots == nil {
		return nil
	}
	mask := uint32(len(g.slots) - 1)
	for i := g.slot(key); ; i = (i + 1) & mask {
		s := &g.slots[i]
		if s.ents == nil || s.key == key {
			return s.ents
		}
	}
}

// add appends e to the entries of key.
func (g *groups) add(key uint32, e entry) {
	if 2*(g.n+1) > len(g.slots) {
		old := g.slots
		g.slots = make([]group, max(16, 2*len(old)))
		for _, s := range old {
			if s.ents != nil {
				*g.find(s.key) = s
			}
		}
	}
	s := g.find(key)
	if s.ents == nil {
		s.key = key
		g.n++
	}
	s.ents = append(s.ents, e)
}

// find returns key's slot, or the empty one where it would go.
func (g *groups) find(key uint32) *group {
	mask := uint32(len(g.slots) - 1)
	for i := g.slot(key); ; i = (i + 1) & mask {
		if s := &g.slots[i]; s.ents == nil || s.key == key {
			return s
		}
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
			for _, e := range t.byPair.get(uint32(k)) {
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
		if i+8 > len(text) {
			for _, e := range t.byQuad.get(q) {
				if hasAt(text, i, e.lit) && found(e.id) {
					return
				}
			}
			continue
		}
		next := quad(text, i+4)
		for _, e := range t.byQuad.get(q) {
			if next&e.mask == e.next && hasAt(text, i, e.lit) && found(e.id) {
				return
			}
		}
	}
}

// mark sets may[id] for the id of each literal of t that text holds: what
// scan does with a found that sets it, without the call per literal found,
// and without comparing a literal whose id is set already (text holding it
// once more changes nothing).
func mark[T string | []byte](t *table, text T, may []bool) {
	if t.hasSingle {
		for i := 0; i < len(text); i++ {
			if c := text[i]; t.single[c/64]&(1<<(c%64)) != 0 {
				for _, id := range t.singleIDs[c] {
					may[id] = true
				}
			}
		}
	}
	for i := 0; i+1 < len(text); i++ {
		k := uint16(text[i])<<8 | uint16(text[i+1])
		if t.heads[k/64]&(1<<(k%64)) == 0 {
			continue // no literal of two bytes or more starts here
		}
		if t.pairs[k/64]&(1<<(k%64)) != 0 {
			for _, e := range t.byPair.get(uint32(k)) {
				if !may[e.id] && hasAt(text, i, e.lit) {
					may[e.id] = true
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
		if i+8 > len(text) {
			for _, e := range t.byQuad.get(q) {
				if !may[e.id] && hasAt(text, i, e.lit) {
					may[e.id] = true
				}
			}
			continue
		}
		next := quad(text, i+4)
		for _, e := range t.byQuad.get(q) {
			if next&e.mask == e.next && !may[e.id] && hasAt(text, i, e.lit) {
				may[e.id] = true
			}
		}
	}
}

// hasAt reports whether text holds lit at i.
func hasAt[T string | []byte](text T, i int, lit string) bool {
	return len(text)-i >= len(lit) && string(text[i:i+len(lit)]) == lit
}
