package card

import (
	"strings"
	"testing"
)

func TestDecodeRefuses(t *testing.T) {
	deep := strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	for name, tc := range map[string]struct{ in, want string }{
		"duplicate":            {`{"a":1,"a":2}`, `member "a" appears twice`},
		"nested duplicate":     {`{"x":[{"a":1,"a":2}]}`, `x[0]: member "a" appears twice`},
		"case variant":         {`{"url":"a","URL":"b"}`, `members "url" and "URL" differ only in letter case`},
		"kelvin sign":          {`{"kind":"a","\u212aind":"b"}`, "differ only in letter case"},
		"long s":               {`{"s":1,"\u017f":2}`, "differ only in letter case"},
		"escaped case variant": {`{"name":"a","\u004eAME":"b"}`, "differ only in letter case"},
		"too deep":             {deep, "nested more than 64 levels"},
		"invalid UTF-8":        {"{\"a\":\"\xff\"}", "not valid UTF-8"},
		"not an object":        {`[1]`, "not a JSON object"},
		"trailing value":       {`{} {}`, "more than one JSON value"},
		"truncated":            {`{"a":`, "unexpected end"},
		"syntax":               {`{"a" 1}`, "not valid JSON"},
		"lone high surrogate":  {`{"a":"x\ud800y"}`, "unpaired UTF-16 surrogate"},
		"lone low surrogate":   {`{"\udc00":1}`, "unpaired UTF-16 surrogate"},
		"reversed pair":        {`{"a":"\udc00\ud800"}`, "unpaired UTF-16 surrogate"},
		"beyond 2^53":          {`{"n":9007199254740993}`, "canonicalizes (RFC 8785) to 9007199254740992"},
		"inexact decimal":      {`{"n":0.10000000000000001}`, "to 0.1, another value"},
		"out of range":         {`{"n":1e400}`, "out of range"},
		"long number":          {`{"n":1.00000000000000000000000000000000000000000000000000}`, "longer than 40"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Decode([]byte(tc.in), Strict); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	ok := strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth)
	if _, err := Decode([]byte(ok), Strict); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	for _, ok := range []string{`{"n":[0.1,1.0,1e2,-0,2.5e-8,9007199254740992,1e300]}`, `{"s":"\ud83d\ude00 \\ud800 \u00e9"}`} {
		if _, err := Decode([]byte(ok), Strict); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	v, err := Decode([]byte(`{"a":[1.50,{"b":""}],"A2":null}`), Strict)
	if err != nil || v["a"].([]any)[0].(interface{ String() string }).String() != "1.50" {
		t.Errorf("got %v, %v", v, err)
	}
}

// FuzzDecode drives the strict reader and the SDK projection (what a
// verifier runs on untrusted cards) over arbitrary input: no panic, the
// reader and the projection agree with their references (encoding/json's
// token stream, and the projection built whole), and a card that decodes
// projects without error.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"name":"n","supportedInterfaces":[{"url":"u","URL":"v"}]}`))
	f.Add([]byte(`{"skills":[{"tags":["a",5,null]}],"capabilities":{"streaming":"yes"}}`))
	f.Add([]byte(`{"securityRequirements":[{"schemes":{"k":{"list":[]}}}],"x":{}}`))
	f.Add([]byte(`{"supportedInterfaces":[],"securitySchemes":{"a":{"apiKeySecurityScheme":{},"mtlsSecurityScheme":{"description":"d"}}}}`))
	for _, doc := range referenceCorpus(f) {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsReference(t, data, Strict)
		doc, err := Decode(data, Strict)
		if err != nil {
			return
		}
		sameProjection(t, doc)
		b, err := marshalPlain(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := SDKProjection(b); err != nil {
			t.Fatalf("projection of a decoded card: %v", err)
		}
	})
}

// BenchmarkDecodeLongName reads a 1 MiB card shaped to make path-building
// quadratic: a 512 KiB member name above a quarter of a million elements
// (52 s per card before paths were built only for errors).
func BenchmarkDecodeLongName(b *testing.B) {
	data := []byte(`{"` + strings.Repeat("A", 1<<19) + `":[` + strings.Repeat("0,", 1<<18) + `0]}`)
	b.SetBytes(int64(len(data)))
	for range b.N {
		doc, err := Decode(data, Strict)
		if err != nil {
			b.Fatal(err)
		}
		u, _ := marshalPlain(doc)
		if _, _, err := SDKProjection(u); err != nil {
			b.Fatal(err)
		}
	}
}
