package card

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
)

// ServerCard is an MCP Server Card (SEP-2127, the
// io.modelcontextprotocol/server-card extension; schema in
// modelcontextprotocol/experimental-ext-server-card). It describes a
// server and where to reach it; it lists no tools.
type ServerCard struct {
	Schema      string            `json:"$schema"`
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Description string            `json:"description"`
	Title       string            `json:"title,omitempty"`
	WebsiteURL  string            `json:"websiteUrl,omitempty"`
	Repository  *ServerRepository `json:"repository,omitempty"`
	Icons       []ServerIcon      `json:"icons,omitempty"`
	Remotes     []ServerRemote    `json:"remotes,omitempty"`
}

// ServerRepository is where a server's source lives.
type ServerRepository struct {
	URL       string `json:"url"`
	Source    string `json:"source"`
	Subfolder string `json:"subfolder,omitempty"`
	ID        string `json:"id,omitempty"`
}

// ServerIcon is an icon of the server.
type ServerIcon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// ServerRemote is an endpoint of the server.
type ServerRemote struct {
	Type                      string         `json:"type"`
	URL                       string         `json:"url"`
	Headers                   []ServerHeader `json:"headers,omitempty"`
	SupportedProtocolVersions []string       `json:"supportedProtocolVersions,omitempty"`
}

// ServerHeader names a header clients send; the card never holds a value.
type ServerHeader struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	IsRequired  bool   `json:"isRequired,omitempty"`
	IsSecret    bool   `json:"isSecret,omitempty"`
}

// NewServerCard is the Server Card of an MCP server of the manifest.
func NewServerCard(s *manifest.MCPServer) *ServerCard {
	c := &ServerCard{
		Schema: manifest.ServerCardSchema, Name: s.Name, Version: s.Version,
		Description: s.Description, Title: s.Title, WebsiteURL: s.WebsiteURL,
	}
	if r := s.Repository; r != nil {
		c.Repository = &ServerRepository{URL: r.URL, Source: r.Source, Subfolder: r.Subfolder, ID: r.ID}
	}
	for _, ic := range s.Icons {
		c.Icons = append(c.Icons, ServerIcon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: ic.Theme})
	}
	for _, r := range s.Remotes {
		out := ServerRemote{Type: r.Type, URL: r.URL, SupportedProtocolVersions: r.SupportedProtocolVersions}
		for _, h := range r.Headers {
			out.Headers = append(out.Headers, ServerHeader{Name: h.Name, Description: h.Description, IsRequired: h.IsRequired, IsSecret: h.IsSecret})
		}
		c.Remotes = append(c.Remotes, out)
	}
	return c
}

// serverCardNameRE is a Server Card name: reverse DNS, one slash.
var serverCardNameRE = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// CheckServerCard says what is wrong with a Server Card read with Decode:
// the members SEP-2127 requires, and no header value (a credential) in a
// remote. It checks what a reader relies on, not every rule of the schema.
func CheckServerCard(c map[string]any) []string {
	var out []string
	str := func(k string) string { s, _ := c[k].(string); return s }
	if s := str("$schema"); s != manifest.ServerCardSchema {
		out = append(out, fmt.Sprintf("$schema is %q, not %s", s, manifest.ServerCardSchema))
	}
	if n := str("name"); !serverCardNameRE.MatchString(n) || utf8.RuneCountInString(n) < 3 || utf8.RuneCountInString(n) > 200 {
		out = append(out, fmt.Sprintf("name %q is not reverse DNS with one slash", n))
	}
	if str("version") == "" {
		out = append(out, "no version")
	}
	if d := utf8.RuneCountInString(str("description")); d < 1 || d > 100 {
		out = append(out, fmt.Sprintf("description has %d characters, not 1 to 100", d))
	}
	// Members are found ignoring letter case, as a Go reader finds them
	// (Decode has refused two names that differ only in case).
	remotes, _ := memberFold(c, "remotes").([]any)
	for i, r := range remotes {
		rm, _ := r.(map[string]any)
		p := fmt.Sprintf("remotes[%d]", i)
		if t, _ := memberFold(rm, "type").(string); t != "streamable-http" && t != "sse" {
			out = append(out, fmt.Sprintf("%s.type %q is not streamable-http or sse", p, t))
		}
		if u, err := url.Parse(str2(rm, "url")); err != nil || u.User != nil {
			out = append(out, p+".url carries user information (or does not parse): a credential must never be published")
		} else if k := manifest.CredentialParam(u); k != "" {
			out = append(out, fmt.Sprintf("%s.url carries the query parameter %q, a credential: a credential must never be published", p, k))
		}
		headers, _ := memberFold(rm, "headers").([]any)
		for j, h := range headers {
			hm, _ := h.(map[string]any)
			out = append(out, inputValues(fmt.Sprintf("%s.headers[%d]", p, j), hm)...)
		}
		vars, _ := memberFold(rm, "variables").(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(vars)) {
			vm, _ := vars[k].(map[string]any)
			out = append(out, inputValues(p+".variables."+k, vm)...)
		}
	}
	// Any text of the card: no key material or credential anywhere.
	walkStrings("", c, func(path, s string) {
		if found, ok := secret.InText(s); ok {
			out = append(out, fmt.Sprintf("%s contains %s: a credential must never be published", orRoot(strings.TrimPrefix(path, ".")), found))
		}
	})
	return out
}

// inputValues are the problems of a header or variable of a Server Card:
// a value (a header's value is each client's own), and for a secret one
// a default or choices, which would be a credential too. Member names
// are compared ignoring case, as a Go reader would.
func inputValues(path string, in map[string]any) []string {
	var out []string
	secretInput := memberFold(in, "isSecret") == true
	for _, k := range slices.Sorted(maps.Keys(in)) {
		switch strings.ToLower(k) {
		case "value":
			out = append(out, fmt.Sprintf("%s carries a value: a credential must never be published", path))
		case "default", "choices", "placeholder":
			if secretInput {
				out = append(out, fmt.Sprintf("%s is secret and carries a %s: a credential must never be published", path, k))
			}
		case "variables":
			vars, _ := in[k].(map[string]any)
			for _, v := range slices.Sorted(maps.Keys(vars)) {
				vm, _ := vars[v].(map[string]any)
				out = append(out, inputValues(path+".variables."+v, vm)...)
			}
		}
	}
	return out
}

// str2 is a string member of an object, "" when absent.
func str2(m map[string]any, k string) string { s, _ := memberFold(m, k).(string); return s }

// memberFold is the member of m named k in any letter case, nil when none.
func memberFold(m map[string]any, k string) any {
	if v, ok := m[k]; ok {
		return v
	}
	for name, v := range m {
		if strings.EqualFold(name, k) {
			return v
		}
	}
	return nil
}

// walkStrings calls f with every string in v and its path.
func walkStrings(path string, v any, f func(path, s string)) {
	switch x := v.(type) {
	case string:
		f(path, x)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkStrings(path+"."+k, x[k], f)
		}
	case []any:
		for i, e := range x {
			walkStrings(fmt.Sprintf("%s[%d]", path, i), e, f)
		}
	}
}
