package lint

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/agentcards/agentcards/internal/ascii"
)

// Re-spellings read faster, held to the code as first written.

// unhyphenatedRef is unhyphenated as first written: every word of ASCII
// text read, and each hyphenated one copied, to see whether it makes a
// pattern's word. unhyphenated: s with the hyphens between letters taken out
// ("Ign-ore", "I-g-n-o-r-e"); ok says that made a word some pattern
// uses. allASCII says whether s is all ASCII.
func unhyphenatedRef(s string, allASCII bool) (string, bool) {
	if allASCII {
		if strings.IndexByte(s, '-') < 0 {
			return "", false // no word to join
		}
		// Without building anything: does joining a hyphenated word make
		// a pattern's word?
		made := false
		for i := 0; i < len(s) && !made; {
			if !isLetterByte(s[i]) {
				i++
				continue
			}
			j, hyphens := i, 0
			for j < len(s) && (isLetterByte(s[j]) || s[j] == '-' && j+1 < len(s) && isLetterByte(s[j+1]) && j > i) {
				if s[j] == '-' {
					hyphens++
				}
				j++
			}
			if hyphens > 0 {
				w := strings.ToLower(strings.ReplaceAll(s[i:j], "-", ""))
				made = isPatternWord(w)
			}
			i = j
		}
		if !made {
			return "", false
		}
	} else if !strings.ContainsAny(s, "-\u2010\u2011") {
		return "", false
	}
	rs := []rune(s)
	joined := false
	for i, r := range rs {
		if (r == '-' || r == 0x2010 || r == 0x2011) && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			joined = true
			break
		}
	}
	if !joined {
		return "", false
	}
	out := make([]rune, 0, len(rs))
	made := false
	start, hyphens := 0, 0 // the word being read, and its hyphens taken out
	for i, r := range rs {
		if (r == '-' || r == 0x2010 || r == 0x2011) && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			hyphens++
			continue
		}
		if !unicode.IsLetter(r) {
			if hyphens > 0 && isPatternWord(strings.ToLower(string(out[start:]))) {
				made = true
			}
			out = append(out, r)
			start, hyphens = len(out), 0
			continue
		}
		out = append(out, r)
	}
	if hyphens > 0 && isPatternWord(strings.ToLower(string(out[start:]))) {
		made = true
	}
	return string(out), made
}

// sameUnhyphenated fails t when unhyphenated and unhyphenatedRef read s
// differently.
func sameUnhyphenated(t *testing.T, s string) {
	t.Helper()
	got, gotOK := unhyphenated(s, ascii.Is(s))
	want, wantOK := unhyphenatedRef(s, ascii.Is(s))
	if got != want || gotOK != wantOK {
		t.Fatalf("unhyphenated(%q) = %q, %v; as first written %q, %v", s, got, gotOK, want, wantOK)
	}
}

// hyphenTexts are words taken apart by hyphens, and hyphens that take
// nothing apart.
var hyphenTexts = []string{
	"", "-", "--", "a-", "-a", "a-b", "Ign-ore all", "I-g-n-o-r-e previous", "ig--nore", "-ignore-", "x-ignore", "ign-ore-x",
	"IGN-ORE", "in-struct-ions", "code-review supply-chain", "find-workflows-0", "\n- Sample event", "dis-re-gard", "pre-vious",
	"a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-a-b-c-d-e-f-g-h-i-j", strings.Repeat("ab-", 40) + "cd", "ign-0re",
	"ign\u2010ore", "é-ignore", "ig-n-ore.", "for-get every-thing",
}

// TestUnhyphenatedSameAsRef: unhyphenated reads what it did, in the
// gate texts and in random text made of hyphens, letters and the
// pieces of pattern words.
func TestUnhyphenatedSameAsRef(t *testing.T) {
	for _, s := range append(hyphenTexts, gateTexts(t)...) {
		sameUnhyphenated(t, s)
	}
	pieces := []string{"-", "--", " ", "ign", "ore", "ign-ore", "Dis-regard", "in-struc-tions", "-", "-", "IGN", "Ore", "dis", "regard", "in", "struct", "ions", "a", "B", "0", ".", "\n", "é", "_"}
	rng := rand.New(rand.NewPCG(13, 14))
	found := 0
	for range 30000 {
		s := randomText(rng, pieces, 12)
		sameUnhyphenated(t, s)
		if _, ok := unhyphenatedRef(s, ascii.Is(s)); ok {
			found++
		}
	}
	if found < 100 {
		t.Fatalf("only %d random texts make a pattern's word", found)
	}
}

// FuzzUnhyphenated holds unhyphenated to unhyphenatedRef on any text.
func FuzzUnhyphenated(f *testing.F) {
	for _, s := range hyphenTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameUnhyphenated(t, s) })
}
