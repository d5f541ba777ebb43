package lint

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
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
// names.
func confusable(s string, isName, isURL bool) string {
	if isASCII(s) {
		return ""
	}
	if isURL {
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		for _, label := range strings.Split(u.Hostname(), ".") {
			if msg := confusableWord(label, true); msg != "" {
				return "the host name " + msg
			}
		}
		return ""
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) }) {
		if msg := confusableWord(w, isName); msg != "" {
			return msg
		}
	}
	return ""
}

// confusableWord checks one word.
func confusableWord(w string, isName bool) string {
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
	if styled != 0 {
		return fmt.Sprintf("%s is written in styled letters (%U), which imitate %q", quote(w, 40), styled, string(asLatin(styled)))
	}
	if isName && fullWidth != 0 && !strings.ContainsFunc(w, func(r rune) bool {
		return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
	}) {
		return fmt.Sprintf("%s is written in full-width letters (%U)", quote(w, 40), fullWidth)
	}
	if !allowed(set) && (isName || slices.Contains(set, "Latin") && (slices.Contains(set, "Cyrillic") || slices.Contains(set, "Armenian") || slices.Contains(set, "Cherokee"))) {
		return fmt.Sprintf("%s mixes %s letters in one word", quote(w, 40), strings.Join(set, " and "))
	}
	return ""
}
