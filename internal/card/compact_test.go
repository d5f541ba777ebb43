package card

import (
	"bytes"
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/jsonstr"
)

// hostileStrings are strings that JSON encoders and readers treat
// differently, or that a build's cards hold: escapes, control characters,
// HTML, U+2028 and U+2029 (encoding/json escapes them, JCS does not),
// invalid UTF-8 (encoding/json writes U+FFFD), non-ASCII runes cut by the
// eight-byte steps of jsonstr.Run, case variants of one name.
var hostileStrings = []string{
	"", "a", "key", "Key", "KEY", "url", "URL", "\u212aey", "X-API-Key", "header",
	"https://agent.example.com/a2a?x=1&y=<2>", "JSONRPC", "1.0", "text/plain",
	`"quoted"`, `back\slash`, "tab\there", "line\nbreak\r\n", "\b\f\x00\x01\x1f\x7f",
	"<script>alert(1)</script>", "\u2028\u2029", "a\u2028b\u2029c", "Überprüfung",
	"日本語のテキスト", "emoji 😀 and 🏳️‍🌈", "\xff\xfe", "ok\xc3", "\xe2\x80", "\xe2\x80\xa8",
	"\xed\xa0\x80", "1234567\u00e9", "12345678\u2028", "\\u00e9", "\\ud800",
	strings.Repeat("long words ", 40), strings.Repeat("é", 33), strings.Repeat("\"\\", 9),
}

// fill sets v (a pointer to a card or any of its parts) to a random value
// of its type: strings from pick, nil and empty and full slices and maps,
// nil and set pointers, and for an extension's params any JSON-like value,
// nested.
func fill(r *rand.Rand, v reflect.Value, pick func() string, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(pick())
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Pointer:
		if r.IntN(3) == 0 || depth > 6 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(r, v.Elem(), pick, depth+1)
	case reflect.Slice:
		switch r.IntN(4) {
		case 0:
			return // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		n := 1 + r.IntN(3)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, s.Index(i), pick, depth+1)
		}
		v.Set(s)
	case reflect.Map:
		switch r.IntN(4) {
		case 0:
			return
		case 1:
			v.Set(reflect.MakeMap(v.Type()))
			return
		}
		m := reflect.MakeMap(v.Type())
		for range 1 + r.IntN(3) {
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, e, pick, depth+1)
			m.SetMapIndex(reflect.ValueOf(pick()), e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Name == "Signatures" && r.IntN(8) != 0 {
				continue // a card is encoded before it is signed
			}
			fill(r, v.Field(i), pick, depth+1)
		}
	case reflect.Interface:
		v.Set(reflect.ValueOf(randomParam(r, pick, depth)))
	}
}

// randomParam is a value as an extension's params hold one (a TOML value).
func randomParam(r *rand.Rand, pick func() string, depth int) any {
	switch n := r.IntN(8); {
	case n == 0:
		return pick()
	case n == 1:
		return r.Int64() >> r.IntN(64)
	case n == 2:
		return r.NormFloat64() * 1e6
	case n == 3:
		return r.IntN(2) == 0
	case n < 6 && depth < 12:
		list := make([]any, r.IntN(3))
		for i := range list {
			list[i] = randomParam(r, pick, depth+1)
		}
		return list
	case depth < 12:
		m := map[string]any{}
		for range r.IntN(3) {
			m[pick()] = randomParam(r, pick, depth+1)
		}
		return m
	}
	return nil
}

// randomCards fills a V1 and a V03 from seed, with strings from pick.
func randomCards(seed uint64, pick func() string) []any {
	r := rand.New(rand.NewPCG(seed, seed>>1|1))
	v1, v03 := new(V1), new(V03)
	fill(r, reflect.ValueOf(v1).Elem(), pick, 0)
	fill(r, reflect.ValueOf(v03).Elem(), pick, 0)
	return []any{v1, v03}
}

// sameCompact checks Compact of v against encoding/json (marshalPlain,
// what Compact was): the same bytes, or the same error.
func sameCompact(t *testing.T, v any) {
	t.Helper()
	want, wantErr := marshalPlain(v)
	got, err := Compact(v)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("Compact error %v, encoding/json %v", err, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Compact wrote\n%s\nencoding/json\n%s", got, want)
	}
}

// TestCompactMatchesEncodingJSON: for many random cards of both shapes,
// their parts nil, empty or full and their strings hostile, Compact
// writes what encoding/json writes.
func TestCompactMatchesEncodingJSON(t *testing.T) {
	for seed := range uint64(3000) {
		r := rand.New(rand.NewPCG(seed, 7))
		pick := func() string { return hostileStrings[r.IntN(len(hostileStrings))] }
		for _, v := range randomCards(seed, pick) {
			sameCompact(t, v)
		}
	}
	for _, v := range []any{(*V1)(nil), (*V03)(nil), V1{Name: "by value"}, map[string]any{"a": 1}, &V03{SecuritySchemes: map[string]SecuritySchemeV03{"empty": {}}}} {
		sameCompact(t, v)
	}
}

// TestPlainStrings: every hostile string, and each of them cut at every
// byte and joined to others, is written by jsonstr.Plain, the form
// Compact writes strings in, as marshalPlain writes it.
func TestPlainStrings(t *testing.T) {
	for _, a := range hostileStrings {
		for _, b := range hostileStrings {
			s := a + b
			for i := range len(s) + 1 {
				want, _ := marshalPlain(s[i:])
				if got := jsonstr.Append(nil, s[i:], jsonstr.Plain); !bytes.Equal(got, want) {
					t.Fatalf("jsonstr.Append(%q, jsonstr.Plain) = %s, want %s", s[i:], got, want)
				}
			}
		}
	}
}

// FuzzCompact: for any card of either shape made from the input (its
// strings the input's pieces, its shape drawn from the input's hash),
// Compact writes what encoding/json writes.
func FuzzCompact(f *testing.F) {
	for _, s := range hostileStrings {
		f.Add([]byte(s + "|" + s))
	}
	f.Add([]byte("Agent|An agent.|https://a.example.com/a2a|JSONRPC|1.0|key|header|X-API-Key|read|skill-1|Skill|Does things.|tag"))
	f.Add([]byte("\u2028|\xff|\"|\\|<>&|\x00|é|😀|\u212a"))
	f.Fuzz(func(t *testing.T, data []byte) {
		seed, pick := fuzzPicker(data)
		for _, v := range randomCards(seed, pick) {
			sameCompact(t, v)
		}
	})
}

// fuzzPicker is a seed drawn from a fuzzer's input and a source of strings
// cut from it at '|'.
func fuzzPicker(data []byte) (seed uint64, pick func() string) {
	pieces := strings.Split(string(data), "|")
	h := fnv.New64a()
	h.Write(data)
	seed = h.Sum64()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], seed)
	i := 0
	return seed, func() string {
		i++
		return pieces[(i+int(n[i%8]))%len(pieces)]
	}
}

// sameDecoded checks DecodedOf of v against Decode of its Compact text:
// when DecodedOf answers, Decode reads the text without error, to the same
// value. It reports whether DecodedOf answered.
func sameDecoded(t *testing.T, v any) bool {
	t.Helper()
	got, ok := DecodedOf(v)
	if !ok {
		return false
	}
	text, err := Compact(v)
	if err != nil {
		t.Fatalf("DecodedOf answered for a card Compact refuses: %v", err)
	}
	want, err := Decode(text, Strict)
	if err != nil {
		t.Fatalf("DecodedOf answered for a card Decode refuses (%v):\n%s", err, text)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodedOf differs from Decode of\n%s\ngot  %#v\nwant %#v", text, got, want)
	}
	return true
}

// validStrings are the hostile strings that are valid UTF-8 (DecodedOf
// leaves any other to Decode).
var validStrings = func() (out []string) {
	for _, s := range hostileStrings {
		if utf8.ValidString(s) {
			out = append(out, s)
		}
	}
	return out
}()

// TestDecodedOfMatchesDecode: for many random cards of both shapes, with
// hostile strings, DecodedOf is what Decode reads from their Compact
// text, whenever it answers; and it answers for most cards without
// params, invalid UTF-8 or names that fold alike.
func TestDecodedOfMatchesDecode(t *testing.T) {
	answered := 0
	for seed := range uint64(4000) {
		r := rand.New(rand.NewPCG(seed, 11))
		pool := hostileStrings
		if seed%4 != 0 {
			pool = validStrings
		}
		pick := func() string { return pool[r.IntN(len(pool))] }
		for _, v := range randomCards(seed, pick) {
			if sameDecoded(t, v) {
				answered++
			}
		}
	}
	if answered < 500 {
		t.Fatalf("DecodedOf answered for %d cards only", answered)
	}
	for _, v := range []any{(*V1)(nil), (*V03)(nil), V1{}, map[string]any{}, &V1{Signatures: []Signature{{}}}} {
		if _, ok := DecodedOf(v); ok {
			t.Fatalf("DecodedOf answered for %#v", v)
		}
	}
}

// FuzzDecodedOf: for any card of either shape made from the input, as
// FuzzCompact makes them, DecodedOf agrees with Decode of Compact.
func FuzzDecodedOf(f *testing.F) {
	for _, s := range validStrings {
		f.Add([]byte(s + "|" + s))
	}
	f.Add([]byte("Agent|An agent.|https://a.example.com/a2a|JSONRPC|1.0|key|header|X-API-Key|read|skill-1|Skill|Does things.|tag"))
	f.Add([]byte("\u2028|\xff|\"|\\|<>&|\x00|é|😀|\u212a|K|k"))
	f.Fuzz(func(t *testing.T, data []byte) {
		seed, pick := fuzzPicker(data)
		for _, v := range randomCards(seed, pick) {
			sameDecoded(t, v)
		}
	})
}

// BenchmarkCompact times Compact of a typical v1.0 card, and
// encoding/json's writing of it for comparison.
func BenchmarkCompact(b *testing.B) {
	c := &V1{Name: "Partner Sample Operator", Description: strings.Repeat("Increase true budget goal sales regular listen. ", 12), Version: "1.0.4",
		Provider:            &Provider{Organization: "Summit Software", URL: "https://provider-15.example.com"},
		SupportedInterfaces: []Interface{{URL: "https://agent-0.example.com/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}, {URL: "https://agent-0.example.com/rest", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0"}},
		Capabilities:        Capabilities{Streaming: true}, DefaultInputModes: []string{"text/plain", "application/json"}, DefaultOutputModes: []string{"text/plain", "application/json"},
		SecuritySchemes:      map[string]SecuritySchemeV1{"key": {APIKey: &APIKeyV1{Description: "API key issued in the provider's console", Location: "header", Name: "X-API-Key"}}},
		SecurityRequirements: []RequirementV1{{Schemes: map[string]StringList{"key": {List: []string{}}}}},
	}
	for i := range 5 {
		c.Skills = append(c.Skills, SkillV1{ID: "find-workflows-" + string(rune('0'+i)), Name: "Find workflows", Description: strings.Repeat("Approve set settle trip combine urgent priority. ", 4),
			Tags: []string{"summarization", "sales", "code-review"}, Examples: []string{"Find the workflows of the easy team for this week.", "Can you find all workflows that mention draft?"}})
	}
	for _, tc := range []struct {
		name string
		f    func(any) ([]byte, error)
	}{{"compact", Compact}, {"encoding-json", marshalPlain}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tc.f(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
