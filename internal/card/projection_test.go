package card

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// sameProjection holds SDKProjectionValue to the reference on one decoded
// card: the same projection and the same omissions, in the same order.
func sameProjection(t *testing.T, v any) {
	t.Helper()
	got, gotOmitted := SDKProjectionValue(v)
	want, wantOmitted := sdkProjectionReference(v)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotOmitted, wantOmitted) {
		t.Fatalf("card %#v\nprojection %#v\nomitted %v\nreference %#v\nomitted %v", v, got, gotOmitted, want, wantOmitted)
	}
}

// randomCard builds a card of message type msg from the v1 schema, each
// field present or not, under its name or its alias, with a value of its
// type or of another, empty or not, and with members outside the schema.
func randomCard(r *rand.Rand, msg string, depth int) map[string]any {
	out := map[string]any{}
	for _, f := range v1Schema[msg].fields {
		if r.IntN(3) == 0 {
			continue
		}
		name := f.name
		if f.alias != "" && r.IntN(5) == 0 {
			name = f.alias
		}
		out[name] = randomField(r, f, depth)
	}
	if r.IntN(4) == 0 {
		out[fmt.Sprintf("extra%d", r.IntN(3))] = randomScalar(r)
	}
	return out
}

func randomField(r *rand.Rand, f field, depth int) any {
	if r.IntN(8) == 0 || depth > 6 {
		return randomScalar(r)
	}
	n := r.IntN(3)
	switch f.kind {
	case kString, kOptString:
		return []any{"", "x", "https://a.example.com"}[r.IntN(3)]
	case kBool, kOptBool:
		return r.IntN(2) == 0
	case kStrings:
		out := []any{}
		for range n {
			out = append(out, randomScalar(r))
		}
		return out
	case kMessage:
		return randomCard(r, f.msg, depth+1)
	case kMessages:
		out := []any{}
		for range n {
			if r.IntN(6) == 0 {
				out = append(out, randomScalar(r))
			} else {
				out = append(out, randomCard(r, f.msg, depth+1))
			}
		}
		return out
	case kMessageMap:
		out := map[string]any{}
		for i := range n {
			out[fmt.Sprintf("k%d", i)] = randomCard(r, f.msg, depth+1)
		}
		return out
	case kStringMap:
		out := map[string]any{}
		for i := range n {
			out[fmt.Sprintf("s%d", i)] = randomScalar(r)
		}
		return out
	case kStruct:
		return map[string]any{"a": randomScalar(r), "b": []any{randomScalar(r), map[string]any{}}, "c": map[string]any{"d": randomScalar(r)}}
	}
	return nil
}

func randomScalar(r *rand.Rand) any {
	return []any{nil, "", "x", true, false, json.Number("0"), json.Number("1.50"), []any{}, map[string]any{}, []any{""}, map[string]any{"e": nil}}[r.IntN(11)]
}

// TestProjectionMatchesReference: every card of the corpus that decodes,
// and thousands of random v1.0 and v0.3 cards.
func TestProjectionMatchesReference(t *testing.T) {
	for _, doc := range referenceCorpus(t) {
		if v, err := Decode(doc, Strict); err == nil {
			sameProjection(t, v)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := range n {
		c := randomCard(r, "AgentCard", 0)
		if i%5 == 0 {
			delete(c, "supportedInterfaces") // read as v0.3: cleaned only
		} else if i%2 == 0 {
			c["supportedInterfaces"] = []any{map[string]any{"url": "u"}}
		}
		sameProjection(t, c)
	}
}
