package leak

import (
	"bytes"
	"encoding/base64"
	stdhtml "html"
	"net/url"
	"path"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Text is the text a reader sees in the file name holds, normalized
// (Normalize), for Find to look in as in any file:
//   - HTML (.html, .htm, .xhtml, .svg) read by an HTML tokenizer: text
//     with its character references decoded, words that inline elements
//     (em, span, a, tt, font, img, custom elements...) split joined, and
//     block elements (p, div, li, br, td...) between words; then the
//     attributes a reader sees (readerAttr) and the comments anyone
//     reading the source sees, and the scripts and style sheets in it
//     read as JavaScript and CSS are; and where elements are hidden
//     (hidden, display:none, visibility:hidden), the text once more
//     without them, as a browser shows it;
//   - CSS (.css) with its escapes ("\70 ", "\000070") decoded;
//   - JavaScript and JSON (.js, .mjs, .cjs, .json) with their string
//     escapes ("\u0070", "\u{70}", "\x70", "\160", "\/") decoded;
//   - anything else (Markdown, text) as it is;
//
// and text a right-to-left override (U+202E, or HTML's <bdo dir=rtl>)
// shows backwards read both as written and as shown.
func Text(name string, data []byte) []byte {
	var s string
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm", ".xhtml", ".svg":
		s = htmlText(data, 0)
	case ".css":
		s = cssText(string(data))
	case ".js", ".mjs", ".cjs", ".json":
		s = jsText(string(data))
	default:
		s = string(data)
	}
	if strings.ContainsRune(s, rlo) {
		// Read both ways: as the code points run, and as a reader sees
		// the runs a right-to-left override turns around.
		return []byte(Normalize(s) + "\n" + Normalize(unoverride(s)))
	}
	return []byte(Normalize(s))
}

// maxNested bounds how deep htmlText reads markup held as raw text
// (noscript, iframe...) as HTML again.
const maxNested = 2

// htmlText is the text of an HTML document, its attributes a reader sees
// after it, one per line; not yet normalized. depth counts the raw-text
// elements read as HTML around it.
func htmlText(data []byte, depth int) string {
	z := html.NewTokenizer(bytes.NewReader(data))
	var flow, attrs strings.Builder
	raw := "" // the raw-text element whose text comes next
	var h hiding
	var rtl scope   // an element whose CSS turns its text around
	var base string // the document's <base href>
	for {
		switch z.Next() {
		case html.ErrorToken:
			flow.WriteByte('\n')
			flow.WriteString(attrs.String())
			if h.seen {
				// And the text as shown, without what is hidden: words a
				// hidden element splits read whole.
				flow.WriteByte('\n')
				flow.WriteString(h.shown.String())
			}
			return flow.String()
		case html.TextToken:
			text := string(z.Text())
			switch raw {
			case "script":
				text = " " + jsText(text) + " "
			case "style":
				text = " " + cssText(text) + " "
			case "noscript", "noembed", "noframes", "iframe":
				if depth < maxNested {
					text = " " + htmlText([]byte(text), depth+1) + " "
				}
			}
			flow.WriteString(text)
			h.write(text)
			raw = ""
		case html.StartTagToken, html.SelfClosingTagToken:
			t := z.Token()
			h.start(t) // a hidden block separates no words a reader sees
			if !inline(t.Data) {
				flow.WriteByte(' ')
				h.write(" ")
			}
			if t.Data == "bdo" && hasAttr(t, "dir", "rtl") {
				flow.WriteRune(rlo) // shown backwards, up to </bdo>
			} else if !rtl.enter(t.Data) && !voidElements[t.Data] && bidiOverride(t) {
				flow.WriteRune(rlo)
				rtl.open(t.Data)
			}
			if t.Data == "base" && base == "" {
				for _, a := range t.Attr {
					if a.Key == "href" {
						base = browserURL.Replace(strings.TrimSpace(a.Val))
					}
				}
			}
			raw = t.Data
			for _, a := range t.Attr {
				if v, ok := attrText(t, a, depth); ok {
					attrs.WriteString(v)
					attrs.WriteByte('\n')
					if base != "" && urlAttrs[a.Key] {
						// A relative link leads where <base> says.
						attrs.WriteString(resolve(base, v))
						attrs.WriteByte('\n')
					}
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if !inline(string(name)) {
				flow.WriteByte(' ')
				h.write(" ")
			}
			h.end(string(name))
			if string(name) == "bdo" || rtl.close(string(name)) {
				flow.WriteRune(pdf)
			}
			raw = ""
		case html.DoctypeToken:
			raw = ""
		case html.CommentToken:
			// Not shown, and it splits no word; but published, for
			// anyone who reads the source, with its references decoded.
			attrs.WriteString(html.UnescapeString(string(z.Text())))
			attrs.WriteByte('\n')
		}
	}
}

// hiding follows the elements a browser does not show (the hidden
// attribute, display:none, visibility:hidden) and keeps the text shown
// without them.
type hiding struct {
	hidden scope // the hidden element open, if any
	seen   bool
	shown  strings.Builder
}

// voidElements have no end tag, so hide nothing after them.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

func (h *hiding) write(s string) {
	if h.hidden.name == "" {
		h.shown.WriteString(s)
	}
}

// start notes an element t begins.
func (h *hiding) start(t html.Token) {
	if !h.hidden.enter(t.Data) && !voidElements[t.Data] && hidden(t) {
		h.hidden.open(t.Data)
		h.seen = true
	}
}

// end notes an element named name ends.
func (h *hiding) end(name string) { h.hidden.close(name) }

// hidden reports whether the element t begins is not shown: a template,
// an element with the hidden attribute, or a style attribute that hides
// it (display:none, visibility:hidden or collapse, font-size:0,
// opacity:0). Style sheets that hide it by class are not read.
func hidden(t html.Token) bool {
	if t.Data == "template" {
		return true
	}
	for _, a := range t.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "style":
			if hidingCSS.MatchString(styleText(a.Val)) {
				return true
			}
		}
	}
	return false
}

// styleText is a style attribute's CSS as the rules here read it: escapes
// decoded, lower case, without white space.
func styleText(val string) string {
	return strings.ToLower(strings.Join(strings.Fields(cssUnescape(val)), ""))
}

// hidingCSS matches declarations, white space removed, that hide an
// element's text.
var hidingCSS = regexp.MustCompile(`(?:^|;)(?:display:none|visibility:(?:hidden|collapse)|font-size:0(?:\.0*)?(?:[a-z%]+)?(?:;|!|$)|opacity:0(?:\.0*)?(?:;|!|$))`)

// bidiOverride reports whether the style of the element t begins shows
// its text right to left whatever its letters (unicode-bidi:
// bidi-override with direction: rtl), as <bdo dir=rtl> does.
func bidiOverride(t html.Token) bool {
	for _, a := range t.Attr {
		if a.Key == "style" {
			css := styleText(a.Val)
			if strings.Contains(css, "bidi-override") && strings.Contains(css, "direction:rtl") {
				return true
			}
		}
	}
	return false
}

// scope follows one element from its start tag to its end tag, through
// elements of the same name inside it.
type scope struct {
	name  string
	depth int
}

func (s *scope) open(name string) { s.name, s.depth = name, 0 }

// enter notes an element named name begins, and reports whether one is
// followed already (an element of its name inside it is counted).
func (s *scope) enter(name string) bool {
	if s.name == "" {
		return false
	}
	if name == s.name {
		s.depth++
	}
	return true
}

// close reports whether the end tag of name ends the element followed.
func (s *scope) close(name string) bool {
	if s.name == "" || name != s.name {
		return false
	}
	if s.depth > 0 {
		s.depth--
		return false
	}
	s.name = ""
	return true
}

// resolve is ref read against base, or ref when either does not parse.
func resolve(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}

// separating are the elements whose tags separate the words on either
// side: those the HTML standard's rendering section shows as blocks,
// table parts or list items, line breaks, form controls, embedded
// content, superscripts and subscripts (a footnote's mark after a word),
// and what is never rendered in the flow of text. Any other
// element (a, b, code, em, font, img, label, span, tt, wbr, an unknown or
// custom one...) is inline, as CSS has it, and joins them.
var separating = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`
		address article aside blockquote body br button canvas caption center col colgroup
		datalist dd details dialog dir div dl dt embed fieldset figcaption figure footer
		form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe input
		legend li link listing main menu meta meter nav noembed noframes noscript object
		ol optgroup option p plaintext pre progress rp rt script search section select
		source style summary table tbody td template textarea tfoot th thead title tr
		track ul video audio xmp sup sub`) {
		separating[name] = true
	}
}

func inline(name string) bool { return !separating[strings.ToLower(name)] }

// readerAttr reports whether a reader sees attribute a of the element t
// begins, as text or as a link: alt, title, placeholder, label, abbr and
// the ARIA text attributes (aria-label, aria-description,
// aria-roledescription, aria-placeholder, aria-valuetext) anywhere; the
// value of an input other than a hidden one (a button's label, a field's
// prefilled text); the content of a meta element (a description, a
// social card's title, a refresh's URL); and URLs a link or an embedded
// resource shows (href, src, srcset, action, formaction, cite, poster,
// data, longdesc, background, ping).
func readerAttr(t html.Token, a html.Attribute) bool {
	switch a.Key {
	case "alt", "title", "placeholder", "label", "abbr",
		"aria-label", "aria-description", "aria-roledescription", "aria-placeholder", "aria-valuetext",
		"href", "src", "srcset", "action", "formaction", "cite", "poster", "data", "longdesc", "background", "ping":
		return true
	case "value":
		return t.Data == "input" && !hasAttr(t, "type", "hidden")
	case "content":
		return t.Data == "meta"
	}
	return false
}

// attrText is the text a reader may see of attribute a of the element t
// begins, and whether there is any: a reader attribute's value (a URL as
// a browser follows it: tabs and line breaks dropped, '\' read as '/'); a
// style attribute's CSS; a data- attribute, which CSS shows with attr();
// and an iframe's srcdoc, read as the HTML it is.
func attrText(t html.Token, a html.Attribute, depth int) (string, bool) {
	switch {
	case a.Key == "srcdoc":
		if depth < maxNested {
			return htmlText([]byte(a.Val), depth+1), true
		}
		return a.Val, true
	case a.Key == "style":
		return cssText(a.Val), true
	case strings.HasPrefix(a.Key, "data-"):
		return a.Val, true
	case !readerAttr(t, a):
		return "", false
	case urlAttrs[a.Key]:
		u := browserURL.Replace(a.Val)
		if d, ok := dataURLText(u, depth); ok {
			return u + "\n" + d, true // what a data: URL shows when followed
		}
		return u, true
	}
	return a.Val, true
}

// dataURLText is the text a data: URL holds (RFC 2397), its base64 or
// percent-encoding decoded, HTML and SVG read as HTML; ok is false for
// any other URL, or a payload that is not UTF-8 text.
func dataURLText(u string, depth int) (string, bool) {
	t := strings.TrimSpace(u)
	if len(t) < 5 || !strings.EqualFold(t[:5], "data:") {
		return "", false
	}
	meta, payload, found := strings.Cut(t[5:], ",")
	if !found {
		return "", false
	}
	meta = strings.ToLower(meta)
	var data []byte
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(strings.TrimRight(payload, "="))
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(payload, "="))
		}
		if err != nil {
			return "", false
		}
		data = b
	} else {
		s, err := url.PathUnescape(payload)
		if err != nil {
			return "", false
		}
		data = []byte(s)
	}
	if !utf8.Valid(data) {
		return "", false
	}
	if (strings.Contains(meta, "html") || strings.Contains(meta, "svg")) && depth < maxNested {
		return htmlText(data, depth+1), true
	}
	return string(data), true
}

// urlAttrs are the reader attributes that hold URLs.
var urlAttrs = map[string]bool{"href": true, "src": true, "srcset": true, "action": true, "formaction": true, "cite": true, "poster": true, "data": true, "longdesc": true, "background": true, "ping": true}

// browserURL is a URL as a browser reads it (the URL Standard): without
// tabs and line breaks, and with '\' for '/'.
var browserURL = strings.NewReplacer("\t", "", "\n", "", "\r", "", `\`, "/")

// jsText is JavaScript as the text it writes reads: string escapes
// decoded (jsUnescape), strings joined by '+' joined ("Bulk " + "export"),
// and HTML character references decoded, as innerHTML decodes them.
func jsText(s string) string {
	s = jsConcat.ReplaceAllString(jsUnescape(s), "")
	if strings.Contains(s, "&") {
		s = stdhtml.UnescapeString(s)
	}
	return s
}

// jsConcat is the quote that ends one JavaScript string, a '+', and the
// quote that begins the next.
var jsConcat = regexp.MustCompile("[\"'`]\\s*\\+\\s*[\"'`]")

// cssText is CSS as its strings render: escapes decoded (cssUnescape), and
// strings written next to each other ("a" "b", which content: shows as
// "ab") joined.
func cssText(s string) string {
	return adjacentStrings.ReplaceAllString(cssUnescape(s), "")
}

// adjacentStrings is the quote that ends one CSS string and the one that
// begins the next, white space between.
var adjacentStrings = regexp.MustCompile(`["']\s+["']`)

func hasAttr(t html.Token, key, val string) bool {
	for _, a := range t.Attr {
		if a.Key == key && strings.EqualFold(strings.TrimSpace(a.Val), val) {
			return true
		}
	}
	return false
}

// cssUnescape is s, CSS, with its escapes decoded (CSS Syntax 4.3.7): a
// backslash and 1-6 hex digits, with one white space character after them
// (or CR LF) taken as part of the escape, is that code point (U+FFFD for
// zero, a surrogate or one past U+10FFFF); a backslash before a line break
// is nothing; before any other character, that character.
func cssUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		i++
		n := 0
		var r rune
		for n < 6 && i+n < len(s) && isHex(s[i+n]) {
			r = r<<4 | rune(hexVal(s[i+n]))
			n++
		}
		switch {
		case n > 0:
			i += n
			if r == 0 || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
			if strings.HasPrefix(s[i:], "\r\n") {
				i += 2
			} else if i < len(s) && strings.IndexByte(" \t\n\r\f", s[i]) >= 0 {
				i++
			}
		case strings.HasPrefix(s[i:], "\r\n"):
			i += 2
		case i < len(s) && (s[i] == '\n' || s[i] == '\r' || s[i] == '\f'):
			i++
		case i < len(s):
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// jsUnescape is s, JavaScript or JSON, with its string escapes decoded
// wherever they are: \uXXXX (surrogate pairs joined), \u{X...}, \xXX,
// legacy octal (\160), \b \f \n \r \t \v, a backslash before a line
// break as nothing and before any other character as that character.
func jsUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		i++
		if i == len(s) {
			break
		}
		r, n := jsEscape(s[i:])
		if r >= 0xD800 && r <= 0xDBFF && strings.HasPrefix(s[i+n:], `\u`) {
			if lo, m := jsEscape(s[i+n+1:]); lo >= 0xDC00 && lo <= 0xDFFF {
				r = utf16.DecodeRune(r, lo)
				n += 1 + m
			}
		}
		if r >= 0 {
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// jsEscape decodes the escape that s, what follows a backslash, begins:
// the code point (-1 for none) and how many bytes of s it takes.
func jsEscape(s string) (rune, int) {
	c := s[0]
	switch {
	case c == 'u' && strings.HasPrefix(s, "u{"):
		end := strings.IndexByte(s[:min(len(s), 32)], '}')
		if end > 2 && allHex(s[2:end]) {
			if digits := strings.TrimLeft(s[2:end], "0"); len(digits) <= 6 && hexRune(digits) <= utf8.MaxRune {
				return hexRune(digits), end + 1
			}
		}
	case c == 'u' && len(s) >= 5 && allHex(s[1:5]):
		return hexRune(s[1:5]), 5
	case c == 'x' && len(s) >= 3 && allHex(s[1:3]):
		return hexRune(s[1:3]), 3
	case c >= '0' && c <= '7':
		r, n := rune(c-'0'), 1
		max := 3
		if c >= '4' {
			max = 2
		}
		for n < max && n < len(s) && s[n] >= '0' && s[n] <= '7' {
			r = r<<3 | rune(s[n]-'0')
			n++
		}
		return r, n
	case c == '\r':
		if strings.HasPrefix(s, "\r\n") {
			return -1, 2
		}
		return -1, 1
	case c == '\n':
		return -1, 1
	case strings.HasPrefix(s, "\u2028"), strings.HasPrefix(s, "\u2029"):
		return -1, 3
	}
	if i := strings.IndexByte("bfnrtv", c); i >= 0 {
		return rune("\b\f\n\r\t\v"[i]), 1
	}
	r, size := utf8.DecodeRuneInString(s)
	return r, size
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func hexRune(s string) rune {
	var r rune
	for i := 0; i < len(s); i++ {
		r = r<<4 | rune(hexVal(s[i]))
	}
	return r
}
