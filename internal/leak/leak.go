// Package leak finds private strings in files that are about to be
// published: the text only an agent's extended cards hold must never reach
// the public site. A Finder looks for each string as written and as HTML
// and JSON write it, as a whole word (a private skill id "export" is not
// found inside "exporting"), in one pass over each file whatever the
// number of strings.
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
// (with and without HTML-safe escapes).
func writings(s string) []string {
	out := []string{s, html.EscapeString(s), template.HTMLEscapeString(s)}
	// As Text gives it: every run of white space one space.
	if flat := collapseSpace(s); flat != s {
		out = append(out, flat)
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
	return slices.Compact(out)
}

func prefix(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func hash(k uint32) uint32 { return (k * 2654435761) >> (32 - 22) }

// collapseSpace writes every run of white space in s as one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Text is the text a reader sees in data: for HTML (html true), without
// its tags and with its character references decoded; and, either way,
// with every run of white space written as one space, so that text wrapped
// over lines or marked up word by word ("Bulk <em>export</em>") reads as
// it was written. Find looks in it as in any file.
func Text(data []byte, isHTML bool) []byte {
	s := string(data)
	if isHTML {
		var b strings.Builder
		for {
			i := strings.IndexByte(s, '<')
			if i < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:i])
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				break
			}
			// An inline tag (or a comment) sits inside a word run; any
			// other one separates what is on either side.
			if name := tagName(s[i+1 : i+j]); !inlineTags[name] && !strings.HasPrefix(name, "!--") {
				b.WriteByte(' ')
			}
			s = s[i+j+1:]
		}
		s = html.UnescapeString(b.String())
	}
	// Characters a reader does not see may split a word in the source.
	s = strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, s)
	return []byte(collapseSpace(s))
}

// invisible reports whether r is shown as nothing: a soft hyphen, a
// zero-width space or joiner, a word joiner, a byte order mark.
func invisible(r rune) bool {
	switch r {
	case '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return false
}

// inlineTags are the HTML elements that sit inside a run of text.
var inlineTags = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "cite": true, "code": true,
	"data": true, "del": true, "dfn": true, "em": true, "i": true, "ins": true, "kbd": true,
	"mark": true, "q": true, "s": true, "samp": true, "small": true, "span": true,
	"strong": true, "sub": true, "sup": true, "time": true, "u": true, "var": true,
	"wbr": true,
}

// tagName is the lower-case name of the tag whose text (between < and >)
// is t.
func tagName(t string) string {
	t = strings.TrimPrefix(t, "/")
	end := strings.IndexFunc(t, func(r rune) bool { return unicode.IsSpace(r) || r == '/' })
	if end >= 0 {
		t = t[:end]
	}
	return strings.ToLower(t)
}

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
		if r, _ := utf8.DecodeLastRune(data[:i]); isWord(r) {
			return false
		}
	}
	if isWord(last) && j < len(data) {
		if r, _ := utf8.DecodeRune(data[j:]); isWord(r) {
			return false
		}
	}
	return true
}

// isWord reports whether r continues a word: a letter, a digit or '_'.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Pieces are the parts of a text worth looking for on their own: the
// whole text, and each line and sentence of it, trimmed, so that one
// sentence of a private description pasted elsewhere is found too.
func Pieces(text string) []string {
	out := []string{text}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		out = append(out, line)
		start := 0
		for i := 0; i+1 < len(line); i++ {
			if strings.IndexByte(".!?", line[i]) >= 0 && line[i+1] == ' ' {
				out = append(out, strings.TrimSpace(line[start:i+1]))
				start = i + 1
			}
		}
		out = append(out, strings.TrimSpace(line[start:]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
