package lint

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words taken apart to slip past the patterns, and put back together:
// letters spaced out, hyphenated or written as HTML character references,
// a word to a sentence.

// unescapedHTML is s with its HTML character references decoded
// ("&#73;gnore", "ign&ouml;re&nbsp;all"), which renderers and models read
// as the letters; ok says there were some.
func unescapedHTML(s string) (string, bool) {
	if !strings.Contains(s, "&") || !strings.Contains(s, ";") {
		return "", false
	}
	u := html.UnescapeString(s)
	return u, u != s
}

// despaced undoes letter spacing in s, "I g n o r e   a l l" (one space
// between letters, more between words); ok says it made a word some
// pattern uses.
func despaced(s string) (string, bool) {
	if !strings.Contains(s, " ") || !spacedLettersHalved(s) {
		return "", false
	}
	parts := strings.Split(s, " ")
	run, best := 0, 0
	for _, p := range parts {
		if utf8.RuneCountInString(p) == 1 {
			run++
			best = max(best, run)
		} else if p != "" {
			run = 0
		}
	}
	if best < 4 {
		return "", false
	}
	var b, word strings.Builder
	made := false
	flush := func() {
		if word.Len() > 1 && isPatternWord(strings.ToLower(word.String())) {
			made = true
		}
		b.WriteString(word.String())
		word.Reset()
	}
	for _, p := range parts {
		switch {
		case p == "":
			flush()
			b.WriteByte(' ')
		case utf8.RuneCountInString(p) == 1:
			word.WriteString(p)
		default:
			flush()
			b.WriteByte(' ')
			b.WriteString(p)
			b.WriteByte(' ')
		}
	}
	flush()
	return b.String(), made
}

// unhyphenated is s with the hyphens between letters taken out
// ("Ign-ore", "I-g-n-o-r-e"); ok says that made a word some pattern
// uses. allASCII says whether s is all ASCII.
func unhyphenated(s string, allASCII bool) (string, bool) {
	if allASCII {
		// Without building anything: does joining a hyphenated word make
		// a pattern's word?
		if !hyphenMakesPatternWord(s) {
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

// hyphenMakesPatternWord reports whether ASCII s holds a hyphenated
// word (ASCII letters, with a hyphen between two of them now and then)
// that, its hyphens taken out and lower-cased, is a word some pattern
// uses. Only the hyphens are looked for; each word is read from one
// that joins two letters.
func hyphenMakesPatternWord(s string) bool {
	for from := 0; ; {
		d := strings.IndexByte(s[from:], '-')
		if d < 0 {
			return false
		}
		h := from + d
		from = h + 1
		if h == 0 || h+1 == len(s) || !isLetterByte(s[h-1]) || !isLetterByte(s[h+1]) {
			continue // joins no two letters
		}
		// The word around it: letters, and hyphens between two.
		start := h - 1
		for start > 0 {
			if isLetterByte(s[start-1]) {
				start--
			} else if s[start-1] == '-' && start >= 2 && isLetterByte(s[start-2]) {
				start -= 2
			} else {
				break
			}
		}
		end := h + 2
		for end < len(s) {
			if isLetterByte(s[end]) {
				end++
			} else if s[end] == '-' && end+1 < len(s) && isLetterByte(s[end+1]) {
				end += 2
			} else {
				break
			}
		}
		// Its letters, lower-cased, where a word of a pattern may be.
		var buf [32]byte
		n := 0
		for i := start; i < end && n <= len(buf); i++ {
			if c := s[i]; c != '-' {
				if n < len(buf) {
					buf[n] = lowerByte(c)
				}
				n++
			}
		}
		if n <= len(buf) && isPatternWord(string(buf[:n])) || n > len(buf) && isPatternWord(strings.ToLower(strings.ReplaceAll(s[start:end], "-", ""))) {
			return true
		}
		from = end
	}
}

// joinShortSentences drops the sentence ends of folded text that close a
// sentence of one or two words ("ignore . all . previous"), or reports
// false when there is none.
func joinShortSentences(folded string) (string, bool) {
	if !shortSentenceBetweenPatternWords(folded) {
		return folded, false
	}
	words := strings.Split(folded, " ")
	out := make([]string, 0, len(words))
	n, found := 0, false
	for i, w := range words {
		if w == "." {
			// Only between two words some pattern uses: "ignore . all".
			if n > 0 && n <= 2 && i+1 < len(words) && isPatternWord(words[i-1]) && isPatternWord(words[i+1]) {
				found = true
				n = 0
				continue
			}
			n = 0
			out = append(out, w)
			continue
		}
		n++
		out = append(out, w)
	}
	return strings.Join(out, " "), found
}

// shortSentenceBetweenPatternWords reports, without building anything,
// whether folded text has a sentence end joinShortSentences would drop:
// a word "." after one or two words (since the text's start or the last
// "."), between two words some pattern uses. Only the "." words are
// visited: the words before one are counted by the spaces between them.
func shortSentenceBetweenPatternWords(folded string) bool {
	start := 0 // where the words since the last "." start
	for from := 0; ; {
		d := strings.IndexByte(folded[from:], '.')
		if d < 0 {
			return false
		}
		i := from + d
		from = i + 1
		if i > 0 && folded[i-1] != ' ' || i+1 < len(folded) && folded[i+1] != ' ' {
			continue // a "." inside a word
		}
		if i > start {
			// The words of folded[start:i-1], one more than its spaces.
			words := folded[start : i-1]
			if sp := strings.IndexByte(words, ' '); sp < 0 || strings.IndexByte(words[sp+1:], ' ') < 0 {
				prev := words[sp+1:]
				next := ""
				if i+2 <= len(folded) {
					next, _, _ = strings.Cut(folded[i+2:], " ")
				}
				if isPatternWord(prev) && isPatternWord(next) {
					return true
				}
			}
		}
		start = min(i+2, len(folded))
	}
}

// joinSpacedLetters joins runs of four or more one-letter words of folded
// text; ok is false when there is none. spaced is spacedLetters(folded),
// which matchPaddedWords works out.
func joinSpacedLetters(folded string, spaced bool) (string, bool) {
	if !strings.Contains(folded, " ") || !spaced {
		return folded, false
	}
	words := strings.Split(folded, " ")
	var b strings.Builder
	found := false
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && utf8.RuneCountInString(words[j]) == 1 && words[j] != "." {
			j++
		}
		if j-i >= 4 {
			found = true
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.Join(words[i:j], ""))
			i = j
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i])
		i++
	}
	return b.String(), found
}

// spacedLettersHalved is spacedLetters(strings.ReplaceAll(s, "  ", " ")),
// without building that: a run of k spaces there is (k+1)/2 spaces, and
// two spaces in a row, like a space at either end, hold an empty word.
func spacedLettersHalved(s string) bool {
	run := 0
	for i := 0; ; {
		k := i
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if k < i {
			empty := (i-k+1)/2 - 1
			if k == 0 {
				empty++
			}
			if i == len(s) {
				empty++
			}
			if empty > 0 {
				run = 0
			}
		}
		if i == len(s) {
			return false
		}
		// A word: one character or more?
		n := 0
		for ; i < len(s) && s[i] != ' '; i++ {
			if c := s[i]; c == '.' {
				n = 2
			} else if c&0xC0 != 0x80 {
				n++
			}
			if n >= 2 {
				// More: on to the word's end.
				if j := strings.IndexByte(s[i:], ' '); j >= 0 {
					i += j
				} else {
					i = len(s)
				}
				break
			}
		}
		if n != 1 {
			run = 0
		} else if run++; run >= 4 {
			return true
		}
	}
}

// spacedLetters reports whether folded text holds four one-letter words in
// a row: words between spaces of one character (one byte that starts a
// UTF-8 sequence), a sentence's end "." not being one.
func spacedLetters(folded string) bool {
	run := 0
	for i := 0; i <= len(folded); {
		// A word starts at i: count its characters up to two.
		n, j := 0, i
		for ; j < len(folded) && folded[j] != ' '; j++ {
			c := folded[j]
			if c == '.' {
				n = 2 // a sentence's end is not a letter
			} else if c&0xC0 != 0x80 {
				n++
			}
			if n >= 2 {
				break
			}
		}
		if n == 1 {
			if run++; run >= 4 {
				return true
			}
		} else {
			run = 0
		}
		if j < len(folded) && folded[j] != ' ' {
			// A longer word: on to the next.
			k := strings.IndexByte(folded[j:], ' ')
			if k < 0 {
				return false
			}
			j += k
		}
		i = j + 1
	}
	return false
}
