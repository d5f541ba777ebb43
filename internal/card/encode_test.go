package card

import (
	"bytes"
	"encoding/json"
	"testing"
)

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
