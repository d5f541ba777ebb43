package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	sitelayout "github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/mcp"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/secret"
)

// What MCP servers' files say (where they go is package layout's).
const (
	// ServerCardSchema is the $schema every Server Card carries (SEP-2127).
	ServerCardSchema = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
	// MCPToolsExtension is the URI of the A2A extension that carries the
	// MCP tools behind a synthesized card's skills (README, "MCP tools
	// extension").
	MCPToolsExtension = "https://github.com/agentcards/agentcards/blob/main/README.md#mcp-tools-extension-v1"
)

// Remote transports a Server Card names.
var RemoteTypes = []string{"streamable-http", "sse"}

// MCPServer is one [[mcpServers]] entry: an MCP server whose Server Card,
// docs page and catalog entry the site publishes, from the manifest and a
// snapshot of its tools.
type MCPServer struct {
	// ID is a URL slug: the server's folder is /mcp/<id>/.
	ID string `toml:"id"`
	// Name is the server's name in MCP's reverse-DNS form
	// ("com.example/weather").
	Name        string   `toml:"name"`
	Title       string   `toml:"title"`
	Description string   `toml:"description"`
	Version     string   `toml:"version"`
	WebsiteURL  string   `toml:"websiteUrl"`
	Repository  *MCPRepo `toml:"repository"`
	Icons       []Icon   `toml:"icons"`
	Remotes     []Remote `toml:"remotes"`
	// Tags describe the server; they go on its catalog entry and on every
	// skill of its synthesized A2A card.
	Tags []string `toml:"tags"`
	// Tools is the snapshot file (agentcards mcp fetch), relative to the
	// manifest's folder.
	Tools string `toml:"tools"`
	// A2A, when set, has the build publish an A2A card for the server whose
	// skills are its tools, for the A2A endpoint it names (a gateway).
	A2A *MCPAgent `toml:"a2a"`

	// Snapshot is the tools file, read and checked.
	Snapshot *mcp.Snapshot `toml:"-"`
	// SnapshotPath is where it was read from.
	SnapshotPath string `toml:"-"`
}

// MCPRepo is a Server Card's repository.
type MCPRepo struct {
	URL       string `toml:"url"`
	Source    string `toml:"source"`
	Subfolder string `toml:"subfolder"`
	ID        string `toml:"id"`
}

// Icon is an MCP icon.
type Icon struct {
	Src      string   `toml:"src"`
	MIMEType string   `toml:"mimeType"`
	Sizes    []string `toml:"sizes"`
	Theme    string   `toml:"theme"`
}

// Remote is an endpoint where the server is reached.
type Remote struct {
	Type                      string         `toml:"type"`
	URL                       string         `toml:"url"`
	SupportedProtocolVersions []string       `toml:"supportedProtocolVersions"`
	Headers                   []RemoteHeader `toml:"headers"`
}

// RemoteHeader is a header a client must send: its name and what it is,
// never its value.
type RemoteHeader struct {
	Name        string `toml:"name"`
	Description string `toml:"description"`
	IsRequired  bool   `toml:"isRequired"`
	IsSecret    bool   `toml:"isSecret"`
	// Value is refused: a header's value is the caller's secret.
	Value string `toml:"value"`
}

// MCPAgent is the A2A side of an MCP server: the endpoint that speaks A2A
// for it and what an agent card says beyond the tools.
type MCPAgent struct {
	SupportedInterfaces   []Interface               `toml:"supportedInterfaces"`
	Capabilities          Capabilities              `toml:"capabilities"`
	DefaultInputModes     []string                  `toml:"defaultInputModes"`
	DefaultOutputModes    []string                  `toml:"defaultOutputModes"`
	SecuritySchemes       map[string]SecurityScheme `toml:"securitySchemes"`
	SecurityRequirements  []Requirement             `toml:"securityRequirements"`
	Provider              *Provider                 `toml:"provider"`
	DocumentationURL      string                    `toml:"documentationUrl"`
	IconURL               string                    `toml:"iconUrl"`
	RepresentativeQueries []string                  `toml:"representativeQueries"`
	UpdatedAt             string                    `toml:"updatedAt"`
	// Lint silences lint rules for the synthesized card, as
	// [agents.lint] does for an agent.
	Lint *Lint `toml:"lint"`
	// SkillIDs names the skill ids of tools, by tool name, where the id
	// made from the name will not do: two names that become one id
	// ("café" and "cafè" both become "caf-"), or an id of your choosing,
	// e.g. skillIds = { "café" = "cafe-hot", "cafè" = "cafe-other" }. Each
	// key is a tool of the snapshot; each id follows the skill id rules
	// and is unique among the card's skills. Other tools keep the id made
	// from their name.
	SkillIDs SkillIDMap `toml:"skillIds"`
}

// SkillIDMap maps MCP tool names to the skill ids they become. Its keys
// are tool names, never members of a card.
type SkillIDMap map[string]string

var (
	// mcpNameRE is a Server Card name: reverse DNS, one slash.
	mcpNameRE = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)
	// protocolVersionRE is an MCP revision, a date.
	protocolVersionRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	// iconSizeRE is an icon size: WxH or "any".
	iconSizeRE = regexp.MustCompile(`^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$`)
	// versionRangeRE finds what makes a version a range, which Server
	// Cards refuse.
	versionRangeRE = regexp.MustCompile(`^[\^~<>=]|[*]|(^|\.)[xX](\.|$)|\s`)
)

// MCPPageURL is the absolute URL of an MCP server's docs page.
func (m *Manifest) MCPPageURL(id string) string {
	return sitelayout.URL(m.Site.BaseURL, sitelayout.MCPPage(id))
}

// ServerCardURL is the absolute URL of an MCP server's Server Card.
func (m *Manifest) ServerCardURL(id string) string {
	return sitelayout.URL(m.Site.BaseURL, sitelayout.ServerCard(id))
}

// validateMCPServers checks every [[mcpServers]] entry and reads its
// snapshot; ids are checked for being unique among the servers.
func (c *checker) validateMCPServers(m *Manifest) {
	seen := map[string]int{}
	for i := range m.MCPServers {
		s := &m.MCPServers[i]
		p := "mcpServers[" + strconv.Itoa(i) + "]"
		switch {
		case s.ID == "":
			c.errorf(p+".id", "required: a URL slug such as \"weather\" (it becomes /mcp/<id>/)")
		case !slugRE.MatchString(s.ID):
			c.errorf(p+".id", "%q is not a URL slug: use 1-64 lower-case letters, digits and inner hyphens", s.ID)
		default:
			if j, dup := seen[s.ID]; dup {
				c.errorf(p+".id", "duplicate id %q (also mcpServers[%d].id); ids must be unique", s.ID, j)
			}
			seen[s.ID] = i
		}
		switch n := utf8.RuneCountInString(s.Name); {
		case s.Name == "":
			c.errorf(p+".name", "required: the server's name in reverse-DNS form, e.g. \"com.example/weather\"")
		case n < 3 || n > 200 || !mcpNameRE.MatchString(s.Name):
			c.errorf(p+".name", "%q: a Server Card name is reverse DNS, one slash, 3-200 of letters, digits, '.', '-' (and '_' after the slash), e.g. \"com.example/weather\"", s.Name)
		}
		switch n := utf8.RuneCountInString(s.Description); {
		case s.Description == "":
			c.errorf(p+".description", "required: what the server does, in 1 to 100 characters")
		case n > 100:
			c.errorf(p+".description", "has %d characters; a Server Card's description holds at most 100 (say more in the tools' descriptions)", n)
		}
		if n := utf8.RuneCountInString(s.Title); n > 100 {
			c.errorf(p+".title", "has %d characters; a Server Card's title holds at most 100", n)
		}
		switch {
		case s.Version == "":
			c.errorf(p+".version", "required: the server's version, e.g. \"1.2.0\" (semantic versioning)")
		case len(s.Version) > 255:
			c.errorf(p+".version", "is longer than 255 characters")
		case versionRangeRE.MatchString(s.Version):
			c.errorf(p+".version", "%q is a range; a Server Card gives one exact version, e.g. \"1.2.3\"", s.Version)
		}
		if s.WebsiteURL != "" {
			c.checkURL(p+".websiteUrl", s.WebsiteURL)
		}
		if r := s.Repository; r != nil {
			if r.URL == "" {
				c.errorf(p+".repository.url", "required: the repository's URL")
			} else {
				c.checkURL(p+".repository.url", r.URL)
			}
			if r.Source == "" {
				c.errorf(p+".repository.source", "required: the forge, e.g. \"github\"")
			}
			if sf := r.Subfolder; sf != "" && (filepath.IsAbs(sf) || filepath.Clean(sf) != sf || strings.HasPrefix(sf, "..") || strings.Contains(sf, "\\")) {
				c.errorf(p+".repository.subfolder", "%q: write a clean relative path such as \"servers/weather\"", sf)
			}
		}
		c.validateIcons(p+".icons", s.Icons)
		for j, r := range s.Remotes {
			c.validateRemote(fmt.Sprintf("%s.remotes[%d]", p, j), r)
		}
		if s.Tools == "" {
			c.errorf(p+".tools", "required: the snapshot of the server's tools, made with `agentcards mcp fetch URL -o mcp/%s.json`", s.ID)
		} else {
			c.readSnapshot(p+".tools", m.Dir, s)
		}
	}
}

// validateIcons checks MCP icons.
func (c *checker) validateIcons(p string, icons []Icon) {
	for j, ic := range icons {
		ip := fmt.Sprintf("%s[%d]", p, j)
		if ic.Src == "" {
			c.errorf(ip+".src", "required: the icon's https URL")
		} else {
			c.checkURL(ip+".src", ic.Src)
		}
		if ic.MIMEType != "" && !strings.HasPrefix(ic.MIMEType, "image/") {
			c.errorf(ip+".mimeType", "%q is not an image media type such as \"image/png\"", ic.MIMEType)
		}
		for k, sz := range ic.Sizes {
			if !iconSizeRE.MatchString(sz) {
				c.errorf(fmt.Sprintf("%s.sizes[%d]", ip, k), "%q: write a size as WIDTHxHEIGHT, e.g. \"48x48\", or \"any\"", sz)
			}
		}
		if ic.Theme != "" && ic.Theme != "light" && ic.Theme != "dark" {
			c.errorf(ip+".theme", "%q: use \"light\" or \"dark\"", ic.Theme)
		}
	}
}

// validateRemote checks one remote endpoint.
func (c *checker) validateRemote(p string, r Remote) {
	switch {
	case r.Type == "":
		c.errorf(p+".type", "required: %s", strings.Join(quoteAll(RemoteTypes), " or "))
	case !contains(RemoteTypes, r.Type):
		c.errorf(p+".type", "%q is not a transport a Server Card names: use %s", r.Type, strings.Join(quoteAll(RemoteTypes), " or "))
	}
	if r.URL == "" {
		c.errorf(p+".url", "required: the endpoint's absolute URL")
	} else if c.checkURL(p+".url", r.URL) {
		u, _ := url.Parse(r.URL)
		if k := CredentialParam(u); k != "" {
			c.errorf(p+".url", "the query parameter %q looks like a credential; %s (clients send their own: name it as a header instead)", k, publicWarning)
		}
	}
	for k, v := range r.SupportedProtocolVersions {
		if !protocolVersionRE.MatchString(v) {
			c.errorf(fmt.Sprintf("%s.supportedProtocolVersions[%d]", p, k), "%q is not an MCP revision such as \"2025-11-25\"", v)
		}
	}
	names := map[string]int{}
	for k, h := range r.Headers {
		hp := fmt.Sprintf("%s.headers[%d]", p, k)
		switch {
		case h.Name == "":
			c.errorf(hp+".name", "required: the header's name, e.g. \"Authorization\"")
		case !headerNameRE.MatchString(h.Name):
			c.errorf(hp+".name", "%q is not an HTTP header name (letters, digits and !#$%%&'*+-.^_`|~ only): write the name alone", h.Name)
		default:
			if j, dup := names[strings.ToLower(h.Name)]; dup {
				c.errorf(hp+".name", "header %q is listed twice (also headers[%d])", h.Name, j)
			}
			names[strings.ToLower(h.Name)] = k
		}
		if h.Value != "" {
			c.errorf(hp+".value", "a header's value is never published: the Server Card names the header (and says isSecret = true), each client sends its own value; remove value here")
		}
	}
}

// CredentialParam is the name of the first parameter of u's query or
// fragment that names a credential (secret.CredentialInURL); "" when none.
func CredentialParam(u *url.URL) string { return secret.CredentialInURL(u) }

// headerNameRE is an HTTP field name (RFC 9110 token).
var headerNameRE = regexp.MustCompile("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")

// IsHTTPToken reports whether s is an HTTP token (RFC 9110), the form of
// a header or cookie name.
func IsHTTPToken(s string) bool { return headerNameRE.MatchString(s) }

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

// readSnapshot reads and checks the snapshot an MCP server names; its
// problems are reported against the snapshot file.
func (c *checker) readSnapshot(p, dir string, s *MCPServer) {
	path := s.Tools
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, filepath.FromSlash(path))
	}
	s.SnapshotPath = path
	data, err := regular.ReadFile(path)
	if err != nil {
		var re *regular.Error
		switch {
		case errors.As(err, &re):
			c.errorf(p, "%v", err)
		case errors.Is(err, fs.ErrNotExist):
			c.errorf(p, "%s does not exist: make it with `agentcards mcp fetch URL -o %s`", path, s.Tools)
		default:
			c.errorf(p, "cannot read %s: %v", path, err)
		}
		return
	}
	snap, err := mcp.Parse(data)
	if err != nil {
		var ps mcp.Problems
		if !errors.As(err, &ps) {
			c.errorf(p, "%s: %v", path, err)
			return
		}
		for _, pr := range ps {
			c.errs = append(c.errs, Diagnostic{File: path, Line: pr.Line, Col: pr.Col, Path: pr.Path, Msg: pr.Msg})
		}
		// Also name the manifest key that pointed there.
		problems := "1 problem"
		if len(ps) != 1 {
			problems = fmt.Sprintf("%d problems", len(ps))
		}
		c.errorf(p, "the snapshot %s has %s (above); fetch it again with `agentcards mcp fetch`", path, problems)
		return
	}
	// What the snapshot says is published: no key material in any of it.
	for _, f := range snap.Texts() {
		if found, ok := secret.InText(f.Text); ok {
			c.errs = append(c.errs, Diagnostic{File: path, Path: f.Path, Msg: fmt.Sprintf("contains %s; %s", found, publicWarning)})
		}
	}
	s.Snapshot = snap
}

// MCPAgent is the A2A agent synthesized for an MCP server with an a2a
// table: one skill per tool, the tools' schemas in the MCP tools
// extension. The server and its snapshot must have been checked.
func (m *Manifest) MCPAgent(s *MCPServer) (Agent, error) {
	x := s.A2A
	a := Agent{
		ID:                    s.ID,
		Name:                  s.Title,
		Description:           s.Description,
		Version:               s.Version,
		Provider:              x.Provider,
		DocumentationURL:      x.DocumentationURL,
		IconURL:               x.IconURL,
		SupportedInterfaces:   x.SupportedInterfaces,
		Capabilities:          x.Capabilities,
		DefaultInputModes:     x.DefaultInputModes,
		DefaultOutputModes:    x.DefaultOutputModes,
		SecuritySchemes:       x.SecuritySchemes,
		SecurityRequirements:  x.SecurityRequirements,
		RepresentativeQueries: x.RepresentativeQueries,
		UpdatedAt:             x.UpdatedAt,
		Lint:                  x.Lint,
	}
	if a.Name == "" {
		a.Name = s.Name
	}
	if a.DocumentationURL == "" {
		a.DocumentationURL = m.MCPPageURL(s.ID)
	}
	if a.IconURL == "" {
		for _, ic := range s.Icons {
			a.IconURL = ic.Src
			break
		}
	}
	var tools []any
	ids := map[string]string{}
	for _, t := range s.Snapshot.Tools {
		id := s.ToolSkillID(t.Name)
		if other, dup := ids[id]; dup {
			return Agent{}, fmt.Errorf("tools %q and %q both become skill id %q", other, t.Name, id)
		}
		ids[id] = t.Name
		skill := Skill{ID: id, Name: ToolTitle(t), Description: t.Description, Tags: toolTags(s, t)}
		if skill.Description == "" {
			skill.Description = skill.Name + " (the MCP server gives no description)"
		}
		a.Skills = append(a.Skills, skill)
		entry := map[string]any{"name": t.Name, "skill": id}
		in, err := SchemaText(t.InputSchema)
		if err != nil {
			return Agent{}, fmt.Errorf("tool %q: inputSchema: %v", t.Name, err)
		}
		entry["inputSchema"] = in
		if len(t.OutputSchema) > 0 {
			out, err := SchemaText(t.OutputSchema)
			if err != nil {
				return Agent{}, fmt.Errorf("tool %q: outputSchema: %v", t.Name, err)
			}
			entry["outputSchema"] = out
		}
		tools = append(tools, entry)
	}
	a.Capabilities.Extensions = append(append([]Extension(nil), x.Capabilities.Extensions...), Extension{
		URI:         MCPToolsExtension,
		Description: "The MCP tools behind this agent's skills: each tool's name, its skill id, and its input (and output) JSON Schema as JSON text.",
		Params: map[string]any{
			"server":     s.Name,
			"serverCard": m.ServerCardURL(s.ID),
			"tools":      tools,
		},
	})
	return a, nil
}

// SkillID is the A2A skill id of an MCP tool: its name when a skill id
// may be that, else the name with every other character made '-' (and a
// leading "tool-" where it does not start with a letter or digit).
func SkillID(tool string) string {
	if skillIDRE.MatchString(tool) {
		return tool
	}
	id := strings.Map(func(r rune) rune {
		if r < 128 && (isBare(byte(r)) || r == '.' || r == ':') {
			return r
		}
		return '-'
	}, tool)
	if id == "" || !(id[0] >= 'a' && id[0] <= 'z' || id[0] >= 'A' && id[0] <= 'Z' || id[0] >= '0' && id[0] <= '9') {
		id = "tool-" + id
	}
	if len(id) > 128 {
		id = id[:128]
	}
	return id
}

// ToolTitle is what a tool is called for people: its title, else its
// annotations' title, else its name.
func ToolTitle(t mcp.Tool) string {
	switch {
	case t.Title != "":
		return t.Title
	case t.Annotations != nil && t.Annotations.Title != "":
		return t.Annotations.Title
	}
	return t.Name
}

// ToolHints are the behaviour hints a tool declares, in words: read-only,
// destructive or non-destructive, idempotent, open-world or closed-world.
// Hints left out are not guessed at.
func ToolHints(t mcp.Tool) []string {
	a := t.Annotations
	if a == nil {
		return nil
	}
	var out []string
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		out = append(out, "read-only")
	}
	if a.DestructiveHint != nil && (a.ReadOnlyHint == nil || !*a.ReadOnlyHint) {
		if *a.DestructiveHint {
			out = append(out, "destructive")
		} else {
			out = append(out, "non-destructive")
		}
	}
	if a.IdempotentHint != nil && *a.IdempotentHint {
		out = append(out, "idempotent")
	}
	if a.OpenWorldHint != nil {
		if *a.OpenWorldHint {
			out = append(out, "open-world")
		} else {
			out = append(out, "closed-world")
		}
	}
	return out
}

// toolTags are a tool's skill tags: "mcp", the server's tags, the hints.
func toolTags(s *MCPServer, t mcp.Tool) []string {
	tags := []string{"mcp"}
	for _, tag := range append(append([]string(nil), s.Tags...), ToolHints(t)...) {
		if !contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	return tags
}

// SchemaText is a JSON Schema as the text a card carries: compact, members
// sorted, every number's digits kept. Being a string, it reaches a
// verifier unchanged, where the A2A SDKs would erase the "", [] and {}
// that schemas hold (DESIGN.md, the normal-form rule).
func SchemaText(raw json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// synthAgent is an agent synthesized for MCP server number server, or
// (server -1) for remote agent number remote. It is made anew from the
// head when asked for, so that it follows it (serve publishes the site at
// its own address).
type synthAgent struct{ server, remote int }

// agent makes the synthesized agent from the head m.
func (a synthAgent) agent(m *Manifest) (Agent, error) {
	if a.server < 0 {
		return m.RemoteAgentOf(&m.RemoteAgents[a.remote])
	}
	return m.MCPAgent(&m.MCPServers[a.server])
}

// id is the synthesized agent's id.
func (a synthAgent) id(m *Manifest) string {
	if a.server < 0 {
		return m.RemoteAgents[a.remote].ID
	}
	return m.MCPServers[a.server].ID
}

// idPath is the key path of the synthesized agent's id.
func (a synthAgent) idPath() string {
	if a.server < 0 {
		return "remoteAgents[" + strconv.Itoa(a.remote) + "].id"
	}
	return "mcpServers[" + strconv.Itoa(a.server) + "].id"
}

// synthesize makes the agents of the MCP servers with an a2a table and
// checks each as an agent, its problems placed at the server's a2a table.
func (c *checker) synthesize(m *Manifest) []synthAgent {
	var out []synthAgent
	for i := range m.MCPServers {
		s := &m.MCPServers[i]
		if s.A2A == nil || s.Snapshot == nil || !slugRE.MatchString(s.ID) {
			continue // nothing asked, or its problems are reported
		}
		p := "mcpServers[" + strconv.Itoa(i) + "].a2a"
		reserved := false
		for j, e := range s.A2A.Capabilities.Extensions {
			if e.URI == MCPToolsExtension {
				c.errorf(fmt.Sprintf("%s.capabilities.extensions[%d].uri", p, j), "the MCP tools extension is the build's to write, from the snapshot: remove this one")
				reserved = true
			}
		}
		if reserved {
			continue
		}
		if len(s.Snapshot.Tools) == 0 {
			c.errorf(p, "the snapshot %s lists no tools, and an A2A card needs at least one skill: remove the a2a table, or fetch the server again", s.SnapshotPath)
			continue
		}
		if !c.checkSkillIDs(p, s) {
			continue
		}
		a, err := m.MCPAgent(s)
		if err != nil {
			c.errorf(p, "%v", err)
			continue
		}
		n := len(c.errs)
		c.validateAgent(p, m, &a)
		if len(c.errs) == n {
			out = append(out, synthAgent{server: i})
		}
	}
	for i := range m.RemoteAgents {
		r := &m.RemoteAgents[i]
		if r.Upstream == nil || !slugRE.MatchString(r.ID) {
			continue // its problems are reported
		}
		if c.checkRemoteAgent("remoteAgents["+strconv.Itoa(i)+"]", m, r) {
			out = append(out, synthAgent{server: -1, remote: i})
		}
	}
	return out
}
