// Package layout is where a site's files go: every path and URL of the
// public output a build writes (cards, the JWKS, AI Catalogs, MCP Server
// Cards, HTML pages, sitemaps, headers) and of its private output
// (extended cards). Build, serve, verify, lint and import all ask it, so
// the layout is spelled out once. It imports nothing of this module.
//
// Paths are slash-separated and relative to the output folder; the URL
// path of a file is "/" + its path, its URL the site's base URL, "/" and
// its path.
package layout

import (
	"regexp"
	"strconv"
	"strings"
)

// IDPattern is what the id of an agent or MCP server must look like: it
// names the folder /agents/<id>/ (or /mcp/<id>/): lower-case letters,
// digits and inner hyphens, at most 64.
const IDPattern = `^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`

var idRE = regexp.MustCompile(IDPattern)

// ValidID reports whether id matches IDPattern.
func ValidID(id string) bool { return idRE.MatchString(id) }

// Names of folders and files in the output tree.
const (
	// WellKnown is the folder of RFC 8615 well-known URIs: at the root of
	// the site, and in each agent's folder.
	WellKnown = ".well-known"
	// CardFile is an A2A v1.0 Agent Card.
	CardFile = "agent-card.json"
	// LegacyFile is the same card in the v0.3.0 shape.
	LegacyFile = "agent.json"
	// JWKSFile is the published key set.
	JWKSFile = "jwks.json"
	// UpstreamCardFile is, beside a remote agent's gateway card, its
	// owner's card byte for byte, with the owner's signatures.
	UpstreamCardFile = "upstream-agent-card.json"
	// UpstreamJWKSFile is, beside a remote agent's gateway card, the
	// owner's JWKS that verified UpstreamCardFile when it was fetched.
	UpstreamJWKSFile = "upstream-jwks.json"
	// CatalogFile is the root AI Catalog.
	CatalogFile = "ai-catalog.json"
	// AgentsFolder holds one folder per agent: agents/<id>/.
	AgentsFolder = "agents"
	// MCPFolder holds one folder per MCP server: mcp/<id>/.
	MCPFolder = "mcp"
	// ServerCardFile is an MCP server's Server Card in its folder.
	ServerCardFile = "server-card.json"
	// IndexFile is the HTML page of a folder.
	IndexFile = "index.html"
	// PagesFolder holds page/<n>/index.html: the front list, page n >= 2.
	PagesFolder = "page"
	// SearchFolder holds search/<k>.json: search shard k.
	SearchFolder = "search"
	// CatalogFolder holds catalog/<k>.json: nested AI Catalog k.
	CatalogFolder = "catalog"
	// SitemapsFolder holds sitemaps/<k>.xml: sitemap piece k.
	SitemapsFolder = "sitemaps"
	// KeysFolder holds keys/index.html: the page of the published keys
	// (the JWKS, for people).
	KeysFolder = "keys"
	// CatalogPageFolder holds ai-catalog/index.html: the page of the root
	// AI Catalog, for people. It is not CatalogFolder, whose files are
	// served as JSON.
	CatalogPageFolder = "ai-catalog"
	// FaviconFile is the site's icon, linked from every page's head.
	FaviconFile = "favicon.svg"
	// SearchIndexFile is the search index of a site of one shard.
	SearchIndexFile = "search-index.json"
	// SitemapFile is the sitemap (or sitemap index).
	SitemapFile = "sitemap.xml"
	// RobotsFile is robots.txt.
	RobotsFile = "robots.txt"
	// NotFoundFile is the page hosts serve for a missing path.
	NotFoundFile = "404.html"
	// HeadersFile holds the HTTP headers of each path (Netlify,
	// Cloudflare Pages).
	HeadersFile = "_headers"
	// SumsFile lists the SHA-256 of every file of the site.
	SumsFile = "sha256sums.txt"
	// NoJekyll keeps GitHub Pages from running Jekyll over the site.
	NoJekyll = ".nojekyll"
	// ExtendedCardFile is an agent's extended card (A2A v1.0), in the
	// private output: what its server returns from GetExtendedAgentCard.
	ExtendedCardFile = "extended-agent-card.json"
	// ExtendedLegacyFile is the same card in the v0.3.0 shape, for
	// agent/getAuthenticatedExtendedCard.
	ExtendedLegacyFile = "extended-agent.json"
)

// Paths of the site's root files.
const (
	// RootCard is the card of the site's default agent.
	RootCard = WellKnown + "/" + CardFile
	// RootLegacy is the default agent's card in the v0.3.0 shape.
	RootLegacy = WellKnown + "/" + LegacyFile
	// JWKS is the published key set.
	JWKS = WellKnown + "/" + JWKSFile
	// Catalog is the root AI Catalog.
	Catalog = WellKnown + "/" + CatalogFile
)

// Paths of the site's pages for people about its machine files.
const (
	// KeysPage is the URL path, from the site's root, of the keys' page:
	// keys/.
	KeysPage = KeysFolder + "/"
	// CatalogPage is the URL path, from the site's root, of the
	// catalog's page: ai-catalog/.
	CatalogPage = CatalogPageFolder + "/"
)

// AgentDir is the folder of agent id: agents/<id>.
func AgentDir(id string) string { return AgentsFolder + "/" + id }

// AgentWellKnown is the well-known folder of agent id:
// agents/<id>/.well-known.
func AgentWellKnown(id string) string { return AgentDir(id) + "/" + WellKnown }

// AgentFile is the file name of agent id: its page for IndexFile, a file
// of its well-known folder for any other (CardFile, LegacyFile).
func AgentFile(id, name string) string {
	if name == IndexFile {
		return AgentDir(id) + "/" + IndexFile
	}
	return AgentWellKnown(id) + "/" + name
}

// AgentCard is the v1.0 card of agent id:
// agents/<id>/.well-known/agent-card.json.
func AgentCard(id string) string { return AgentFile(id, CardFile) }

// AgentPage is the URL path, from the site's root, of agent id's page:
// agents/<id>/.
func AgentPage(id string) string { return AgentDir(id) + "/" }

// ExtendedFile is the path, relative to the private output, of agent
// id's extended card for tier ("" for the card of [agents.extended]
// itself), in the v1.0 shape or, when legacy is set, the v0.3.0 one:
// agents/<id>/extended-agent-card[.<tier>].json or
// agents/<id>/extended-agent[.<tier>].json.
func ExtendedFile(id, tier string, legacy bool) string {
	return AgentDir(id) + "/" + ExtendedName(tier, legacy)
}

// ExtendedName is the file name of an extended card for tier (see
// ExtendedFile).
func ExtendedName(tier string, legacy bool) string {
	name := ExtendedCardFile
	if legacy {
		name = ExtendedLegacyFile
	}
	if tier != "" {
		name = strings.TrimSuffix(name, ".json") + "." + tier + ".json"
	}
	return name
}

// IsExtendedName reports whether a file name is one a build may write
// extended cards to (extended-agent-card[.tier].json, or
// extended-agent[.tier].json for v0.3).
func IsExtendedName(name string) bool {
	return strings.HasPrefix(name, strings.TrimSuffix(ExtendedCardFile, "json")) || strings.HasPrefix(name, strings.TrimSuffix(ExtendedLegacyFile, "json"))
}

// PublicOf is the name of the public card an extended card file (by its
// name) replaces: LegacyFile for the v0.3.0 shape, CardFile otherwise.
func PublicOf(extendedName string) string {
	if strings.HasPrefix(extendedName, strings.TrimSuffix(ExtendedLegacyFile, "json")) {
		return LegacyFile
	}
	return CardFile
}

// MCPDir is the folder of MCP server id: mcp/<id>.
func MCPDir(id string) string { return MCPFolder + "/" + id }

// MCPPage is the URL path, from the site's root, of MCP server id's
// page: mcp/<id>/.
func MCPPage(id string) string { return MCPDir(id) + "/" }

// ServerCard is the Server Card of MCP server id:
// mcp/<id>/server-card.json.
func ServerCard(id string) string { return MCPDir(id) + "/" + ServerCardFile }

// IsServerCardPath reports whether rel, a slash path inside the site, is
// where a build writes Server Cards: mcp/<id>/server-card.json.
func IsServerCardPath(rel string) bool {
	parts := strings.Split(rel, "/")
	return len(parts) == 3 && parts[0] == MCPFolder && parts[1] != "" && parts[1] != "." && parts[1] != ".." && parts[2] == ServerCardFile
}

// NestedCatalog is nested AI Catalog k (from 1): catalog/<k>.json.
func NestedCatalog(k int) string { return CatalogFolder + "/" + strconv.Itoa(k) + ".json" }

// URL is the absolute URL of rel, a path inside the site at baseURL (no
// trailing slash).
func URL(baseURL, rel string) string { return baseURL + "/" + rel }

// RootCardPath is the URL path at which an origin serves its agent card:
// /.well-known/agent-card.json.
const RootCardPath = "/" + RootCard
