package templates_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/prereq"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
)

// nodeHarness reads {script, fn, texts, raw} on stdin, runs the script
// (the text of signature.js) outside a page, where it only defines
// agentcardsCanonicalize, agentcardsCardPayload and
// agentcardsCheckCardText, and calls fn (one of them) on each JSON text,
// parsed unless raw: [{"ok": base64 of the UTF-8 bytes it returns} or
// {"err": message}].
const nodeHarness = `
const fs = require('fs'), vm = require('vm');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const ctx = vm.createContext({});
vm.runInContext(input.script, ctx, {filename: 'signature.js'});
const out = input.texts.map(text => {
  try { return {ok: Buffer.from(ctx[input.fn](input.raw ? text : JSON.parse(text)) ?? '', 'utf8').toString('base64')}; }
  catch (e) { return {err: String(e)}; }
});
process.stdout.write(JSON.stringify(out));
`

type jsResult struct {
	OK  []byte `json:"ok"`
	Err string `json:"err"`
}

// runJS runs signature.js's function fn under node on each JSON text.
// Without node the test is skipped, except under CI, where it fails.
func runJS(t *testing.T, fn string, texts []string) []jsResult {
	t.Helper()
	node := prereq.Node(t)
	// The embedded copy, which is what a build publishes.
	set, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(map[string]any{"script": string(set.Asset("signature.js")), "fn": fn, "texts": texts, "raw": fn == "agentcardsCheckCardText"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", nodeHarness)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	var res []jsResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(texts) {
		t.Fatalf("node's answer (%v): %.300s", err, out)
	}
	return res
}

// numberVectors are numbers whose ES6 form is easy to get wrong.
var numberVectors = []string{
	"0", "-0", "0.0", "1", "-1", "1e21", "1e+21", "1E21", "1e20", "123456789012345680000", "1e-7", "1e-6", "0.000001",
	"5e-324", "-5e-324", "2.2250738585072014e-308", "2.225073858507201e-308",
	"9007199254740992", "9007199254740991", "-9007199254740992", "9007199254740993",
	"0.30000000000000004", "0.1", "0.2", "1.7976931348623157e308", "-1.7976931348623157e308",
	"4.35", "0.5", "100", "1e2", "333333333.3333333", "1.0e-5", "295147905179352830000", "1e23", "8.41e21",
	"5.0e-324", "0.000001234", "1234567890123456789", "-0.0000033333333333333333", "1.5e300",
}

// stringVectors are strings and member names JCS escapes or orders in
// ways that differ from what a naive writer does.
var stringVectors = []string{
	`"\u0000\u0001\u0007\b\t\n\u000b\f\r\u000e\u001f \"\\/\u007f"`,
	`"\u2028\u2029 line separators stay"`, "\"\u2028\u2029 raw\"",
	`"\ud83d\ude00 \ud834\udd1e"`, "\"😀 𝄞 raw\"", `"\u00e9\u20ac\ufeff\uffff"`, "\"é € \ufeff\"",
	`"<script>&amp;</script>"`, `""`,
	`{"\ue000": 1, "\ud800\udc00": 2}`,
	`{"\uffff": 1, "\ud83d\ude00": 2, "\ud800\udc00": 3, "\u00e9": 4}`,
	`{"b": 1, "a": 2, "aa": 3, "A": 4, "": 5, "\u00e9": 6, "\u20ac": 7, "😀": 8, "\u0000": 9, "a\u0000": 10}`,
	`{"nested": {"z": [1, {"y": null, "x": true}], "a": {}, "b": []}, "__proto__": {"polluted": 1}}`,
	`[null, true, false, [], {}, [[]], "s", -0, 1e21]`,
}

// vectors are testdata/jcs's inputs, the number and string vectors, a
// thousand random doubles, and the example site's published cards.
func vectors(t *testing.T) (names, texts []string) {
	add := func(name, text string) {
		names, texts = append(names, name), append(texts, text)
	}
	inputs, err := filepath.Glob("../testdata/jcs/input/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no RFC 8785 vectors: %v", err)
	}
	cards, _ := filepath.Glob("../testdata/golden/example-site/agents/*/.well-known/agent-card.json")
	for _, f := range append(inputs, cards...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add(f, string(b))
	}
	for _, n := range numberVectors {
		add("number "+n, "["+n+"]")
	}
	r := rand.New(rand.NewPCG(8785, 1))
	for i := 0; i < 1000; i++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		if i%4 == 0 {
			f = float64(r.Int64N(1<<54) - 1<<53)
		}
		n := strconv.FormatFloat(f, 'g', -1, 64)
		add("number "+n, "["+n+"]")
	}
	for _, s := range stringVectors {
		add("string "+s, s)
	}
	return names, texts
}

// TestCanonicalizeJSMatchesGo runs the canonicalizer of signature.js (the
// one the agent pages verify cards with) under node and compares it, byte
// for byte, with the Go canonicalizers internal/sign signs and verifies
// with: sign.Canonicalize of the text, and sign.CanonicalValue of the card
// read as a verifier reads it (card.Decode); and with testdata/jcs's
// expected outputs.
func TestCanonicalizeJSMatchesGo(t *testing.T) {
	names, texts := vectors(t)
	got := runJS(t, "agentcardsCanonicalize", texts)
	for i, text := range texts {
		name, js := names[i], got[i]
		if js.Err != "" {
			t.Errorf("%s: signature.js refused it: %s", name, js.Err)
			continue
		}
		want, err := sign.Canonicalize([]byte(text))
		if err != nil {
			t.Errorf("%s: sign.Canonicalize: %v", name, err)
			continue
		}
		if !bytes.Equal(js.OK, want) {
			t.Errorf("%s:\n js %q\n go %q", name, js.OK, want)
		}
		if doc, err := card.Decode([]byte(text), card.Limits{Depth: card.MaxDepth, InexactNumbers: true}); err == nil {
			if v, err := sign.CanonicalValue(doc); err != nil || !bytes.Equal(js.OK, v) {
				t.Errorf("%s: sign.CanonicalValue (%v):\n js %q\n go %q", name, err, js.OK, v)
			}
		}
		if out, ok := strings.CutPrefix(name, "../testdata/jcs/input/"); ok {
			exp, err := os.ReadFile("../testdata/jcs/output/" + out)
			if err != nil || !bytes.Equal(js.OK, exp) {
				t.Errorf("%s: expected output (%v):\n js  %q\n out %q", name, err, js.OK, exp)
			}
		}
	}
}

// TestCanonicalizeJSRefuses: what JCS cannot carry is an error in
// signature.js, never some bytes: lone surrogates and numbers JSON.parse
// turns into Infinity.
func TestCanonicalizeJSRefuses(t *testing.T) {
	texts := []string{`["\ud800"]`, `["\udc00x"]`, `{"\udbff": 1}`, `["a\ud83d"]`, `[1e400]`, `[-1e309]`}
	for i, r := range runJS(t, "agentcardsCanonicalize", texts) {
		if r.Err == "" {
			t.Errorf("%s: canonicalized as %q, want an error", texts[i], r.OK)
		}
	}
}

// TestCardPayloadJSMatchesGo: the payload signature.js verifies a card's
// signatures over is the one internal/sign verifies them over, the card
// minus signatures; a "__proto__" member stays in it (were it dropped, an
// unsigned member could ride along on a verified card).
func TestCardPayloadJSMatchesGo(t *testing.T) {
	cards, _ := filepath.Glob("../testdata/golden/example-site/agents/*/.well-known/agent-card.json")
	if len(cards) == 0 {
		t.Fatal("no cards in testdata/golden/example-site")
	}
	var texts []string
	for _, f := range cards {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b), `{"__proto__": {"injected": true}, `+string(b[1:]))
	}
	texts = append(texts, `{"signatures": [], "name": "x"}`, `{"__proto__": null}`)
	for i, r := range runJS(t, "agentcardsCardPayload", texts) {
		doc, err := card.Decode([]byte(texts[i]), card.Strict)
		if err != nil {
			t.Fatal(err)
		}
		delete(doc, "signatures")
		want, err := sign.CanonicalValue(doc)
		if err != nil {
			t.Fatal(err)
		}
		if r.Err != "" || !bytes.Equal(r.OK, want) {
			t.Errorf("%.60s: signature.js's payload (%s):\n js %.200q\n go %.200q", texts[i], r.Err, r.OK, want)
		}
	}
}

// TestCheckCardTextJSMatchesGo: signature.js refuses a card's text exactly
// when agentcards verify (card.Decode) does for a number that is not the
// number its RFC 8785 form means, or for a member named twice: a number
// JSON.parse rounds (30.000000000000001, 2^53 + 1) would otherwise verify
// in the browser while exact readers see a value nobody signed.
func TestCheckCardTextJSMatchesGo(t *testing.T) {
	texts := []string{
		`{"a":30}`, `{"a":30.000000000000001}`, `{"a":9007199254740992}`, `{"a":9007199254740993}`,
		`{"a":0.1}`, `{"a":1e21}`, `{"a":1E+21}`, `{"a":1e-7}`, `{"a":-0}`, `{"a":-0.0e5}`, `{"a":5e-324}`,
		`{"a":1.7976931348623157e308}`, `{"a":0.30000000000000004}`, `{"a":100e-2}`, `{"a":1.5e300}`,
		`{"a":123456789012345678901234567890123456789012}`, `{"a":2.00000000000000000001}`, `{"a":[1,2.5,-3e2]}`,
		`{"a":"30.000000000000001"}`, `{"a":1,"A":2}`, `{"a":{"b":1},"c":{"b":2}}`,
	}
	for i, r := range runJS(t, "agentcardsCheckCardText", texts) {
		_, goErr := card.Decode([]byte(texts[i]), card.Strict)
		if (goErr != nil) != (r.Err != "") {
			t.Errorf("%s: Go says %v, signature.js says %q", texts[i], goErr, r.Err)
		}
	}
}
