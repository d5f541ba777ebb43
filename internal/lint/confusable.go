package lint

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/secret"
	"golang.org/x/net/idna"
)

// scripts the mixed-script check tells apart; a letter of any other
// script counts as "other".
var scripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek},
	{"Armenian", unicode.Armenian}, {"Cherokee", unicode.Cherokee}, {"Han", unicode.Han},
	{"Hiragana", unicode.Hiragana}, {"Katakana", unicode.Katakana}, {"Hangul", unicode.Hangul},
	{"Bopomofo", unicode.Bopomofo}, {"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew},
	{"Devanagari", unicode.Devanagari}, {"Thai", unicode.Thai}, {"Georgian", unicode.Georgian},
}

// scriptOf names the script of letter r.
func scriptOf(r rune) string {
	for _, s := range scripts {
		if unicode.Is(s.table, r) {
			return s.name
		}
	}
	for name, t := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(t, r) {
			return name
		}
	}
	return ""
}

// Sets of scripts that are written together in one word (Unicode TS #39,
// "highly restrictive"): Japanese, Chinese and Korean with Latin.
var together = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// allowed reports whether a word written in the set of scripts is
// ordinary.
func allowed(set []string) bool {
	if len(set) <= 1 {
		return true
	}
	for _, t := range together {
		all := true
		for _, s := range set {
			if !slices.Contains(t, s) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// confusable returns why s holds look-alike text, or "". In a name
// (isName) any mix of scripts in one word counts, as do words spelled
// full-width letters outside Chinese, Japanese or Korean words; in other text, a word that mixes Latin with
// Cyrillic, Armenian or Cherokee letters (Latin with Greek is how
// formulas are written: "ΔE"), and styled mathematical letters, which
// exist to look like other letters. In a URL, the host's labels are
// names. allASCII says whether s is all ASCII.
func confusable(s string, isName, isURL, allASCII bool) string {
	if isURL {
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		for _, label := range strings.Split(u.Hostname(), ".") {
			shown := label
			if strings.HasPrefix(strings.ToLower(label), "xn--") {
				// What a browser shows of an internationalized name.
				if d, err := idna.Punycode.ToUnicode(strings.ToLower(label)); err == nil {
					shown = d
				}
			}
			if ascii.Is(shown) {
				continue
			}
			if msg := confusableWord(shown, true, false); msg != "" {
				return "the host name " + msg
			}
			if msg := latinLookalike(shown); msg != "" {
				return "the host name " + msg
			}
		}
		return ""
	}
	if allASCII {
		return ""
	}
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) })
	cjk := strings.ContainsFunc(s, func(r rune) bool {
		return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
	})
	for _, w := range words {
		if msg := confusableWord(w, isName, cjk); msg != "" {
			return msg
		}
	}
	// A word spelled wholly in Cyrillic or Greek letters that look Latin,
	// among Latin words or alone: "Рауре Agent", "аррӏе". Not in a name
	// that is Cyrillic or Greek elsewhere ("Москва ... ТАСС"), and not an
	// acronym in capitals.
	genuine := strings.ContainsFunc(s, func(r rune) bool {
		return unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian) && !strings.ContainsRune(strictLookalikes, r)
	})
	if isName && !genuine {
		latin := false
		for _, w := range words {
			latin = latin || strings.ContainsFunc(w, func(r rune) bool { return unicode.Is(unicode.Latin, r) })
		}
		for _, w := range words {
			if w == strings.ToUpper(w) {
				continue
			}
			if utf8.RuneCountInString(w) >= 4 || latin && utf8.RuneCountInString(w) >= 3 {
				if msg := latinLookalike(w); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

// strictLookalikes are the Cyrillic, Greek and Armenian letters that a
// reader cannot tell from Latin ones in most fonts.
const strictLookalikes = "аеорсухіјѕԁһӏԛԝАВЕКМНОРСТХУІЈЅԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧοναιօսհոց"

// latinLookalike says why a word written only in strictLookalikes reads
// as a Latin word, or "".
func latinLookalike(w string) string {
	n := 0
	for _, r := range w {
		if !strings.ContainsRune(strictLookalikes, r) {
			return ""
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s is spelled in %s letters that look Latin: it reads %q", quote(w, 40), scriptOf([]rune(w)[0]), strings.Map(secret.AsLatin, w))
}

// confusableWord checks one word. cjkText says the text it is from is
// Chinese, Japanese or Korean, which write Latin letters full-width.
func confusableWord(w string, isName, cjkText bool) string {
	var set []string
	styled, fullWidth := rune(0), rune(0)
	for _, r := range w {
		switch {
		case r >= 0x1D400 && r <= 0x1D7FF || r >= 0x24B6 && r <= 0x24E9:
			styled = r
			continue
		case r >= 0xFF21 && r <= 0xFF3A || r >= 0xFF41 && r <= 0xFF5A:
			fullWidth = r
			continue
		case !unicode.IsLetter(r) || r == 'μ': // μ is also the micro sign: μs, μService
			continue
		}
		if sc := scriptOf(r); sc != "" && !slices.Contains(set, sc) {
			set = append(set, sc)
		}
	}
	// One styled letter alone is a mathematical symbol (𝔽, ℝ), not a word.
	if styled != 0 && utf8.RuneCountInString(w) > 1 {
		return fmt.Sprintf("%s is written in styled letters (%U), which imitate %q", quote(w, 40), styled, string(secret.AsLatin(styled)))
	}
	if isName && fullWidth != 0 && !cjkText {
		return fmt.Sprintf("%s is written in full-width letters (%U)", quote(w, 40), fullWidth)
	}
	if !allowed(set) && (isName || slices.Contains(set, "Latin") && (slices.Contains(set, "Cyrillic") || slices.Contains(set, "Armenian") || slices.Contains(set, "Cherokee") || slices.Contains(set, "Greek") && greekLookalike(w))) {
		return fmt.Sprintf("%s mixes %s letters in one word", quote(w, 40), strings.Join(set, " and "))
	}
	if r, ok := phoneticLetter(w); ok && isName {
		return fmt.Sprintf("%s is written with a phonetic letter (%U), which imitates %q", quote(w, 40), r, string(secret.AsLatin(r)))
	}
	if r, ok := smallCapital(w); ok {
		return fmt.Sprintf("%s is written with a small capital letter (%U), which imitates %q", quote(w, 40), r, string(secret.AsLatin(r)))
	}
	return ""
}

// greekLookalike reports whether w holds a Greek letter that looks like a
// Latin one (ο, α, ν...); formulas mix Latin with Greek letters that do
// not ("ΔE", "σ2").
func greekLookalike(w string) bool {
	return strings.ContainsFunc(w, func(r rune) bool { return unicode.Is(unicode.Greek, r) && strings.ContainsRune(strictLookalikes, r) })
}

// smallCapital finds a Latin small capital letter (ᴀ, ʙ, ᴄ ... U+1D00 to
// U+1D22) among the other letters of w: they spell look-alike brand names
// ("Pᴀypal") and have no use in a card.
func smallCapital(w string) (rune, bool) {
	if utf8.RuneCountInString(w) < 2 {
		return 0, false
	}
	for _, r := range w {
		if r >= 0x1D00 && r <= 0x1D22 || r == 0xA730 || r == 0xA731 {
			return r, true
		}
	}
	return 0, false
}

// phoneticLetter finds a letter of the International Phonetic Alphabet
// that imitates a Latin one (ɑ, ɡ, ɩ, ɪ, ʏ...) among ASCII letters of w:
// "Pɑypal".
func phoneticLetter(w string) (rune, bool) {
	var found rune
	allASCII := false
	for _, r := range w {
		switch {
		case r < 0x80 && unicode.IsLetter(r):
			allASCII = true
		case r >= 0x0250 && r <= 0x02AF && secret.AsLatin(r) != r:
			found = r
		}
	}
	return found, found != 0 && allASCII
}
