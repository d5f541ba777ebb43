package manifest

import (
	"os"
	"reflect"
	"testing"

	"github.com/BurntSushi/toml"
)

// sameAsLibrary fails t when quickParse decodes src to something other
// than what the TOML library gives, or decodes what the library refuses.
// It reports whether quickParse took src.
func sameAsLibrary(t *testing.T, src []byte) bool {
	t.Helper()
	quick, ok := quickParse(src)
	if !ok {
		return false
	}
	var lib map[string]any
	if _, err := toml.Decode(string(src), &lib); err != nil {
		t.Fatalf("quickParse took what the library refuses (%v):\n%q", err, src)
	}
	if !reflect.DeepEqual(quick, lib) {
		t.Fatalf("quickParse and the library differ on\n%q\nquick:   %#v\nlibrary: %#v", src, quick, lib)
	}
	return true
}

// The manifests people write must take the fast path, or it buys nothing.
func TestQuickParseTakesManifests(t *testing.T) {
	for _, name := range []string{"../../agents.toml", "testdata/quick/bench.toml"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsLibrary(t, src) {
			t.Errorf("%s: quickParse left it to the library", name)
		}
	}
}

func TestQuickParse(t *testing.T) {
	for _, tc := range []struct {
		src  string
		fast bool // whether quickParse should take it
	}{
		{"", true},
		{"# only a comment\n\n", true},
		{"a = 1\nb = -0\nc = 123456789012345678\nd = true\ne = false\n", true},
		{"a = 'lit \\ eral'\nb = \"tab\\there \\\"q\\\" \\u00e9 \\U0001F600 \\\\\"\n", true},
		{"a = \"\"\"\nline one\nline \"two\" \"\"\"\"\"\n", true},
		{"a = \"\"\"one \\\n     two\"\"\"\n", true},
		{"a = '''\nraw \\n ''''\n", true},
		{"a = []\nb = [1, 2,]\nc = [\n  # c\n  'x', # d\n  [true], {k = 'v'}\n]\n", true},
		{"a = {}\nb = { x = 1, 'y z' = [2] }\n", true},
		{"\"quoted key\" = 1\n'lit key' = 2\n\"\" = 3\n", true},
		{"[a]\nx = 1\n[a.b]\ny = 2\n[ c . \"d\" ] # c\n[[e]]\nz = 1\n[[e]]\nz = 2\n[e.f]\nw = 3\n[[e.g]]\n", true},
		{"[[agents]]\nid = 'a'\n[agents.securitySchemes.key]\ntype = 'apiKey'\n[[agents.securityRequirements]]\nkey = []\n", true},

		// Left to the library: legal TOML the fast path does not know.
		{"a.b = 1\n", false},
		{"a = 1.5\n", false},
		{"a = 1979-05-27\n", false},
		{"a = 1_000\n", false},
		{"a = 0x1f\n", false},
		{"a = +1\n", false},
		{"a = 1234567890123456789\n", false},
		{"a = inf\n", false},
		{"a = \"\\e\"\n", false},
		{"a = {\n  b = 1\n}\n", false},
		{"a = { b = 1, }\n", false},
		{"[a.b]\n[a]\n", false},
		{"a = 1\r\n", false},
		{"\xef\xbb\xbfa = 1\n", false},
		{"\"k\\u0041\" = 1\n", false},

		// Not TOML at all: the library words the error.
		{"a = 1\na = 2\n", false},
		{"[a]\n[a]\n", false},
		{"a = {}\n[a]\n", false},
		{"a = {b = {}}\n[a.b]\n", false},
		{"a = 1\n[a]\n", false},
		{"[a]\n[[a]]\n", false},
		{"[[a]]\n[a]\n", false},
		{"a = [{}]\n[[a]]\n", false},
		{"a = 01\n", false},
		{"a = 1 b = 2\n", false},
		{"a = \"\\ud800\"\n", false},
		{"a = \"x\ny\"\n", false},
		{"a = \"\x01\"\n", false},
		{"a = 'x\x7f'\n", false},
		{"# \x00\n", false},
		{"a = \"\xff\"\n", false},
		{"a = \"\"\"x\"\"\"\"\"\"\n", false},
		{"a = \"\"\"x \\ y\"\"\"\n", false},
		{"a = [1 2]\n", false},
		{"a = truely\n", false},
		{"[[a]\n", false},
		{"[ [a]]\n", false},
		{"a =\n", false},
		{"= 1\n", false},
	} {
		if got := sameAsLibrary(t, []byte(tc.src)); got != tc.fast {
			t.Errorf("quickParse(%q) took it: %v, want %v", tc.src, got, tc.fast)
		}
	}
}

// FuzzQuickParse holds the fast path to the library: whatever it decodes,
// the library decodes to the same values.
func FuzzQuickParse(f *testing.F) {
	for _, name := range []string{"../../agents.toml", "testdata/quick/bench.toml"} {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("a = \"\"\"\nx \\\n  y \\u00e9\"\"\"\nb = '''z'''\n[[t]]\nc = [1, [true], {d = 'e'}]\n[t.u]\n"))
	f.Add([]byte("[a.\"b\"]\n'c' = -12\n[[a.d]]\n"))
	f.Fuzz(func(t *testing.T, src []byte) { sameAsLibrary(t, src) })
}
