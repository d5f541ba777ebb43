package card

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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

// TestMarshalSignedMatchesMarshal: MarshalSigned of a card's Compact JSON
// and its signatures gives the bytes Marshal gives for the card with its
// Signatures set, for signatures written directly (base64url, no header)
// and for those that go through encoding/json.
func TestMarshalSignedMatchesMarshal(t *testing.T) {
	v1 := V1{Name: "A <b> & c", Description: "line\nbreak \u2028 \"q\"", Version: "1",
		SupportedInterfaces:  []Interface{{URL: "https://a.example/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}},
		Skills:               []SkillV1{{ID: "s", Name: "S", Description: "d", Tags: []string{"t"}}},
		SecuritySchemes:      map[string]SecuritySchemeV1{"k": {APIKey: &APIKeyV1{Location: "header", Name: "X"}}},
		SecurityRequirements: []RequirementV1{{Schemes: map[string]StringList{"k": {List: []string{}}}}}}
	v03 := V03{ProtocolVersion: LegacyProtocolVersion, Name: "A", URL: "https://a.example/a2a", Skills: []SkillV03{}}
	sigSets := [][]Signature{
		{{Protected: "eyJhbGciOiJFZERTQSJ9", Signature: "abc-_XYZ09"}},
		{{Protected: "eyJh", Signature: "AA"}, {Protected: "eyJi", Signature: "BB"}},
		{{Protected: "a+b/c=", Signature: "<&>"}},
		{{Protected: "p", Signature: "s", Header: map[string]any{"kid": "k1", "n": 1.5}}},
		{{Protected: "", Signature: ""}},
	}
	for _, sigs := range sigSets {
		for _, c := range []any{&v1, &v03, &struct {
			Signatures []Signature `json:"signatures,omitempty"`
		}{}} {
			unsigned, err := Compact(c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := MarshalSigned(unsigned, sigs)
			if err != nil {
				t.Fatal(err)
			}
			switch x := c.(type) {
			case *V1:
				y := *x
				y.Signatures = sigs
				c = &y
			case *V03:
				y := *x
				y.Signatures = sigs
				c = &y
			default:
				c = &struct {
					Signatures []Signature `json:"signatures,omitempty"`
				}{sigs}
			}
			want, err := Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("MarshalSigned =\n%s\nwant\n%s", got, want)
			}
		}
	}
}

// BenchmarkMarshalSigned: a card of the benchmark's size and two
// signatures.
func BenchmarkMarshalSigned(b *testing.B) {
	v1 := V1{Name: "Agent", Description: strings.Repeat("The agent books flights and hotels. ", 20), Version: "1.0.0",
		SupportedInterfaces: []Interface{{URL: "https://a.example/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}}}
	for i := range 5 {
		v1.Skills = append(v1.Skills, SkillV1{ID: fmt.Sprint("skill-", i), Name: "Skill", Description: strings.Repeat("Finds and books the cheapest flight. ", 4), Tags: []string{"a", "b", "c"}, Examples: []string{"Book a flight", "Find a hotel"}})
	}
	unsigned, err := Compact(&v1)
	if err != nil {
		b.Fatal(err)
	}
	sigs := []Signature{{Protected: strings.Repeat("eyJhbGciOiJFZERTQSJ9", 10), Signature: strings.Repeat("A", 86)}, {Protected: strings.Repeat("eyJhbGciOiJFZERTQSJ9", 11), Signature: strings.Repeat("B", 86)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MarshalSigned(unsigned, sigs); err != nil {
			b.Fatal(err)
		}
	}
}
