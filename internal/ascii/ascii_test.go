package ascii

import (
	"strings"
	"testing"
)

// TestIs: one byte of 0x80 or above anywhere in its 8-byte word, or in
// the tail, makes a string not ASCII.
func TestIs(t *testing.T) {
	for n := range 20 {
		s := strings.Repeat("a\x00~\x7f", 5)[:n]
		if !Is(s) {
			t.Fatalf("Is(%q) = false", s)
		}
		for at := range n {
			for _, c := range []byte{0x80, 0xc3, 0xff} {
				b := []byte(s)
				b[at] = c
				if Is(string(b)) {
					t.Fatalf("Is(%q) = true", b)
				}
			}
		}
	}
}

// BenchmarkIs reads a card description's worth of ASCII text.
func BenchmarkIs(b *testing.B) {
	s := strings.Repeat("Reads invoices and returns their totals. ", 15)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if !Is(s) {
			b.Fatal("not ASCII")
		}
	}
}
