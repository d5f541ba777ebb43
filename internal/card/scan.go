package card

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// reader is a strict single-pass JSON reader over a whole document, for
// Decode: it accepts exactly what encoding/json accepts (RFC 8259), and
// builds the same values (objects, arrays, strings, json.Number, booleans,
// null) while Decode's checks run as it goes. It is several times cheaper
// than encoding/json's token stream, which a verifier of many cards feels.
type reader struct {
	data []byte
	i    int
	lim  Limits
	at   path
}

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
	if len(r.data)-r.i < len(word) {
		if string(r.data[r.i:]) == word[:len(r.data)-r.i] {
			return errors.New("unexpected end of JSON")
		}
		return r.fail("invalid literal")
	}
	if string(r.data[r.i:r.i+len(word)]) != word {
		return r.fail("invalid literal")
	}
	r.i += len(word)
	return nil
}

func (r *reader) object(depth int) (any, error) {
	r.i++ // {
	obj := map[string]any{}
	var folded map[string]string
	r.ws()
	if r.i < len(r.data) && r.data[r.i] == '}' {
		r.i++
		return obj, nil
	}
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
		if _, dup := obj[name]; dup {
			return nil, fmt.Errorf("%s: member %q appears twice: refused (JSON parsers disagree on which one counts)", &r.at, name)
		}
		f := foldName(name)
		if folded == nil {
			folded = make(map[string]string, 8)
		}
		if other, dup := folded[f]; dup {
			return nil, fmt.Errorf("%s: members %q and %q differ only in letter case: refused (Go clients read them as one member)", &r.at, other, name)
		}
		folded[f] = name
		r.ws()
		if r.i >= len(r.data) {
			return nil, errors.New("unexpected end of JSON")
		}
		if r.data[r.i] != ':' {
			return nil, r.fail("invalid character %q after object key", r.data[r.i])
		}
		r.i++
		r.at.push(-1, name)
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		r.at.pop()
		obj[name] = v
		r.ws()
		if r.i >= len(r.data) {
			return nil, errors.New("unexpected end of JSON")
		}
		switch r.data[r.i] {
		case ',':
			r.i++
		case '}':
			r.i++
			return obj, nil
		default:
			return nil, r.fail("invalid character %q after object key:value pair", r.data[r.i])
		}
	}
}

func (r *reader) array(depth int) (any, error) {
	r.i++ // [
	arr := []any{}
	r.ws()
	if r.i < len(r.data) && r.data[r.i] == ']' {
		r.i++
		return arr, nil
	}
	for {
		r.at.push(len(arr), "")
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		r.at.pop()
		arr = append(arr, v)
		r.ws()
		if r.i >= len(r.data) {
			return nil, errors.New("unexpected end of JSON")
		}
		switch r.data[r.i] {
		case ',':
			r.i++
		case ']':
			r.i++
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
	return json.Number(d[st:i]), nil
}

// str reads a string; the document is valid UTF-8 and holds no unpaired
// surrogate escape (Decode checks both first).
func (r *reader) str() (string, error) {
	d := r.data
	i := r.i + 1
	st := i
	// The common case: no escapes.
	for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 {
		i++
	}
	if i < len(d) && d[i] == '"' {
		r.i = i + 1
		return string(d[st:i]), nil
	}
	buf := make([]byte, 0, i-st+16)
	buf = append(buf, d[st:i]...)
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
	r := &reader{data: data, lim: lim}
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
