// Package leak finds private strings in files that are about to be
// published: the text only an agent's extended cards hold must never reach
// the public site. A Finder looks for each string as written and as HTML
// and JSON write it, and, in the text a reader sees (Text), as Normalize
// writes it; always as a whole word (a private skill id "export" is not
// found inside "exporting" or "export-v2"), in one pass over each file
// whatever the number of strings. Public tells text the public site holds
// anyway from text only the private cards hold.
package leak

import (
	"bytes"
	"encoding/json"
	"html"
	"html/template"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinLen is the length in bytes below which an identifier or URL (a skill
// id "forecast", "https://...") is not looked for, and MinProseLen the
// same for prose (names, descriptions, examples: a skill named "Reports",
// a sentence "Contact us."): shorter ones are not private in any useful
// sense, and would be found by chance in ordinary text.
const (
	MinLen      = 6
	MinProseLen = 12
)

// Finder looks for a fixed set of strings.
type Finder struct {
	forms []form
	// filter has a bit set for the hash of the first four bytes of every
	// form: most positions of a file are ruled out by one lookup.
	filter []uint64
	starts map[uint32][]int // first four bytes -> forms
}

// form is one way a private string may be written in a file.
type form struct {
	text     []byte
	original string
}

const filterBits = 1 << 22

// New makes a Finder for prose and identifiers; prose shorter than
// MinProseLen and identifiers shorter than MinLen are left out.
func New(prose, identifiers []string) *Finder {
	f := &Finder{filter: make([]uint64, filterBits/64), starts: map[uint32][]int{}}
	seen := map[string]bool{}
	var strs []string
	for _, s := range prose {
		if len(s) >= MinProseLen {
			strs = append(strs, s)
		}
	}
	for _, s := range identifiers {
		if len(s) >= MinLen {
			strs = append(strs, s)
		}
	}
	for _, s := range strs {
		for _, w := range writings(s) {
			if seen[w] {
				continue
			}
			seen[w] = true
			f.forms = append(f.forms, form{text: []byte(w), original: s})
			k := prefix([]byte(w))
			f.filter[hash(k)/64] |= 1 << (hash(k) % 64)
			f.starts[k] = append(f.starts[k], len(f.forms)-1)
		}
	}
	return f
}

// Len is how many strings (in all their writings) the Finder looks for.
func (f *Finder) Len() int { return len(f.forms) }

// writings are the ways s appears in a published file: as is, escaped for
// HTML (both escapers the standard library has) and inside a JSON string
// (with and without HTML-safe escapes); and in Text, normalized.
func writings(s string) []string {
	out := []string{s, html.EscapeString(s), template.HTMLEscapeString(s)}
	// As Text gives it: normalized. Forms shorter than Find's prefix are
	// never looked for.
	if n := Normalize(s); len(n) >= 4 {
		out = append(out, n)
		// A sentence without its full stop, or with another ("... plan!",
		// "... plan, daily."), is the same sentence to a reader.
		if t := strings.TrimRight(n, ".!?。！？…"); t != n && len(t) >= MinProseLen {
			out = append(out, t)
		}
		// Words run together (spaces written as zero-width spaces, which
		// Normalize drops, or left out): a sentence of four words or more
		// is still read.
		if strings.Count(n, " ") >= 3 {
			out = append(out, strings.ReplaceAll(n, " ", ""))
		}
	}
	for _, escapeHTML := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(escapeHTML)
		if enc.Encode(s) == nil {
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(b.String(), "\n"), `"`)[1:])
		}
	}
	slices.Sort(out)
	return slices.DeleteFunc(slices.Compact(out), func(w string) bool { return len(w) < 4 })
}

func prefix(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func hash(k uint32) uint32 { return (k * 2654435761) >> (32 - 22) }

// Find returns the private strings that occur in data as whole words, each
// once, in the order first found.
func (f *Finder) Find(data []byte) []string {
	if len(f.forms) == 0 {
		return nil
	}
	var found []string
	for i := 0; i+4 <= len(data); i++ {
		k := prefix(data[i:])
		h := hash(k)
		if f.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, fi := range f.starts[k] {
			fm := &f.forms[fi]
			if !bytes.HasPrefix(data[i:], fm.text) || !wholeWord(data, i, i+len(fm.text), fm.text) {
				continue
			}
			if !slices.Contains(found, fm.original) {
				found = append(found, fm.original)
			}
		}
	}
	return found
}

// wholeWord reports whether data[i:j], which equals text, is not part of
// a longer word: where text begins (ends) with a letter or digit, the byte
// before (after) it must not be one.
func wholeWord(data []byte, i, j int, text []byte) bool {
	first, _ := utf8.DecodeRune(text)
	last, _ := utf8.DecodeLastRune(text)
	if isWord(first) && i > 0 {
		if r, _ := utf8.DecodeLastRune(data[:i]); isWord(r) && !unspaced(r) && !unspaced(first) {
			return false
		}
	}
	if isWord(last) && j < len(data) {
		if r, _ := utf8.DecodeRune(data[j:]); isWord(r) && !unspaced(r) && !unspaced(last) {
			return false
		}
	}
	return true
}

// unspaced reports a letter of a script written without spaces between
// words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar), where a word ends
// wherever it ends: next to such a letter there is no word boundary to
// ask for.
func unspaced(r rune) bool {
	return r >= 0x0e00 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// isWord reports whether r continues a word: a letter, a digit, '_' or
// '-' (".../customers" is not a word of ".../customers-overview", nor
// "bulk-export" of "bulk-export-v2").
func isWord(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Public is text the public site shows anyway: private text found in a
// file that Public also holds is not private after all.
type Public struct {
	text string // each string Normalized, one per line
}

// NewPublic is a Public holding strs, which must be text the public output
// holds: the text of public cards, the templates a build uses...; never
// text that is not published.
func NewPublic(strs []string) *Public {
	var b strings.Builder
	for _, s := range strs {
		b.WriteString(Normalize(s))
		b.WriteByte('\n')
	}
	return &Public{text: b.String()}
}

// Holds reports whether p holds s, both normalized, as a whole word in
// the sense Find has: a public ".../customers-overview" does not hold a
// private ".../customers", nor "privately" "private".
func (p *Public) Holds(s string) bool {
	n := Normalize(s)
	if n == "" {
		return false
	}
	text := []byte(p.text)
	for i := 0; ; {
		j := strings.Index(p.text[i:], n)
		if j < 0 {
			return false
		}
		i += j
		if wholeWord(text, i, i+len(n), []byte(n)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(p.text[i:])
		i += size
	}
}

// WindowWords is how many words in a row of a private sentence Pieces
// looks for on their own: a sentence published without its first or last
// words is found by any run of that many words it still holds.
const WindowWords = 8

// Pieces are the parts of a text worth looking for on their own: the
// whole text, each line and sentence of it, trimmed, so that one sentence
// of a private description pasted elsewhere is found too, and each run of
// WindowWords words of a longer sentence, so that one cut short is.
func Pieces(text string) []string {
	out := []string{text}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		out = append(out, line)
		start := 0
		for i := 0; i+1 < len(line); i++ {
			end := 0 // the length of a sentence's end at line[i:]
			switch {
			case strings.IndexByte(".!?", line[i]) >= 0 && line[i+1] == ' ':
				end = 1
			case line[i] >= utf8.RuneSelf:
				// Scripts written without spaces end a sentence with
				// their own full stops, and no space after them.
				if r, size := utf8.DecodeRuneInString(line[i:]); strings.ContainsRune("。！？", r) && i+size < len(line) {
					end = size
				}
			}
			if end > 0 {
				out = append(out, strings.TrimSpace(line[start:i+end]))
				out = append(out, windows(line[start:i+end])...)
				start = i + end
			}
		}
		out = append(out, strings.TrimSpace(line[start:]))
		out = append(out, windows(line[start:])...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// windows are the runs of WindowWords words of a sentence longer than
// that, joined by single spaces (as Normalize writes them).
func windows(sentence string) []string {
	words := strings.Fields(sentence)
	var out []string
	for i := 0; i+WindowWords <= len(words) && len(words) > WindowWords; i++ {
		out = append(out, strings.Join(words[i:i+WindowWords], " "))
	}
	return out
}
