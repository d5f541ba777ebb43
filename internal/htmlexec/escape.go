package htmlexec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/jsonstr"
)

// This file holds html/template's escapers that the compiled programs
// call: html/template's own are unexported. Each gives what its
// html/template namesake (escape.go's funcMap) gives for one argument,
// the final value of a pipeline, which is how an escaped template calls
// it; the differential tests and fuzz targets hold each to it.

// contentType is html/template's kind of content, from the type of the
// escaped value: a string is plain text, template.HTML is HTML...
type contentType uint8

const (
	contentPlain contentType = iota
	contentCSS
	contentHTML
	contentHTMLAttr
	contentJS
	contentJSStr
	contentURL
	contentSrcset
)

// filterFailsafe is what html/template writes in place of an unsafe
// value.
const filterFailsafe = "ZgotmplZ"

var (
	stringType     = reflect.TypeFor[string]()
	intType        = reflect.TypeFor[int]()
	boolType       = reflect.TypeFor[bool]()
	errorType      = reflect.TypeFor[error]()
	stringerType   = reflect.TypeFor[fmt.Stringer]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
	contentOfTypes = map[reflect.Type]contentType{
		reflect.TypeFor[template.CSS]():      contentCSS,
		reflect.TypeFor[template.HTML]():     contentHTML,
		reflect.TypeFor[template.HTMLAttr](): contentHTMLAttr,
		reflect.TypeFor[template.JS]():       contentJS,
		reflect.TypeFor[template.JSStr]():    contentJSStr,
		reflect.TypeFor[template.URL]():      contentURL,
		reflect.TypeFor[template.Srcset]():   contentSrcset,
	}
)

// argument is what an escaper called by text/template receives for the
// value v: reflect.Value.Call passes an invalid value (a missing field)
// as a nil interface, and the value inside an interface.
func argument(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	return v.Interface()
}

// stringify is html/template's stringify of the one argument v: its text
// and its kind of content.
func stringify(v reflect.Value) (string, contentType) {
	switch v.Kind() {
	case reflect.String:
		t := v.Type()
		if t == stringType {
			return v.String(), contentPlain
		}
		if c, ok := contentOfTypes[t]; ok {
			return v.String(), c
		}
	case reflect.Int:
		if v.Type() == intType {
			return strconv.Itoa(int(v.Int())), contentPlain
		}
	case reflect.Bool:
		if v.Type() == boolType {
			return strconv.FormatBool(v.Bool()), contentPlain
		}
	}
	return stringifyAny(argument(v))
}

// stringifyAny is html/template's stringify for one argument a, step by
// step.
func stringifyAny(a any) (string, contentType) {
	switch s := indirect(a).(type) {
	case string:
		return s, contentPlain
	case template.CSS:
		return string(s), contentCSS
	case template.HTML:
		return string(s), contentHTML
	case template.HTMLAttr:
		return string(s), contentHTMLAttr
	case template.JS:
		return string(s), contentJS
	case template.JSStr:
		return string(s), contentJSStr
	case template.URL:
		return string(s), contentURL
	case template.Srcset:
		return string(s), contentSrcset
	}
	if a == nil {
		// An untyped nil is skipped: fmt.Sprint of nothing.
		return "", contentPlain
	}
	return fmt.Sprint(indirectToStringerOrError(a)), contentPlain
}

// indirect is html/template's: a after as many dereferences as it takes
// to reach a non-pointer or a nil pointer.
func indirect(a any) any {
	if a == nil {
		return nil
	}
	if t := reflect.TypeOf(a); t.Kind() != reflect.Pointer {
		return a
	}
	v := reflect.ValueOf(a)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	return v.Interface()
}

// indirectToStringerOrError is html/template's: a dereferenced until it
// is a fmt.Stringer, an error, a non-pointer or a nil pointer.
func indirectToStringerOrError(a any) any {
	if a == nil {
		return nil
	}
	v := reflect.ValueOf(a)
	for !v.Type().Implements(stringerType) && !v.Type().Implements(errorType) && v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	return v.Interface()
}

// htmlTable, htmlNormTable: html/template's htmlReplacementTable and
// htmlNormReplacementTable (the same but for '&'), indexed by byte.
var htmlTable, htmlNormTable = replacementTable(true), replacementTable(false)

// A table is a replacement by byte: repl[c] for each byte c with
// special[c].
type table struct {
	special [256]bool
	repl    [256]string
}

func replacementTable(amp bool) *table {
	t := &table{}
	t.repl[0] = "\uFFFD"
	t.repl['"'] = "&#34;"
	t.repl['\''] = "&#39;"
	t.repl['+'] = "&#43;"
	t.repl['<'] = "&lt;"
	t.repl['>'] = "&gt;"
	if amp {
		t.repl['&'] = "&amp;"
	}
	for c, r := range t.repl {
		t.special[c] = r != ""
	}
	return t
}

// writeReplaced writes s to out with each byte that t names replaced:
// html/template's htmlReplacer with bad runes let through, which
// replaces ASCII only (a byte of a multi-byte or invalid UTF-8 sequence
// is never below utf8.RuneSelf, and never replaced).
func writeReplaced(out *bytes.Buffer, s string, t *table) {
	written := 0
	for i := 0; i < len(s); i++ {
		if t.special[s[i]] {
			out.WriteString(s[written:i])
			out.WriteString(t.repl[s[i]])
			written = i + 1
		}
	}
	out.WriteString(s[written:])
}

// replaced is writeReplaced's result as a string: s itself when nothing
// is replaced.
func replaced(s string, t *table) string {
	for i := 0; i < len(s); i++ {
		if t.special[s[i]] {
			var b bytes.Buffer
			b.Grow(len(s) + 16)
			writeReplaced(&b, s, t)
			return b.String()
		}
	}
	return s
}

// An escaper is one of html/template's, for a value that stringify has
// turned into text of a content type: str gives its result, write
// writes it; both report false for a value it cannot escape exactly
// (html/template then runs the page).
type escaper struct {
	str   func(s string, c contentType) (string, bool)
	write func(out *bytes.Buffer, s string, c contentType) bool
}

// writeVia makes an escaper's write from its str.
func writeVia(str func(s string, c contentType) (string, bool)) func(*bytes.Buffer, string, contentType) bool {
	return func(out *bytes.Buffer, s string, c contentType) bool {
		r, ok := str(s, c)
		out.WriteString(r)
		return ok
	}
}

// escapers are the escapers by the names html/template gives them in
// an escaped tree, but for _html_template_jsvalescaper, which is not
// fed by stringify (see jsValEscaper).
var escapers = map[string]escaper{
	"_html_template_htmlescaper": {
		str: func(s string, c contentType) (string, bool) {
			if c == contentHTML {
				return s, true
			}
			return replaced(s, htmlTable), true
		},
		write: func(out *bytes.Buffer, s string, c contentType) bool {
			if c == contentHTML {
				out.WriteString(s)
			} else {
				writeReplaced(out, s, htmlTable)
			}
			return true
		},
	},
	"_html_template_attrescaper": {
		// HTML in an attribute has its tags stripped (html/template's
		// stripTags), which this package leaves to html/template.
		str: func(s string, c contentType) (string, bool) {
			if c == contentHTML {
				return "", false
			}
			return replaced(s, htmlTable), true
		},
		write: func(out *bytes.Buffer, s string, c contentType) bool {
			if c == contentHTML {
				return false
			}
			writeReplaced(out, s, htmlTable)
			return true
		},
	},
	"_html_template_rcdataescaper": {
		str: func(s string, c contentType) (string, bool) {
			if c == contentHTML {
				return replaced(s, htmlNormTable), true
			}
			return replaced(s, htmlTable), true
		},
		write: func(out *bytes.Buffer, s string, c contentType) bool {
			if c == contentHTML {
				writeReplaced(out, s, htmlNormTable)
			} else {
				writeReplaced(out, s, htmlTable)
			}
			return true
		},
	},
	"_html_template_urlfilter":     {str: urlFilter, write: writeVia(urlFilter)},
	"_html_template_urlnormalizer": {str: urlNormalizer, write: writeVia(urlNormalizer)},
	"_html_template_urlescaper":    {str: urlEscaper, write: writeVia(urlEscaper)},
}

// jsValEscaperName is the escaper of a value in JavaScript (a script
// element, JSON-LD).
const jsValEscaperName = "_html_template_jsvalescaper"

// urlFilter is html/template's: s unless it is a URL of a scheme other
// than http, https and mailto and not a template.URL.
func urlFilter(s string, c contentType) (string, bool) {
	if c == contentURL {
		return s, true
	}
	if !isSafeURL(s) {
		return "#" + filterFailsafe, true
	}
	return s, true
}

// isSafeURL is html/template's.
func isSafeURL(s string) bool {
	if protocol, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(protocol, "/") {
		if !strings.EqualFold(protocol, "http") && !strings.EqualFold(protocol, "https") && !strings.EqualFold(protocol, "mailto") {
			return false
		}
	}
	return true
}

func urlNormalizer(s string, c contentType) (string, bool) {
	return processURL(s, true), true
}

func urlEscaper(s string, c contentType) (string, bool) {
	return processURL(s, c == contentURL), true
}

// processURL is html/template's urlProcessor after stringify: s with
// each byte that is not unreserved in a URL (nor reserved, when norm)
// written %xx, but a valid %xx escape when norm.
func processURL(s string, norm bool) string {
	var b []byte
	written := 0
	for i, n := 0, len(s); i < n; i++ {
		c := s[i]
		switch c {
		case '!', '#', '$', '&', '*', '+', ',', '/', ':', ';', '=', '?', '@', '[', ']':
			if norm {
				continue
			}
		case '-', '.', '_', '~':
			continue
		case '%':
			if norm && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				continue
			}
		default:
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				continue
			}
		}
		if b == nil {
			b = make([]byte, 0, len(s)+16)
		}
		b = append(b, s[written:i]...)
		b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
		written = i + 1
	}
	if written == 0 {
		return s
	}
	return string(append(b, s[written:]...))
}

const hexDigits = "0123456789abcdef"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// jsValEscaper is html/template's for one argument a: a as a JavaScript
// value (JSON). A value json.Marshal fails on, which html/template
// writes as a comment holding the error, is left to html/template.
func jsValEscaper(a any) (string, bool) {
	a = indirectToJSONMarshaler(a)
	switch t := a.(type) {
	case template.JS:
		return string(t), true
	case template.JSStr:
		return `"` + string(t) + `"`, true
	case json.Marshaler:
		// Not treated as a Stringer.
	case fmt.Stringer:
		a = t.String()
	}
	var scratch [1024]byte
	b, ok := appendJSON(scratch[:0], a, 0)
	if !ok {
		var err error
		if b, err = json.Marshal(a); err != nil {
			return "", false
		}
	}
	if len(b) == 0 {
		return " null ", true
	}
	first, _ := utf8.DecodeRune(b)
	last, _ := utf8.DecodeLastRune(b)
	// An identifier or a number must not run into a keyword.
	pad := isJSIdentPart(first) || isJSIdentPart(last)
	if !pad && !hasLineSeparator(b) {
		return string(b), true
	}
	var buf strings.Builder
	if pad {
		buf.WriteByte(' ')
	}
	written := 0
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		repl := ""
		if r == 0x2028 {
			repl = `\u2028`
		} else if r == 0x2029 {
			repl = `\u2029`
		}
		if repl != "" {
			buf.Write(b[written:i])
			buf.WriteString(repl)
			written = i + n
		}
		i += n
	}
	if buf.Len() != 0 {
		buf.Write(b[written:])
		if pad {
			buf.WriteByte(' ')
		}
		return buf.String(), true
	}
	return string(b), true
}

// hasLineSeparator reports whether b holds U+2028 or U+2029, which
// html/template's jsValEscaper finds rune by rune: the UTF-8 of each
// begins with 0xE2, which is never inside another sequence, valid or
// not, so a rune by rune reading meets every 0xE2 at the start of a rune.
func hasLineSeparator(b []byte) bool {
	for {
		i := bytes.IndexByte(b, 0xE2)
		if i < 0 || i+2 >= len(b) {
			return false
		}
		if b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
			return true
		}
		b = b[i+1:]
	}
}

// indirectToJSONMarshaler is html/template's.
func indirectToJSONMarshaler(a any) any {
	if a == nil {
		return nil
	}
	v := reflect.ValueOf(a)
	for !v.Type().Implements(marshalerType) && v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	return v.Interface()
}

func isJSIdentPart(r rune) bool {
	return r == '$' || r == '_' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z'
}

// appendJSON appends what json.Marshal gives for a: a string, nil, or a
// map[string]any of those and of such maps (what the pages' JSON-LD
// holds), its keys sorted; ok false for any other value, which
// json.Marshal encodes instead, and for a string or key that is not
// valid UTF-8 (which encoding/json's versions write differently).
func appendJSON(dst []byte, a any, depth int) ([]byte, bool) {
	switch v := a.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		if !utf8.ValidString(v) {
			return dst, false
		}
		return jsonstr.Append(dst, v, jsonstr.HTML), true
	case map[string]any:
		if v == nil {
			return append(dst, "null"...), true
		}
		if depth > 100 {
			return dst, false // json.Marshal looks for a cycle
		}
		var scratch [16]string
		keys := scratch[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if !utf8.ValidString(k) {
				return dst, false
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonstr.Append(dst, k, jsonstr.HTML)
			dst = append(dst, ':')
			var ok bool
			if dst, ok = appendJSON(dst, v[k], depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	}
	return dst, false
}
