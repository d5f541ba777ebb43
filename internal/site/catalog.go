package site

import (
	"fmt"
	"net/url"
	"strconv"

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

// CatalogMediaTypeNested is the AI Catalog media type of a nested catalog.
const CatalogMediaTypeNested = "application/ai-catalog+json"

// Catalog renders the AI Catalog of a whole manifest in one document.
func Catalog(m *manifest.Manifest) ([]byte, error) {
	agents := make([]*manifest.Agent, len(m.Agents))
	for i := range m.Agents {
		agents[i] = &m.Agents[i]
	}
	return catalogDocument(m, agents)
}

// catalogHostOf is the catalog's host: the site.
func catalogHostOf(m *manifest.Manifest) catalogHost {
	h := catalogHost{DisplayName: m.Site.Title, DocumentationURL: m.Site.BaseURL + "/"}
	if u, err := url.Parse(m.Site.BaseURL); err == nil {
		h.Identifier = u.Hostname()
	}
	return h
}

// catalogDocument is an AI Catalog listing agents.
func catalogDocument(m *manifest.Manifest, agents []*manifest.Agent) ([]byte, error) {
	doc := catalogDoc{SpecVersion: CatalogSpecVersion, Host: catalogHostOf(m), Entries: []catalogEntry{}}
	for _, a := range agents {
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

// catalogIndex is the root AI Catalog of a site of several groups: one
// nested catalog entry per group (catalog/<k>.json), each an AI Catalog of
// at most size agents.
func catalogIndex(m *manifest.Manifest, size, groups, agents int) ([]byte, error) {
	doc := catalogDoc{SpecVersion: CatalogSpecVersion, Host: catalogHostOf(m)}
	for g := range groups {
		first, last := g*size+1, min(agents, (g+1)*size)
		u := m.Site.BaseURL + "/" + CatalogFolder + "/" + strconv.Itoa(g+1) + ".json"
		doc.Entries = append(doc.Entries, catalogEntry{
			Identifier:  u,
			DisplayName: fmt.Sprintf("%s: agents %d to %d", m.Site.Title, first, last),
			MediaType:   CatalogMediaTypeNested,
			URL:         u,
		})
	}
	return card.Marshal(doc)
}
