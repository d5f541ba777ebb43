package card

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/jsonstr"
)

// reader is a strict single-pass JSON reader over a whole document, for
// Decode: it accepts exactly what encoding/json accepts (RFC 8259), and
// builds the same values (objects, arrays, strings, json.Number, booleans,
// null) while Decode's checks run as it goes. It is several times cheaper
// than encoding/json's token stream, which a verifier of many cards feels:
// strings without escapes are slices of one copy of the document (src),
// and the members and elements of the objects and arrays being read wait
// on two stacks, so each object and array is allocated once, at its size.
type reader struct {
	data []byte
	src  string // data, copied once
	i    int
	lim  Limits
	at   path
	// members holds the members of the objects being read, innermost
	// last; elems the elements of the arrays being read.
	members []member
	elems   []any
	scratch []byte // for strings with escapes
}

type member struct {
	name string
	val  any
}

// linearNames is how many members an object may have before the reader
// looks case-fold variants up in a map rather than comparing each new name
// with every earlier one.
const linearNames = 24

var readers = sync.Pool{New: func() any { return new(reader) }}

func (r *reader) fail(format string, args ...any) error {
	return fmt.Errorf("not valid JSON: "+format, args...)
}

func (r *reader) ws() {
	for r.i < len(r.data) {
		switch r.data[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// value reads one value at nesting depth.
func (r *reader) value(depth int) (any, error) {
	r.ws()
	if r.i >= len(r.data) {
		return nil, errors.New("unexpected end of JSON")
	}
	switch c := r.data[r.i]; {
	case c == '{' || c == '[':
		if depth >= r.lim.Depth {
			return nil, fmt.Errorf("%s: nested more than %d levels deep: refused", &r.at, r.lim.Depth)
		}
		if c == '{' {
			return r.object(depth)
		}
		return r.array(depth)
	case c == '"':
		return r.str()
	case c == '-' || c >= '0' && c <= '9':
		n, err := r.number()
		if err != nil {
			return nil, err
		}
		if !r.lim.InexactNumbers {
			if err := exactNumber(n); err != nil {
				return nil, fmt.Errorf("%s: %v", &r.at, err)
			}
		}
		return n, nil
	case c == 't':
		return true, r.literal("true")
	case c == 'f':
		return false, r.literal("false")
	case c == 'n':
		return nil, r.literal("null")
	default:
		return nil, r.fail("invalid character %q looking for beginning of value", c)
	}
}

func (r *reader) literal(word string) error {
	if len(r.src)-r.i < len(word) {
		if r.src[r.i:] == word[:len(r.src)-r.i] {
			return errors.New("unexpected end of JSON")
		}
		return r.fail("invalid literal")
	}
	if r.src[r.i:r.i+len(word)] != word {
		return r.fail("invalid literal")
	}
	r.i += len(word)
	return nil
}

func (r *reader) object(depth int) (any, error) {
	r.i++ // {
	r.ws()
	if r.i < len(r.data) && r.data[r.i] == '}' {
		r.i++
		return map[string]any{}, nil
	}
	base := len(r.members)
	// folded maps the folded names of a large object's members to the
	// names (foldName); smaller objects compare names one by one.
	var folded map[string]string
	for {
		r.ws()
		if r.i >= len(r.data) {
			return nil, errors.New("unexpected end of JSON")
		}
		if r.data[r.i] != '"' {
			return nil, r.fail("invalid character %q looking for beginning of object key string", r.data[r.i])
		}
		name, err := r.str()
		if err != nil {
			return nil, err
		}
		// At most one earlier member's name folds like name: two would
		// have been refused already.
		if folded == nil {
			for _, m := range r.members[base:] {
				if sameFold(m.name, name) {
					return nil, r.twice(m.name, name)
				}
			}
			if len(r.members)-base == linearNames {
				folded = make(map[string]string, 2*linearNames)
				for _, m := range r.members[base:] {
					folded[foldName(m.name)] = m.name
				}
			}
		}
		if folded != nil {
			f := foldName(name)
			if other, dup := folded[f]; dup {
				return nil, r.twice(other, name)
			}
			folded[f] = name
		}
		r.ws()
		if r.i >= len(r.data) {
			return nil, errors.New("unexpected end of JSON")
		}
		if r.data[r.i] != ':' {
			return nil, r.fail("invalid character %q after object key", r.data[r.i])
		}
		r.i++
		k := len(r.members)
		r.members = append(r.members, member{name: name})
		r.at.push(-1, name)
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		r.at.pop()
		r.members[k].val = v
		r.ws()
		if r.i >= len(r.data) {
			return nil, errors.New("unexpected end of JSON")
		}
		switch r.data[r.i] {
		case ',':
			r.i++
		case '}':
			r.i++
			obj := make(map[string]any, len(r.members)-base)
			for _, m := range r.members[base:] {
				obj[m.name] = m.val
			}
			clear(r.members[base:])
			r.members = r.members[:base]
			return obj, nil
		default:
			return nil, r.fail("invalid character %q after object key:value pair", r.data[r.i])
		}
	}
}

// twice is the error of a member whose name is other's, or folds like it.
func (r *reader) twice(other, name string) error {
	if other == name {
		return fmt.Errorf("%s: member %q appears twice: refused (JSON parsers disagree on which one counts)", &r.at, name)
	}
	return fmt.Errorf("%s: members %q and %q differ only in letter case: refused (Go clients read them as one member)", &r.at, other, name)
}

// sameFold reports whether foldName(a) == foldName(b), as strings.EqualFold
// does (simple case folding, rune by rune), after a look at the first bytes
// that tells most different names apart: ASCII bytes fold alike only when
// they differ in the case bit at most.
func sameFold(a, b string) bool {
	if len(a) > 0 && len(b) > 0 && a[0]|b[0] < utf8.RuneSelf && (a[0]^b[0])&^0x20 != 0 {
		return false
	}
	return strings.EqualFold(a, b)
}

func (r *reader) array(depth int) (any, error) {
	r.i++ // [
	r.ws()
	if r.i < len(r.data) && r.data[r.i] == ']' {
		r.i++
		return []any{}, nil
	}
	base := len(r.elems)
	for {
		r.at.push(len(r.elems)-base, "")
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		r.at.pop()
		r.elems = append(r.elems, v)
		r.ws()
		if r.i >= len(r.data) {
			return nil, errors.New("unexpected end of JSON")
		}
		switch r.data[r.i] {
		case ',':
			r.i++
		case ']':
			r.i++
			arr := make([]any, len(r.elems)-base)
			copy(arr, r.elems[base:])
			clear(r.elems[base:])
			r.elems = r.elems[:base]
			return arr, nil
		default:
			return nil, r.fail("invalid character %q after array element", r.data[r.i])
		}
	}
}

// number reads an RFC 8259 number.
func (r *reader) number() (json.Number, error) {
	d, st := r.data, r.i
	i := st
	if d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		digits()
	case i >= len(d):
		return "", errors.New("unexpected end of JSON")
	default:
		return "", r.fail("invalid character %q in numeric literal", d[i])
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			if i >= len(d) {
				return "", errors.New("unexpected end of JSON")
			}
			return "", r.fail("invalid character %q after decimal point in numeric literal", d[i])
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			if i >= len(d) {
				return "", errors.New("unexpected end of JSON")
			}
			return "", r.fail("invalid character %q in exponent of numeric literal", d[i])
		}
	}
	r.i = i
	return json.Number(r.src[st:i]), nil
}

// str reads a string; the document is valid UTF-8 and holds no unpaired
// surrogate escape (Decode checks both first).
func (r *reader) str() (string, error) {
	d := r.data
	i := r.i + 1
	st := i
	// The common case: no escapes.
	i += jsonstr.Run(r.src[i:])
	if i < len(d) && d[i] == '"' {
		r.i = i + 1
		return r.src[st:i], nil
	}
	buf := append(r.scratch[:0], d[st:i]...)
	defer func() { r.scratch = buf[:0] }()
	for {
		if i >= len(d) {
			return "", errors.New("unexpected end of JSON")
		}
		c := d[i]
		switch {
		case c == '"':
			r.i = i + 1
			return string(buf), nil
		case c < 0x20:
			return "", r.fail("invalid character %q in string literal", c)
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		i++
		if i >= len(d) {
			return "", errors.New("unexpected end of JSON")
		}
		switch e := d[i]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			ru := hexRune(d[i+1:])
			if ru < 0 {
				if len(d)-(i+1) < 4 {
					return "", errors.New("unexpected end of JSON")
				}
				return "", r.fail("invalid character in \\u hexadecimal character escape")
			}
			i += 4
			if utf16.IsSurrogate(ru) {
				// A pair (checkSurrogates refused unpaired ones).
				lo := hexRune(d[i+3:])
				ru = utf16.DecodeRune(ru, lo)
				i += 6
			}
			buf = utf8.AppendRune(buf, ru)
		default:
			return "", r.fail("invalid character %q in string escape code", e)
		}
		i++
	}
}

// decodeDocument reads data (valid UTF-8, surrogates checked) as one JSON
// value followed only by white space.
func decodeDocument(data []byte, lim Limits) (any, error) {
	r := readers.Get().(*reader)
	defer r.release()
	r.data, r.src, r.lim = data, string(data), lim
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	r.ws()
	if r.i != len(data) {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// maxKept bounds the stacks a pooled reader keeps (in elements or bytes):
// a huge document's are left to the garbage collector.
const maxKept = 4096

// release lets go of the document and of all that was read, and pools r.
func (r *reader) release() {
	keep := func(n int) bool { return n <= maxKept }
	clear(r.members[:cap(r.members)])
	clear(r.elems[:cap(r.elems)])
	clear(r.at.segs[:cap(r.at.segs)])
	next := reader{}
	if keep(cap(r.members)) && keep(cap(r.elems)) && keep(cap(r.scratch)) && keep(cap(r.at.segs)) {
		next = reader{members: r.members[:0], elems: r.elems[:0], scratch: r.scratch[:0], at: path{segs: r.at.segs[:0]}}
	}
	*r = next
	readers.Put(r)
}
