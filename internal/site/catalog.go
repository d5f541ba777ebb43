package site

import (
	"net/url"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
)

// CardMediaType is the AI Catalog media type of an A2A Agent Card entry.
const CardMediaType = "application/a2a-agent-card+json"

// CatalogSpecVersion is the AI Catalog specification version written.
const CatalogSpecVersion = "1.0"

// catalogDoc is an AI Catalog (Agent-Card/ai-catalog): one entry per agent.
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
	Identifier  string   `json:"identifier"`
	DisplayName string   `json:"displayName"`
	MediaType   string   `json:"mediaType"`
	URL         string   `json:"url"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Version     string   `json:"version,omitempty"`
}

// AgentURL is the absolute URL of an agent's folder on the site, which
// also identifies the agent in the catalog.
func AgentURL(m *manifest.Manifest, id string) string {
	return m.Site.BaseURL + "/agents/" + id + "/"
}

// CardURL is the absolute URL of an agent's v1.0 card.
func CardURL(m *manifest.Manifest, id string) string {
	return AgentURL(m, id) + WellKnown + "/" + CardFile
}

// Catalog renders /.well-known/ai-catalog.json.
func Catalog(m *manifest.Manifest) ([]byte, error) {
	doc := catalogDoc{
		SpecVersion: CatalogSpecVersion,
		Host: catalogHost{
			DisplayName:      m.Site.Title,
			DocumentationURL: m.Site.BaseURL + "/",
		},
	}
	if u, err := url.Parse(m.Site.BaseURL); err == nil {
		doc.Host.Identifier = u.Hostname()
	}
	for i := range m.Agents {
		a := &m.Agents[i]
		doc.Entries = append(doc.Entries, catalogEntry{
			Identifier:  AgentURL(m, a.ID),
			DisplayName: a.Name,
			MediaType:   CardMediaType,
			URL:         CardURL(m, a.ID),
			Description: a.Description,
			Tags:        skillTags(a),
			Version:     a.Version,
		})
	}
	return card.Marshal(doc)
}
