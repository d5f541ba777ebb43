package card

import (
	"slices"

	"github.com/agentcards/agentcards/internal/jsonstr"
)

// The cards a build signs are V1 and V03 values. Compact writes them with
// the code below rather than through encoding/json's reflection: the same
// bytes (member order as declared, omitempty as tagged, map members sorted
// by name, strings escaped as encoding/json escapes them without HTML
// escaping), several times cheaper. What it does not write itself (an
// extension's params, any TOML value; a signature's header) goes through
// encoding/json; a card it cannot write exactly so (signatures already set,
// a v0.3 security scheme with none of its members) goes whole through
// encoding/json, which gives the same error as before.

// compactCard appends the Compact JSON of v to dst when v is a card the
// writer handles; ok is false otherwise, and then dst is of no use.
func compactCard(dst []byte, v any) (out []byte, ok bool) {
	w := compactWriter{b: dst, ok: true}
	switch c := v.(type) {
	case *V1:
		if c == nil {
			return nil, false
		}
		w.v1(c)
	case *V03:
		if c == nil {
			return nil, false
		}
		w.v03(c)
	default:
		return nil, false
	}
	return w.b, w.ok
}

// compactWriter appends JSON to b; ok turns false at the first value it
// cannot write as encoding/json does.
type compactWriter struct {
	b  []byte
	ok bool
	// first says that the object being written has no member yet.
	first bool
}

func (w *compactWriter) open() {
	w.b = append(w.b, '{')
	w.first = true
}

func (w *compactWriter) close() {
	w.b = append(w.b, '}')
	w.first = false
}

// key writes a member's name (one that needs no escape) and its colon.
func (w *compactWriter) key(name string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(w.b, '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"', ':')
}

func (w *compactWriter) str(name, s string) {
	w.key(name)
	w.b = jsonstr.Append(w.b, s, jsonstr.Plain)
}

// optStr is str for an omitempty member.
func (w *compactWriter) optStr(name, s string) {
	if s != "" {
		w.str(name, s)
	}
}

func (w *compactWriter) boolean(name string, v bool) {
	w.key(name)
	if v {
		w.b = append(w.b, "true"...)
	} else {
		w.b = append(w.b, "false"...)
	}
}

// optTrue is boolean for an omitempty member.
func (w *compactWriter) optTrue(name string, v bool) {
	if v {
		w.boolean(name, v)
	}
}

func (w *compactWriter) strings(name string, list []string) {
	w.key(name)
	w.stringList(list)
}

// optStrings is strings for an omitempty member.
func (w *compactWriter) optStrings(name string, list []string) {
	if len(list) > 0 {
		w.strings(name, list)
	}
}

// stringList writes a []string value (null when nil).
func (w *compactWriter) stringList(list []string) {
	if list == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i, s := range list {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = jsonstr.Append(w.b, s, jsonstr.Plain)
	}
	w.b = append(w.b, ']')
}

// plain writes the member name as encoding/json writes v.
func (w *compactWriter) plain(name string, v any) {
	data, err := marshalPlain(v)
	if err != nil {
		w.ok = false
		return
	}
	w.key(name)
	w.b = append(w.b, data...)
}

// sortedKeys are the names of m in the order encoding/json writes them.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// mapOf writes a map's members sorted by name, each value by each (null
// when m is nil).
func mapOf[V any](w *compactWriter, m map[string]V, each func(V)) {
	if m == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = jsonstr.Append(w.b, k, jsonstr.Plain)
		w.b = append(w.b, ':')
		each(m[k])
	}
	w.b = append(w.b, '}')
	w.first = false
}

// listOf writes a slice, each element by each (null when nil).
func listOf[E any](w *compactWriter, list []E, each func(*E)) {
	if list == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i := range list {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		each(&list[i])
	}
	w.b = append(w.b, ']')
	w.first = false
}

func (w *compactWriter) v1(c *V1) {
	w.open()
	w.str("name", c.Name)
	w.str("description", c.Description)
	w.str("version", c.Version)
	w.provider(c.Provider)
	w.optStr("documentationUrl", c.DocumentationURL)
	w.optStr("iconUrl", c.IconURL)
	w.key("supportedInterfaces")
	listOf(w, c.SupportedInterfaces, func(in *Interface) {
		w.open()
		w.str("url", in.URL)
		w.str("protocolBinding", in.ProtocolBinding)
		w.str("protocolVersion", in.ProtocolVersion)
		w.optStr("tenant", in.Tenant)
		w.close()
	})
	w.key("capabilities")
	w.open()
	w.boolean("streaming", c.Capabilities.Streaming)
	w.boolean("pushNotifications", c.Capabilities.PushNotifications)
	w.boolean("extendedAgentCard", c.Capabilities.ExtendedAgentCard)
	w.extensions(c.Capabilities.Extensions)
	w.close()
	w.strings("defaultInputModes", c.DefaultInputModes)
	w.strings("defaultOutputModes", c.DefaultOutputModes)
	if len(c.SecuritySchemes) > 0 {
		w.key("securitySchemes")
		mapOf(w, c.SecuritySchemes, w.schemeV1)
	}
	w.requirementsV1(c.SecurityRequirements)
	w.key("skills")
	listOf(w, c.Skills, func(s *SkillV1) {
		w.open()
		w.skillText(s.ID, s.Name, s.Description, s.Tags, s.Examples, s.InputModes, s.OutputModes)
		w.requirementsV1(s.SecurityRequirements)
		w.close()
	})
	if len(c.Signatures) > 0 {
		w.ok = false // never so before signing: encoding/json writes it
	}
	w.close()
}

func (w *compactWriter) provider(p *Provider) {
	if p == nil {
		return
	}
	w.key("provider")
	w.open()
	w.str("organization", p.Organization)
	w.str("url", p.URL)
	w.close()
}

// skillText writes the members a v1.0 skill and a v0.3 one share.
func (w *compactWriter) skillText(id, name, description string, tags, examples, inputModes, outputModes []string) {
	w.str("id", id)
	w.str("name", name)
	w.str("description", description)
	w.strings("tags", tags)
	w.optStrings("examples", examples)
	w.optStrings("inputModes", inputModes)
	w.optStrings("outputModes", outputModes)
}

func (w *compactWriter) extensions(list []Extension) {
	if len(list) == 0 {
		return
	}
	w.key("extensions")
	listOf(w, list, func(e *Extension) {
		w.open()
		w.str("uri", e.URI)
		w.optStr("description", e.Description)
		w.optTrue("required", e.Required)
		if len(e.Params) > 0 {
			w.plain("params", e.Params)
		}
		w.close()
	})
}

func (w *compactWriter) schemeV1(s SecuritySchemeV1) {
	w.open()
	if s.APIKey != nil {
		w.key("apiKeySecurityScheme")
		w.open()
		w.optStr("description", s.APIKey.Description)
		w.str("location", s.APIKey.Location)
		w.str("name", s.APIKey.Name)
		w.close()
	}
	if s.HTTPAuth != nil {
		w.key("httpAuthSecurityScheme")
		w.httpAuth(s.HTTPAuth)
	}
	if s.OAuth2 != nil {
		w.key("oauth2SecurityScheme")
		w.open()
		w.optStr("description", s.OAuth2.Description)
		w.key("flows")
		w.open()
		w.flow("authorizationCode", s.OAuth2.Flows.AuthorizationCode)
		w.flow("clientCredentials", s.OAuth2.Flows.ClientCredentials)
		w.flow("deviceCode", s.OAuth2.Flows.DeviceCode)
		w.close()
		w.optStr("oauth2MetadataUrl", s.OAuth2.OAuth2MetadataURL)
		w.close()
	}
	if s.OpenIDConnect != nil {
		w.key("openIdConnectSecurityScheme")
		w.openIDConnect(s.OpenIDConnect)
	}
	if s.MTLS != nil {
		w.key("mtlsSecurityScheme")
		w.mtls(s.MTLS)
	}
	w.close()
}

func (w *compactWriter) httpAuth(h *HTTPAuth) {
	w.open()
	w.optStr("type", h.Type)
	w.optStr("description", h.Description)
	w.str("scheme", h.Scheme)
	w.optStr("bearerFormat", h.BearerFormat)
	w.close()
}

func (w *compactWriter) openIDConnect(o *OpenIDConnect) {
	w.open()
	w.optStr("type", o.Type)
	w.optStr("description", o.Description)
	w.str("openIdConnectUrl", o.OpenIDConnectURL)
	w.close()
}

func (w *compactWriter) mtls(m *MutualTLSScheme) {
	w.open()
	w.optStr("type", m.Type)
	w.optStr("description", m.Description)
	w.close()
}

// flow writes an omitempty *Flow member.
func (w *compactWriter) flow(name string, f *Flow) {
	if f == nil {
		return
	}
	w.key(name)
	w.open()
	w.optStr("authorizationUrl", f.AuthorizationURL)
	w.optStr("deviceAuthorizationUrl", f.DeviceAuthorizationURL)
	w.str("tokenUrl", f.TokenURL)
	w.optStr("refreshUrl", f.RefreshURL)
	if len(f.Scopes) > 0 {
		w.key("scopes")
		mapOf(w, f.Scopes, func(s string) { w.b = jsonstr.Append(w.b, s, jsonstr.Plain) })
	}
	w.optTrue("pkceRequired", f.PKCERequired)
	w.close()
}

// requirementsV1 writes an omitempty securityRequirements member.
func (w *compactWriter) requirementsV1(list []RequirementV1) {
	if len(list) == 0 {
		return
	}
	w.key("securityRequirements")
	listOf(w, list, func(r *RequirementV1) {
		w.open()
		w.key("schemes")
		mapOf(w, r.Schemes, func(l StringList) {
			w.open()
			w.key("list")
			w.stringList(l.List)
			w.close()
		})
		w.close()
	})
}

func (w *compactWriter) v03(c *V03) {
	w.open()
	w.str("protocolVersion", c.ProtocolVersion)
	w.str("name", c.Name)
	w.str("description", c.Description)
	w.str("version", c.Version)
	w.str("url", c.URL)
	w.str("preferredTransport", c.PreferredTransport)
	if len(c.AdditionalInterfaces) > 0 {
		w.key("additionalInterfaces")
		listOf(w, c.AdditionalInterfaces, func(in *InterfaceV03) {
			w.open()
			w.str("url", in.URL)
			w.str("transport", in.Transport)
			w.close()
		})
	}
	w.provider(c.Provider)
	w.optStr("documentationUrl", c.DocumentationURL)
	w.optStr("iconUrl", c.IconURL)
	w.key("capabilities")
	w.open()
	w.boolean("streaming", c.Capabilities.Streaming)
	w.boolean("pushNotifications", c.Capabilities.PushNotifications)
	w.extensions(c.Capabilities.Extensions)
	w.close()
	w.optTrue("supportsAuthenticatedExtendedCard", c.SupportsAuthenticatedExtendedCard)
	w.strings("defaultInputModes", c.DefaultInputModes)
	w.strings("defaultOutputModes", c.DefaultOutputModes)
	if len(c.SecuritySchemes) > 0 {
		w.key("securitySchemes")
		mapOf(w, c.SecuritySchemes, w.schemeV03)
	}
	w.securityV03(c.Security)
	w.key("skills")
	listOf(w, c.Skills, func(s *SkillV03) {
		w.open()
		w.skillText(s.ID, s.Name, s.Description, s.Tags, s.Examples, s.InputModes, s.OutputModes)
		w.securityV03(s.Security)
		w.close()
	})
	if len(c.Signatures) > 0 {
		w.ok = false
	}
	w.close()
}

// schemeV03 writes what SecuritySchemeV03.MarshalJSON does.
func (w *compactWriter) schemeV03(s SecuritySchemeV03) {
	switch {
	case s.APIKey != nil:
		w.open()
		w.str("type", s.APIKey.Type)
		w.optStr("description", s.APIKey.Description)
		w.str("in", s.APIKey.In)
		w.str("name", s.APIKey.Name)
		w.close()
	case s.HTTPAuth != nil:
		w.httpAuth(s.HTTPAuth)
	case s.OAuth2 != nil:
		w.open()
		w.str("type", s.OAuth2.Type)
		w.optStr("description", s.OAuth2.Description)
		w.key("flows")
		w.open()
		w.flow("authorizationCode", s.OAuth2.Flows.AuthorizationCode)
		w.flow("clientCredentials", s.OAuth2.Flows.ClientCredentials)
		w.close()
		w.optStr("oauth2MetadataUrl", s.OAuth2.OAuth2MetadataURL)
		w.close()
	case s.OpenIDConnect != nil:
		w.openIDConnect(s.OpenIDConnect)
	case s.MTLS != nil:
		w.mtls(s.MTLS)
	default:
		w.ok = false // MarshalJSON's error
	}
}

// securityV03 writes an omitempty v0.3 security member.
func (w *compactWriter) securityV03(list []map[string][]string) {
	if len(list) == 0 {
		return
	}
	w.key("security")
	listOf(w, list, func(m *map[string][]string) {
		mapOf(w, *m, w.stringList)
	})
}
