package leak

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/secret"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

//go:generate go run gen_ignorable.go

// Normalize is s as the leak check compares text: what a reader sees,
// whatever code points spell it. It is NFKC (fullwidth letters and
// ligatures become plain ones, decomposed accents composed), without
// default-ignorable code points (the Unicode Default_Ignorable_Code_Point
// property: soft hyphens, zero-width and bidi controls, variation
// selectors, tag characters, invisible operators...), case folded, with
// every run of white space one space, with a hyphen between two letters
// dropped (joinHyphenated: a word broken across a line reads whole), and
// with every http, https or scheme-relative URL in its canonical form
// (canonicalURL).
func Normalize(s string) string {
	// Word by word: white space is where nothing NFKC or case folding do
	// reaches across, and most words are ASCII.
	words := strings.Fields(s)
	var folder cases.Caser // not safe for concurrent use: one per call
	out := words[:0]
	for _, w := range words {
		if ascii.Is(w) {
			w = strings.ToLower(w)
		} else {
			if folder == (cases.Caser{}) {
				folder = cases.Fold()
			}
			// NFKC may write white space ("¨" is a space and U+0308).
			w = collapseSpace(fold(w, folder))
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return joinHyphenated(canonicalURLs(oneSlash(strings.Join(out, " "))))
}

// oneSlash writes "http:/host" and "https:/host", which a browser
// follows as "http://host" from a page, with both slashes.
func oneSlash(s string) string {
	if !strings.Contains(s, "p:/") && !strings.Contains(s, "s:/") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] == ':' && i+1 < len(s) && s[i+1] == '/' && (i+2 >= len(s) || s[i+2] != '/') &&
			(strings.HasSuffix(s[:i], "http") || strings.HasSuffix(s[:i], "https")) {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// rlo is RIGHT-TO-LEFT OVERRIDE, and pdf, pdi and the line breaks end the
// run of text it makes a reader see backwards.
const (
	rlo = '\u202e'
	pdf = '\u202c'
	pdi = '\u2069'
)

// unoverride is s with every run after a right-to-left override (up to
// the next pop, isolate pop, line break or override) written in the order
// a reader sees it: "\u202elaitnedifnoc" reads "confidential".
func unoverride(s string) string {
	var b strings.Builder
	var run []rune
	reversing := false
	flush := func() {
		for i := len(run) - 1; i >= 0; i-- {
			b.WriteRune(run[i])
		}
		run = run[:0]
	}
	for _, r := range s {
		switch {
		case r == rlo:
			flush()
			reversing = true
		case reversing && (r == pdf || r == pdi || r == '\n' || r == '\r' || r == '\u2029'):
			flush()
			reversing = false
			b.WriteRune(r)
		case reversing:
			run = append(run, r)
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return b.String()
}

// joinHyphenated is s, normalized, with every hyphen between two letters
// dropped, and the one space after it when a line broke there: a word
// hyphenated across a line ("confi-\ndential") reads as the word, and
// "well-known" as "wellknown" whichever way it was broken.
func joinHyphenated(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && i > 0 {
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			j := i + 1
			if j < len(s) && s[j] == ' ' {
				j++
			}
			next, _ := utf8.DecodeRuneInString(s[j:])
			if unicode.IsLetter(prev) && unicode.IsLetter(next) {
				i = j - 1
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// fold is s in NFKC, case folded, without default-ignorable code points,
// with letters of other scripts that look Latin read as Latin (a Cyrillic
// "е" inside an English word is what a reader takes for "e").
// Ignorables go first, since one may sit between a letter and the accent
// NFKC would join to it, and again after NFKC, which maps some code points
// (U+3164 HANGUL FILLER) to others that are ignorable.
func fold(s string, folder cases.Caser) string {
	s = dropIgnorable(s)
	s = norm.NFKC.String(s)
	s = folder.String(s)
	s = dropIgnorable(s)
	// Look-alikes of capitals (Cherokee, Lisu) are read as Latin capitals,
	// then folded like them.
	return strings.ToLower(strings.Map(secret.AsLatin, hyphens.Replace(norm.NFKC.String(s))))
}

// hyphens maps the dashes a reader takes for a hyphen, which NFKC keeps,
// to '-': hyphen, non-breaking hyphen, figure dash, en dash, minus sign,
// small and fullwidth hyphen-minus, hyphen bullet.
var hyphens = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2212", "-", "\ufe63", "-", "\uff0d", "-", "\u2043", "-")

// dropIgnorable is s without its default-ignorable code points.
func dropIgnorable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(DefaultIgnorable, r) {
			return -1
		}
		return r
	}, s)
}

// collapseSpace writes every run of white space in s as one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// canonicalURLs rewrites every URL in s, which fold has lower-cased, in
// its canonical form: "http://", "https://" or a "//" that no other
// scheme, letter or slash comes right before, then a host; and a host
// name and path written without either (bareURLs).
func canonicalURLs(s string) string {
	if !strings.Contains(s, "//") {
		return bareURLs(s)
	}
	var b strings.Builder
	done := 0 // s[:done] is written to b
	for at := 0; ; {
		k := strings.Index(s[at:], "//")
		if k < 0 {
			break
		}
		k += at
		at = k + 2
		start := k
		switch {
		case strings.HasSuffix(s[:k], "https:"):
			start = k - len("https:")
		case strings.HasSuffix(s[:k], "http:"):
			start = k - len("http:")
		case k > 0:
			if r, _ := utf8.DecodeLastRuneInString(s[:k]); r == ':' || r == '/' || isWord(r) {
				continue
			}
		}
		end := urlEnd(s, k+2)
		c, ok := canonicalURL(s[k:end])
		if !ok {
			continue
		}
		b.WriteString(s[done:start])
		b.WriteString(c)
		done, at = end, end
	}
	if done > 0 {
		b.WriteString(s[done:])
		s = b.String()
	}
	return bareURLs(s)
}

// bareURL is a URL written without a scheme or "//": a host name with a
// dot, a port maybe, then a path ("docs.example.com/guide"), where no
// letter, dot, '@', slash or colon comes right before it.
var bareURL = regexp.MustCompile(`(^|[^\pL\pN_.@/:-])((?:[\pL\pN](?:[\pL\pN-]*[\pL\pN])?\.)+\pL[\pL\pN-]*\.?(?::[0-9]+)?/[^\s"'<>` + "`" + `\\{}|^]*)`)

// bareURLs rewrites the URLs of s written without a scheme in canonical
// form too, as "//" and what canonicalURL makes of them.
func bareURLs(s string) string {
	if !strings.Contains(s, "/") || !strings.Contains(s, ".") {
		return s
	}
	return bareURL.ReplaceAllStringFunc(s, func(m string) string {
		sub := bareURL.FindStringSubmatch(m)
		u := sub[2]
		end := urlEnd(u, 0)
		c, ok := canonicalURL("//" + u[:end])
		if !ok {
			return m
		}
		return sub[1] + c + u[end:]
	})
}

// urlEnd is where the URL whose authority starts at s[i:] ends: at white
// space, a quote, an angle bracket or another character a URL never holds
// as written, less the punctuation a sentence puts after a URL.
func urlEnd(s string, i int) int {
	end := len(s)
	if j := strings.IndexAny(s[i:], " \t\n\r\f\"'<>`\\{}|^"); j >= 0 {
		end = i + j
	}
	for end > i && strings.IndexByte(".,;:!?)]", s[end-1]) >= 0 {
		end--
	}
	return end
}

// canonicalURL is the canonical form of u, "//" and the rest of an http,
// https or scheme-relative URL, lower-cased: "//host/path?query#fragment"
// with no scheme (http and https name the same text), no user
// information, no default port (80 or 443, or an empty one), a host
// without trailing dots, percent-encoded letters, digits and "-._~"
// decoded in host and path, and a path with its dot segments resolved, runs
// of slashes written as one and no slash at its end. ok is false when u
// has no host.
func canonicalURL(u string) (string, bool) {
	rest := u[2:]
	cut := len(rest)
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		cut = i
	}
	authority, rest := rest[:cut], rest[cut:]
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:] // user information: not where the URL leads
	}
	host, port := authority, ""
	if i := strings.LastIndexByte(authority, ':'); i >= 0 && !strings.Contains(authority[i:], "]") {
		host, port = authority[:i], authority[i+1:]
	}
	host = hostDots.Replace(decodeHost(host))
	if p := strings.TrimLeft(port, "0"); p != port && p != "" {
		port = p // ":0443" is port 443
	}
	if port == "80" || port == "443" {
		port = ""
	}
	host = strings.TrimRight(host, ".")
	if host == "" || strings.IndexFunc(host, func(r rune) bool {
		return !isWord(r) && !strings.ContainsRune(".[]:%", r)
	}) >= 0 || strings.IndexFunc(port, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return "", false
	}
	path, tail := rest, ""
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		path, tail = rest[:i], rest[i:]
	}
	var b strings.Builder
	b.WriteString("//")
	b.WriteString(host)
	if port != "" {
		b.WriteString(":" + port)
	}
	b.WriteString(cleanPath(decodeUnreserved(path)))
	b.WriteString(tail)
	return b.String(), true
}

// hostDots are the full stops a URL's host parser reads as '.' (the
// URL Standard, after IDNA): ideographic, full-width and halfwidth.
var hostDots = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

// decodeHost is a host with every escape decoded, as a browser's URL
// parser decodes a host before it reads it ("example%E3%80%82com" is
// "example。com"), lower case; or the host as it is when the escapes do
// not decode to UTF-8.
func decodeHost(host string) string {
	if !strings.Contains(host, "%") {
		return host
	}
	d, err := url.PathUnescape(host)
	if err != nil || !utf8.ValidString(d) {
		return decodeUnreserved(host)
	}
	return strings.ToLower(d)
}

// decodeUnreserved is s with every percent-encoded unreserved character
// (RFC 3986, 2.3: letters, digits, '-', '.', '_', '~') decoded, lower
// case, as browsers and servers read them: "%63ustomers" is "customers",
// "example.com%2e" is "example.com.". Other escapes are kept as written.
func decodeUnreserved(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			c := hexVal(s[i+1])<<4 | hexVal(s[i+2])
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				b.WriteByte(c)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cleanPath is path with its dot segments resolved (RFC 3986, 5.2.4), runs
// of slashes written as one and no slash at its end: "/a/./b/../c//d/" is
// "/a/c/d", "/" is "".
func cleanPath(path string) string {
	var segs []string
	for _, seg := range strings.Split(path, "/") {
		switch seg {
		case "", ".":
		case "..":
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
		default:
			segs = append(segs, seg)
		}
	}
	if len(segs) == 0 {
		return ""
	}
	return "/" + strings.Join(segs, "/")
}
