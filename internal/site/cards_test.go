package site

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

// hostileCardStrings are strings a card may hold that JSON readers and
// writers treat apart: escapes, control characters, U+2028 (which
// encoding/json escapes), invalid UTF-8 (which it replaces), non-ASCII,
// an escaped surrogate's text, case variants of one member name.
var hostileCardStrings = []string{
	"", "a", "key", "Key", "url", "URL", "\u212aey", "X-API-Key", "header", "JSONRPC", "1.0",
	"https://agent.example.com/a2a?x=1&y=<2>", `"q"`, `b\s`, "t\tn\nr\r", "\b\f\x00\x1f\x7f",
	"<script>", "\u2028\u2029", "Überprüfung", "日本語", "😀🏳️‍🌈", "\xff\xfe", "ok\xc3",
	"\xed\xa0\x80", "\\ud800", "\\u00e9", strings.Repeat("long text ", 30),
}

// fillCard sets v to a random value of its type, as card's tests do:
// strings hostile, slices and maps nil, empty or full, params any TOML
// value (numbers big and small, nested deep).
func fillCard(r *rand.Rand, v reflect.Value, depth int) {
	pick := func() string { return hostileCardStrings[r.IntN(len(hostileCardStrings))] }
	switch v.Kind() {
	case reflect.String:
		v.SetString(pick())
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Pointer:
		if r.IntN(3) > 0 && depth < 8 {
			v.Set(reflect.New(v.Type().Elem()))
			fillCard(r, v.Elem(), depth+1)
		}
	case reflect.Slice:
		if r.IntN(4) == 0 {
			return
		}
		n := r.IntN(3)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fillCard(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		if r.IntN(4) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(3) {
			e := reflect.New(v.Type().Elem()).Elem()
			fillCard(r, e, depth+1)
			m.SetMapIndex(reflect.ValueOf(pick()), e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Name != "Signatures" {
				fillCard(r, v.Field(i), depth+1)
			}
		}
	case reflect.Interface:
		v.Set(reflect.ValueOf(randomTOMLValue(r, pick, depth)))
	}
}

// randomTOMLValue is a value as an extension's params hold one.
func randomTOMLValue(r *rand.Rand, pick func() string, depth int) any {
	switch n := r.IntN(8); {
	case n == 0:
		return pick()
	case n == 1:
		return r.Int64() >> r.IntN(64) // past 2^53 now and then: refused
	case n == 2:
		return float64(r.IntN(2000)-1000) / 8
	case n == 3:
		return r.IntN(2) == 0
	case n < 6 && depth < 70:
		list := make([]any, 1+r.IntN(2))
		for i := range list {
			list[i] = randomTOMLValue(r, pick, depth+1)
		}
		return list
	case depth < 70:
		m := map[string]any{}
		for range 1 + r.IntN(2) {
			m[pick()] = randomTOMLValue(r, pick, depth+1)
		}
		return m
	}
	return "leaf"
}

// TestInspectedDocIsDecode: the decoded card signBoth hands the lint
// (agentOutput.doc) is exactly card.Decode(unsigned, card.Strict), after
// all the signing work read it, for random cards with hostile strings,
// big numbers and deep nesting; a card Decode refuses is not signed.
func TestInspectedDocIsDecode(t *testing.T) {
	m := loadExample(t)
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		t.Fatal(err)
	}
	signers := testSigners(t, m, ks, "ed25519")
	signed, refused := 0, 0
	for seed := range uint64(1500) {
		r := rand.New(rand.NewPCG(seed, 3))
		v1, v03 := new(card.V1), new(card.V03)
		fillCard(r, reflect.ValueOf(v1).Elem(), 0)
		fillCard(r, reflect.ValueOf(v03).Elem(), 0)
		for name, ss := range v03.SecuritySchemes {
			if ss == (card.SecuritySchemeV03{}) {
				v03.SecuritySchemes[name] = card.SecuritySchemeV03{MTLS: &card.MutualTLSScheme{}} // one that encodes
			}
		}
		out, err := signBoth(m, signers, v1, v03)
		unsigned, _ := card.Compact(v1)
		want, wantErr := card.Decode(unsigned, card.Strict)
		if wantErr != nil {
			if err == nil {
				t.Fatalf("seed %d: signed a card Decode refuses (%v)", seed, wantErr)
			}
			refused++
			continue
		}
		if err != nil {
			// The v0.3 twin may be refused alone.
			continue
		}
		signed++
		if !reflect.DeepEqual(out.doc, want) {
			t.Fatalf("seed %d: the card handed to the lint is not card.Decode of\n%s", seed, unsigned)
		}
	}
	if signed < 100 || refused < 50 {
		t.Fatalf("%d cards signed, %d refused: the test no longer covers both", signed, refused)
	}
}

// TestBuildInspectsDecode: in a whole build, every card Inspect is shown
// comes with card.Decode of its bytes.
func TestBuildInspectsDecode(t *testing.T) {
	m := loadExample(t)
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		t.Fatal(err)
	}
	var seen atomic.Int64
	inspect := func(a *manifest.Agent, unsigned []byte, doc map[string]any) error {
		want, err := card.Decode(unsigned, card.Strict)
		if err != nil || !reflect.DeepEqual(doc, want) {
			t.Errorf("agent %s: the card handed to Inspect is not card.Decode of its bytes (%v)", a.ID, err)
		}
		seen.Add(1)
		return nil
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: testSigners(t, m, ks, "ed25519"), Inspect: inspect}); err != nil {
		t.Fatal(err)
	}
	if seen.Load() != int64(len(m.Agents)) {
		t.Fatalf("Inspect saw %d cards of %d agents", seen.Load(), len(m.Agents))
	}
}
