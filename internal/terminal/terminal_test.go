package terminal

import (
	"encoding/json"
	"testing"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ünïcødé, 東京":        "plain text, ünïcødé, 東京",
		`back\slash only`:                `back\slash only`,
		"line\nbreak":                    `line\nbreak`,
		"\x1b[31mred\x1b[0m":             `\x1b[31mred\x1b[0m`,
		"bell\a and del\x7f":             `bell\x07 and del\x7f`,
		"c1 \u009b31m csi":               `c1 \u009b31m csi`,
		"next line \u0085 x":             `next line \u0085 x`,
		"evil\u202egnp.exe":              `evil\u202egnp.exe`,
		"isolate \u2066x\u2069":          `isolate \u2066x\u2069`,
		"marks \u200e\u200f\u061c":       `marks \u200e\u200f\u061c`,
		"sep \u2028 \u2029":              `sep \u2028 \u2029`,
		"invalid \xff byte, and \\ kept": `invalid \xff byte, and \\ kept`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := EscapeLines("one\x1b]0;x\a\ntwo \u202e"); got != "one\\x1b]0;x\\x07\ntwo \\u202e" {
		t.Errorf("EscapeLines = %q", got)
	}
}

func TestEscapeJSON(t *testing.T) {
	in := map[string]string{"name": "a\u202eb\u0085c\x7f\x1b \u2028 ok ü"}
	b, _ := json.Marshal(in)
	out := EscapeJSON(b)
	for i := 0; i < len(out); i++ {
		if out[i] < 0x20 || out[i] == 0x7f {
			t.Fatalf("raw control byte in %q", out)
		}
	}
	for _, r := range string(out) {
		if Unsafe(r) {
			t.Fatalf("unsafe rune %U left in %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["name"] != in["name"] {
		t.Errorf("EscapeJSON changed the meaning: %v %q", err, back["name"])
	}
}
