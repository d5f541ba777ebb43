package manifest

import (
	"math/rand/v2"
	"testing"
)

// skipStringRef is skipString as first written, one byte at a time: the
// reference the faster one is held to.
func skipStringRef(src []byte, i int) int {
	q := src[i]
	multi := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if multi {
		i += 3
	} else {
		i++
	}
	for ; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\' && q == '"':
			i++
		case c == '\n' && !multi:
			return i - 1
		case c == q && !multi:
			return i
		case c == q && i+2 < len(src) && src[i+1] == q && src[i+2] == q:
			i += 2
			for k := 0; k < 2 && i+1 < len(src) && src[i+1] == q; k++ {
				i++
			}
			return i
		}
	}
	return len(src) - 1
}

// TestSkipStringMatchesReference: over random strings of quotes,
// backslashes, newlines and other text, basic and literal, one- and
// multi-line, skipString ends where the reference does.
func TestSkipStringMatchesReference(t *testing.T) {
	pieces := []string{`"`, `'`, `\`, "\n", "a", "bcdefghij", "é", `\"`, `""`, `'''`, `"""`, " ", "\t"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		src := []byte{`"'`[r.IntN(2)]}
		if r.IntN(2) == 0 {
			src = append(src, src[0], src[0])
		}
		for range r.IntN(16) {
			src = append(src, pieces[r.IntN(len(pieces))]...)
		}
		if got, want := skipString(src, 0), skipStringRef(src, 0); got != want {
			t.Fatalf("skipString(%q) = %d, want %d", src, got, want)
		}
	}
}

// TestNextOf3: nextOf3 finds the first of its three bytes wherever it lies
// in an 8-byte word, and len(src) when there is none.
func TestNextOf3(t *testing.T) {
	for n := range 20 {
		for at := 0; at <= n; at++ {
			for _, c := range []byte{'"', '\\', '\n'} {
				src := make([]byte, n)
				for i := range src {
					src[i] = byte('a' + i%20)
				}
				want := n
				if at < n {
					src[at] = c
					want = at
				}
				for from := 0; from <= n; from++ {
					w := want
					if from > at {
						w = n
					}
					if got := nextOf3(src, from, '"', '\\', '\n'); got != w {
						t.Fatalf("nextOf3(%q, %d) = %d, want %d", src, from, got, w)
					}
				}
			}
		}
	}
}

// TestBasicRun: basicRun stops at the first control character, '"', '\\'
// or DEL wherever it lies in an 8-byte word, and goes past other bytes,
// non-ASCII ones too.
func TestBasicRun(t *testing.T) {
	for _, stop := range []byte{0, '\t', '\n', 0x1f, '"', '\\', 0x7f} {
		for n := range 20 {
			for at := 0; at <= n; at++ {
				src := []byte("aé~ #'[]}aé~ #'[]}aé~ #'[]}")[:n]
				want := n
				if at < n {
					src[at] = stop
					want = at
				}
				if got := basicRun(src, 0); got != want {
					t.Fatalf("basicRun(%q) = %d, want %d", src, got, want)
				}
			}
		}
	}
}
