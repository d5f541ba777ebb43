package card

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/gowebpki/jcs"
)

// Marshal writes a card as indented JSON with a final newline. HTML
// characters are not escaped: verifiers re-canonicalize, and people read it.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
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

// SDKProjection returns what the official A2A SDKs sign and verify for a
// card given without signatures (DESIGN.md section 2). A v1.0 card (one with
// supportedInterfaces) is first round-tripped as the SDKs' generated types
// do (projectV1); then, for both versions, every empty string, null, empty
// array and empty object is removed, recursively (@a2a-js/sdk cleanEmpty,
// a2a-python _clean_empty). removed lists the outermost paths that
// disappeared or changed; when it is empty the card is a fixed point and one
// signature serves every verifier.
func SDKProjection(unsigned []byte) (projected []byte, removed []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(unsigned))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("card: %w", err)
	}
	p := v
	if obj, ok := v.(map[string]any); ok {
		if _, v1 := obj["supportedInterfaces"]; v1 {
			p = projectV1("AgentCard", obj)
		}
	}
	cleaned, ok := clean(p)
	if !ok {
		cleaned = map[string]any{}
	}
	removed = diff("", v, cleaned, nil)
	if len(removed) == 0 {
		return unsigned, nil, nil
	}
	projected, err = marshalPlain(cleaned)
	return projected, removed, err
}

// clean drops empty values under v; ok is false when v itself is empty.
func clean(v any) (out any, ok bool) {
	switch x := v.(type) {
	case nil:
		return nil, false
	case string:
		return x, x != ""
	case []any:
		var kept []any
		for _, e := range x {
			if c, ok := clean(e); ok {
				kept = append(kept, c)
			}
		}
		return kept, len(kept) > 0
	case map[string]any:
		kept := map[string]any{}
		for k, e := range x {
			if c, ok := clean(e); ok {
				kept[k] = c
			}
		}
		return kept, len(kept) > 0
	default:
		return x, true
	}
}

// diff lists the outermost paths of a that are missing from b or differ.
// Array elements are compared by position after the first difference is
// reported for the array itself.
func diff(path string, a, b any, out []string) []string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return append(out, orRoot(path))
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			bv, present := y[k]
			if !present {
				out = append(out, p)
				continue
			}
			out = diff(p, x[k], bv, out)
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok {
			return append(out, orRoot(path))
		}
		if len(x) != len(y) {
			// Elements were dropped: name each one that is gone.
			j := 0
			for i, e := range x {
				p := path + "[" + strconv.Itoa(i) + "]"
				if j < len(y) && len(diff(p, e, y[j], nil)) == 0 {
					j++
					continue
				}
				out = append(out, p)
			}
			return out
		}
		for i := range x {
			out = diff(path+"["+strconv.Itoa(i)+"]", x[i], y[i], out)
		}
		return out
	default:
		if !scalarEqual(a, b) {
			return append(out, orRoot(path))
		}
		return out
	}
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
