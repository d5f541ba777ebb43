package site

import (
	"slices"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/compose"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
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
		dir := layout.MCPPage(s.ID)
		sc, err := card.Marshal(compose.NewServerCard(s))
		if err != nil {
			return err
		}
		files[layout.ServerCard(s.ID)] = sc
		page, err := b.pages.mcpPage(s, s.A2A != nil && agents[s.ID])
		if err != nil {
			return err
		}
		files[dir+layout.IndexFile] = page
	}
	return nil
}
