// Package mcptest runs MCP servers built with the official Go SDK on
// loopback, for the tests of mcp fetch and of builds from its snapshots.
package mcptest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Token is the bearer token Server requires when asked to.
const Token = "mcptest-secret-token-0123456789abcdef"

// Options shape a test server.
type Options struct {
	// PageSize is how many tools one tools/list page holds (default 2, so
	// that the five tools take three pages).
	PageSize int
	// RequireToken makes every request without "Authorization: Bearer
	// Token" answer 401.
	RequireToken bool
	// Stateless serves the newest revision (server/discover) as well.
	Stateless bool
	// Extra tools, added after the standard five.
	Extra []*sdk.Tool
}

func ptr[T any](v T) *T { return &v }

// Tools are the standard tools: schemas with an empty-string default and
// an empty enum member, an output schema, every annotation, a large
// integer bound.
var Tools = []*sdk.Tool{
	{
		Name: "get_forecast", Title: "Get forecast",
		Description:  "Forecast for a city.\n\nGives **daily** highs and lows.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. Lisbon"},"units":{"type":"string","enum":["","metric","imperial"],"default":"","description":"Units; empty for the server's choice"},"days":{"type":"integer","minimum":1,"maximum":9007199254740993,"default":3}},"required":["city"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"days":{"type":"array","items":{"type":"object","properties":{"high":{"type":"number"},"low":{"type":"number"}}}}},"required":["days"]}`),
		Annotations:  &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true), IdempotentHint: true},
	},
	{
		Name: "delete_alert", Description: "Delete a weather alert subscription.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"reason":{"type":"string","default":""}},"required":["id"]}`),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
	},
	{
		Name: "list_stations", Title: "List stations", Description: "Weather stations near a point.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"near":{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"]},"tags":{"type":"array","items":{"type":"string"},"default":[]},"filter":{"type":"object","default":{}}}}`),
	},
	{
		Name: "subscribe", Title: "Subscribe", Description: "Subscribe to alerts for a region.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":["string","null"]}}}`),
		Annotations: &sdk.ToolAnnotations{IdempotentHint: true, DestructiveHint: ptr(false)},
	},
	{
		Name: "ping", Description: "Check that the server answers.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	},
}

// New starts a server on 127.0.0.1 and returns it; close it when done.
func New(o Options) *httptest.Server {
	if o.PageSize == 0 {
		o.PageSize = 2
	}
	newServer := func() *sdk.Server {
		s := sdk.NewServer(&sdk.Implementation{Name: "weather-server", Title: "Weather", Version: "2.1.0", WebsiteURL: "https://weather.example.com"},
			&sdk.ServerOptions{PageSize: o.PageSize, Instructions: "Ask for forecasts by city."})
		for _, t := range append(append([]*sdk.Tool{}, Tools...), o.Extra...) {
			s.AddTool(t, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
			})
		}
		s.AddResource(&sdk.Resource{URI: "weather://stations", Name: "stations", Title: "Stations", MIMEType: "application/json"},
			func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "[]"}}}, nil
			})
		s.AddPrompt(&sdk.Prompt{Name: "trip", Description: "Plan around the weather.", Arguments: []*sdk.PromptArgument{{Name: "city", Required: true}}},
			func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
				return &sdk.GetPromptResult{}, nil
			})
		return s
	}
	srv := newServer()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		if o.Stateless {
			return newServer()
		}
		return srv
	}, &sdk.StreamableHTTPOptions{Stateless: o.Stateless})
	var handler http.Handler = h
	if o.RequireToken {
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+Token {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	return httptest.NewServer(handler)
}
