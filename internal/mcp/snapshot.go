// Package mcp reads and writes snapshots of MCP servers: what a live
// server said about itself and listed (tools, resources, prompts), kept as a
// JSON file in the repository so that a build never talks to the server.
// Fetch takes a snapshot over Streamable HTTP with the official MCP Go SDK.
package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/terminal"
)

// Format is the value of a snapshot's "snapshotFormat" member.
const Format = "agentcards-mcp-snapshot/1"

// Limits on what a snapshot may hold; Fetch stops at the same ones.
const (
	// MaxSnapshotBytes is the largest snapshot file read.
	MaxSnapshotBytes = 16 << 20
	// MaxItems is how many tools (and, apart, resources and prompts) a
	// snapshot holds at most.
	MaxItems = 2000
	// MaxSchemaDepth is how deeply a tool's schema may nest.
	MaxSchemaDepth = 32
)

// Snapshot is what an MCP server said about itself at one time.
type Snapshot struct {
	SnapshotFormat string `json:"snapshotFormat"`
	// ProtocolVersion is the MCP revision the server and Fetch agreed on.
	ProtocolVersion string         `json:"protocolVersion"`
	ServerInfo      Implementation `json:"serverInfo"`
	// Instructions is the server's own hint for using it, if any.
	Instructions string `json:"instructions,omitempty"`
	// Capabilities is the server's capabilities object as sent.
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	Tools        []Tool          `json:"tools"`
	Resources    []Resource      `json:"resources,omitempty"`
	Prompts      []Prompt        `json:"prompts,omitempty"`
}

// Implementation is an MCP server's serverInfo.
type Implementation struct {
	Name       string `json:"name"`
	Title      string `json:"title,omitempty"`
	Version    string `json:"version,omitempty"`
	WebsiteURL string `json:"websiteUrl,omitempty"`
}

// Tool is one tool of tools/list. The schemas are kept as the server sent
// them (with members sorted), so that "default": "" and the like survive.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
}

// Annotations are a tool's behaviour hints. They are the server's claims,
// never a guarantee; a nil hint was not given.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Resource is one entry of resources/list.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// Prompt is one entry of prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Problem is one thing wrong with a snapshot: where (a line and column for
// a syntax error, else the JSON path such as tools[3].name) and what.
type Problem struct {
	Line, Col int
	Path      string
	Msg       string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", p.Line, p.Col)
	}
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Problems is every problem found in a snapshot.
type Problems []Problem

func (ps Problems) Error() string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, "\n")
}

// maxToolName is the longest tool name kept. MCP (2025-11-25) says names
// SHOULD be 1-128 of A-Z a-z 0-9 _ - . ; servers in the wild use others
// (spaces, '/', letters of other scripts), which the build maps to skill
// ids and anchors, so any printable name is kept.
const maxToolName = 128

// toolName says what is wrong with a tool name, "" when nothing.
func toolName(n string) string {
	switch {
	case utf8.RuneCountInString(n) > maxToolName:
		return fmt.Sprintf("is longer than %d characters", maxToolName)
	case strings.TrimSpace(n) != n:
		return "begins or ends with a blank"
	case strings.ContainsFunc(n, hidden) || strings.ContainsFunc(n, unicode.IsControl):
		return "holds control, bidirectional or invisible characters"
	}
	return ""
}

// Parse reads a snapshot strictly: valid UTF-8, one JSON object of the
// snapshot format with no unknown members, every tool named once with an
// object input schema. On failure the error is Problems.
func Parse(data []byte) (*Snapshot, error) {
	if len(data) > MaxSnapshotBytes {
		return nil, Problems{{Msg: fmt.Sprintf("%d bytes: larger than the %d a snapshot may hold", len(data), MaxSnapshotBytes)}}
	}
	if !utf8.Valid(data) {
		line, col := position(data, invalidUTF8(data))
		return nil, Problems{{Line: line, Col: col, Msg: "not valid UTF-8"}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Snapshot
	if err := dec.Decode(&s); err != nil {
		return nil, Problems{syntaxProblem(data, err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := position(data, int(dec.InputOffset()))
		return nil, Problems{{Line: line, Col: col, Msg: "more after the snapshot's closing brace"}}
	}
	// encoding/json matches member names whatever their case: hold them
	// to their exact spelling.
	if ps := exactMembers(data); len(ps) > 0 {
		return nil, ps
	}
	if ps := s.check(); len(ps) > 0 {
		return nil, ps
	}
	return &s, nil
}

// members are the member names each object of a snapshot may have.
var members = map[string][]string{
	"":            {"snapshotFormat", "protocolVersion", "serverInfo", "instructions", "capabilities", "tools", "resources", "prompts"},
	"serverInfo":  {"name", "title", "version", "websiteUrl"},
	"tools":       {"name", "title", "description", "inputSchema", "outputSchema", "annotations"},
	"annotations": {"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"},
	"resources":   {"uri", "name", "title", "description", "mimeType"},
	"prompts":     {"name", "title", "description", "arguments"},
	"arguments":   {"name", "title", "description", "required"},
}

// exactMembers reports member names of a decoded snapshot that differ
// from the format's only in letter case.
func exactMembers(data []byte) Problems {
	var ps Problems
	var walk func(path, kind string, raw json.RawMessage)
	walk = func(path, kind string, raw json.RawMessage) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if !slices.Contains(members[kind], k) {
				ps = append(ps, Problem{Path: join(path, k), Msg: fmt.Sprintf("unknown member %q: a snapshot holds only what `agentcards mcp fetch` writes", k)})
				continue
			}
			switch k {
			case "serverInfo":
				walk(join(path, k), k, obj[k])
			case "annotations":
				walk(join(path, k), k, obj[k])
			case "tools", "resources", "prompts", "arguments":
				var list []json.RawMessage
				json.Unmarshal(obj[k], &list)
				for i, item := range list {
					walk(join(path, k)+"["+strconv.Itoa(i)+"]", k, item)
				}
			}
		}
	}
	walk("", "", data)
	return ps
}

// join adds a member name to a JSON path.
func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// syntaxProblem places a decoding error.
func syntaxProblem(data []byte, err error) Problem {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := position(data, int(se.Offset))
		return Problem{Line: line, Col: col, Msg: "not valid JSON: " + se.Error()}
	case errors.As(err, &te):
		line, col := position(data, int(te.Offset))
		return Problem{Line: line, Col: col, Path: te.Field, Msg: fmt.Sprintf("expected %s, got a JSON %s", te.Type, te.Value)}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return Problem{Msg: "not valid JSON: the file ends too early"}
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return Problem{Msg: "unknown member " + f + ": a snapshot holds only what `agentcards mcp fetch` writes"}
	}
	return Problem{Msg: "not a snapshot: " + msg}
}

// position is the 1-based line and column (in characters) of byte off.
func position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return bytes.Count(data[:off], []byte("\n")) + 1, utf8.RuneCount(data[start:off]) + 1
}

// invalidUTF8 is the offset of the first byte that is not valid UTF-8.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// check applies the rules decoding cannot.
func (s *Snapshot) check() Problems {
	var ps Problems
	add := func(path, format string, args ...any) {
		ps = append(ps, Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if s.SnapshotFormat != Format {
		add("snapshotFormat", "is %q, want %q: make the file with `agentcards mcp fetch`", s.SnapshotFormat, Format)
	}
	if s.ServerInfo.Name == "" {
		add("serverInfo.name", "required: the name the server gave in its serverInfo")
	}
	if len(s.Capabilities) > 0 && !isObject(s.Capabilities) {
		add("capabilities", "must be a JSON object")
	}
	if len(s.Tools) > MaxItems {
		add("tools", "has %d tools; a snapshot holds at most %d", len(s.Tools), MaxItems)
	}
	seen := map[string]int{}
	for i, t := range s.Tools {
		p := "tools[" + strconv.Itoa(i) + "]"
		switch {
		case t.Name == "":
			add(p+".name", "required")
		case toolName(t.Name) != "":
			add(p+".name", "%q %s: refused as a tool name", t.Name, toolName(t.Name))
		default:
			if j, dup := seen[t.Name]; dup {
				add(p+".name", "tool %q is listed twice (also tools[%d])", t.Name, j)
			}
			seen[t.Name] = i
		}
		if len(t.InputSchema) == 0 {
			add(p+".inputSchema", "required: MCP gives every tool an input schema (a JSON object)")
		} else if msg := checkSchema(t.InputSchema); msg != "" {
			add(p+".inputSchema", "%s", msg)
		}
		if len(t.OutputSchema) > 0 {
			if msg := checkSchema(t.OutputSchema); msg != "" {
				add(p+".outputSchema", "%s", msg)
			}
		}
	}
	if len(s.Resources) > MaxItems {
		add("resources", "has %d resources; a snapshot holds at most %d", len(s.Resources), MaxItems)
	}
	for i, r := range s.Resources {
		if r.URI == "" || r.Name == "" {
			add("resources["+strconv.Itoa(i)+"]", "needs both uri and name")
		}
	}
	if len(s.Prompts) > MaxItems {
		add("prompts", "has %d prompts; a snapshot holds at most %d", len(s.Prompts), MaxItems)
	}
	for i, p := range s.Prompts {
		if p.Name == "" {
			add("prompts["+strconv.Itoa(i)+"].name", "required")
		}
	}
	return ps
}

// Text is one string a snapshot holds, and its JSON path.
type Text struct{ Path, Text string }

// Texts are every string of a snapshot that a build may publish: server
// info, instructions, and every member of every tool, resource and prompt
// (a schema as its JSON text).
func (s *Snapshot) Texts() []Text {
	out := []Text{
		{"serverInfo.name", s.ServerInfo.Name}, {"serverInfo.title", s.ServerInfo.Title},
		{"serverInfo.version", s.ServerInfo.Version}, {"serverInfo.websiteUrl", s.ServerInfo.WebsiteURL},
		{"instructions", s.Instructions},
	}
	for i, t := range s.Tools {
		p := "tools[" + strconv.Itoa(i) + "]."
		out = append(out, Text{p + "name", t.Name}, Text{p + "title", t.Title}, Text{p + "description", t.Description},
			Text{p + "inputSchema", string(t.InputSchema)}, Text{p + "outputSchema", string(t.OutputSchema)})
		if t.Annotations != nil {
			out = append(out, Text{p + "annotations.title", t.Annotations.Title})
		}
	}
	for i, r := range s.Resources {
		p := "resources[" + strconv.Itoa(i) + "]."
		out = append(out, Text{p + "uri", r.URI}, Text{p + "name", r.Name}, Text{p + "title", r.Title}, Text{p + "description", r.Description}, Text{p + "mimeType", r.MIMEType})
	}
	for i, pr := range s.Prompts {
		p := "prompts[" + strconv.Itoa(i) + "]."
		out = append(out, Text{p + "name", pr.Name}, Text{p + "title", pr.Title}, Text{p + "description", pr.Description})
		for j, a := range pr.Arguments {
			ap := p + "arguments[" + strconv.Itoa(j) + "]."
			out = append(out, Text{ap + "name", a.Name}, Text{ap + "title", a.Title}, Text{ap + "description", a.Description})
		}
	}
	return out
}

// isObject reports whether raw JSON is an object.
func isObject(raw json.RawMessage) bool {
	b := bytes.TrimLeft(raw, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// checkSchema says what is wrong with a tool schema, "" when nothing: it
// must be a JSON object nested at most MaxSchemaDepth deep.
func checkSchema(raw json.RawMessage) string {
	if !isObject(raw) {
		return "must be a JSON object (a JSON Schema)"
	}
	if depth(raw) > MaxSchemaDepth {
		return fmt.Sprintf("nested more than %d levels deep: refused", MaxSchemaDepth)
	}
	return ""
}

// depth is how deeply valid JSON nests objects and arrays.
func depth(raw []byte) int {
	d, most := 0, 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			d++
			most = max(most, d)
		case '}', ']':
			d--
		}
	}
	return most
}

// Marshal writes a snapshot as it is committed: members sorted by name at
// every level (schemas too), two-space indents, a final newline, the
// tools and prompts sorted by name and the resources by URI, so that two
// fetches of an unchanged server give the same bytes and a change diffs
// well.
func (s *Snapshot) Marshal() ([]byte, error) {
	c := *s
	c.SnapshotFormat = Format
	c.Tools = slices.Clone(s.Tools)
	slices.SortStableFunc(c.Tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	c.Resources = slices.Clone(s.Resources)
	// By URI, a resource's key in MCP: two resources may share a name
	// (readme.md in two folders), so an order by name would follow the
	// server's.
	slices.SortStableFunc(c.Resources, func(a, b Resource) int { return strings.Compare(a.URI, b.URI) })
	c.Prompts = slices.Clone(s.Prompts)
	slices.SortStableFunc(c.Prompts, func(a, b Prompt) int { return strings.Compare(a.Name, b.Name) })
	if c.Tools == nil {
		c.Tools = []Tool{}
	}
	// Through a generic value, so that every object's members are sorted.
	first, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeInvisible(buf.Bytes()), nil
}

// escapeInvisible writes, as \u escapes, the characters of JSON text that a
// terminal would act on or a reader could not see (controls, bidi
// controls, zero-width and other format characters): the same JSON, safe
// to print and honest in a diff. Only strings can hold them; the text's
// own newlines are not among them.
func escapeInvisible(b []byte) []byte {
	if !bytes.ContainsFunc(b, hidden) {
		return b
	}
	var out bytes.Buffer
	for _, r := range string(b) {
		if hidden(r) {
			fmt.Fprintf(&out, "\\u%04x", r)
			continue
		}
		out.WriteRune(r)
	}
	return out.Bytes()
}

// hidden reports whether r is a character escapeInvisible escapes.
func hidden(r rune) bool {
	return r != '\n' && (terminal.Unsafe(r) || unicode.Is(unicode.Cf, r))
}
