package card

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
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
// card in normal form (given without signatures): the same JSON with every
// empty string, null, empty array and empty object removed, recursively
// (DESIGN.md section 2: @a2a-js/sdk cleanEmpty, a2a-python _clean_empty).
// removed lists the paths that disappeared; when it is empty the card is a
// fixed point and one signature serves every verifier.
func SDKProjection(unsigned []byte) (projected []byte, removed []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(unsigned))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("card: %w", err)
	}
	cleaned, _ := clean("", v, &removed)
	if len(removed) == 0 {
		return unsigned, nil, nil
	}
	projected, err = marshalPlain(cleaned)
	return projected, outermost(removed), err
}

// outermost keeps the paths that are not inside another path of the list.
func outermost(paths []string) []string {
	var out []string
	for _, p := range paths {
		inner := false
		for _, q := range paths {
			if len(q) < len(p) && strings.HasPrefix(p, q) && (p[len(q)] == '.' || p[len(q)] == '[') {
				inner = true
				break
			}
		}
		if !inner {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// clean drops empty values under v; ok is false when v itself is empty.
func clean(path string, v any, removed *[]string) (out any, ok bool) {
	switch x := v.(type) {
	case nil:
		return nil, false
	case string:
		return x, x != ""
	case []any:
		var kept []any
		for i, e := range x {
			p := path + "[" + strconv.Itoa(i) + "]"
			if c, ok := clean(p, e, removed); ok {
				kept = append(kept, c)
			} else {
				*removed = append(*removed, p)
			}
		}
		return kept, len(kept) > 0
	case map[string]any:
		kept := map[string]any{}
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
			if c, ok := clean(p, x[k], removed); ok {
				kept[k] = c
			} else {
				*removed = append(*removed, p)
			}
		}
		return kept, len(kept) > 0
	default:
		return x, true
	}
}
