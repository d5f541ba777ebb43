package card

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// decodeReference is how Decode read documents before its own reader:
// encoding/json's token stream with the same checks. The tests hold the
// two to the same results.
func decodeReference(data []byte, lim Limits) (map[string]any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, &path{}, 0, lim)
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

// decodeValue is the reader Decode used before reader: encoding/json's
// token stream. Tests check that the two accept and build the same.
func decodeValue(dec *json.Decoder, at *path, depth int, lim Limits) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(err)
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		if n, ok := tok.(json.Number); ok && !lim.InexactNumbers {
			if err := exactNumber(n); err != nil {
				return nil, fmt.Errorf("%s: %v", at, err)
			}
		}
		return tok, nil
	}
	if depth >= lim.Depth {
		return nil, fmt.Errorf("%s: nested more than %d levels deep: refused", at, lim.Depth)
	}
	switch d {
	case '[':
		arr := []any{}
		for dec.More() {
			at.push(len(arr), "")
			v, err := decodeValue(dec, at, depth+1, lim)
			if err != nil {
				return nil, err
			}
			at.pop()
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
			if _, dup := obj[name]; dup {
				return nil, fmt.Errorf("%s: member %q appears twice: refused (JSON parsers disagree on which one counts)", at, name)
			}
			f := foldName(name)
			if other, dup := folded[f]; dup {
				return nil, fmt.Errorf("%s: members %q and %q differ only in letter case: refused (Go clients read them as one member)", at, other, name)
			}
			folded[f] = name
			at.push(-1, name)
			v, err := decodeValue(dec, at, depth+1, lim)
			if err != nil {
				return nil, err
			}
			at.pop()
			obj[name] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxError(err)
		}
		return obj, nil
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

func syntaxError(err error) error {
	if err == io.EOF {
		return errors.New("unexpected end of JSON")
	}
	return fmt.Errorf("not valid JSON: %v", err)
}

// sameAsReference checks Decode against decodeReference on one document:
// both refuse it (for the same kind of reason), or both build equal values.
func sameAsReference(t *testing.T, doc []byte, lim Limits) {
	t.Helper()
	got, gerr := Decode(doc, lim)
	want, werr := decodeReference(doc, lim)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("Decode: %v\nreference: %v\ndocument: %q", gerr, werr, doc)
	}
	if gerr != nil {
		// Syntax errors are worded by each reader; the checks alike.
		if kind(gerr) != kind(werr) {
			t.Fatalf("Decode: %v\nreference: %v\ndocument: %q", gerr, werr, doc)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode built %#v\nreference %#v", got, want)
	}
}

func kind(err error) string {
	s := err.Error()
	for _, k := range []string{"appears twice", "differ only in letter case", "nested more than", "canonicalizes", "longer than", "out of range", "surrogate", "UTF-8", "not a JSON object"} {
		if strings.Contains(s, k) {
			return k
		}
	}
	return "syntax"
}

var referenceSeeds = []string{
	`{}`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":"x\u00e9\ud83d\ude00\n\"\\\/","d":true,"e":false}`,
	`{"a":1,"a":2}`, `{"url":1,"URL":2}`, `{"\u212aind":1,"kind":2}`, `{"n":-0.0e+10}`, `{"n":9007199254740993}`,
	`{"n":01}`, `{"n":1.}`, `{"n":.5}`, `{"n":1e}`, `{"n":-}`, `{"a":[1,]}`, `{"a":1,}`, `{,}`, `[]`, `"x"`, `{} {}`, `{}x`,
	`{"a"}`, `{"a" 1}`, `{"a":tru}`, `{"a":nul`, `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"tab\there"}`, "{\"a\":\"raw\ttab\"}",
	`{"a":"\ud800"}`, ` { "a" : [ ] , "b" : { } } `, "\ufeff{}", `{"a":[[[[[[1]]]]]]}`, `{"a":1e400}`, `{"a":"`, `{"a`, `{`, ``,
}

func TestReaderMatchesReference(t *testing.T) {
	for _, s := range referenceSeeds {
		sameAsReference(t, []byte(s), Strict)
		sameAsReference(t, []byte(s), Limits{Depth: 3, InexactNumbers: true})
	}
}

// FuzzReader: Decode's reader accepts and builds what encoding/json does.
func FuzzReader(f *testing.F) {
	for _, s := range referenceSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameAsReference(t, doc, Strict)
		sameAsReference(t, doc, Limits{Depth: 4, InexactNumbers: true})
	})
}
