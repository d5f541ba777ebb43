package card

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/gowebpki/jcs"
)

// Marshal writes a card as indented JSON with a final newline. HTML
// characters are not escaped: verifiers re-canonicalize, and people read it.
func Marshal(v any) ([]byte, error) {
	compact, err := marshalPlain(v)
	if err != nil {
		return nil, err
	}
	return append(indent(make([]byte, 0, 2*len(compact)), compact), '\n'), nil
}

// Compact is the JSON of a card without insignificant space or HTML
// escaping: what Marshal indents, and what MarshalSigned takes. It is
// encoding/json's text (marshalPlain), written without reflection for the
// V1 and V03 cards a build signs (compactCard).
func Compact(v any) ([]byte, error) {
	if out, ok := compactCard(make([]byte, 0, 4096), v); ok {
		return out, nil
	}
	return marshalPlain(v)
}

// MarshalSigned is Marshal of a card given as Compact JSON without
// signatures, with sigs added as its last member, "signatures" (V1 and
// V03 declare it last): the same bytes as Marshal of the card with its
// Signatures set, without encoding the card a second time. The card is
// indented straight from unsigned, and the signatures after it, with no
// copy of the whole card in between.
func MarshalSigned(unsigned []byte, sigs []Signature) ([]byte, error) {
	if len(unsigned) < 2 || unsigned[0] != '{' || unsigned[len(unsigned)-1] != '}' {
		return nil, errors.New("card: MarshalSigned needs a JSON object")
	}
	if len(sigs) == 0 {
		return append(indent(make([]byte, 0, 2*len(unsigned)), unsigned), '\n'), nil
	}
	list, err := appendSignatures(make([]byte, 0, 64+len(sigs)*320), sigs)
	if err != nil {
		return nil, err
	}
	dst := make([]byte, 0, 2*(len(unsigned)+len(list))+32)
	// Everything but the closing brace, then the last member and the brace,
	// indented as one text: indentFrom carries the depth across.
	dst, depth := indentFrom(dst, unsigned[:len(unsigned)-1], 0)
	tail := make([]byte, 0, len(list)+16)
	if len(unsigned) > 2 {
		tail = append(tail, ',')
	}
	tail = append(tail, `"signatures":`...)
	tail = append(tail, list...)
	tail = append(tail, '}')
	dst, _ = indentFrom(dst, tail, depth)
	return append(dst, '\n'), nil
}

// appendSignatures appends the compact JSON of sigs, as encoding/json
// writes it. Signatures as signers make them (no unprotected header, base64url
// values, which JSON never escapes) are written directly; any other goes
// through encoding/json.
func appendSignatures(dst []byte, sigs []Signature) ([]byte, error) {
	for _, s := range sigs {
		if s.Header != nil || !isBase64URL(s.Protected) || !isBase64URL(s.Signature) {
			list, err := marshalPlain(sigs)
			return append(dst, list...), err
		}
	}
	dst = append(dst, '[')
	for i, s := range sigs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"protected":"`...)
		dst = append(dst, s.Protected...)
		dst = append(dst, `","signature":"`...)
		dst = append(dst, s.Signature...)
		dst = append(dst, `"}`...)
	}
	return append(dst, ']'), nil
}

// isBase64URL reports whether s holds only the base64url alphabet (RFC
// 4648, section 5), whose characters JSON writes as they are.
func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// indent appends to dst the JSON text src, written by encoding/json without
// insignificant space, indented by two spaces a level exactly as
// json.Indent does it (empty arrays and objects stay on one line), in one
// pass without json.Indent's state machine.
func indent(dst, src []byte) []byte {
	dst, _ = indentFrom(dst, src, 0)
	return dst
}

// indentFrom is indent of src starting depth levels deep, for a text given
// in pieces cut between tokens (never inside a string, nor between the
// brackets of an empty array or object); it returns the depth at the end.
func indentFrom(dst, src []byte, depth int) ([]byte, int) {
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := stringEnd(src, i)
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i++
				continue
			}
			dst = append(dst, c)
			depth++
			newline()
		case '}', ']':
			depth = max(depth-1, 0)
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst, depth
}

// stringEnd is the index of the quote that closes the JSON string opening
// at src[i], or len(src)-1 when it is not closed: the first quote after
// it that an odd number of backslashes does not escape.
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			break
		}
		q := j + k
		n := 0
		for q-1-n > i && src[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q
		}
		j = q + 1
	}
	return len(src) - 1
}

// marshalPlain is json.Marshal without HTML escaping.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Unsigned returns the JSON of a card without its signatures member: the
// document a signature covers before canonicalization.
func Unsigned(cardJSON []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(cardJSON, &m); err != nil {
		return nil, fmt.Errorf("card: %w", err)
	}
	delete(m, "signatures")
	return marshalPlain(m)
}

// Omission is a member of a card that the card's SDK projection leaves out
// or changes, so a signature over the projection does not cover it.
type Omission struct {
	Path string `json:"path"`
	// Empty reports a member that was left out and holds nothing but empty
	// values and proto3 defaults ("", [], {}, false, null, and arrays and
	// objects of only those): a client reads the same card without it. A
	// member that is not Empty (unknown, differently cased, coerced to
	// another type or value, or any part of a security requirement or
	// scheme, whose mere presence means something) is content that no
	// projection signature vouches for.
	Empty bool `json:"empty"`
}

// Paths lists the paths of omissions, in order.
func Paths(omitted []Omission) []string {
	out := make([]string, len(omitted))
	for i, o := range omitted {
		out[i] = o.Path
	}
	return out
}

// SDKProjection returns what the official A2A SDKs sign and verify for a
// card given without signatures (DESIGN.md section 2). A v1.0 card (one with
// supportedInterfaces) is first round-tripped as the SDKs' generated types
// do (projectV1); then, for both versions, every empty string, null, empty
// array and empty object is removed, recursively (@a2a-js/sdk cleanEmpty,
// a2a-python _clean_empty). omitted lists the outermost members that
// disappeared or changed; when it is empty the card is a fixed point and one
// signature serves every verifier.
func SDKProjection(unsigned []byte) (projected []byte, omitted []Omission, err error) {
	dec := json.NewDecoder(bytes.NewReader(unsigned))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("card: %w", err)
	}
	return SDKProjectionOf(v, unsigned)
}

// SDKProjectionOf is SDKProjection for a card already decoded (with
// json.Number numbers, as card.Decode reads them) from unsigned; it does
// not change v.
func SDKProjectionOf(v any, unsigned []byte) (projected []byte, omitted []Omission, err error) {
	cleaned, omitted := SDKProjectionValue(v)
	if len(omitted) == 0 {
		return unsigned, nil, nil
	}
	projected, err = marshalPlain(cleaned)
	return projected, omitted, err
}

// SDKProjectionValue is SDKProjectionOf as a decoded value: the projection
// of v (v itself when nothing is omitted) and what it leaves out.
//
// The projection shares with v whatever it leaves unchanged: neither may
// be changed while the other is in use.
func SDKProjectionValue(v any) (projected any, omitted []Omission) {
	var cleaned any
	var ok, same bool
	obj, _ := v.(map[string]any)
	if _, v1 := obj["supportedInterfaces"]; v1 {
		cleaned, ok, same = projectClean("AgentCard", obj)
	} else {
		cleaned, ok, same = cleanShared(v)
	}
	if ok && same {
		return v, nil // its own projection
	}
	if !ok {
		cleaned = map[string]any{}
	}
	if !differs(v, cleaned) {
		return v, nil
	}
	omitted = diff(&path{}, v, cleaned, nil)
	if len(omitted) == 0 {
		return v, nil
	}
	return cleaned, omitted
}

// isEmpty reports a value made of nothing but empty values and proto3
// defaults: null, "", false, and arrays and objects of only those.
func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case []any:
		for _, e := range x {
			if !isEmpty(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !isEmpty(e) {
				return false
			}
		}
		return true
	}
	return false
}

// clean drops empty values under v; ok is false when v itself is empty.
// What it leaves unchanged is v's own, not a copy.
func clean(v any) (out any, ok bool) {
	out, ok, _ = cleanShared(v)
	return out, ok
}

// cleanShared is clean, and same reports that out is v itself: nothing
// under it was dropped.
func cleanShared(v any) (out any, ok, same bool) {
	switch x := v.(type) {
	case nil:
		return nil, false, true
	case string:
		return x, x != "", true
	case []any:
		for i, e := range x {
			c, ok, same := cleanShared(e)
			if ok && same {
				continue
			}
			// x changes from element i on (each element is cleaned once:
			// twice at every level would take time exponential in depth).
			kept := make([]any, i, len(x))
			copy(kept, x[:i])
			if ok {
				kept = append(kept, c)
			}
			for _, e := range x[i+1:] {
				if c, ok, _ := cleanShared(e); ok {
					kept = append(kept, c)
				}
			}
			return kept, len(kept) > 0, false
		}
		return x, len(x) > 0, true
	case map[string]any:
		var buf [16]cleanedMember
		members := buf[:0]
		changed := false
		for k, e := range x {
			c, ok, same := cleanShared(e)
			members = append(members, cleanedMember{k, c, ok})
			changed = changed || !ok || !same
		}
		if !changed {
			return x, len(x) > 0, true
		}
		kept := make(map[string]any, len(members))
		for _, m := range members {
			if m.ok {
				kept[m.name] = m.val
			}
		}
		return kept, len(kept) > 0, false
	default:
		return x, true, true
	}
}

// cleanedMember is a member of an object as cleanShared or projectClean
// left it; ok is false when nothing was left.
type cleanedMember struct {
	name string
	val  any
	ok   bool
}

// diff lists the outermost members of a that are missing from b (Empty
// when they hold only empty values) or differ from it (never Empty: a value
// was coerced). Array elements are compared by position; when b is shorter,
// the elements of a that b lacks are reported as missing, matching in order.
func diff(at *path, a, b any, out []Omission) []Omission {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return append(out, Omission{Path: at.String()})
		}
		// Only the members that differ are named, in sorted order: most
		// members of most cards do not.
		var keys []string
		for k, av := range x {
			if bv, present := y[k]; !present || differs(av, bv) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			at.push(-1, k)
			if bv, present := y[k]; present {
				out = diff(at, x[k], bv, out)
			} else {
				out = append(out, Omission{Path: at.String(), Empty: isEmpty(x[k]) && !at.inSecurity()})
			}
			at.pop()
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok {
			return append(out, Omission{Path: at.String()})
		}
		if len(x) != len(y) {
			// Elements were dropped: name each one that is gone.
			j := 0
			for i, e := range x {
				if j < len(y) && same(e, y[j]) {
					j++
					continue
				}
				at.push(i, "")
				out = append(out, Omission{Path: at.String(), Empty: isEmpty(e) && !at.inSecurity()})
				at.pop()
			}
			if j < len(y) {
				// b holds elements a does not: a changed, not shrank.
				out = append(out, Omission{Path: at.String()})
			}
			return out
		}
		for i := range x {
			at.push(i, "")
			out = diff(at, x[i], y[i], out)
			at.pop()
		}
		return out
	default:
		if !scalarEqual(a, b) {
			return append(out, Omission{Path: at.String()})
		}
		return out
	}
}

// differs reports whether diff finds anything between a and b, without
// building any path: a member of a missing from b or differing from it, an
// array of another length, or another scalar.
func differs(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return true
		}
		if reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() {
			return false // shared
		}
		for k, v := range x {
			w, present := y[k]
			if !present || differs(v, w) {
				return true
			}
		}
		return false
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return true
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return false // shared
		}
		for i := range x {
			if differs(x[i], y[i]) {
				return true
			}
		}
		return false
	}
	return !scalarEqual(a, b)
}

// same reports whether two decoded JSON values are equal (diff finds
// nothing between them), without building any path.
func same(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !same(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !same(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return scalarEqual(a, b)
}

func orRoot(p string) string {
	if p == "" {
		return "(card)"
	}
	return p
}

func scalarEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	default:
		return a == b
	}
}

// jsonNumberString formats a JSON number as JavaScript's String() would.
func jsonNumberString(v any) string {
	n, ok := v.(json.Number)
	if !ok {
		return fmt.Sprint(v)
	}
	f, err := n.Float64()
	if err != nil {
		return n.String()
	}
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return n.String()
	}
	return s
}
