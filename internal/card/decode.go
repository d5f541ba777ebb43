package card

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxDepth is how deeply a card a verifier reads may nest objects and
// arrays. The manifest allows 32 levels (manifest.MaxDepth), so every card
// the build writes stays well inside it.
const MaxDepth = 64

// Decode reads a card strictly, as a verifier must before it trusts any of
// it: valid UTF-8 (encoding/json would silently turn invalid bytes into
// U+FFFD), exactly one JSON object, nesting at most maxDepth, no member name
// twice in one object, and no two member names in one object that differ
// only in letter case. Go's encoding/json matches member names without
// regard to case (and keeps the last), so {"url": ..., "URL": ...} would
// mean one thing to a Go client and another to the signer. Numbers are
// json.Number.
func Decode(data []byte, maxDepth int) (map[string]any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, "", 0, maxDepth)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

func decodeValue(dec *json.Decoder, path string, depth, maxDepth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(err)
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return tok, nil
	}
	if depth >= maxDepth {
		return nil, fmt.Errorf("%s: nested more than %d levels deep: refused", orRoot(path), maxDepth)
	}
	switch d {
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec, path+"["+strconv.Itoa(len(arr))+"]", depth+1, maxDepth)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxError(err)
		}
		return arr, nil
	case '{':
		obj := map[string]any{}
		folded := map[string]string{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, syntaxError(err)
			}
			name, _ := tok.(string)
			p := name
			if path != "" {
				p = path + "." + name
			}
			if _, dup := obj[name]; dup {
				return nil, fmt.Errorf("%s: member %q appears twice: refused (JSON parsers disagree on which one counts)", orRoot(path), name)
			}
			f := foldName(name)
			if other, dup := folded[f]; dup {
				return nil, fmt.Errorf("%s: members %q and %q differ only in letter case: refused (Go clients read them as one member)", orRoot(path), other, name)
			}
			folded[f] = name
			v, err := decodeValue(dec, p, depth+1, maxDepth)
			if err != nil {
				return nil, err
			}
			obj[name] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxError(err)
		}
		return obj, nil
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// foldName maps every rune to the smallest rune of its simple case-folding
// orbit, so two names fold alike exactly when bytes.EqualFold (what
// encoding/json uses) calls them equal: "URL", "url" and "uRl" alike, and
// also "\u212aind" (KELVIN SIGN) and "kind".
func foldName(s string) string {
	var b strings.Builder
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

func syntaxError(err error) error {
	if err == io.EOF {
		return errors.New("unexpected end of JSON")
	}
	return fmt.Errorf("not valid JSON: %v", err)
}
