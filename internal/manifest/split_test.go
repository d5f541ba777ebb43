package manifest

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// sameAsWhole checks that reading src agent by agent gives what reading it
// in one piece gives: the same manifest, or the same problems.
func sameAsWhole(t *testing.T, src string) { sameAs(t, src, true) }

// sameAs is sameAsWhole; with exact unset, problems need only be found by
// both, not worded alike (a syntax error at the end of an agent's table
// may read differently from the same error in the whole document).
func sameAs(t *testing.T, src string, exact bool) {
	t.Helper()
	whole, synth, werr := parseWhole("m.toml", "", []byte(src))
	if werr == nil {
		for _, a := range synth {
			agent, err := whole.MCPAgent(&whole.MCPServers[a.server])
			if err != nil {
				t.Fatal(err)
			}
			whole.Agents = append(whole.Agents, agent)
		}
	}
	split, serr := Parse("m.toml", []byte(src))
	if (werr == nil) != (serr == nil) {
		t.Fatalf("whole: %v\nsplit: %v\nsource:\n%s", werr, serr, src)
	}
	if werr != nil {
		if exact && werr.Error() != serr.Error() {
			t.Fatalf("problems differ\nwhole:\n%v\nsplit:\n%v\nsource:\n%s", werr, serr, src)
		}
		return
	}
	if !reflect.DeepEqual(whole, split) {
		t.Fatalf("manifests differ\nwhole: %+v\nsplit: %+v", whole, split)
	}
}

const twoAgents = `
[site]
baseUrl = "https://agents.example.com/"
defaultAgent = "a"

[[agents]]
id = "a"
name = "A"
description = """
Line one.
[[agents]]
[site]
"""
version = "1"
[[agents.supportedInterfaces]]
url = "https://a.example.com"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"
[[agents.skills]]
id = "s"
name = "S"
description = 'D'
tags = [
  "t",
  "[u]",
]

[[ agents ]] # second
id = "b"
name = "B"
description = "D"
version = "1"
[[agents.supportedInterfaces]]
url = "https://b.example.com"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"
["agents".skills]
id = "s"
name = "S"
description = "D"
tags = ["t"]
`

func TestSplitLayouts(t *testing.T) {
	cases := map[string]string{
		"regular":           twoAgents,
		"site last":         strings.Replace(twoAgents, "[site]\nbaseUrl = \"https://agents.example.com/\"\ndefaultAgent = \"a\"\n", "", 1) + "\n[site]\nbaseUrl = \"https://agents.example.com/\"\ndefaultAgent = \"a\"\n",
		"provider between":  strings.Replace(twoAgents, "[[ agents ]]", "[provider]\norganization = \"O\"\nurl = \"https://o.example.com\"\n\n[[ agents ]]", 1),
		"sub-table later":   twoAgents + "\n[provider]\norganization = \"O\"\nurl = \"https://o.example.com\"\n[agents.capabilities]\nstreaming = true\n",
		"inline agents":     "agents = [{id = \"a\"}]\n[site]\nbaseUrl = \"https://x.example.com\"\n",
		"dotted agents":     "agents.x = 1\n",
		"single table":      "[agents]\nid = \"a\"\n",
		"orphan sub-table":  "[agents.skills]\nid = \"a\"\n",
		"bad agent":         strings.Replace(twoAgents, `version = "1"`, `version = 1`, 1),
		"bad TOML in agent": strings.Replace(twoAgents, `name = "B"`, `name = "B`, 1),
		"bad TOML in head":  strings.Replace(twoAgents, `defaultAgent = "a"`, `defaultAgent = `, 1),
		"duplicate id":      strings.Replace(twoAgents, `id = "b"`, `id = "a"`, 1),
		"missing default":   strings.Replace(twoAgents, `defaultAgent = "a"`, `defaultAgent = "z"`, 1),
		"no default":        strings.Replace(twoAgents, `defaultAgent = "a"`, ``, 1),
		"no agents":         "[site]\nbaseUrl = \"https://x.example.com\"\n",
		"crlf":              strings.ReplaceAll(twoAgents, "\n", "\r\n"),
		"no final newline":  strings.TrimRight(twoAgents, "\n"),
		"header in array":   strings.Replace(twoAgents, "tags = [\n  \"t\",", "tags = [\n[\"t\"],", 1),
		"unknown key":       strings.Replace(twoAgents, `name = "B"`, "name = \"B\"\nnmae = 1", 1),
		"literal multiline": strings.Replace(twoAgents, `description = "D"`, "description = '''\n[[agents]]\n'''", 1),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			sameAsWhole(t, src)
			sameRaws(t, src)
		})
	}
}

// sameRaws checks that reading agents a range at a time gives each
// agent's Raw, whatever lies between their tables.
func sameRaws(t *testing.T, src string) {
	t.Helper()
	s, err := OpenBytes("m.toml", []byte(src))
	if err != nil {
		return
	}
	for lo := 0; lo <= s.Len(); lo++ {
		for hi := lo; hi <= s.Len(); hi++ {
			raws, err := s.Raws(lo, hi)
			if err != nil {
				t.Fatalf("Raws(%d, %d): %v", lo, hi, err)
			}
			if len(raws) != hi-lo {
				t.Fatalf("Raws(%d, %d) gave %d agents", lo, hi, len(raws))
			}
			for i, got := range raws {
				want, err := s.Raw(lo + i)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("Raws(%d, %d)[%d] = %q, Raw = %q", lo, hi, i, got, want)
				}
				if s.spans != nil && cap(got) != len(got) {
					t.Fatalf("Raws(%d, %d)[%d] can grow into the next agent", lo, hi, i)
				}
			}
		}
	}
}

func TestSplitFindsAgents(t *testing.T) {
	s, err := OpenBytes("m.toml", []byte(twoAgents))
	if err != nil {
		t.Fatal(err)
	}
	if s.spans == nil || s.Len() != 2 {
		t.Fatalf("split did not follow the layout: %d agents, spans %v", s.Len(), s.spans)
	}
	raw, _ := s.Raw(1)
	if !strings.HasPrefix(string(raw), "[[ agents ]] # second") {
		t.Errorf("agent 1 starts %q", raw[:20])
	}
}

// TestWholeReadKeyKeepsTypes: the key of an agent read with the whole
// document tells 1000000 from 1e6 in free-form params.
func TestWholeReadKeyKeepsTypes(t *testing.T) {
	src := func(v string) []byte {
		// [provider] after an agent sub-table: a layout split does not follow.
		valid := strings.Replace(twoAgents, `["agents".skills]`, `[["agents".skills]]`, 1)
		return []byte(strings.Replace(valid, "[[ agents ]] # second", "[agents.capabilities]\n[[agents.capabilities.extensions]]\nuri = \"https://x.example.com/e\"\nparams = { n = "+v+" }\n[provider]\norganization = \"O\"\nurl = \"https://o.example.com\"\n[agents.provider]\norganization = \"P\"\n\n[[ agents ]] # second", 1))
	}
	var raws [][]byte
	for _, v := range []string{"1000000", "1e6"} {
		s, err := OpenBytes("m.toml", src(v))
		if err != nil {
			t.Fatal(err)
		}
		if s.spans != nil {
			t.Fatal("split followed the layout; the test needs one it does not")
		}
		raw, err := s.Raw(0)
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	if string(raws[0]) == string(raws[1]) {
		t.Errorf("1000000 and 1e6 give the same key: %s", raws[0])
	}
}

// endStringRef and endMultilineRef are endString and endMultiline as
// first written, one byte at a time: the references the faster ones are
// held to.
func endStringRef(b []byte, i int) int {
	q := b[i]
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			return i
		case '\n':
			return i
		}
	}
	return len(b) - 1
}

func endMultilineRef(b []byte, i int, q byte) (int, bool) {
	for ; i < len(b); i++ {
		switch {
		case b[i] == '\\' && q == '"':
			i++
		case b[i] == q && i+2 < len(b) && b[i+1] == q && b[i+2] == q:
			i += 2
			for k := 0; k < 2 && i+1 < len(b) && b[i+1] == q; k++ {
				i++
			}
			return i, true
		}
	}
	return len(b) - 1, false
}

// TestStringEndsMatchReference: over random lines of quotes, backslashes,
// new lines and other text, endString and endMultiline stop where their
// references do, from every position.
func TestStringEndsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\"'\\\n#")
	for range 20000 {
		b := make([]byte, 1+rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for i := range b {
			if b[i] == '"' || b[i] == '\'' {
				if got, want := endString(b, i), endStringRef(b, i); got != want {
					t.Fatalf("endString(%q, %d) = %d, want %d", b, i, got, want)
				}
			}
			for _, q := range []byte{'"', '\''} {
				gi, gc := endMultiline(b, i, q)
				wi, wc := endMultilineRef(b, i, q)
				if gi != wi || gc != wc {
					t.Fatalf("endMultiline(%q, %d, %q) = %d, %v, want %d, %v", b, i, q, gi, gc, wi, wc)
				}
			}
		}
	}
}

// TestSplitAtSameAsSplit: cut into pieces on several cores, any manifest
// splits as it does in one piece, to the same layout or the same error,
// also where a piece would start inside a multi-line string or value
// that holds an "[[agents]]" line.
func TestSplitAtSameAsSplit(t *testing.T) {
	defer func(min, piece int64) { parallelSplitMin, parallelPieceMin = min, piece }(parallelSplitMin, parallelPieceMin)
	parallelSplitMin, parallelPieceMin = 1, 1
	fragments := []string{
		"[site]\nbaseUrl = \"https://x.example.com\"\n",
		"[[agents]]\nid = \"a\"\n",
		"[[agents]]\r\nid = \"b\"\r\n",
		"  [[agents]]\n",
		"description = \"\"\"\nline\n[[agents]]\nmore\n\"\"\"\n",
		"d = '''\n[[agents]]\n'''\n",
		"tags = [\n\"t\",\n\"[u]\",\n]\n",
		"x = [\n[[agents]]\n]\n",
		"p = { a = [\n[[agents]]\n] }\n",
		"[agents.capabilities]\nstreaming = true\n",
		"[[agents.skills]]\nid = \"s\"\n",
		"# comment\n[[agents]] # c\n",
		"[other]\nk = 1\n",
		"agents = 1\n",
		"s = \"unterminated\n",
		"name = \"a \\\" [[agents]]\"\n",
		"[agents]\n",
		"\n",
	}
	rng := rand.New(rand.NewPCG(5, 8))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(14) {
			b.WriteString(fragments[rng.IntN(len(fragments))])
		}
		src := []byte(b.String())
		if rng.IntN(4) == 0 {
			src = src[:rng.IntN(len(src)+1)]
		}
		want, werr := split(bytes.NewReader(src))
		for workers := 2; workers <= 5; workers++ {
			got, gerr := splitAt(bytes.NewReader(src), int64(len(src)), workers)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("%d workers: error %v, want %v\nsource:\n%s", workers, gerr, werr, src)
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("%d workers: layout %+v, want %+v\nsource:\n%s", workers, got, want, src)
			}
		}
	}
}

// fromStart counts the reads of r that start at offset 0: one for a split
// whose pieces were joined, two when it was split again in one piece.
type fromStart struct {
	*bytes.Reader
	reads int
}

func (r *fromStart) ReadAt(b []byte, off int64) (int, error) {
	if off == 0 {
		r.reads++
	}
	return r.Reader.ReadAt(b, off)
}

// TestSplitAtJoinsPieces: a manifest whose cuts all fall on headers is
// split in pieces and joined (TestSplitAtSameAsSplit would pass were it
// always split again in one piece), and one with a cut inside a string
// that holds an "[[agents]]" line is split again, with the same layout
// either way.
func TestSplitAtJoinsPieces(t *testing.T) {
	defer func(min, piece int64) { parallelSplitMin, parallelPieceMin = min, piece }(parallelSplitMin, parallelPieceMin)
	parallelSplitMin, parallelPieceMin = 1, 1
	agent := "[[agents]]\nid = \"a\"\n[[agents.skills]]\nid = \"s\"\n"
	// Most of this one's lines are inside a string: the cuts fall there.
	trap := "[[agents]]\nd = \"\"\"\n" + strings.Repeat("[[agents]]\n", 50) + "\"\"\"\n"
	for _, c := range []struct {
		src   string
		reads int
	}{
		{"[site]\nx = 1\n" + strings.Repeat(agent, 12), 1},
		{"[site]\nx = 1\n" + agent + trap + agent, 2},
	} {
		want, err := split(strings.NewReader(c.src))
		if err != nil {
			t.Fatal(err)
		}
		r := &fromStart{Reader: bytes.NewReader([]byte(c.src))}
		got, err := splitAt(r, int64(len(c.src)), 4)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("layout %+v, %v; want %+v", got, err, want)
		}
		if r.reads != c.reads {
			t.Errorf("%d reads from the start, want %d, of\n%s", r.reads, c.reads, c.src)
		}
	}
}
