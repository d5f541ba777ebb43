package site

import (
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/compose"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/markdown"
	"github.com/agentcards/agentcards/internal/mcp"
)

// ServerCardMediaType is the AI Catalog type of an MCP Server Card entry.
const ServerCardMediaType = "application/mcp-server-card+json"

// MCPIdentifier is an MCP server's AI Catalog identifier:
// urn:air:<publisher>:mcp:<id>.
func MCPIdentifier(m *manifest.Manifest, id string) string {
	return "urn:air:" + m.Site.Publisher + ":mcp:" + id
}

// serverTitle is what an MCP server is called for people.
func serverTitle(s *manifest.MCPServer) string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}

// mcpEntries are the AI Catalog entries of the manifest's MCP servers.
func mcpEntries(m *manifest.Manifest) []catalogEntry {
	var out []catalogEntry
	for i := range m.MCPServers {
		s := &m.MCPServers[i]
		var tools []string
		for _, t := range s.Snapshot.Tools {
			if n := manifest.ToolTitle(t); !slices.Contains(tools, n) {
				tools = append(tools, n)
			}
		}
		out = append(out, catalogEntry{
			Identifier:   MCPIdentifier(m, s.ID),
			DisplayName:  serverTitle(s),
			Type:         ServerCardMediaType,
			URL:          m.ServerCardURL(s.ID),
			Description:  s.Description,
			Tags:         s.Tags,
			Version:      s.Version,
			Capabilities: tools,
		})
	}
	return out
}

// mcpFiles adds each MCP server's Server Card and page to files.
func (b *builder) mcpFiles(files map[string][]byte, agents map[string]bool) error {
	m := b.m
	for i := range m.MCPServers {
		s := &m.MCPServers[i]
		dir := manifest.MCPFolder + "/" + s.ID + "/"
		sc, err := card.Marshal(compose.NewServerCard(s))
		if err != nil {
			return err
		}
		files[dir+manifest.ServerCardFile] = sc
		page, err := b.mcpPage(s, s.A2A != nil && agents[s.ID])
		if err != nil {
			return err
		}
		files[dir+"index.html"] = page
	}
	return nil
}

// mcpView is what an MCP server's page shows.
type mcpView struct {
	ID, Name, Title, Version, Description string
	WebsiteURL                            string
	Repository                            *manifest.MCPRepo
	Tags                                  []string
	Remotes                               []remoteView
	Instructions                          template.HTML
	Tools                                 []toolView
	Resources                             []mcp.Resource
	Prompts                               []mcp.Prompt
	Identifier, ProtocolVersion           string
	Agent                                 bool
}

type remoteView struct {
	URL, Transport string
	Versions       []string
	Headers        []manifest.RemoteHeader
}

type toolView struct {
	Name, Title, Anchor     string
	Description             template.HTML
	Hints                   []string
	Input, Output           []paramRow
	InputOther, OutputOther string
	// InputNote and OutputNote say that a table stops short.
	InputNote, OutputNote string
	HasOutput             bool
}

// mcpPage renders an MCP server's page.
func (b *builder) mcpPage(s *manifest.MCPServer, agent bool) ([]byte, error) {
	m := b.m
	reserved := slices.Clone(templateIDs)
	reserved = append(reserved, "connect-h", "tools-h", "resources-h", "prompts-h", "card-h")
	// Each tool's anchor, unique on the page even where two names differ
	// only in characters an id leaves out.
	anchors := make([]string, len(s.Snapshot.Tools))
	taken := map[string]bool{}
	for i, t := range s.Snapshot.Tools {
		a := toolAnchor(t.Name)
		for n := 2; taken[a]; n++ {
			a = toolAnchor(t.Name) + "-" + strconv.Itoa(n)
		}
		taken[a], anchors[i] = true, a
		reserved = append(reserved, "tool-"+a)
	}
	ids := markdown.NewIDs(reserved...)
	v := &mcpView{
		ID: s.ID, Name: s.Name, Title: serverTitle(s), Version: s.Version, Description: s.Description,
		WebsiteURL: s.WebsiteURL, Repository: s.Repository, Tags: s.Tags,
		Resources: s.Snapshot.Resources, Prompts: s.Snapshot.Prompts,
		Identifier: MCPIdentifier(m, s.ID), ProtocolVersion: s.Snapshot.ProtocolVersion, Agent: agent,
	}
	for _, r := range s.Remotes {
		t := "Streamable HTTP"
		if r.Type == "sse" {
			t = "HTTP with SSE (deprecated transport)"
		}
		v.Remotes = append(v.Remotes, remoteView{URL: r.URL, Transport: t, Versions: r.SupportedProtocolVersions, Headers: r.Headers})
	}
	var err error
	if v.Instructions, err = serverText(ids, s.Snapshot.Instructions); err != nil {
		return nil, err
	}
	for i, t := range s.Snapshot.Tools {
		tv := toolView{Name: t.Name, Title: manifest.ToolTitle(t), Anchor: anchors[i], Hints: manifest.ToolHints(t)}
		if tv.Description, err = serverText(ids, t.Description); err != nil {
			return nil, err
		}
		tv.Input, tv.InputOther, tv.InputNote = schemaRows(t.InputSchema)
		if len(t.OutputSchema) > 0 {
			tv.HasOutput = true
			tv.Output, tv.OutputOther, tv.OutputNote = schemaRows(t.OutputSchema)
		}
		v.Tools = append(v.Tools, tv)
	}
	data := b.base(v.Title+" (MCP server)", s.Description, "../../")
	data.MCP = v
	data.Canonical = m.MCPPageURL(s.ID)
	ld := map[string]any{
		"@context": "https://schema.org", "@type": "SoftwareApplication",
		"name": v.Title, "description": s.Description, "softwareVersion": s.Version,
		"applicationCategory": "MCP server", "url": m.MCPPageURL(s.ID),
	}
	if s.WebsiteURL != "" {
		ld["sameAs"] = s.WebsiteURL
	}
	data.JSONLD = ld
	return b.render("mcp.html", data)
}

// maxMarkdown is the longest text from an MCP server rendered as
// Markdown. A Markdown renderer takes time growing faster than the text on
// some inputs ("_a*" repeated), and the server wrote this text: longer
// text is shown as it is.
const maxMarkdown = 4 << 10

// serverText renders text an MCP server wrote: Markdown, safe as an
// agent's description, when short; else plain text, whitespace kept.
func serverText(ids *markdown.IDs, text string) (template.HTML, error) {
	if len(text) <= maxMarkdown {
		return markdown.RenderWith(ids, text)
	}
	return template.HTML(`<p class="plain">` + template.HTMLEscapeString(text) + `</p>`), nil
}

// toolAnchor is a tool's element id suffix: its name with characters an
// id fragment would need escaped made '-'.
func toolAnchor(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return r
		}
		return '-'
	}, name)
}
