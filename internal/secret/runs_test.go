package secret

import (
	"bytes"
	"encoding/base64"
	"html"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// alphabetOf maps arbitrary bytes into the standard base64 alphabet, as
// b64 maps runs, and drops a last byte that would leave one over a
// multiple of four: what decodeB64 is given.
func alphabetOf(b []byte) []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = alphabet[c%64]
	}
	if len(out)%4 == 1 {
		out = out[:len(out)-1]
	}
	return out
}

// checkDecodeB64 holds decodeB64 to encoding/base64 on src.
func checkDecodeB64(t *testing.T, src []byte) {
	t.Helper()
	size := base64.RawStdEncoding.DecodedLen(len(src))
	want := make([]byte, size)
	wn, err := base64.RawStdEncoding.Decode(want, src)
	if err != nil {
		t.Fatalf("encoding/base64 fails on %q: %v", src, err)
	}
	got := make([]byte, size)
	if gn := decodeB64(got, src); gn != wn || !bytes.Equal(got[:gn], want[:wn]) {
		t.Fatalf("decodeB64(%q) = %x (%d), encoding/base64 %x (%d)", src, got[:gn], gn, want[:wn], wn)
	}
}

// TestDecodeB64: decodeB64 decodes what encoding/base64 does, every
// length and every character in every place of a quantum.
func TestDecodeB64(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for n := range 70 {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			checkDecodeB64(t, alphabetOf(b))
		}
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for shift := range 4 {
		checkDecodeB64(t, alphabetOf(all[shift:]))
	}
}

// FuzzDecodeB64: decodeB64 decodes any run of the alphabet as
// encoding/base64 does.
func FuzzDecodeB64(f *testing.F) {
	for _, s := range []string{"", "QQ", "QUI", "QUJD", "MC4CAQAwBQYDK2VwBCIEI", "//++", "zz9", "zz", strings.Repeat("/", 43)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecodeB64(t, alphabetOf(b))
	})
}

// FuzzHexRuns: hexRuns, which looks at one byte in minHexRun until one is
// a digit, finds what hexRunsReference, reading every byte, finds, for any
// range of the text.
func FuzzHexRuns(f *testing.F) {
	der := "302e020100300506032b657004220420" + strings.Repeat("ab", 32)
	for _, s := range []string{der, "x" + der, "%2F" + der + "g", strings.Repeat("x", 20) + "abababababab" + "g" + der, strings.Repeat("q", 31) + der, strings.Repeat("ab", 15) + "g" + der[:40], "deadbeef"} {
		f.Add([]byte(s), 0, len(s))
		f.Add([]byte(s), 1, len(s)-1)
	}
	f.Fuzz(func(t *testing.T, data []byte, from, to int) {
		if from < 0 || to > len(data) || from > to {
			return
		}
		var d1, d2 []byte
		got, gok := hexRuns(data, from, to, nil, &d1)
		want, wok := hexRunsReference(data, from, to, nil, &d2)
		if got != want || gok != wok {
			t.Fatalf("hexRuns = %+v %v, reference %+v %v", got, gok, want, wok)
		}
	})
}

// FuzzUnescape: unescape, which reads the references html/template
// writes by hand and appends to a buffer it is given, decodes what
// html.UnescapeString (as browsers) does, whatever the buffer held.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{"", "&", "&;", "&#;", "&#x;", "&#43;", "&#x2F;&#X2f;", "&#1114111;&#1114112;", "&#x10FFFF;&#x110000;", "&#4294967295;&#4294967296;",
		"&#00000043;", "&#+43;", "&#-1;", "&#1_0;", "&#x_1;", "&amp;&lt;&gt;&quot;&apos;&nbsp;", "a&b;c&#", "&#xffffffff;", "&&#43;;", "x&#56;\xff&#x1F600;",
		"&plus;&sol;&equals;&colon;", "&#43MI&#47;5", "&amp &lt", "&#128;&#0;&#xD800;", "&NotNestedGreaterGreater;&CounterClockwiseContourIntegral;"} {
		f.Add([]byte(s), []byte("prefix"))
	}
	f.Fuzz(func(t *testing.T, data, prefix []byte) {
		want := append(slices.Clone(prefix), html.UnescapeString(string(data))...)
		if got := unescape(slices.Clone(prefix), data); !bytes.Equal(got, want) {
			t.Fatalf("unescape(%q) = %q, reference %q", data, got, want)
		}
	})
}
