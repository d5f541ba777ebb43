package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// Source is a manifest opened to be read one agent at a time, so that a
// build holds only the agents it is working on: the head ([site],
// [provider]) is decoded and checked at once, each [[agents]] table when it
// is asked for. Agents are independent of each other, so they may be
// decoded concurrently.
type Source struct {
	// Head is the manifest without its agents (Agents is nil).
	Head *Manifest
	name string
	r    io.ReaderAt
	c    io.Closer
	// spans locate each agent's table; nil when the source was read whole.
	spans []span
	// whole holds the agents of a source read whole (an irregular layout).
	whole []Agent
	// synth are the agents synthesized for MCP servers, which come after
	// the [[agents]] tables.
	synth    []synthAgent
	headErrs Errors
	headSrc  []byte
	headLine func(int) int
	// headBroken says the head is not valid TOML: nothing else is checked.
	headBroken bool
}

// Open opens the manifest at path. A problem in the head is kept for
// Problems; an error is returned only when the file cannot be read, or
// when a manifest split does not follow is invalid as a whole.
func Open(path string) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := open(path, filepath.Dir(path), f)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.c = f
	s.Head.Path = path
	return s, nil
}

// OpenBytes is Open for manifest source held in memory; name is used in
// diagnostics only.
// Relative paths in it (MCP snapshots) resolve from the working folder.
func OpenBytes(name string, src []byte) (*Source, error) {
	return open(name, "", bytes.NewReader(src))
}

// regularSize is the size of what r reads, when it is a plain file or
// bytes in memory, whose size is known before reading; ok is false for
// anything else.
func regularSize(r readerAtSeeker) (size int64, ok bool) {
	switch r := r.(type) {
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0, false
		}
		return fi.Size(), true
	case *bytes.Reader:
		return r.Size(), true
	}
	return 0, false
}

// readerAtSeeker is what open reads: an *os.File or a *bytes.Reader.
type readerAtSeeker interface {
	io.ReaderAt
	io.ReadSeeker
}

func open(name, dir string, r readerAtSeeker) (*Source, error) {
	s := &Source{name: name, r: r}
	var l *layout
	var err error
	if size, ok := regularSize(r); ok && size > 0 {
		l, err = splitAt(r, size, runtime.GOMAXPROCS(0))
	} else {
		// Not a plain file (a folder, a pipe), or one that says it is
		// empty (as /proc's do): read in order, and let reading say
		// what is wrong.
		l, err = split(r)
	}
	if errors.Is(err, errIrregular) {
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		src, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		m, synth, err := parseWhole(name, dir, src)
		if err != nil {
			return nil, err
		}
		s.whole, s.synth = m.Agents, synth
		m.Agents = nil
		s.Head = m
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	s.spans = l.agents
	head, fileLine, err := s.readHead(l.head)
	if err != nil {
		return nil, err
	}
	s.Head = &Manifest{Dir: dir}
	s.headSrc, s.headLine = head, fileLine
	c := &checker{file: name, src: head, fileLine: fileLine}
	raw, ok := c.parse()
	s.headBroken = !ok
	if ok {
		c.decode("", 0, raw, reflect.ValueOf(s.Head).Elem())
		c.validateHead(s.Head)
		s.synth = c.synthesize(s.Head)
	}
	s.headErrs = c.errs
	return s, nil
}

// readHead reads the head's runs into one document and returns it with the
// map from its lines to the manifest's.
func (s *Source) readHead(runs []span) ([]byte, func(int) int, error) {
	var head []byte
	type seg struct{ from, fileLine int }
	var segs []seg
	line := 1
	for k, sp := range runs {
		b := make([]byte, sp.end-sp.off)
		if _, err := s.r.ReadAt(b, sp.off); err != nil {
			return nil, nil, err
		}
		if k < len(runs)-1 && len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		segs = append(segs, seg{line, sp.line})
		line += bytes.Count(b, []byte("\n"))
		head = append(head, b...)
	}
	fileLine := func(l int) int {
		i := sort.Search(len(segs), func(i int) bool { return segs[i].from > l }) - 1
		if i < 0 {
			return l
		}
		return segs[i].fileLine + l - segs[i].from
	}
	return head, fileLine, nil
}

// parse checks the nesting depth of c.src and decodes it with the TOML
// library, reporting a syntax error as a diagnostic.
func (c *checker) parse() (map[string]any, bool) {
	// The TOML library takes time and memory that grow with the square of
	// the nesting depth: refuse deep nesting before it sees the source.
	if line, col, deep := tooDeep(c.src); deep {
		c.errs = append(c.errs, Diagnostic{File: c.file, Line: c.line(line), Col: col, Msg: fmt.Sprintf("nested more than %d levels deep (arrays, tables and dotted keys): refused; flatten it", MaxDepth)})
		return nil, false
	}
	if raw, ok := quickParse(c.src); ok {
		return raw, true
	}
	var raw map[string]any
	if _, err := toml.Decode(string(c.src), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, col := pe.Position.Line, pe.Position.Col
			if st := pe.Position.Start; st >= 0 && st <= len(c.src) && line > 0 {
				// The library's column is off at line starts and counts
				// bytes; recount in characters from the byte offset.
				if ls := bytes.LastIndexByte(c.src[:st], '\n') + 1; bytes.Count(c.src[:ls], []byte("\n"))+1 == line {
					col = utf8.RuneCount(c.src[ls:st]) + 1
				}
			}
			c.errs = append(c.errs, Diagnostic{File: c.file, Line: c.line(line), Col: col, Msg: "not valid TOML: " + pe.Message})
			return nil, false
		}
		c.errs = append(c.errs, Diagnostic{File: c.file, Msg: "not valid TOML: " + err.Error()})
		return nil, false
	}
	return raw, true
}

// Problems is what is wrong with the head ([site], [provider]). Fatal
// says the head is not even valid TOML, so that checking the agents
// against it would only add noise.
func (s *Source) Problems() (problems Errors, fatal bool) { return s.headErrs, s.headBroken }

// Len is how many agents the manifest holds, synthesized ones included.
func (s *Source) Len() int { return s.tables() + len(s.synth) }

// tables is how many [[agents]] tables the manifest holds: agents from
// tables() on are synthesized for MCP servers.
func (s *Source) tables() int {
	if s.spans == nil {
		return len(s.whole)
	}
	return len(s.spans)
}

// synthAgent is agent i, one synthesized for an MCP server.
func (s *Source) synthAgent(i int) (Agent, error) {
	return s.synth[i-s.tables()].agent(s.Head)
}

// synthRaw is the source of a synthesized agent: its encoding, which
// identifies everything about it (the server's table and snapshot).
func (s *Source) synthRaw(i int) ([]byte, error) {
	a, err := s.synthAgent(i)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(&a)
	return append([]byte("synthesized:"), b...), err
}

// Raw is the source of agent i: its [[agents]] table as written, which
// identifies everything about it (a cache key). For a manifest read whole
// it is a JSON encoding of the decoded agent.
func (s *Source) Raw(i int) ([]byte, error) {
	if i >= s.tables() {
		return s.synthRaw(i)
	}
	if s.spans == nil {
		// Free-form params keep their TOML types in the key: 1000000 and
		// 1e6 print differently in a template.
		a := s.whole[i]
		a.Capabilities.Extensions = slices.Clone(a.Capabilities.Extensions)
		for j := range a.Capabilities.Extensions {
			if p := a.Capabilities.Extensions[j].Params; p != nil {
				a.Capabilities.Extensions[j].Params = typed(p).(map[string]any)
			}
		}
		b, err := json.Marshal(&a)
		return append([]byte("decoded:"), b...), err
	}
	sp := s.spans[i]
	b := make([]byte, sp.end-sp.off)
	if _, err := s.r.ReadAt(b, sp.off); err != nil {
		return nil, err
	}
	return b, nil
}

// Raws is Raw for agents lo..hi-1, read with one read of the file when
// their tables lie next to each other, as they do in a split manifest.
func (s *Source) Raws(lo, hi int) ([][]byte, error) {
	if n := s.tables(); hi > n {
		// The synthesized agents, after the tables.
		head, err := s.Raws(min(lo, n), n)
		if err != nil {
			return nil, err
		}
		for i := max(lo, n); i < hi; i++ {
			b, err := s.synthRaw(i)
			if err != nil {
				return nil, err
			}
			head = append(head, b)
		}
		return head, nil
	}
	out := make([][]byte, hi-lo)
	if s.spans == nil || hi <= lo {
		for i := lo; i < hi; i++ {
			b, err := s.Raw(i)
			if err != nil {
				return nil, err
			}
			out[i-lo] = b
		}
		return out, nil
	}
	first, last := s.spans[lo], s.spans[hi-1]
	buf := make([]byte, last.end-first.off)
	if _, err := s.r.ReadAt(buf, first.off); err != nil {
		return nil, err
	}
	for i := lo; i < hi; i++ {
		sp := s.spans[i]
		if sp.off < first.off || sp.end > last.end || sp.off > sp.end {
			return nil, fmt.Errorf("%s: agent %d lies outside its group", s.name, i)
		}
		// Full slice expressions: an agent's bytes never grow into the next's.
		out[i-lo] = buf[sp.off-first.off : sp.end-first.off : sp.end-first.off]
	}
	return out, nil
}

// typed is v with every scalar written with its Go type, for a key.
func typed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = typed(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = typed(e)
		}
		return out
	default:
		return fmt.Sprintf("%T:%v", x, x)
	}
}

// Agent decodes and checks agent i from raw, which Raw returned. The
// problems name the manifest's own lines and the agent's key path.
func (s *Source) Agent(i int, raw []byte) (*Agent, Errors) {
	if i >= s.tables() {
		a, err := s.synthAgent(i)
		if err != nil {
			return nil, Errors{{File: s.name, Path: s.idPath(i), Msg: err.Error()}}
		}
		return &a, nil
	}
	if s.spans == nil {
		return &s.whole[i], nil
	}
	sp := s.spans[i]
	c := &checker{file: s.name, src: raw, firstAgent: i, fileLine: func(l int) int { return sp.line + l - 1 }}
	a := &Agent{}
	tbl, ok := c.parse()
	if !ok {
		return nil, c.errs
	}
	p := "agents[" + strconv.Itoa(i) + "]"
	list, _ := tbl["agents"].([]map[string]any)
	if len(list) != 1 || len(tbl) != 1 {
		// split only cuts at [[agents]] headers; this cannot happen.
		c.errorf(p, "could not read this agent's table on its own")
		return nil, c.errs
	}
	c.nameElements("agents", reflect.TypeFor[Agent](), []any{list[0]}, i)
	c.decode(p, 2, list[0], reflect.ValueOf(a).Elem())
	c.validateAgent(p, s.Head, a)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return a, nil
}

// CheckIDs reports what is wrong across agents, given every agent's id in
// order ("" where an agent has none): no agents, an id used twice, a
// default agent that is missing or not named.
func (s *Source) CheckIDs(ids []string) Errors {
	var out Errors
	for _, p := range checkIDs(s.Head.Site.DefaultAgent, ids, len(s.Head.MCPServers), s.idPath) {
		switch {
		case p.index == -2:
			out = append(out, Diagnostic{File: s.name, Path: "agents", Msg: p.msg})
		case p.index == -1:
			out = append(out, s.headDiagnostic("site.defaultAgent", p.msg))
		default:
			out = append(out, s.agentDiagnostic(p.index, s.idPath(p.index), p.msg))
		}
	}
	return out
}

// idPath is the key path of agent i's id: agents[i].id, or the id of the
// MCP server a synthesized agent comes from.
func (s *Source) idPath(i int) string {
	if n := s.tables(); i >= n {
		return s.synth[i-n].idPath()
	}
	return "agents[" + strconv.Itoa(i) + "].id"
}

// headDiagnostic places a diagnostic about the head.
func (s *Source) headDiagnostic(path, msg string) Diagnostic {
	c := &checker{file: s.name, src: s.headSrc, fileLine: s.headLine}
	c.errorf(path, "%s", msg)
	return c.errs[0]
}

// agentDiagnostic places a diagnostic about agent i.
func (s *Source) agentDiagnostic(i int, path, msg string) Diagnostic {
	if i >= s.tables() {
		if s.spans == nil {
			return Diagnostic{File: s.name, Path: path, Msg: msg}
		}
		return s.headDiagnostic(path, msg)
	}
	if s.spans == nil {
		return Diagnostic{File: s.name, Path: path, Msg: msg}
	}
	raw, err := s.Raw(i)
	if err != nil {
		return Diagnostic{File: s.name, Path: path, Msg: msg}
	}
	sp := s.spans[i]
	c := &checker{file: s.name, src: raw, firstAgent: i, fileLine: func(l int) int { return sp.line + l - 1 }}
	c.errorf(path, "%s", msg)
	return c.errs[0]
}

// decodeAll decodes every agent with all cores and checks them across
// each other; the problems come sorted by line. The agents are returned
// only when keep is set: Check holds none of them, nor anything of their
// sources beyond a copy of each id, so that checking a large manifest
// takes no more memory than one agent per core.
func (s *Source) decodeAll(keep bool) ([]Agent, Errors) {
	if s.headBroken {
		return nil, s.headErrs
	}
	n := s.Len()
	var agents []Agent
	if keep {
		agents = make([]Agent, n)
	}
	errs := make([]Errors, n)
	ids := make([]string, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				raw, err := s.Raw(i)
				if err != nil {
					errs[i] = Errors{{File: s.name, Msg: err.Error()}}
					continue
				}
				a, problems := s.Agent(i, raw)
				if problems != nil {
					errs[i] = problems
					ids[i] = DeclaredID(raw)
					continue
				}
				if keep {
					agents[i], ids[i] = *a, a.ID
				} else {
					// A copy: the decoded strings share the memory of
					// the agent's whole source.
					ids[i] = strings.Clone(a.ID)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	all := append(Errors(nil), s.headErrs...)
	for _, e := range errs {
		all = append(all, e...)
	}
	all = append(all, s.CheckIDs(ids)...)
	if len(all) > 0 {
		all.Sort()
		return nil, all
	}
	return agents, nil
}

// DeclaredID is the id an agent's source (Raw) declares even when the
// agent has problems, so that duplicate ids are found even then; "" when
// it has no valid one.
func DeclaredID(raw []byte) string {
	var v struct {
		Agents []struct {
			ID any `toml:"id"`
		} `toml:"agents"`
	}
	if _, err := toml.Decode(string(raw), &v); err != nil || len(v.Agents) != 1 {
		return ""
	}
	id, _ := v.Agents[0].ID.(string)
	if !slugRE.MatchString(id) {
		return ""
	}
	return id
}

// Close releases the manifest file.
func (s *Source) Close() error {
	if s.c == nil {
		return nil
	}
	return s.c.Close()
}

// Source wraps a manifest already loaded, so that it can be built like an
// opened one.
func (m *Manifest) Source() *Source {
	head := *m
	head.Agents = nil
	return &Source{Head: &head, name: "agents.toml", whole: m.Agents}
}

// Check decodes every agent to report every problem in the manifest at
// once, sorted by line; nil when there is none.
func (s *Source) Check() Errors {
	_, errs := s.decodeAll(false)
	return errs
}
