package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// hostile are strings each form must write as its reference does: every
// byte alone, the characters some form escapes, invalid UTF-8, and runs
// long enough for the eight-byte skip, with the odd byte at each place.
var hostile = func() []string {
	out := []string{"", "plain text", "<a href=\"x\">&amp;</a>", "\u2028\u2029", "a\u2028b\u2029c",
		"\xff", "\xe2\x80", "\xe2\x80\xa8", "\xed\xa0\x80", "\xc0\xaf", "é日本\U0001F600", "\x7f\x00\x1f",
		"\b\t\n\f\r\v", `\"\\"`, "\ufffd", "</script>", "\u00a0\u0085\u200b\ufeff"}
	for c := range 256 {
		out = append(out, string([]byte{byte(c)}))
	}
	for _, odd := range []string{"\"", "\\", "\x01", "<", "&", "\xff", "é", "\u2028"} {
		for at := range 18 {
			base := strings.Repeat("abcdefgh", 3)
			out = append(out, base[:at]+odd+base[at:])
		}
	}
	return out
}()

// reference is what s becomes in form f, written by the library that
// defines the form: encoding/json, and for Canonical, jcs over it (s
// must then be valid UTF-8).
func reference(t testing.TB, s string, f Form) []byte {
	t.Helper()
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(f == HTML)
	if err := e.Encode(s); err != nil {
		t.Fatal(err)
	}
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if f == Canonical {
		var err error
		if out, err = jcs.Transform(out); err != nil {
			t.Fatalf("jcs.Transform(%s): %v", out, err)
		}
	}
	return out
}

// same checks s in every form it can be written in.
func same(t testing.TB, s string) {
	t.Helper()
	for f := range HTML + 1 {
		if f == Canonical && !utf8.ValidString(s) {
			continue
		}
		want := reference(t, s, f)
		if got := Append(nil, s, f); !bytes.Equal(got, want) {
			t.Fatalf("Append(%q, %d) = %s, want %s", s, f, got, want)
		}
		// Appended, not written over.
		if got := Append([]byte("x"), s, f); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Fatalf("Append(x, %q, %d) = %s", s, f, got)
		}
	}
}

// TestAppend: every hostile string, and each joined to another and cut
// at every byte, is written in each form as the form's reference writes
// it.
func TestAppend(t *testing.T) {
	for _, a := range hostile {
		same(t, a)
	}
	for _, a := range hostile[:40] {
		for _, b := range hostile[:40] {
			s := a + b
			for i := range len(s) + 1 {
				same(t, s[i:])
			}
		}
	}
}

// FuzzAppend holds Append to the references for any string.
func FuzzAppend(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { same(t, s) })
}

// TestRun: Run stops at the first control character, '"' or '\\',
// wherever it lies in its 8-byte word, and passes over bytes that are not
// ASCII, where run(s, true) stops too.
func TestRun(t *testing.T) {
	for _, stop := range []byte{0, 0x1f, '"', '\\', 0x7f, 0x80, 0xff} {
		for n := range 20 {
			for at := 0; at <= n; at++ {
				b := []byte(strings.Repeat("a~ !#[]}", 3)[:n])
				want, wantASCII := n, n
				if at < n {
					b[at] = stop
					if stop < 0x20 || stop == '"' || stop == '\\' {
						want, wantASCII = at, at
					} else if stop >= 0x80 {
						wantASCII = at
					}
				}
				if got := Run(string(b)); got != want {
					t.Fatalf("Run(%q) = %d, want %d", b, got, want)
				}
				if got := run(string(b), true); got != wantASCII {
					t.Fatalf("run(%q, true) = %d, want %d", b, got, wantASCII)
				}
			}
		}
	}
}
