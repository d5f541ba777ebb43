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
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Decode([]byte(tc.in), MaxDepth); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	ok := strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth)
	if _, err := Decode([]byte(ok), MaxDepth); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	v, err := Decode([]byte(`{"a":[1.50,{"b":""}],"A2":null}`), MaxDepth)
	if err != nil || v["a"].([]any)[0].(interface{ String() string }).String() != "1.50" {
		t.Errorf("got %v, %v", v, err)
	}
}

// FuzzDecode drives the strict reader and the SDK projection (what a
// verifier runs on untrusted cards) over arbitrary input: no panic, and a
// card that decodes projects without error.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"name":"n","supportedInterfaces":[{"url":"u","URL":"v"}]}`))
	f.Add([]byte(`{"skills":[{"tags":["a",5,null]}],"capabilities":{"streaming":"yes"}}`))
	f.Add([]byte(`{"securityRequirements":[{"schemes":{"k":{"list":[]}}}],"x":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Decode(data, MaxDepth)
		if err != nil {
			return
		}
		b, err := marshalPlain(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := SDKProjection(b); err != nil {
			t.Fatalf("projection of a decoded card: %v", err)
		}
	})
}
