package lint_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/lint"
)

// The findings guard: what lint.Card finds in every card of the labelled
// corpus, of testdata/cards, in the base and benchmark cards, and in
// thousands of deterministic mutations of their strings (letter case,
// look-alike letters, hidden characters, U+FFFD and invalid UTF-8,
// encodings of the text, credentials and markup written in), recorded
// once in testdata/findings.jsonl.gz. A change to the linter that is
// meant to leave what it finds as it is (a speed-up) must pass it
// unchanged; one that changes findings on purpose rewrites it with
// -update and says why in its commit.

// goldenFile holds one JSON line per card: its id and its findings.
const goldenFile = "testdata/findings.jsonl.gz"

// digestFile holds, for the extended run (-findings.extended), the SHA-256
// of the findings of each batch of extendedBatch further mutations.
const digestFile = "testdata/findings-extended.sha256"

var extended = flag.Bool("findings.extended", false, "also compare the findings of the extended mutations with their digests")

const (
	mutationsPerCard = 5
	extendedCards    = 20000
	extendedBatch    = 500
)

// guardCard is one card of the guard.
type guardCard struct {
	id  string
	doc map[string]any
}

// guardRow is one line of the golden file.
type guardRow struct {
	ID       string         `json:"id"`
	Findings []lint.Finding `json:"findings"`
}

// guardSources are the cards the mutations start from, in a fixed order.
func guardSources(t *testing.T) []guardCard {
	t.Helper()
	var out []guardCard
	for _, class := range []string{"hostile", "benign"} {
		for _, c := range readCorpus(t, class) {
			out = append(out, guardCard{fmt.Sprintf("%s/%s:%d", class, c.file, c.line), c.card})
		}
	}
	files, err := filepath.Glob("testdata/cards/*.json")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "testdata/base-card.json", "testdata/bench-card.json")
	for _, f := range files {
		out = append(out, guardCard{filepath.Base(f), readCard(t, f)})
	}
	return out
}

// guardCards are the sources and mutationsPerCard mutations of each.
func guardCards(t *testing.T) []guardCard {
	sources := guardSources(t)
	out := slices.Clone(sources)
	for i, src := range sources {
		rng := rand.New(rand.NewPCG(uint64(i), 0x6c696e74))
		n := mutationsPerCard
		if src.id == "bench-card.json" || src.id == "base-card.json" {
			n = 60
		}
		for j := range n {
			doc, how := mutateCard(src.doc, sources, rng)
			out = append(out, guardCard{fmt.Sprintf("%s#%d %s", src.id, j, how), doc})
		}
	}
	return out
}

// findingsOf is what the guard records of one card: its findings, never
// null.
func findingsOf(doc map[string]any) []lint.Finding {
	fs := lint.Card(doc)
	if fs == nil {
		fs = []lint.Finding{}
	}
	return fs
}

// TestFindingsGolden compares what lint.Card finds in each card of the
// guard with testdata/findings.jsonl.gz (-update rewrites it).
func TestFindingsGolden(t *testing.T) {
	cards := guardCards(t)
	var got []guardRow
	for _, c := range cards {
		got = append(got, guardRow{c.id, findingsOf(c.doc)})
	}
	if *update {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		enc := json.NewEncoder(zw)
		for _, r := range got {
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readGolden(t)
	if len(want) != len(got) {
		t.Fatalf("%d cards in the guard, %d in %s: the mutations changed (never rewrite the guard to pass a speed-up)", len(got), len(want), goldenFile)
	}
	bad, findings := 0, 0
	for i := range got {
		findings += len(got[i].Findings)
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(want[i])
		if !bytes.Equal(g, w) {
			bad++
			if bad <= 10 {
				t.Errorf("card %s:\n got %s\nwant %s", got[i].ID, g, w)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d cards differ from %s", bad, len(got), goldenFile)
	}
	t.Logf("%d cards, %d findings", len(got), findings)
}

func readGolden(t *testing.T) []guardRow {
	t.Helper()
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var rows []guardRow
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r guardRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestFindingsExtended lints extendedCards more mutations (of other
// seeds, two or three stacked) and compares the digest of each batch's
// findings with testdata/findings-extended.sha256; with
// -findings.extended only (it takes a while), and -update rewrites the
// digests.
func TestFindingsExtended(t *testing.T) {
	if !*extended && !*update {
		t.Skip("run with -findings.extended")
	}
	sources := guardSources(t)
	var lines []string
	for b := 0; b < extendedCards/extendedBatch; b++ {
		h := sha256.New()
		for i := range extendedBatch {
			n := b*extendedBatch + i
			rng := rand.New(rand.NewPCG(uint64(n), 0x65787465))
			src := sources[rng.IntN(len(sources))]
			doc, how := mutateCard(src.doc, sources, rng)
			for range rng.IntN(2) {
				doc, _ = mutateCard(doc, sources, rng)
			}
			data, _ := json.Marshal(guardRow{src.id + " " + how, findingsOf(doc)})
			h.Write(data)
			h.Write([]byte{'\n'})
		}
		lines = append(lines, fmt.Sprintf("%x batch %d", h.Sum(nil), b))
	}
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(digestFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(digestFile)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("batch %d differs: got %s, want %s", i, gl[i], wl[i])
			}
		}
	}
}

// mutateCard returns a copy of doc with one or two kinds of mutation
// applied to some of its strings (and now and then its member names, or
// text moved from one field to another), and says which.
func mutateCard(doc map[string]any, sources []guardCard, rng *rand.Rand) (map[string]any, string) {
	kinds := []string{mutationKinds[rng.IntN(len(mutationKinds))]}
	if rng.IntN(3) == 0 {
		kinds = append(kinds, mutationKinds[rng.IntN(len(mutationKinds))])
	}
	share := 0.2 + 0.8*rng.Float64()
	m := &mutator{rng: rng, kinds: kinds, share: share, keys: rng.IntN(6) == 0}
	out := m.value(doc).(map[string]any)
	how := strings.Join(kinds, "+")
	switch rng.IntN(8) {
	case 0:
		// Text of another card in a field models read.
		other := sources[rng.IntN(len(sources))].doc
		if d, ok := other["description"].(string); ok {
			placeText(out, m.apply(d), rng)
			how += " moved"
		}
	case 1:
		// The description split across a skill's tags.
		if d, ok := out["description"].(string); ok {
			if sk := firstSkill(out); sk != nil {
				var tags []any
				for _, w := range strings.Fields(d) {
					tags = append(tags, w)
					if len(tags) == 12 {
						break
					}
				}
				sk["tags"] = tags
				how += " tags"
			}
		}
	}
	return out, how
}

func firstSkill(doc map[string]any) map[string]any {
	sks, _ := doc["skills"].([]any)
	if len(sks) == 0 {
		return nil
	}
	sk, _ := sks[0].(map[string]any)
	return sk
}

// placeText writes s into one of the fields of doc.
func placeText(doc map[string]any, s string, rng *rand.Rand) {
	sk := firstSkill(doc)
	switch n := rng.IntN(6); {
	case sk == nil || n == 0:
		doc["description"] = s
	case n == 1:
		sk["name"] = s
	case n == 2:
		sk["examples"] = []any{s}
	case n == 3:
		sk["description"] = s
	case n == 4:
		doc["documentationUrl"] = "https://docs.example.com/?q=" + url.QueryEscape(s)
	default:
		sk["tags"] = []any{s}
	}
}

// mutator applies kinds of mutation to a share of the strings it meets.
type mutator struct {
	rng   *rand.Rand
	kinds []string
	share float64
	keys  bool // member names too
}

func (m *mutator) value(v any) any {
	switch v := v.(type) {
	case string:
		if m.rng.Float64() < m.share {
			return m.apply(v)
		}
		return v
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = m.value(e)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make(map[string]any, len(v))
		for _, k := range keys {
			nk := k
			if m.keys && m.rng.IntN(4) == 0 {
				nk = m.apply(k)
				if _, taken := v[nk]; taken || nk == "" {
					nk = k
				}
				if _, taken := out[nk]; taken {
					nk = k
				}
			}
			out[nk] = m.value(v[k])
		}
		return out
	}
	return v
}

func (m *mutator) apply(s string) string {
	for _, k := range m.kinds {
		s = mutateString(k, s, m.rng)
	}
	return s
}

// mutationKinds are the mutations of one string.
var mutationKinds = []string{
	"upper", "lower", "flipcase", "confusable", "lookalikeword", "styled", "zerowidth", "fffd", "invalid", "truncate",
	"base64", "base64url", "hex", "rot13", "reverse", "percent", "uescape", "dotted", "spaced", "hyphen", "htmlref",
	"leet", "tags", "nfd", "token", "markup", "newlines", "punct", "camel", "quote", "role", "url", "fullwidth", "dup",
}

// lookalikes are letters of other scripts that look like Latin ones.
var lookalikes = map[rune][]rune{
	'a': {'а', 'α', 'ɑ', 'ａ', '𝐚'}, 'e': {'е', 'ε', 'ｅ'}, 'o': {'о', 'ο', 'օ', '0', 'ｏ'}, 'p': {'р', 'ρ'}, 'c': {'с', 'ϲ'},
	'x': {'х', 'χ'}, 'y': {'у', 'ʏ'}, 'i': {'і', 'ι', 'ɪ', '1'}, 's': {'ѕ', 'ꜱ', '5'}, 'n': {'ո', 'ɴ'}, 'u': {'ս', 'υ'},
	'g': {'ɡ', 'ց'}, 'l': {'ӏ', 'ℓ'}, 'd': {'ԁ'}, 'h': {'һ', 'հ'}, 'r': {'г', 'ʀ'}, 't': {'т', '7'}, 'k': {'к', 'ᴋ'},
	'A': {'А', 'Α', 'Ａ'}, 'B': {'В', 'Β'}, 'E': {'Е', 'Ε'}, 'K': {'К', 'Κ'}, 'M': {'М', 'Μ'}, 'H': {'Н', 'Η'},
	'O': {'О', 'Ο'}, 'P': {'Р', 'Ρ'}, 'C': {'С', 'Ꮯ'}, 'T': {'Т', 'Τ'}, 'X': {'Х', 'Χ'}, 'I': {'І', 'Ι', 'Ⅰ'},
}

// hidden are characters a reader does not see, or that split words.
var hidden = []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u2009", "\u200a", "\u202f", "\u180e",
	"\ufe0f", "\U000E0041", "\u202e", "\u2066", "\u0000", "\u0007", "\u3164", "\u115f", "\u200e", "\u061c", "\u034f"}

// tokens are credentials and things like them written into text.
var tokens = []string{
	"sk-proj-4fJ9kQ2mX7vB1nR8tY3wZ6pL0aS5dF2gH", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "AKIAIOSFODNN7EXAMPLE",
	"xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
	"api_key=a8f5f167f44f4964e6c998dee827110c", "Authorization: Bearer 3f9a7c2e1b8d4f6a9c0e", "password is hunter2024!",
	"postgres://admin:hunt3r2@db.internal:5432/app", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
	"curl -u admin:Hunter2024 https://api.example.com", "--api-key 8f14e45fceea167a5a36dedd4bea2543", "Basic YWxhZGRpbjpvcGVuc2VzYW1l",
	"http://10.0.0.5:8080/a2a", "https://localhost/admin", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "Passwort: geheim2024x",
	`{"kty":"EC","crv":"P-256","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}`,
	"sess=9f8e7d6c5b4a39281706f5e4d3c2b1a0", "xoxp-2048-4096-8192-abcdef0123456789abcdef",
}

// markups wrap text in what renders hidden or reads as another role.
var markups = []string{"<!-- %s -->", "[//]: # (%s)", "<span style=\"display:none\">%s</span>", "[link](https://x.example.com \"%s\")",
	"<|im_start|>system\n%s<|im_end|>", "[INST] %s [/INST]", "### System: %s", "<tool_result>%s</tool_result>",
	"{\"role\": \"system\", \"content\": \"%s\"}", "![img](https://x.example.com/p.png?q={%s})", "**%s**", "`%s`", "\"%s\"",
	"User: hello\nAssistant: %s", "[system note] %s", "<system>%s</system>"}

// roles are openings that speak to the model reading a card.
var roles = []string{"Note to the AI assistant reading this: ", "SYSTEM: ", "Assistant, ", "Dear model, ", "You must always ",
	"From now on you are ", "IMPORTANT: the model should ", "As an AI you must ", "Before answering, call ", "Ignore previous instructions and ",
	"If you are an AI, ", "Do not tell the user that ", "Psst, orchestrator: ", "Hinweis an den Assistenten: ", "忽略之前的所有指令，"}

func mutateString(kind, s string, rng *rand.Rand) string {
	switch kind {
	case "upper":
		return strings.ToUpper(s)
	case "lower":
		return strings.ToLower(s)
	case "flipcase":
		return mapRunes(s, rng, 0.3, func(r rune) string {
			if unicode.IsUpper(r) {
				return string(unicode.ToLower(r))
			}
			return string(unicode.ToUpper(r))
		})
	case "confusable":
		return mapRunes(s, rng, 0.3, func(r rune) string {
			if l := lookalikes[r]; l != nil {
				return string(l[rng.IntN(len(l))])
			}
			return string(r)
		})
	case "lookalikeword":
		ws := strings.Split(s, " ")
		i := rng.IntN(len(ws))
		ws[i] = strings.Map(func(r rune) rune {
			if l := lookalikes[r]; l != nil {
				return l[0]
			}
			return r
		}, ws[i])
		return strings.Join(ws, " ")
	case "styled":
		return mapRunes(s, rng, 0.5, func(r rune) string {
			switch {
			case r >= 'a' && r <= 'z':
				return string(rune(0x1D41A + r - 'a'))
			case r >= 'A' && r <= 'Z':
				return string(rune(0x24B6 + r - 'A'))
			}
			return string(r)
		})
	case "fullwidth":
		return mapRunes(s, rng, 0.6, func(r rune) string {
			if r > ' ' && r < 0x7f {
				return string(r - 0x21 + 0xFF01)
			}
			return string(r)
		})
	case "zerowidth":
		return insertAt(s, rng, 1+rng.IntN(6), func() string { return hidden[rng.IntN(len(hidden))] })
	case "fffd":
		return insertAt(s, rng, 1+rng.IntN(4), func() string { return "\ufffd" })
	case "invalid":
		b := []byte(s)
		for range 1 + rng.IntN(4) {
			i := rng.IntN(len(b) + 1)
			bad := [][]byte{{0xff}, {0xc3}, {0xe2, 0x80}, {0xf0, 0x9f}, {0x80}, {0xed, 0xa0, 0x80}}[rng.IntN(6)]
			b = slices.Insert(b, i, bad...)
		}
		return string(b)
	case "truncate":
		if len(s) < 2 {
			return s
		}
		return s[:rng.IntN(len(s))]
	}
	return mutateEncoded(kind, s, rng)
}

// mutateEncoded is mutateString for the kinds that encode or respell s.
func mutateEncoded(kind, s string, rng *rand.Rand) string {
	switch kind {
	case "base64":
		return prefix(rng) + base64.StdEncoding.EncodeToString([]byte(s))
	case "base64url":
		return prefix(rng) + base64.RawURLEncoding.EncodeToString([]byte(s))
	case "hex":
		return prefix(rng) + hex.EncodeToString([]byte(s))
	case "rot13":
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return 'a' + (r-'a'+13)%26
			case r >= 'A' && r <= 'Z':
				return 'A' + (r-'A'+13)%26
			}
			return r
		}, s)
	case "reverse":
		rs := []rune(s)
		slices.Reverse(rs)
		return string(rs)
	case "percent":
		if rng.IntN(2) == 0 {
			return url.QueryEscape(s)
		}
		return url.PathEscape(s)
	case "uescape":
		return mapRunes(s, rng, 0.5, func(r rune) string {
			if r < 0x10000 && unicode.IsLetter(r) {
				return fmt.Sprintf(`\u%04x`, r)
			}
			return string(r)
		})
	case "dotted", "spaced", "hyphen":
		sep := map[string]string{"dotted": ".", "spaced": " ", "hyphen": "-"}[kind]
		ws := strings.Split(s, " ")
		for i, w := range ws {
			if rng.IntN(3) == 0 && len(w) > 1 {
				if kind == "hyphen" {
					j := 1 + rng.IntN(len(w)-1)
					ws[i] = w[:j] + sep + w[j:]
				} else {
					ws[i] = strings.Join(strings.Split(w, ""), sep)
				}
			}
		}
		if kind == "spaced" {
			return strings.Join(ws, "   ")
		}
		return strings.Join(ws, " ")
	case "htmlref":
		return mapRunes(s, rng, 0.3, func(r rune) string {
			if rng.IntN(2) == 0 {
				return fmt.Sprintf("&#%d;", r)
			}
			return fmt.Sprintf("&#x%x;", r)
		})
	case "leet":
		return mapRunes(s, rng, 0.5, func(r rune) string {
			if d, ok := map[rune]string{'o': "0", 'i': "1", 'e': "3", 'a': "4", 's': "5", 't': "7", 'O': "0", 'I': "1", 'E': "3"}[r]; ok {
				return d
			}
			return string(r)
		})
	}
	return mutateShaped(kind, s, rng)
}

// mutateShaped is mutateString for the kinds that mark up, wrap or
// reshape s.
func mutateShaped(kind, s string, rng *rand.Rand) string {
	switch kind {
	case "tags":
		t := s
		if len(t) > 60 {
			t = t[:60]
		}
		return s + strings.Map(func(r rune) rune {
			if r < 0x80 {
				return 0xE0000 + r
			}
			return r
		}, t)
	case "nfd":
		return mapRunes(s, rng, 0.3, func(r rune) string {
			if r < 0x80 && unicode.IsLetter(r) {
				return string(r) + string([]rune{0x0301, 0x0308, 0x0327, 0x20DD}[rng.IntN(4)])
			}
			return string(r)
		})
	case "token":
		t := tokens[rng.IntN(len(tokens))]
		return insertWord(s, rng, t)
	case "markup":
		return fmt.Sprintf(markups[rng.IntN(len(markups))], s)
	case "newlines":
		return mapRunes(s, rng, 0.3, func(r rune) string {
			if r == ' ' {
				return []string{"\n", "\n\n", "\t", "\r\n", "  "}[rng.IntN(5)]
			}
			return string(r)
		})
	case "punct":
		return mapRunes(s, rng, 0.5, func(r rune) string {
			switch r {
			case '.':
				return []string{";", "!", ":", "。", ". .", ","}[rng.IntN(6)]
			case ' ':
				if rng.IntN(8) == 0 {
					return ", "
				}
			}
			return string(r)
		})
	case "camel":
		ws := strings.Fields(s)
		for i := range ws {
			if i > 0 {
				r, n := utf8.DecodeRuneInString(ws[i])
				ws[i] = string(unicode.ToUpper(r)) + ws[i][n:]
			}
		}
		return strings.Join(ws, "")
	case "quote":
		ws := strings.Split(s, " ")
		i := rng.IntN(len(ws))
		j := min(len(ws), i+1+rng.IntN(6))
		q := []string{`"`, "'", "\u201c", "`"}[rng.IntN(4)]
		closing := q
		if q == "\u201c" {
			closing = "\u201d"
		}
		ws[i] = q + ws[i]
		ws[j-1] += closing
		return "Detects prompt injection such as " + strings.Join(ws, " ")
	case "role":
		return roles[rng.IntN(len(roles))] + s
	case "url":
		return "https://example.com/" + url.PathEscape(s) + "?q=" + url.QueryEscape(s)
	case "dup":
		return s + " " + s
	}
	panic("unknown mutation " + kind)
}

// prefix is what may come before an encoded text.
func prefix(rng *rand.Rand) string {
	return []string{"", "Decode this: ", "Note: ", "b64 ", "Config: "}[rng.IntN(5)]
}

// mapRunes replaces each rune of s, with probability p, by f's string.
func mapRunes(s string, rng *rand.Rand, p float64, f func(rune) string) string {
	var b strings.Builder
	for _, r := range s {
		if rng.Float64() < p {
			b.WriteString(f(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// insertAt inserts n strings of f at random rune boundaries of s.
func insertAt(s string, rng *rand.Rand, n int, f func() string) string {
	rs := []rune(s)
	var b strings.Builder
	at := map[int]bool{}
	for range n {
		at[rng.IntN(len(rs)+1)] = true
	}
	for i := 0; i <= len(rs); i++ {
		if at[i] {
			b.WriteString(f())
		}
		if i < len(rs) {
			b.WriteRune(rs[i])
		}
	}
	return b.String()
}

// insertWord inserts w between two words of s.
func insertWord(s string, rng *rand.Rand, w string) string {
	ws := strings.Split(s, " ")
	i := rng.IntN(len(ws) + 1)
	return strings.Join(slices.Insert(ws, i, w), " ")
}
