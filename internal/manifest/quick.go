package manifest

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// quickParse decodes the TOML documents manifests are written in (tables,
// arrays of tables, bare or quoted keys, strings of all four kinds,
// booleans, decimal integers, arrays and one-line inline tables) into what
// the TOML library gives for them, about ten times faster. It gives ok
// false for anything else, and for anything that may be wrong: dotted keys,
// floats, dates, a table header naming something already there, a carriage
// return, a control character, invalid UTF-8. The caller then asks the
// library, which decodes everything TOML allows and words the errors.
// FuzzQuickParse holds the two to the same result.
func quickParse(src []byte) (map[string]any, bool) {
	if !utf8.Valid(src) || bytes.IndexByte(src, '\r') >= 0 || bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return nil, false
	}
	q := quick{src: src, root: map[string]any{}}
	q.table = q.root
	if !q.document() {
		return nil, false
	}
	return q.root, true
}

// quick is the state of one quickParse.
type quick struct {
	src   []byte
	i     int
	root  map[string]any
	table map[string]any // the table key/value lines go into
	// inline holds the tables written inline, which a header may not open.
	inline map[uintptr]bool
}

func (q *quick) document() bool {
	for {
		q.spaces()
		if q.i >= len(q.src) {
			return true
		}
		switch q.src[q.i] {
		case '\n':
			q.i++
			continue
		case '#':
			if !q.comment() {
				return false
			}
			continue
		case '[':
			if !q.header() {
				return false
			}
		default:
			k, ok := q.key()
			if !ok || !q.keyValue(q.table, k) {
				return false
			}
		}
		if !q.lineEnd() {
			return false
		}
	}
}

// spaces skips spaces and tabs.
func (q *quick) spaces() {
	for q.i < len(q.src) && (q.src[q.i] == ' ' || q.src[q.i] == '\t') {
		q.i++
	}
}

// comment skips a comment up to its newline, refusing control characters.
func (q *quick) comment() bool {
	for q.i < len(q.src) && q.src[q.i] != '\n' {
		if c := q.src[q.i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
		q.i++
	}
	return true
}

// lineEnd accepts what may follow a header or a key/value pair: spaces, a
// comment, then a newline or the end.
func (q *quick) lineEnd() bool {
	q.spaces()
	if q.i < len(q.src) && q.src[q.i] == '#' && !q.comment() {
		return false
	}
	if q.i >= len(q.src) {
		return true
	}
	if q.src[q.i] != '\n' {
		return false
	}
	q.i++
	return true
}

// blanks skips spaces, tabs, newlines and comments (inside an array).
func (q *quick) blanks() bool {
	for q.i < len(q.src) {
		switch q.src[q.i] {
		case ' ', '\t', '\n':
			q.i++
		case '#':
			if !q.comment() {
				return false
			}
		default:
			return true
		}
	}
	return true
}

// header reads [a.b] or [[a.b]] and makes its table the current one.
func (q *quick) header() bool {
	q.i++
	array := q.i < len(q.src) && q.src[q.i] == '['
	if array {
		q.i++
	}
	var path []string
	for {
		q.spaces()
		k, ok := q.key()
		if !ok {
			return false
		}
		path = append(path, k)
		q.spaces()
		if q.i < len(q.src) && q.src[q.i] == '.' {
			q.i++
			continue
		}
		break
	}
	if q.i >= len(q.src) || q.src[q.i] != ']' {
		return false
	}
	q.i++
	if array {
		if q.i >= len(q.src) || q.src[q.i] != ']' {
			return false
		}
		q.i++
	}
	t := q.root
	for _, k := range path[:len(path)-1] {
		switch v := t[k].(type) {
		case nil:
			if _, there := t[k]; there {
				return false
			}
			n := map[string]any{}
			t[k] = n
			t = n
		case map[string]any:
			if q.isInline(v) {
				return false
			}
			t = v
		case []map[string]any:
			t = v[len(v)-1]
		default:
			return false
		}
	}
	last := path[len(path)-1]
	n := map[string]any{}
	switch v, there := t[last]; {
	case !there && array:
		t[last] = []map[string]any{n}
	case !there:
		t[last] = n
	case array:
		aot, ok := v.([]map[string]any)
		if !ok {
			return false
		}
		t[last] = append(aot, n)
	default:
		// Defining a table already there is legal only for one made
		// implicitly by a longer header: leave that to the library.
		return false
	}
	q.table = n
	return true
}

// isInline reports whether table t was written inline.
func (q *quick) isInline(t map[string]any) bool {
	return q.inline != nil && q.inline[mapPointer(t)]
}

// mapPointer is the identity of a map (maps do not move while referenced).
func mapPointer(t map[string]any) uintptr { return reflect.ValueOf(t).Pointer() }

// key reads a bare key or a quoted one without escapes.
func (q *quick) key() (string, bool) {
	start := q.i
	for q.i < len(q.src) {
		c := q.src[q.i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			q.i++
			continue
		}
		break
	}
	if q.i > start {
		return string(q.src[start:q.i]), true
	}
	if q.i >= len(q.src) || (q.src[q.i] != '"' && q.src[q.i] != '\'') {
		return "", false
	}
	quote := q.src[q.i]
	q.i++
	start = q.i
	for q.i < len(q.src) && q.src[q.i] != quote {
		if c := q.src[q.i]; c < 0x20 || c == 0x7f || c == '\\' {
			return "", false
		}
		q.i++
	}
	if q.i >= len(q.src) {
		return "", false
	}
	k := string(q.src[start:q.i])
	q.i++
	return k, true
}

// keyValue reads "= value" after key k and sets it in t. A dotted key is
// left to the library.
func (q *quick) keyValue(t map[string]any, k string) bool {
	q.spaces()
	if q.i >= len(q.src) || q.src[q.i] != '=' {
		return false
	}
	q.i++
	q.spaces()
	v, ok := q.value()
	if !ok {
		return false
	}
	if _, there := t[k]; there {
		return false
	}
	t[k] = v
	return true
}

// value reads one value.
func (q *quick) value() (any, bool) {
	if q.i >= len(q.src) {
		return nil, false
	}
	switch c := q.src[q.i]; {
	case c == '"':
		if bytes.HasPrefix(q.src[q.i:], []byte(`"""`)) {
			return q.multiLine('"')
		}
		return q.basic()
	case c == '\'':
		if bytes.HasPrefix(q.src[q.i:], []byte(`'''`)) {
			return q.multiLine('\'')
		}
		return q.literal()
	case c == '[':
		return q.array()
	case c == '{':
		return q.inlineTable()
	case c == 't' || c == 'f':
		for _, w := range [...]string{"true", "false"} {
			if bytes.HasPrefix(q.src[q.i:], []byte(w)) && q.delimited(q.i+len(w)) {
				q.i += len(w)
				return w == "true", true
			}
		}
		return nil, false
	case c == '-' || c >= '0' && c <= '9':
		return q.integer()
	}
	return nil, false
}

// delimited reports whether a bare value may end before src[i].
func (q *quick) delimited(i int) bool {
	if i >= len(q.src) {
		return true
	}
	switch q.src[i] {
	case ' ', '\t', '\n', ',', ']', '}', '#':
		return true
	}
	return false
}

// integer reads a plain decimal integer; every other number form (signs
// other than -, underscores, bases, floats, dates) is left to the library.
func (q *quick) integer() (any, bool) {
	start := q.i
	if q.src[q.i] == '-' {
		q.i++
	}
	digits := q.i
	for q.i < len(q.src) && q.src[q.i] >= '0' && q.src[q.i] <= '9' {
		q.i++
	}
	n := q.i - digits
	if n == 0 || n > 18 || (n > 1 && q.src[digits] == '0') || !q.delimited(q.i) {
		return nil, false
	}
	v, err := strconv.ParseInt(string(q.src[start:q.i]), 10, 64)
	return v, err == nil
}

// basic reads a one-line basic string.
func (q *quick) basic() (any, bool) {
	q.i++
	start := q.i
	for q.i < len(q.src) {
		if q.i = basicRun(q.src, q.i); q.i >= len(q.src) {
			break
		}
		switch c := q.src[q.i]; {
		case c == '"':
			s := string(q.src[start:q.i])
			q.i++
			return s, true
		case c == '\\':
			return q.escaped(start, false)
		case c < 0x20 && c != '\t' || c == 0x7f:
			return nil, false
		}
		q.i++
	}
	return nil, false
}

// escaped finishes a basic string (multi-line if ml) that has an escape at
// q.i, its text starting at start.
func (q *quick) escaped(start int, ml bool) (any, bool) {
	b := append([]byte(nil), q.src[start:q.i]...)
	for q.i < len(q.src) {
		c := q.src[q.i]
		switch {
		case c == '"':
			if !ml {
				q.i++
				return string(b), true
			}
			if n := quotes(q.src[q.i:]); n >= 3 {
				if n > 5 {
					return nil, false
				}
				b = append(b, q.src[q.i:q.i+n-3]...)
				q.i += n
				return string(b), true
			}
			b = append(b, c)
			q.i++
		case c == '\\':
			q.i++
			if q.i >= len(q.src) {
				return nil, false
			}
			e := q.src[q.i]
			q.i++
			switch e {
			case 'b':
				b = append(b, '\b')
			case 't':
				b = append(b, '\t')
			case 'n':
				b = append(b, '\n')
			case 'f':
				b = append(b, '\f')
			case 'r':
				b = append(b, '\r')
			case '"', '\\':
				b = append(b, e)
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				if q.i+n > len(q.src) {
					return nil, false
				}
				hex := q.src[q.i : q.i+n]
				for _, h := range hex {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return nil, false
					}
				}
				r, err := strconv.ParseUint(string(hex), 16, 32)
				if err != nil || r > utf8.MaxRune || (r >= 0xd800 && r <= 0xdfff) {
					return nil, false
				}
				b = utf8.AppendRune(b, rune(r))
				q.i += n
			case ' ', '\t', '\n':
				// A line-ending backslash: whitespace up to a newline,
				// then all whitespace, is dropped.
				if !ml {
					return nil, false
				}
				j := q.i - 1
				for j < len(q.src) && (q.src[j] == ' ' || q.src[j] == '\t') {
					j++
				}
				if j >= len(q.src) || q.src[j] != '\n' {
					return nil, false
				}
				for j < len(q.src) && (q.src[j] == ' ' || q.src[j] == '\t' || q.src[j] == '\n') {
					j++
				}
				q.i = j
			default:
				return nil, false
			}
		case c == '\n' && ml:
			b = append(b, c)
			q.i++
		case c < 0x20 && c != '\t' || c == 0x7f:
			return nil, false
		default:
			b = append(b, c)
			q.i++
		}
	}
	return nil, false
}

// quotes counts the double quotes that start s.
func quotes(s []byte) int {
	n := 0
	for n < len(s) && s[n] == '"' {
		n++
	}
	return n
}

// literal reads a one-line literal string.
func (q *quick) literal() (any, bool) {
	q.i++
	start := q.i
	for q.i < len(q.src) {
		switch c := q.src[q.i]; {
		case c == '\'':
			s := string(q.src[start:q.i])
			q.i++
			return s, true
		case c < 0x20 && c != '\t' || c == 0x7f:
			return nil, false
		}
		q.i++
	}
	return nil, false
}

// multiLine reads a multi-line string quoted by three of quote.
func (q *quick) multiLine(quote byte) (any, bool) {
	q.i += 3
	if q.i < len(q.src) && q.src[q.i] == '\n' {
		q.i++
	}
	start := q.i
	for q.i < len(q.src) {
		if quote == '"' {
			if q.i = basicRun(q.src, q.i); q.i >= len(q.src) {
				break
			}
		}
		switch c := q.src[q.i]; {
		case c == quote:
			n := 0
			for q.i+n < len(q.src) && q.src[q.i+n] == quote {
				n++
			}
			if n < 3 {
				q.i += n
				continue
			}
			if n > 5 {
				return nil, false
			}
			s := string(q.src[start : q.i+n-3])
			q.i += n
			return s, true
		case c == '\\' && quote == '"':
			return q.escaped(start, true)
		case c == '\n':
		case c < 0x20 && c != '\t' || c == 0x7f:
			return nil, false
		}
		q.i++
	}
	return nil, false
}

// array reads an array, which may span lines and hold comments.
func (q *quick) array() (any, bool) {
	q.i++
	out := []any{}
	for {
		if !q.blanks() || q.i >= len(q.src) {
			return nil, false
		}
		if q.src[q.i] == ']' {
			q.i++
			return out, !onlyTables(out)
		}
		v, ok := q.value()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		if !q.blanks() || q.i >= len(q.src) {
			return nil, false
		}
		switch q.src[q.i] {
		case ',':
			q.i++
		case ']':
			q.i++
			return out, !onlyTables(out)
		default:
			return nil, false
		}
	}
}

// onlyTables reports whether array a holds inline tables and nothing
// else. The library types such an array by what the tables hold
// ([]map[string]any, or []any when one is empty): it is left to it.
func onlyTables(a []any) bool {
	for _, v := range a {
		if _, ok := v.(map[string]any); !ok {
			return false
		}
	}
	return len(a) > 0
}

// inlineTable reads a one-line inline table without a trailing comma.
func (q *quick) inlineTable() (any, bool) {
	q.i++
	t := map[string]any{}
	if q.inline == nil {
		q.inline = map[uintptr]bool{}
	}
	q.inline[mapPointer(t)] = true
	q.spaces()
	if q.i < len(q.src) && q.src[q.i] == '}' {
		q.i++
		return t, true
	}
	for {
		q.spaces()
		k, ok := q.key()
		if !ok || !q.keyValue(t, k) {
			return nil, false
		}
		q.spaces()
		if q.i >= len(q.src) {
			return nil, false
		}
		switch q.src[q.i] {
		case ',':
			q.i++
		case '}':
			q.i++
			return t, true
		default:
			return nil, false
		}
	}
}

// basicRun is the index of the first byte of src from i on that may end
// or change a basic string: a control character (tab and newline too),
// '"', '\\' or DEL; len(src) when there is none. It looks at eight bytes
// at a time.
func basicRun(src []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(src); i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		q, bs, del := x^(ones*'"'), x^(ones*'\\'), x^(ones*0x7f)
		// A byte below 0x20, or a zero byte of q, bs or del.
		if ((x-ones*0x20)&^x|(q-ones)&^q|(bs-ones)&^bs|(del-ones)&^del)&highs != 0 {
			break
		}
	}
	for ; i < len(src); i++ {
		if c := src[i]; c < 0x20 || c == '"' || c == '\\' || c == 0x7f {
			return i
		}
	}
	return len(src)
}
