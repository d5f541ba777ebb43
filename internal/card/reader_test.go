package card

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
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

// largeObjects are objects with more members than the reader compares one
// by one (linearNames), with a duplicate or a case variant near the end.
func largeObjects() []string {
	var b strings.Builder
	for i := range 3 * linearNames {
		fmt.Fprintf(&b, `"m%d":%d,`, i, i)
	}
	many := b.String()
	return []string{
		`{` + many + `"last":true}`,
		`{` + many + `"m3":0}`,
		`{` + many + `"M7":0}`,
		`{` + many + `"\u004d70":0}`,
		`{"kind":1,` + many + `"\u212aIND":0}`,
		`{"s":[],` + many + `"\u017f":2}`,
		`{"a":{` + many + `"in":{"x":1,"X":2}}}`,
		`[` + strings.Repeat(`{"a":"\n","b":["\u00e9",1]},`, 2*linearNames) + `{}]`,
	}
}

// referenceCorpus is the seeds, the large objects, and every JSON file of
// testdata (cards, key sets, catalogs, the RFC 8785 vectors).
func referenceCorpus(t testing.TB) [][]byte {
	var out [][]byte
	for _, s := range append(referenceSeeds, largeObjects()...) {
		out = append(out, []byte(s))
	}
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestReaderMatchesReference(t *testing.T) {
	for _, s := range referenceCorpus(t) {
		sameAsReference(t, s, Strict)
		sameAsReference(t, s, Limits{Depth: 3, InexactNumbers: true})
	}
}

// TestReaderMatchesReferenceMutated holds the reader to the reference on
// random mutations of the corpus: bytes changed, dropped, doubled or
// inserted (structural characters, escapes, letters in another case,
// multi-byte and invalid UTF-8), and member names turned into others'.
func TestReaderMatchesReferenceMutated(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inserts := []string{`{`, `}`, `[`, `]`, `,`, `:`, `"`, `\`, `\u`, `\ud800`, `\udc00`, `\u212a`, `\u004b`, `0`, `-`, `.`, `e`, `1e400`,
		`9007199254740993`, `0.1`, `true`, `null`, ` `, "\t", "\x00", "\xff", "\xe2\x84\xaa", "é", `"k":1,`, `"K":1,`}
	iterations := 40
	if testing.Short() {
		iterations = 5
	}
	for _, doc := range referenceCorpus(t) {
		for range iterations {
			m := bytes.Clone(doc)
			for range 1 + rng.IntN(3) {
				i := rng.IntN(len(m) + 1)
				switch rng.IntN(6) {
				case 0:
					if i < len(m) {
						m[i] = byte(rng.IntN(256))
					}
				case 1:
					if i < len(m) {
						m = append(m[:i], m[i+1:]...)
					}
				case 2:
					if i < len(m) {
						c := m[i]
						if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
							c ^= 0x20
						}
						m = slices.Insert(m, i, c)
					}
				case 3, 4:
					m = slices.Insert(m, i, []byte(inserts[rng.IntN(len(inserts))])...)
				case 5:
					// A member name becomes the one before it, or its
					// case variant.
					names := memberName.FindAllIndex(m, -1)
					if len(names) >= 2 {
						k := 1 + rng.IntN(len(names)-1)
						prev := bytes.Clone(m[names[k-1][0]:names[k-1][1]])
						if rng.IntN(2) == 0 {
							prev = bytes.ToUpper(prev)
						}
						m = slices.Concat(m[:names[k][0]], prev, m[names[k][1]:])
					}
				}
			}
			sameAsReference(t, m, Strict)
			sameAsReference(t, m, Limits{Depth: 4, InexactNumbers: true})
		}
	}
}

var memberName = regexp.MustCompile(`"[A-Za-z0-9_]+"\s*:`)

// FuzzReader: Decode's reader accepts and builds what encoding/json does.
func FuzzReader(f *testing.F) {
	for _, s := range referenceCorpus(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameAsReference(t, doc, Strict)
		sameAsReference(t, doc, Limits{Depth: 4, InexactNumbers: true})
	})
}
