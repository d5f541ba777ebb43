package manifest

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/terminal"
)

// EncodeAgent writes one agent as an [[agents]] block of agents.toml, in
// the order the README documents, leaving out what is unset.
func EncodeAgent(a *Agent) []byte {
	var w tomlWriter
	w.header("[[agents]]")
	w.kv("id", a.ID)
	w.kv("name", a.Name)
	w.kv("description", a.Description)
	w.kv("version", a.Version)
	w.kv("documentationUrl", a.DocumentationURL)
	w.kv("iconUrl", a.IconURL)
	w.list("defaultInputModes", a.DefaultInputModes)
	w.list("defaultOutputModes", a.DefaultOutputModes)
	if p := a.Provider; p != nil {
		w.header("[agents.provider]")
		w.kv("organization", p.Organization)
		w.kv("url", p.URL)
	}
	for _, in := range a.SupportedInterfaces {
		w.header("[[agents.supportedInterfaces]]")
		w.kv("url", in.URL)
		w.kv("protocolBinding", in.ProtocolBinding)
		w.kv("protocolVersion", in.ProtocolVersion)
		w.kv("tenant", in.Tenant)
	}
	c := a.Capabilities
	w.header("[agents.capabilities]")
	w.raw("streaming", strconv.FormatBool(c.Streaming))
	w.raw("pushNotifications", strconv.FormatBool(c.PushNotifications))
	w.raw("extendedAgentCard", strconv.FormatBool(c.ExtendedAgentCard))
	for _, e := range c.Extensions {
		w.header("[[agents.capabilities.extensions]]")
		w.kv("uri", e.URI)
		w.kv("description", e.Description)
		if e.Required {
			w.raw("required", "true")
		}
		if len(e.Params) > 0 {
			w.raw("params", tomlValue(e.Params))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.SecuritySchemes)) {
		s := a.SecuritySchemes[name]
		prefix := "agents.securitySchemes." + tomlKey(name)
		w.header("[" + prefix + "]")
		w.kv("type", s.Type)
		w.kv("description", s.Description)
		w.kv("location", s.Location)
		w.kv("name", s.Name)
		w.kv("scheme", s.Scheme)
		w.kv("bearerFormat", s.BearerFormat)
		w.kv("oauth2MetadataUrl", s.OAuth2MetadataURL)
		w.kv("openIdConnectUrl", s.OpenIDConnectURL)
		if f := s.Flows; f != nil {
			switch {
			case f.AuthorizationCode != nil:
				w.header("[" + prefix + ".flows.authorizationCode]")
				w.kv("authorizationUrl", f.AuthorizationCode.AuthorizationURL)
				w.kv("tokenUrl", f.AuthorizationCode.TokenURL)
				w.kv("refreshUrl", f.AuthorizationCode.RefreshURL)
				if f.AuthorizationCode.PKCERequired {
					w.raw("pkceRequired", "true")
				}
				w.scopes(f.AuthorizationCode.Scopes)
			case f.ClientCredentials != nil:
				w.header("[" + prefix + ".flows.clientCredentials]")
				w.kv("tokenUrl", f.ClientCredentials.TokenURL)
				w.kv("refreshUrl", f.ClientCredentials.RefreshURL)
				w.scopes(f.ClientCredentials.Scopes)
			case f.DeviceCode != nil:
				w.header("[" + prefix + ".flows.deviceCode]")
				w.kv("deviceAuthorizationUrl", f.DeviceCode.DeviceAuthorizationURL)
				w.kv("tokenUrl", f.DeviceCode.TokenURL)
				w.kv("refreshUrl", f.DeviceCode.RefreshURL)
				w.scopes(f.DeviceCode.Scopes)
			}
		}
	}
	w.requirements("[[agents.securityRequirements]]", a.SecurityRequirements)
	for _, s := range a.Skills {
		w.header("[[agents.skills]]")
		w.kv("id", s.ID)
		w.kv("name", s.Name)
		w.kv("description", s.Description)
		w.list("tags", s.Tags)
		w.list("examples", s.Examples)
		w.list("inputModes", s.InputModes)
		w.list("outputModes", s.OutputModes)
		w.requirements("[[agents.skills.securityRequirements]]", s.SecurityRequirements)
	}
	return []byte(w.String())
}

type tomlWriter struct{ strings.Builder }

func (w *tomlWriter) header(h string) {
	if w.Len() > 0 {
		w.WriteString("\n")
	}
	w.WriteString(h + "\n")
}

func (w *tomlWriter) raw(k, v string) { fmt.Fprintf(w, "%s = %s\n", tomlKey(k), v) }

func (w *tomlWriter) kv(k, v string) {
	if v != "" {
		w.raw(k, tomlString(v))
	}
}

func (w *tomlWriter) list(k string, v []string) {
	if len(v) == 0 {
		return
	}
	items := make([]string, len(v))
	for i, s := range v {
		items[i] = tomlString(s)
	}
	w.raw(k, "["+strings.Join(items, ", ")+"]")
}

func (w *tomlWriter) scopes(s map[string]string) {
	if len(s) == 0 {
		return
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(s)) {
		parts = append(parts, tomlKey(k)+" = "+tomlString(s[k]))
	}
	w.raw("scopes", "{ "+strings.Join(parts, ", ")+" }")
}

func (w *tomlWriter) requirements(h string, reqs []Requirement) {
	for _, r := range reqs {
		w.header(h)
		for _, name := range slices.Sorted(maps.Keys(r)) {
			items := make([]string, len(r[name]))
			for i, s := range r[name] {
				items[i] = tomlString(s)
			}
			w.raw(name, "["+strings.Join(items, ", ")+"]")
		}
	}
}

// tomlKey writes a key bare when it can be, quoted otherwise.
func tomlKey(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool { return r > 127 || !isBare(byte(r)) }) < 0 {
		return k
	}
	return tomlString(k)
}

// tomlString writes a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if terminal.Unsafe(r) {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlValue writes a JSON-like value (extension params) inline.
func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return tomlString(x)
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		items := make([]string, len(x))
		for i, e := range x {
			items[i] = tomlValue(e)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = tomlKey(k) + " = " + tomlValue(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return tomlString(fmt.Sprint(v))
}

// Quote writes s as a TOML basic string, with characters a terminal would
// act on escaped.
func Quote(s string) string { return tomlString(s) }
