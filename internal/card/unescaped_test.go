package card

import (
	"strings"
	"testing"
)

// TestUnescapedRun: UnescapedRun stops at the first control character,
// '"' or '\\', wherever it lies in its 8-byte word, and passes over bytes
// that are not ASCII, where unescapedRun(s, true) stops too.
func TestUnescapedRun(t *testing.T) {
	for _, stop := range []byte{0, 0x1f, '"', '\\', 0x7f, 0x80, 0xff} {
		for n := range 20 {
			for at := 0; at <= n; at++ {
				b := []byte(strings.Repeat("a~ !#[]}", 3)[:n])
				want, wantASCII := n, n
				if at < n {
					b[at] = stop
					if stop < 0x20 || stop == '"' || stop == '\\' {
						want, wantASCII = at, at
					} else if stop >= 0x80 {
						wantASCII = at
					}
				}
				if got := UnescapedRun(string(b)); got != want {
					t.Fatalf("UnescapedRun(%q) = %d, want %d", b, got, want)
				}
				if got := unescapedRun(string(b), true); got != wantASCII {
					t.Fatalf("unescapedRun(%q, true) = %d, want %d", b, got, wantASCII)
				}
			}
		}
	}
}
