package site

import (
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/markdown"
	"github.com/agentcards/agentcards/internal/mcp"
)

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
func (pg *pages) mcpPage(s *manifest.MCPServer, agent bool) ([]byte, error) {
	m := pg.m
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
	data := pg.base(v.Title+" (MCP server)", s.Description, "../../")
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
	return pg.render("mcp.html", data)
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
