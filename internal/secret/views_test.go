package secret

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestViewGates: the percent and JSON views apply to the escapes encoders
// write for what the detectors look for, and not to those of ordinary
// URLs and JSON.
func TestViewGates(t *testing.T) {
	for text, want := range map[string]bool{
		"-----BEGIN+EC+PRIVATE+KEY-----%0AMHcC": true,
		"%0a":                                   true, "%0D": true, "%22kty%22": true, "%27": true, "%2b": true, "%2F": true, "%3A": true, "%3d": true, "%25": true,
		"https://example.com/My%20File.pdf": false, "%E6%9D%B1": false, "100%": false, "%2": false, "%zz%2": false, "50% off, %4": false,
	} {
		if got := percentEscaped([]byte(text)); got != want {
			t.Errorf("percentEscaped(%q) = %v", text, got)
		}
	}
	for text, want := range map[string]bool{
		`"\u006bty"`: true, `\u0022`: true, `\u0020`: true, `\u007E`: true, `https:\/\/x`: true, `\\u0064`: true,
		`Tom \u0026 Jerry`: false, `\u003cb\u003e`: false, `\u001f`: false, `\u007f`: false, `caf\u00e9`: false, `\u2028`: false,
		`line\nnext \"quoted\" C:\\dir`: false, `\u00`: false, `\`: false,
	} {
		if got := jsonEscaped([]byte(text)); got != want {
			t.Errorf("jsonEscaped(%q) = %v", text, got)
		}
	}
}

// percentEscapedReference is percentEscaped reading every byte.
func percentEscapedReference(data []byte) bool {
	for i := 0; i+2 < len(data); i++ {
		if data[i] == '%' {
			if b, err := hex.DecodeString(string(data[i+1 : i+3])); err == nil && strings.ContainsRune("\n\r\"'%+/:=", rune(b[0])) {
				return true
			}
		}
	}
	return false
}

// FuzzPercentDecode: percentDecode decodes what url.QueryUnescape (plus
// set) and url.PathUnescape decode, leaves what they refuse, never grows
// a text, and percentEscaped says whether it holds an escape of pctBytes.
func FuzzPercentDecode(f *testing.F) {
	for _, s := range []string{"", "%", "%0", "%0A", "%0a%0D", "a+b", "%2B%2b%2f%3D", "%zz", "%%41", "100%", "-----BEGIN+EC+PRIVATE+KEY-----%0AMHcC%2B%3D", "%E6%9D%B1", "%25250A"} {
		f.Add([]byte(s), []byte("prefix"))
	}
	f.Fuzz(func(t *testing.T, data, prefix []byte) {
		for _, plus := range []bool{true, false} {
			got := percentDecode(slices.Clone(prefix), data, plus)
			if !bytes.HasPrefix(got, prefix) || len(got)-len(prefix) > len(data) {
				t.Fatalf("percentDecode(%q, %v) = %q", data, plus, got)
			}
			unescape := url.PathUnescape
			if plus {
				unescape = url.QueryUnescape
			}
			if want, err := unescape(string(data)); err == nil && string(got[len(prefix):]) != want {
				t.Fatalf("percentDecode(%q, %v) = %q, net/url %q", data, plus, got[len(prefix):], want)
			}
		}
		if got, want := percentEscaped(data), percentEscapedReference(data); got != want {
			t.Fatalf("percentEscaped(%q) = %v, reference %v", data, got, want)
		}
	})
}

// jsonEscapedReference is jsonEscaped reading every backslash as
// strconv and a table would.
func jsonEscapedReference(data []byte) bool {
	for i := 0; i+1 < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		if data[i+1] == '/' || strings.HasPrefix(string(data[i:]), `\\\"`) {
			return true
		}
		if data[i+1] == 'u' && i+6 <= len(data) && string(data[i+2:i+4]) == "00" {
			if b, err := hex.DecodeString(string(data[i+4 : i+6])); err == nil && b[0] >= ' ' && b[0] <= '~' && !strings.ContainsRune("&<>", rune(b[0])) {
				return true
			}
		}
	}
	return false
}

// FuzzJSONUnescape: jsonUnescape decodes a JSON string's contents as
// encoding/json does, never grows a text, and jsonEscaped says whether it
// holds an escape of printable ASCII (but &, < and >), \/ or a quote
// escaped twice.
func FuzzJSONUnescape(f *testing.F) {
	for _, s := range []string{"", `\`, `\u`, `\u00`, `\u006bty`, `\"\\\/\b\f\n\r\t`, `\ud83d\ude00`, `\ud83d`, `\ude00\ud83d`, `\ud83d\u0041`, `\x41`, `caf\u00e9 \u2028`, `\\u0064`, `\uZZZZ`, "é\xff", `{\\\"kty\\\"}`, `\\\`, `\\"`} {
		f.Add([]byte(s), []byte("prefix"))
	}
	f.Fuzz(func(t *testing.T, data, prefix []byte) {
		got := jsonUnescape(slices.Clone(prefix), data)
		if !bytes.HasPrefix(got, prefix) || len(got)-len(prefix) > len(data) {
			t.Fatalf("jsonUnescape(%q) = %q", data, got)
		}
		var want string
		if utf8.Valid(data) && json.Unmarshal([]byte(`"`+string(data)+`"`), &want) == nil && string(got[len(prefix):]) != want {
			t.Fatalf("jsonUnescape(%q) = %q, encoding/json %q", data, got[len(prefix):], want)
		}
		if got, want := jsonEscaped(data), jsonEscapedReference(data); got != want {
			t.Fatalf("jsonEscaped(%q) = %v, reference %v", data, got, want)
		}
	})
}

// textSpansReference is textSpans reading every byte forward: the
// stretches of spanBytes and printable UTF-8 characters that hold
// minSpan spanBytes in a row.
func textSpansReference(dec []byte) [][2]int {
	var out [][2]int
	start, row, longest := 0, 0, 0
	flush := func(end int) {
		if longest >= minSpan {
			out = append(out, [2]int{start, end})
		}
	}
	for i := 0; i < len(dec); {
		n := 0
		if spanBytes[dec[i]] {
			n, row = 1, row+1
			longest = max(longest, row)
		} else if r, size := utf8.DecodeRune(dec[i:]); size > 1 && printable(r) {
			n, row = size, 0
		}
		if n == 0 {
			flush(i)
			start, row, longest = i+1, 0, 0
			i++
			continue
		}
		i += n
	}
	flush(len(dec))
	return out
}

// FuzzTextSpans: textSpans, which reads one byte in minSpan of binary,
// calls look on the stretches textSpansReference finds, in order.
func FuzzTextSpans(f *testing.F) {
	for _, s := range []string{"", strings.Repeat("a", 15), strings.Repeat("a", 16), "\x00" + strings.Repeat("b", 20) + "\xffé" + strings.Repeat("c", 5),
		"é" + strings.Repeat("d", 16) + "€😀x\xc3", "\xc3\xa9\xa9" + strings.Repeat("e", 17), strings.Repeat("f", 16) + "\x85" + strings.Repeat("g", 16)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, dec []byte) {
		var got [][2]int
		textSpans(dec, func(span []byte) (Finding, bool) {
			start := cap(dec) - cap(span) // span is dec[start:end]
			got = append(got, [2]int{start, start + len(span)})
			return Finding{}, false
		})
		if want := textSpansReference(dec); !slices.Equal(got, want) {
			t.Fatalf("textSpans(%q) = %v, reference %v", dec, got, want)
		}
	})
}
