package jsonstr

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/prereq"
)

// TestCanonicalMatchesJSCanonicalize holds Canonical to the canonicalize
// package (RFC 8785 in ECMAScript, JSON.stringify's strings) the A2A JS
// SDK signs and verifies with, for the hostile strings, every rune class
// boundary and random valid UTF-8: a string the two write differently
// would be signed over bytes the SDK never computes. Needs node and
// testdata/interop's packages (prereq.Node: skipped without them, failed
// under CI).
func TestCanonicalMatchesJSCanonicalize(t *testing.T) {
	node := prereq.Node(t, "canonicalize")
	mod := filepath.Join(prereq.InteropDir(t), "node_modules", "canonicalize", "lib", "canonicalize.js")
	var in []string
	for _, s := range hostile {
		if utf8.ValidString(s) {
			in = append(in, s)
		}
	}
	for _, r := range []rune{0x7f, 0x80, 0x9f, 0xa0, 0xad, 0x2028, 0x2029, 0x2027, 0x202a, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0xfffe, 0xffff, 0x10000, 0x1f600, 0xe0041, 0x10ffff} {
		in = append(in, string(r), "a"+string(r)+"b<>&\"\\/", strings.Repeat(string(r), 9))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			switch rng.IntN(4) {
			case 0:
				b.WriteByte(byte(rng.IntN(0x80)))
			case 1:
				b.WriteRune(rune(rng.IntN(0x800)))
			case 2:
				b.WriteRune(rune(0x2000 + rng.IntN(0x100)))
			default:
				r := rune(rng.IntN(0x110000))
				if !utf8.ValidRune(r) {
					r = 0xfffd
				}
				b.WriteRune(r)
			}
		}
		in = append(in, b.String())
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	script := `import canonicalize from ` + strconvQuote(mod) + `;
let d = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', c => d += c).on('end', () => {
  process.stdout.write(JSON.stringify(JSON.parse(d).map(s => canonicalize(s))));
});`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("node gave %d strings for %d", len(got), len(in))
	}
	for i, s := range in {
		if mine := string(Append(nil, s, Canonical)); mine != got[i] {
			t.Errorf("Canonical(%q) = %s, canonicalize = %s", s, mine, got[i])
		}
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal("file://" + filepath.ToSlash(s))
	return string(b)
}
