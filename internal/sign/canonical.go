package sign

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/gowebpki/jcs"

	"github.com/agentcards/agentcards/internal/jsonstr"
)

// CanonicalValue is the RFC 8785 (JCS) form of a decoded JSON value (as
// card.Decode returns it: objects, arrays, strings, json.Number, booleans
// and null), written straight from the tree instead of parsing text again:
// members sorted by their UTF-16 code units, strings escaped as ECMAScript
// does, numbers in ECMAScript's shortest form. It equals Canonicalize of
// the value's JSON text.
func CanonicalValue(v any) ([]byte, error) {
	return appendCanonicalValue(make([]byte, 0, 2048), v)
}

// appendCanonicalValue appends the canonical form of v to b.
func appendCanonicalValue(b []byte, v any) ([]byte, error) {
	w := canonicalWriters.Get().(*canonicalWriter)
	defer w.release()
	return w.append(b, v)
}

// CanonicalPair is CanonicalValue of v and of w, where w shares parts
// with v, as card.SDKProjectionValue's projection of v does: an object or
// array of w near the top that is one of v's own (the same map, the same
// elements) is copied from v's canonical form instead of being written
// again. Neither may change while it runs.
func CanonicalPair(v, w any) (cv, cw []byte, err error) {
	cw0 := canonicalWriters.Get().(*canonicalWriter)
	defer cw0.release()
	cw0.shared = map[sharedKey][2]int{}
	if cv, err = cw0.append(make([]byte, 0, 2048), v); err != nil {
		return nil, nil, err
	}
	cw0.from = cv
	cw, err = cw0.append(make([]byte, 0, len(cv)), w)
	if err != nil {
		return nil, nil, err
	}
	return cv, cw, nil
}

// sharedDepth is how deep CanonicalPair looks for shared parts: the
// members of the top object and their elements (a card's skills), where a
// projection's changes leave whole parts alone.
const sharedDepth = 2

// sharedKey names an object (n = -1) or an array (n elements) by where
// its contents lie in memory.
type sharedKey struct {
	p unsafe.Pointer
	n int
}

// canonicalWriter writes canonical forms; keys holds the member names of
// the objects being written, innermost last, from one value to the next.
// For CanonicalPair, shared maps the objects and arrays of the first
// value, down to sharedDepth, to where their forms lie in it (from, once
// written); depth is how deep the writer is.
type canonicalWriter struct {
	keys   []string
	shared map[sharedKey][2]int
	from   []byte
	depth  int
}

var canonicalWriters = sync.Pool{New: func() any { return new(canonicalWriter) }}

func (w *canonicalWriter) release() {
	w.shared, w.from, w.depth = nil, nil, 0
	clear(w.keys[:cap(w.keys)]) // hold on to no card's strings
	if cap(w.keys) > 4096 {
		w.keys = nil
	}
	w.keys = w.keys[:0]
	canonicalWriters.Put(w)
}

func (w *canonicalWriter) append(b []byte, v any) ([]byte, error) {
	if w.shared == nil || w.depth > sharedDepth {
		return w.write(b, v)
	}
	var k sharedKey
	switch x := v.(type) {
	case []any:
		k = sharedKey{unsafe.Pointer(unsafe.SliceData(x)), len(x)}
	case map[string]any:
		k = sharedKey{reflect.ValueOf(x).UnsafePointer(), -1}
	}
	if k.p == nil {
		return w.write(b, v)
	}
	if w.from != nil {
		if at, ok := w.shared[k]; ok {
			return append(b, w.from[at[0]:at[1]]...), nil
		}
		return w.write(b, v)
	}
	start := len(b)
	b, err := w.write(b, v)
	if err == nil {
		w.shared[k] = [2]int{start, len(b)}
	}
	return b, err
}

// write appends the canonical form of v to b.
func (w *canonicalWriter) write(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		return jsonstr.Append(b, x, jsonstr.Canonical), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, fmt.Errorf("sign: canonicalize: number %s: %v", x, err)
		}
		s, err := jcs.NumberToJSON(f)
		if err != nil {
			return nil, fmt.Errorf("sign: canonicalize: %v", err)
		}
		return append(b, s...), nil
	case []any:
		b = append(b, '[')
		w.depth++
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = w.append(b, e); err != nil {
				return nil, err
			}
		}
		w.depth--
		return append(b, ']'), nil
	case map[string]any:
		base := len(w.keys)
		ascii := true
		for k := range x {
			w.keys = append(w.keys, k)
			for i := 0; i < len(k) && ascii; i++ {
				ascii = k[i] < utf8.RuneSelf
			}
		}
		keys := w.keys[base:]
		if ascii {
			slices.Sort(keys) // byte order is UTF-16 order for ASCII
		} else {
			slices.SortFunc(keys, compareUTF16)
		}
		b = append(b, '{')
		w.depth++
		for i := base; i < len(w.keys); i++ {
			if i > base {
				b = append(b, ',')
			}
			k := w.keys[i]
			b = jsonstr.Append(b, k, jsonstr.Canonical)
			b = append(b, ':')
			var err error
			if b, err = w.append(b, x[k]); err != nil {
				return nil, err
			}
		}
		w.depth--
		clear(w.keys[base:])
		w.keys = w.keys[:base]
		return append(b, '}'), nil
	default:
		// Anything else goes through its JSON text.
		text, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		c, err := Canonicalize(text)
		if err != nil {
			return nil, err
		}
		return append(b, c...), nil
	}
}

// compareUTF16 orders strings by their UTF-16 code units (RFC 8785 3.2.3).
func compareUTF16(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(ua, ub)
}
