package site

import (
	"html/template"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

// authKinds names, in a few words each, the kinds of authentication an
// agent's requirements ask for ("API key", "OAuth 2.0"...); "none" when it
// declares none.
func authKinds(a *manifest.Agent) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range a.SecurityRequirements {
		for _, name := range slices.Sorted(maps.Keys(r)) {
			k := authKind(a.SecuritySchemes[name])
			if k != "" && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// authKind is a scheme's kind in a few words.
func authKind(s manifest.SecurityScheme) string {
	switch s.Type {
	case manifest.TypeAPIKey:
		return "API key"
	case manifest.TypeHTTP:
		if strings.EqualFold(s.Scheme, "bearer") {
			return "bearer token"
		}
		return "HTTP " + s.Scheme
	case manifest.TypeOAuth2:
		return "OAuth 2.0"
	case manifest.TypeOpenIDConnect:
		return "OpenID Connect"
	case manifest.TypeMutualTLS:
		return "mutual TLS"
	}
	return ""
}

// callExample is the "how to call it" block of an agent's page: a minimal
// request to its preferred interface, as a command a person can run.
type callExample struct {
	Binding, URL, Version string
	Command               string
	Note                  string
}

// howToCall is the minimal request to a's preferred (first) interface:
// SendMessage with one text part, with the credential its first security
// requirement needs, as a placeholder from the environment.
func howToCall(a *manifest.Agent) *callExample {
	if len(a.SupportedInterfaces) == 0 {
		return nil
	}
	in := a.SupportedInterfaces[0]
	c := &callExample{Binding: in.ProtocolBinding, URL: in.URL, Version: in.ProtocolVersion}
	legacy := strings.HasPrefix(in.ProtocolVersion, "0.")
	auth, queryKey, note := credential(a)
	c.Note = note
	// target is a URL as a shell word, with the API key appended when it
	// goes in the query.
	target := func(u string) string {
		if queryKey == "" {
			return shellQuote(u)
		}
		return shellQuote(u+"?"+url.QueryEscape(queryKey)+"=") + `"$API_KEY"`
	}
	message := `{"messageId": "1", "role": "ROLE_USER", "parts": [{"text": "Hello"}]}`
	if legacy {
		message = `{"messageId": "1", "role": "user", "parts": [{"kind": "text", "text": "Hello"}]}`
	}
	switch in.ProtocolBinding {
	case "JSONRPC":
		method := "SendMessage"
		if legacy {
			method = "message/send"
		}
		c.Command = "curl -X POST " + target(in.URL) + " \\\n  -H 'Content-Type: application/json' -H " + shellQuote("A2A-Version: "+in.ProtocolVersion) + auth + " \\\n" +
			`  -d '{"jsonrpc": "2.0", "id": 1, "method": "` + method + `", "params": {"message": ` + message + `}}'`
	case "HTTP+JSON":
		path := "/message:send"
		if legacy {
			path = "/v1/message:send"
		}
		if in.Tenant != "" {
			path = "/" + url.PathEscape(in.Tenant) + path
		}
		c.Command = "curl -X POST " + target(strings.TrimRight(in.URL, "/")+path) + " \\\n  -H 'Content-Type: application/json' -H " + shellQuote("A2A-Version: "+in.ProtocolVersion) + auth + " \\\n" +
			`  -d '{"message": ` + message + `}'`
	case "GRPC":
		host := strings.TrimPrefix(strings.TrimPrefix(in.URL, "https://"), "http://")
		host, _, _ = strings.Cut(host, "/")
		if !strings.Contains(host, ":") {
			host += ":443"
		}
		h := ""
		if strings.HasPrefix(auth, " -H") {
			h = auth
		}
		c.Command = "grpcurl" + h + ` -d '{"message": ` + message + `}' \` + "\n  " + shellQuote(host) + " lf.a2a.v1.A2AService/SendMessage"
	default:
		return nil
	}
	return c
}

// credential is how the first security requirement's first scheme goes
// into a curl command: curl options (a header, a cookie, a certificate),
// or the name of the query parameter an API key goes in; the value is a
// shell variable, and note says what to set it to.
func credential(a *manifest.Agent) (options, queryKey, note string) {
	if len(a.SecurityRequirements) == 0 {
		return "", "", ""
	}
	names := slices.Sorted(maps.Keys(a.SecurityRequirements[0]))
	if len(names) == 0 {
		return "", "", ""
	}
	s := a.SecuritySchemes[names[0]]
	switch s.Type {
	case manifest.TypeAPIKey:
		switch s.Location {
		case "query":
			return "", s.Name, "Set $API_KEY to your API key."
		case "cookie":
			return " -b " + shellQuote(s.Name+"=") + `"$API_KEY"`, "", "Set $API_KEY to your API key."
		}
		return " -H " + shellQuote(s.Name+": ") + `"$API_KEY"`, "", "Set $API_KEY to your API key."
	case manifest.TypeHTTP:
		if strings.EqualFold(s.Scheme, "basic") {
			return ` -u "$USER:$PASSWORD"`, "", ""
		}
		return ` -H "Authorization: Bearer $TOKEN"`, "", "Set $TOKEN to your token."
	case manifest.TypeOAuth2, manifest.TypeOpenIDConnect:
		return ` -H "Authorization: Bearer $TOKEN"`, "", "Set $TOKEN to an access token from the " + authKind(s) + " scheme below."
	case manifest.TypeMutualTLS:
		return " --cert client.pem --key client-key.pem", "", "Use the client certificate the agent's operator gave you."
	}
	return "", "", ""
}

// shellQuote is s as one word for a POSIX shell: in single quotes, each
// single quote in it closed, escaped and reopened, so that whatever a
// manifest holds, the command does only what it shows.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// breakableURL is u with places to break a line after each '/' and
// before each '.' and '?', so that a phone breaks an endpoint between its
// parts rather than inside a host name.
func breakableURL(u string) template.HTML {
	var b strings.Builder
	for _, r := range u {
		if r == '.' || r == '?' {
			b.WriteString("<wbr>")
		}
		b.WriteString(template.HTMLEscapeString(string(r)))
		if r == '/' {
			b.WriteString("<wbr>")
		}
	}
	return template.HTML(b.String())
}
