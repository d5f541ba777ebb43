package site

import (
	"mime"
	"path"
	"strconv"
	"strings"
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

// IsMachineReadable reports whether urlPath is a card, the JWKS or the
// catalog: JSON that browsers on other origins fetch.
func IsMachineReadable(urlPath string) bool {
	return strings.Contains(urlPath, "/"+WellKnown+"/") && strings.HasSuffix(urlPath, ".json")
}

// Headers are the response headers a file of the site should be served
// with (Cache-Control aside: see CacheControl).
func Headers(urlPath string) map[string]string {
	h := map[string]string{"X-Content-Type-Options": "nosniff"}
	switch {
	case IsMachineReadable(urlPath):
		h["Content-Type"] = "application/json"
		h["Access-Control-Allow-Origin"] = "*"
	case strings.HasSuffix(urlPath, "/") || path.Ext(urlPath) == ".html":
		h["Content-Type"] = "text/html; charset=utf-8"
	default:
		if t := mime.TypeByExtension(path.Ext(urlPath)); t != "" {
			h["Content-Type"] = t
		}
	}
	return h
}

// CacheControl is the published Cache-Control for a file of the site.
func CacheControl(urlPath string) string {
	age := PageMaxAge
	if IsMachineReadable(urlPath) {
		age = CardMaxAge
	}
	return "public, max-age=" + strconv.Itoa(age) + ", stale-while-revalidate=" + strconv.Itoa(StaleWhileRevalidate)
}
