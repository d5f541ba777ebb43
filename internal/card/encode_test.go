package card

import (
	"bytes"
	"encoding/json"
	"testing"
)

// stdIndent is Marshal as encoding/json writes it: the reference indent
// and MarshalSigned must match byte for byte.
func stdIndent(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestMarshalSignedEqualsMarshal(t *testing.T) {
	m, a := load(t)
	sigs := [][]Signature{
		nil,
		{{Protected: "eyJhbGciOiJFZERTQSJ9", Signature: "c2ln"}},
		{{Protected: "p1", Signature: "s1"}, {Protected: "p2", Signature: "s2", Header: map[string]any{"kid": "k<&>", "n": json.Number("1e3")}}},
	}
	for _, s := range sigs {
		v03, _ := NewV03(m, a)
		for name, c := range map[string]any{"v1": NewV1(m, a), "v0.3": v03} {
			unsigned, err := Compact(c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := MarshalSigned(unsigned, s)
			if err != nil {
				t.Fatal(err)
			}
			switch x := c.(type) {
			case *V1:
				x.Signatures = s
			case *V03:
				x.Signatures = s
			default:
				t.Fatalf("%T", c)
			}
			if want := stdIndent(t, c); !bytes.Equal(got, want) {
				t.Errorf("%s with %d signatures:\ngot:\n%s\nwant:\n%s", name, len(s), got, want)
			}
			if plain, _ := Marshal(c); !bytes.Equal(plain, got) {
				t.Errorf("%s: Marshal differs from MarshalSigned", name)
			}
		}
	}
	if _, err := MarshalSigned([]byte(`[1]`), sigs[1]); err == nil {
		t.Error("MarshalSigned took an array")
	}
	if got, err := MarshalSigned([]byte(`{}`), sigs[1]); err != nil || !bytes.Equal(got, stdIndent(t, map[string]any{"signatures": sigs[1]})) {
		t.Errorf("empty object: %s, %v", got, err)
	}
}

// FuzzIndent: for any JSON text in the compact form encoding/json writes,
// indent gives json.Indent's bytes.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[],"b":{},"c":[{}]}`, `"x\"y\\"`, `[1,"a,b:{c}",{"k":null}]`, `{"\u2028":"<\u0000>"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !json.Valid(src) {
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, src); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indent(nil, compact.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indent(%q) =\n%s\nwant\n%s", compact.Bytes(), got, want.Bytes())
		}
	})
}
