package site

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
)

// CardMediaType is the AI Catalog media type of an A2A Agent Card entry.
const CardMediaType = "application/a2a-agent-card+json"

// CatalogSpecVersion is the AI Catalog specification version written.
const CatalogSpecVersion = "1.0"

// catalogDoc is an AI Catalog (Agent-Card/ai-catalog; the members ARD's
// JSON Schema allows): one entry per agent.
type catalogDoc struct {
	SpecVersion string         `json:"specVersion"`
	Host        catalogHost    `json:"host"`
	Entries     []catalogEntry `json:"entries"`
}

type catalogHost struct {
	DisplayName      string `json:"displayName"`
	Identifier       string `json:"identifier,omitempty"`
	DocumentationURL string `json:"documentationUrl,omitempty"`
}

type catalogEntry struct {
	Identifier            string   `json:"identifier"`
	DisplayName           string   `json:"displayName"`
	Type                  string   `json:"type"`
	URL                   string   `json:"url"`
	Description           string   `json:"description,omitempty"`
	Tags                  []string `json:"tags,omitempty"`
	Version               string   `json:"version,omitempty"`
	Capabilities          []string `json:"capabilities,omitempty"`
	RepresentativeQueries []string `json:"representativeQueries,omitempty"`
	UpdatedAt             string   `json:"updatedAt,omitempty"`
	// Metadata is the spec's free key-value pairs: for a remote agent,
	// who operates it and where (remoteMetadata).
	Metadata map[string]string `json:"metadata,omitempty"`
}

// Identifier is an agent's AI Catalog identifier (ADR 0015):
// urn:air:<publisher>:a2a:<id>.
func Identifier(m *manifest.Manifest, id string) string {
	return "urn:air:" + m.Site.Publisher + ":a2a:" + id
}

// nestedIdentifier is the identifier of nested catalog k (from 1).
func nestedIdentifier(m *manifest.Manifest, k int) string {
	return "urn:air:" + m.Site.Publisher + ":ai-catalog:" + strconv.Itoa(k)
}

// AgentURL is the absolute URL of an agent's folder on the site, which
// also identifies the agent in the catalog.
func AgentURL(m *manifest.Manifest, id string) string {
	return layout.URL(m.Site.BaseURL, layout.AgentPage(id))
}

// CardURL is the absolute URL of an agent's v1.0 card.
func CardURL(m *manifest.Manifest, id string) string {
	return layout.URL(m.Site.BaseURL, layout.AgentCard(id))
}

// CatalogMediaType is the media type of an AI Catalog, as the type of a
// nested catalog's entry.
const CatalogMediaType = "application/ai-catalog+json"

// catalogHostOf is the catalog's host: the site, identified by the
// publisher's domain.
func catalogHostOf(m *manifest.Manifest) catalogHost {
	return catalogHost{DisplayName: m.Site.Title, Identifier: m.Site.Publisher, DocumentationURL: m.Site.BaseURL + "/"}
}

// catalogDocument is an AI Catalog listing agents, and the MCP servers'
// Server Cards when withMCP is set.
func catalogDocument(m *manifest.Manifest, agents []*manifest.Agent, withMCP bool) ([]byte, error) {
	doc := catalogDoc{SpecVersion: CatalogSpecVersion, Host: catalogHostOf(m), Entries: []catalogEntry{}}
	for _, a := range agents {
		doc.Entries = append(doc.Entries, catalogEntry{
			Identifier:            Identifier(m, a.ID),
			DisplayName:           a.Name,
			Type:                  CardMediaType,
			URL:                   CardURL(m, a.ID),
			Description:           a.Description,
			Tags:                  skillTags(a),
			Version:               a.Version,
			Capabilities:          skillNames(a),
			RepresentativeQueries: representativeQueries(a),
			UpdatedAt:             a.UpdatedAt,
			Metadata:              remoteMetadata(a),
		})
	}
	if withMCP {
		doc.Entries = append(doc.Entries, mcpEntries(m)...)
	}
	return card.Marshal(doc)
}

// remoteMetadata is the catalog entry's metadata of a remote agent: that
// it is operated elsewhere and routed through a gateway, in plain words
// and as links; nil for any other agent.
func remoteMetadata(a *manifest.Agent) map[string]string {
	r := a.Remote
	if r == nil {
		return nil
	}
	return map[string]string{
		"notice":        fmt.Sprintf("Operated elsewhere, by %s; routed through the gateway %s, which signs this card.", r.Operator, r.Gateway),
		"operatedBy":    r.Operator,
		"routedThrough": r.Gateway,
		"upstreamCard":  r.Upstream.URL,
	}
}

// catalogIndex is the root AI Catalog of a site of several groups: one
// nested catalog entry per group (catalog/<k>.json), each an AI Catalog of
// at most size agents, then the MCP servers' Server Cards.
func catalogIndex(m *manifest.Manifest, size, groups, agents int) ([]byte, error) {
	doc := catalogDoc{SpecVersion: CatalogSpecVersion, Host: catalogHostOf(m)}
	for g := range groups {
		first, last := g*size+1, min(agents, (g+1)*size)
		u := layout.URL(m.Site.BaseURL, layout.NestedCatalog(g+1))
		doc.Entries = append(doc.Entries, catalogEntry{
			Identifier:  nestedIdentifier(m, g+1),
			DisplayName: fmt.Sprintf("%s: agents %d to %d", m.Site.Title, first, last),
			Type:        CatalogMediaType,
			URL:         u,
		})
	}
	doc.Entries = append(doc.Entries, mcpEntries(m)...)
	return card.Marshal(doc)
}

// skillNames are the names of an agent's skills, once each: the
// capabilities of its catalog entry.
func skillNames(a *manifest.Agent) []string {
	var names []string
	for _, s := range a.Skills {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

// maxQueries and minQueries bound an entry's representativeQueries.
const minQueries, maxQueries = 2, 5

// representativeQueries are the agent's own, else up to five of its
// skills' examples (each skill's first, then each skill's second, ...,
// once each); none when that gives fewer than two.
func representativeQueries(a *manifest.Agent) []string {
	if len(a.RepresentativeQueries) > 0 {
		return a.RepresentativeQueries
	}
	var qs []string
	for round := 0; len(qs) < maxQueries; round++ {
		more := false
		for _, s := range a.Skills {
			if round >= len(s.Examples) {
				continue
			}
			more = true
			if q := s.Examples[round]; !slices.Contains(qs, q) && len(qs) < maxQueries {
				qs = append(qs, q)
			}
		}
		if !more {
			break
		}
	}
	if len(qs) < minQueries {
		return nil
	}
	return qs
}

// listedTags are the tags the front list and the search show for an
// agent: every tag of its skills (skillTags), except for an agent
// synthesized from an MCP server's tools, whose skills' tags carry each
// tool's behaviour hints ("read-only", "destructive"...): what one tool
// claims is no fact about the others, so such an agent shows the tags
// every one of its skills has.
func listedTags(a *manifest.Agent) []string {
	if !slices.ContainsFunc(a.Capabilities.Extensions, func(e manifest.Extension) bool { return e.URI == manifest.MCPToolsExtension }) || len(a.Skills) == 0 {
		return skillTags(a)
	}
	var tags []string
	for _, t := range a.Skills[0].Tags {
		all := !slices.Contains(tags, t)
		for _, s := range a.Skills[1:] {
			all = all && slices.Contains(s.Tags, t)
		}
		if all {
			tags = append(tags, t)
		}
	}
	return tags
}

// skillTags is every tag of an agent's skills, first use first, once each.
func skillTags(a *manifest.Agent) []string {
	var tags []string
	seen := map[string]bool{}
	for _, s := range a.Skills {
		for _, t := range s.Tags {
			if !seen[t] {
				seen[t] = true
				tags = append(tags, t)
			}
		}
	}
	return tags
}
