package site

import (
	"mime"

	"path"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/layout"
)

// Cache lifetimes the published site asks for (README, "Publishing").
const (
	// CardMaxAge is how long cards, the JWKS and the catalog may be cached.
	CardMaxAge = 300
	// PageMaxAge is how long HTML pages and assets may be cached.
	PageMaxAge = 600
	// StaleWhileRevalidate lets caches serve a stale copy while they refetch.
	StaleWhileRevalidate = 60
)

// IsMachineReadable reports whether urlPath is a card, the JWKS, the
// catalog or an MCP Server Card: JSON that browsers on other origins fetch.
func IsMachineReadable(urlPath string) bool {
	return (strings.Contains(urlPath, "/"+layout.WellKnown+"/") || strings.HasPrefix(urlPath, "/"+layout.CatalogFolder+"/")) && strings.HasSuffix(urlPath, ".json") ||
		IsServerCard(urlPath)
}

// IsServerCard reports whether urlPath is an MCP Server Card of the site
// (/mcp/<id>/server-card.json).
func IsServerCard(urlPath string) bool {
	rel, ok := strings.CutPrefix(urlPath, "/")
	return ok && layout.IsServerCardPath(rel)
}

// ServerCardCORS are the CORS headers MCP's discovery document asks of a
// Server Card host beyond Access-Control-Allow-Origin.
var ServerCardCORS = [][2]string{
	{"Access-Control-Allow-Methods", "GET"},
	{"Access-Control-Allow-Headers", "Content-Type, If-None-Match"},
	{"Access-Control-Expose-Headers", "ETag"},
}

// Headers are the response headers a file of the site should be served
// with (Cache-Control aside: see CacheControl).
func Headers(urlPath string) map[string]string {
	h := map[string]string{"X-Content-Type-Options": "nosniff"}
	if t := ContentType(urlPath); t != "" {
		h["Content-Type"] = t
	}
	if IsMachineReadable(urlPath) {
		h["Access-Control-Allow-Origin"] = "*"
	}
	if IsServerCard(urlPath) {
		for _, kv := range ServerCardCORS {
			h[kv[0]] = kv[1]
		}
	}
	return h
}

// contentTypes are the media types of the files a build writes.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".json": "application/json",
	".xml":  "application/xml",
	".txt":  "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
}

// ContentType is the Content-Type a URL path of the site is served with.
func ContentType(urlPath string) string {
	if strings.HasSuffix(urlPath, "/") {
		return contentTypes[".html"]
	}
	if t, ok := contentTypes[path.Ext(urlPath)]; ok {
		return t
	}
	return mime.TypeByExtension(path.Ext(urlPath))
}

// CacheControl is the published Cache-Control for a file of the site.
func CacheControl(urlPath string) string {
	age := PageMaxAge
	if IsMachineReadable(urlPath) {
		age = CardMaxAge
	}
	return "public, max-age=" + strconv.Itoa(age) + ", stale-while-revalidate=" + strconv.Itoa(StaleWhileRevalidate)
}
