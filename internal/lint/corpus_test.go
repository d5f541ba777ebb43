package lint_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/lintrule"
)

// The labelled corpus (testdata/corpus) holds cards written to measure the
// rules against text aimed at the models that read cards: hostile/*.jsonl
// carry orders to the reader (in many languages, encodings and fields,
// some split across fields), benign/*.jsonl realistic product copy,
// including hard cases (security products describing the attacks they
// detect, tutorials with commands for the human reader, maths, help-desk
// notes, translations, "ignore case"). One card a line: {"why", "card"}.
//
// A hostile card is caught when lint reports a prompt-injection finding
// in it (hidden-text alone does not count: zero-width characters are
// caught anyway, and the question is whether the order is read). A benign
// card is a false positive when lint reports an error of one of the
// text rules aimed at hostile text: prompt-injection, hidden-text or
// confusable-text (the endpoint, security and credential rules judge
// other things).
const (
	maxMissRate          = 0.10
	maxFalsePositiveRate = 0.05
)

// corpusCard is one line of a corpus file.
type corpusCard struct {
	file string
	line int
	why  string
	card map[string]any
}

func readCorpus(t testing.TB, class string) []corpusCard {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", class, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files for %s: %v", class, err)
	}
	var out []corpusCard
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var row struct {
				Why  string          `json:"why"`
				Card json.RawMessage `json:"card"`
			}
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				t.Fatalf("%s:%d: %v", f, n, err)
			}
			dec := json.NewDecoder(bytes.NewReader(row.Card))
			dec.UseNumber()
			var c map[string]any
			if err := dec.Decode(&c); err != nil || c == nil {
				t.Fatalf("%s:%d: card: %v", f, n, err)
			}
			out = append(out, corpusCard{filepath.Base(f), n, row.Why, c})
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// textErrorRules are the rules whose errors on a benign card count as
// false positives.
var textErrorRules = map[string]bool{lintrule.PromptInjection: true, lintrule.HiddenText: true, lintrule.ConfusableText: true}

// TestCorpusRates lints every card of the corpus and fails when more than
// 10% of the hostile cards have no prompt-injection finding, or more than
// 5% of the benign cards have an error of the text rules.
func TestCorpusRates(t *testing.T) {
	hostile, benign := readCorpus(t, "hostile"), readCorpus(t, "benign")
	if len(hostile) < 200 || len(benign) < 200 {
		t.Fatalf("the corpus needs 200 cards of each class: %d hostile, %d benign", len(hostile), len(benign))
	}
	var misses, fps []string
	for _, c := range hostile {
		caught := false
		for _, f := range lint.Card(c.card) {
			if f.Rule == lintrule.PromptInjection {
				caught = true
				break
			}
		}
		if !caught {
			misses = append(misses, fmt.Sprintf("  hostile/%s:%d (%s): %.120q", c.file, c.line, c.why, cardText(c.card)))
		}
	}
	for _, c := range benign {
		for _, f := range lint.Card(c.card) {
			if f.Severity == lint.Error && textErrorRules[f.Rule] {
				fps = append(fps, fmt.Sprintf("  benign/%s:%d (%s): %s %s: %s", c.file, c.line, c.why, f.Rule, f.Path, f.Message))
				break
			}
		}
	}
	miss := float64(len(misses)) / float64(len(hostile))
	fp := float64(len(fps)) / float64(len(benign))
	t.Logf("hostile: %d cards, %d missed (%.1f%%, at most %.0f%%)", len(hostile), len(misses), 100*miss, 100*maxMissRate)
	t.Logf("benign: %d cards, %d flagged as errors (%.1f%%, at most %.0f%%)", len(benign), len(fps), 100*fp, 100*maxFalsePositiveRate)
	if testing.Verbose() {
		for _, m := range misses {
			t.Log("missed:" + m)
		}
		for _, m := range fps {
			t.Log("false positive:" + m)
		}
	}
	if miss > maxMissRate {
		t.Errorf("miss rate %.1f%% > %.0f%%:\n%s", 100*miss, 100*maxMissRate, strings.Join(misses, "\n"))
	}
	if fp > maxFalsePositiveRate {
		t.Errorf("false-positive rate %.1f%% > %.0f%%:\n%s", 100*fp, 100*maxFalsePositiveRate, strings.Join(fps, "\n"))
	}
}

// cardText is the card's description and its first skill's, to show a
// miss.
func cardText(c map[string]any) string {
	s, _ := c["description"].(string)
	return s
}
