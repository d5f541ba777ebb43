package lint

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/ascii"
)

// asciiHiddenRef is what checkValue did before asciiHidden: ascii.Is,
// then findHidden's count of control characters, one byte at a time.
func asciiHiddenRef(s string) (hidden, bool) {
	if !ascii.Is(s) {
		return hidden{}, false
	}
	var h hidden
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r' {
			if h.count == 0 {
				h.first = rune(c)
			}
			h.count++
		}
	}
	return h, true
}

// sameASCIIHidden fails t when asciiHidden and asciiHiddenRef read s
// differently.
func sameASCIIHidden(t *testing.T, s string) {
	t.Helper()
	h, ok := asciiHidden(s)
	want, wantOK := asciiHiddenRef(s)
	if h != want || ok != wantOK {
		t.Fatalf("asciiHidden(%q) = %+v, %v; as first written %+v, %v", s, h, ok, want, wantOK)
	}
}

// hiddenTexts hold control characters and bytes outside ASCII, at every
// place of an eight-byte word.
var hiddenTexts = []string{
	"", "a", "\x00", "\x1f", "\x7f", "\t\n\r", "plain text of some length, no controls at all",
	"abcdefg\x00", "abcdefgh\x01abcdefgh", "\x7fabcdefgh", "abc\tdef\nghi\rjkl", "abcdefgh\x80", "abcdefghé", "é",
	"seven b\x1b[31mred\x1b[0m", "\u200b", strings.Repeat("x", 63) + "\x08", "\x1f\x20\x7e\x7f\x80",
}

// TestASCIIHiddenSameAsRef: asciiHidden finds what ascii.Is and
// a count byte by byte did, in the gate texts and in random bytes around
// control characters.
func TestASCIIHiddenSameAsRef(t *testing.T) {
	for _, s := range append(hiddenTexts, gateTexts(t)...) {
		sameASCIIHidden(t, s)
	}
	pieces := []string{"a", "bc", "defgh", " ", "\t", "\n", "\r", "\x00", "\x1f", "\x20", "\x7e", "\x7f", "\x80", "é", "\x1b"}
	rng := rand.New(rand.NewPCG(17, 18))
	found := 0
	for range 30000 {
		s := randomText(rng, pieces, 24)
		sameASCIIHidden(t, s)
		if h, ok := asciiHiddenRef(s); ok && h.count > 0 {
			found++
		}
	}
	if found < 1000 {
		t.Fatalf("only %d random texts hold control characters", found)
	}
}

// FuzzASCIIHidden holds asciiHidden to asciiHiddenRef on any text.
func FuzzASCIIHidden(f *testing.F) {
	for _, s := range hiddenTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameASCIIHidden(t, s) })
}

// TestConfusableNameOnlyOutsideASCII: whether a text is a name changes
// what confusable finds only in text that is neither ASCII nor a URL,
// which checkValue alone asks isNameField for.
func TestConfusableNameOnlyOutsideASCII(t *testing.T) {
	texts := append(gateTexts(t), "Pаypal", "ｐａｙｐａｌ", "https://xn--pypal-4ve.example.com/", "https://pаypal.example.com/", "𝐏𝐚𝐲𝐏𝐚𝐥", "Ѕcan")
	differ := 0
	for _, s := range texts {
		allASCII, isURL := ascii.Is(s), looksLikeURL(s)
		name, other := confusable(s, true, isURL, allASCII), confusable(s, false, isURL, allASCII)
		if name != other && (allASCII || isURL) {
			t.Fatalf("confusable(%q) as a name %q, not as a name %q", s, name, other)
		}
		if name != other {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("no text is read otherwise as a name")
	}
}
