package lint

// wordIndex is a read-only map from words to values, for the word sets
// the rules look every word of a text up in: an open-addressing table
// with a hash of a word's length and a few of its bytes, which costs a
// fraction of a Go map's lookup for short strings.
type wordIndex[V any] struct {
	mask uint32
	keys []string // "": an empty slot
	vals []V
}

// newWordIndex indexes m, whose keys must not be empty.
func newWordIndex[V any](m map[string]V) *wordIndex[V] {
	n := 16
	for n < 4*len(m) {
		n *= 2
	}
	ix := &wordIndex[V]{mask: uint32(n - 1), keys: make([]string, n), vals: make([]V, n)}
	for k, v := range m {
		if k == "" {
			panic("lint: an empty word in a word index")
		}
		i := wordHash(k) & ix.mask
		for ix.keys[i] != "" {
			i = (i + 1) & ix.mask
		}
		ix.keys[i], ix.vals[i] = k, v
	}
	return ix
}

// get returns the value of w, as a map's lookup does.
func (ix *wordIndex[V]) get(w string) (v V, ok bool) {
	if w == "" {
		return v, false
	}
	for i := wordHash(w) & ix.mask; ix.keys[i] != ""; i = (i + 1) & ix.mask {
		if ix.keys[i] == w {
			return ix.vals[i], true
		}
	}
	return v, false
}

// wordHash hashes a non-empty word by its length and its first, second,
// middle and last bytes.
func wordHash(w string) uint32 {
	n := len(w)
	h := uint32(n)*0x9E3779B1 ^ (uint32(w[0]) | uint32(w[n-1])<<8 | uint32(w[n>>1])<<16 | uint32(w[min(1, n-1)])<<24)
	h *= 0x85EBCA6B
	return h ^ h>>16
}
