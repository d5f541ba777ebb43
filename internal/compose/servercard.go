package compose

import (
	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
)

// NewServerCard is the Server Card of an MCP server of the manifest.
func NewServerCard(s *manifest.MCPServer) *card.ServerCard {
	c := &card.ServerCard{
		Schema: manifest.ServerCardSchema, Name: s.Name, Version: s.Version,
		Description: s.Description, Title: s.Title, WebsiteURL: s.WebsiteURL,
	}
	if r := s.Repository; r != nil {
		c.Repository = &card.ServerRepository{URL: r.URL, Source: r.Source, Subfolder: r.Subfolder, ID: r.ID}
	}
	for _, ic := range s.Icons {
		c.Icons = append(c.Icons, card.ServerIcon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: ic.Theme})
	}
	for _, r := range s.Remotes {
		out := card.ServerRemote{Type: r.Type, URL: r.URL, SupportedProtocolVersions: r.SupportedProtocolVersions}
		for _, h := range r.Headers {
			out.Headers = append(out.Headers, card.ServerHeader{Name: h.Name, Description: h.Description, IsRequired: h.IsRequired, IsSecret: h.IsSecret})
		}
		c.Remotes = append(c.Remotes, out)
	}
	return c
}
