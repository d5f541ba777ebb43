package card

import "unicode/utf8"

// DecodedOf is Decode(Compact(v), Strict) for a V1 or V03 card, made
// from v's fields rather than by reading the text back: the same objects,
// arrays, strings and booleans, member for member (strings are v's own).
// ok is false when it cannot be sure of that: v is not such a card, or
// holds what Decode might refuse or read otherwise (an extension's params,
// which may hold numbers and nest deep; signatures; a string that is not
// valid UTF-8, which encoding/json changes; map keys that differ only in
// letter case, or a map of more names than keysOK compares; a v0.3
// security scheme that Compact refuses). The caller then decodes the
// text, and gets Decode's answer, error and all.
func DecodedOf(v any) (doc map[string]any, ok bool) {
	t := treeBuilder{ok: true}
	switch c := v.(type) {
	case *V1:
		if c == nil {
			return nil, false
		}
		doc = t.v1(c)
	case *V03:
		if c == nil {
			return nil, false
		}
		doc = t.v03(c)
	default:
		return nil, false
	}
	if !t.ok {
		return nil, false
	}
	return doc, true
}

// treeBuilder makes the decoded form of a card's parts; ok turns false at
// the first one it cannot be sure of.
type treeBuilder struct{ ok bool }

// str is a string as Decode reads it back from encoding/json's text.
func (t *treeBuilder) str(s string) string {
	if !utf8.ValidString(s) {
		t.ok = false
	}
	return s
}

// strings is a []string as Decode reads it back (nil for null).
func (t *treeBuilder) strings(list []string) any {
	if list == nil {
		return nil
	}
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = t.str(s)
	}
	return out
}

// keysOK checks a map's names: valid UTF-8, and no two that fold alike,
// which Decode refuses; more than linearNames of them are not checked
// here (t.ok turns false, and the caller decodes the text).
func keysOK[V any](t *treeBuilder, m map[string]V) {
	if len(m) > linearNames {
		t.ok = false
		return
	}
	var buf [linearNames]string
	names := buf[:0]
	for k := range m {
		t.str(k)
		for _, n := range names {
			if sameFold(n, k) {
				t.ok = false
			}
		}
		names = append(names, k)
	}
}

// mapTree is a map as Decode reads it back (nil for null), each value by
// each.
func mapTree[V any](t *treeBuilder, m map[string]V, each func(V) any) any {
	if m == nil {
		return nil
	}
	keysOK(t, m)
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = each(v)
	}
	return out
}

// listTree is a slice as Decode reads it back (nil for null), each
// element by each.
func listTree[E any](list []E, each func(*E) any) any {
	if list == nil {
		return nil
	}
	out := make([]any, len(list))
	for i := range list {
		out[i] = each(&list[i])
	}
	return out
}

// setStr sets an omitempty string member.
func (t *treeBuilder) setStr(obj map[string]any, name, s string) {
	if s != "" {
		obj[name] = t.str(s)
	}
}

func (t *treeBuilder) v1(c *V1) map[string]any {
	if len(c.Signatures) > 0 {
		t.ok = false
	}
	obj := make(map[string]any, 13)
	obj["name"] = t.str(c.Name)
	obj["description"] = t.str(c.Description)
	obj["version"] = t.str(c.Version)
	t.provider(obj, c.Provider)
	t.setStr(obj, "documentationUrl", c.DocumentationURL)
	t.setStr(obj, "iconUrl", c.IconURL)
	obj["supportedInterfaces"] = listTree(c.SupportedInterfaces, func(in *Interface) any {
		o := make(map[string]any, 4)
		o["url"] = t.str(in.URL)
		o["protocolBinding"] = t.str(in.ProtocolBinding)
		o["protocolVersion"] = t.str(in.ProtocolVersion)
		t.setStr(o, "tenant", in.Tenant)
		return o
	})
	caps := make(map[string]any, 4)
	caps["streaming"] = c.Capabilities.Streaming
	caps["pushNotifications"] = c.Capabilities.PushNotifications
	caps["extendedAgentCard"] = c.Capabilities.ExtendedAgentCard
	t.extensions(caps, c.Capabilities.Extensions)
	obj["capabilities"] = caps
	obj["defaultInputModes"] = t.strings(c.DefaultInputModes)
	obj["defaultOutputModes"] = t.strings(c.DefaultOutputModes)
	if len(c.SecuritySchemes) > 0 {
		obj["securitySchemes"] = mapTree(t, c.SecuritySchemes, t.schemeV1)
	}
	t.requirementsV1(obj, c.SecurityRequirements)
	obj["skills"] = listTree(c.Skills, func(s *SkillV1) any {
		o := t.skillText(s.ID, s.Name, s.Description, s.Tags, s.Examples, s.InputModes, s.OutputModes)
		t.requirementsV1(o, s.SecurityRequirements)
		return o
	})
	return obj
}

func (t *treeBuilder) provider(obj map[string]any, p *Provider) {
	if p != nil {
		obj["provider"] = map[string]any{"organization": t.str(p.Organization), "url": t.str(p.URL)}
	}
}

// skillText is the members a v1.0 skill and a v0.3 one share.
func (t *treeBuilder) skillText(id, name, description string, tags, examples, inputModes, outputModes []string) map[string]any {
	o := make(map[string]any, 8)
	o["id"] = t.str(id)
	o["name"] = t.str(name)
	o["description"] = t.str(description)
	o["tags"] = t.strings(tags)
	if len(examples) > 0 {
		o["examples"] = t.strings(examples)
	}
	if len(inputModes) > 0 {
		o["inputModes"] = t.strings(inputModes)
	}
	if len(outputModes) > 0 {
		o["outputModes"] = t.strings(outputModes)
	}
	return o
}

func (t *treeBuilder) extensions(caps map[string]any, list []Extension) {
	if len(list) == 0 {
		return
	}
	caps["extensions"] = listTree(list, func(e *Extension) any {
		if len(e.Params) > 0 {
			t.ok = false // any TOML value: left to Decode
		}
		o := map[string]any{"uri": t.str(e.URI)}
		t.setStr(o, "description", e.Description)
		if e.Required {
			o["required"] = true
		}
		return o
	})
}

func (t *treeBuilder) schemeV1(s SecuritySchemeV1) any {
	o := map[string]any{}
	if s.APIKey != nil {
		k := map[string]any{"location": t.str(s.APIKey.Location), "name": t.str(s.APIKey.Name)}
		t.setStr(k, "description", s.APIKey.Description)
		o["apiKeySecurityScheme"] = k
	}
	if s.HTTPAuth != nil {
		o["httpAuthSecurityScheme"] = t.httpAuth(s.HTTPAuth)
	}
	if s.OAuth2 != nil {
		flows := map[string]any{}
		t.flow(flows, "authorizationCode", s.OAuth2.Flows.AuthorizationCode)
		t.flow(flows, "clientCredentials", s.OAuth2.Flows.ClientCredentials)
		t.flow(flows, "deviceCode", s.OAuth2.Flows.DeviceCode)
		o["oauth2SecurityScheme"] = t.oauth2(s.OAuth2.Description, flows, s.OAuth2.OAuth2MetadataURL)
	}
	if s.OpenIDConnect != nil {
		o["openIdConnectSecurityScheme"] = t.openIDConnect(s.OpenIDConnect)
	}
	if s.MTLS != nil {
		o["mtlsSecurityScheme"] = t.mtls(s.MTLS)
	}
	return o
}

// oauth2 is an OAuth 2.0 scheme's members of both versions.
func (t *treeBuilder) oauth2(description string, flows map[string]any, metadata string) map[string]any {
	o := map[string]any{"flows": flows}
	t.setStr(o, "description", description)
	t.setStr(o, "oauth2MetadataUrl", metadata)
	return o
}

func (t *treeBuilder) httpAuth(h *HTTPAuth) map[string]any {
	o := map[string]any{"scheme": t.str(h.Scheme)}
	t.setStr(o, "type", h.Type)
	t.setStr(o, "description", h.Description)
	t.setStr(o, "bearerFormat", h.BearerFormat)
	return o
}

func (t *treeBuilder) openIDConnect(c *OpenIDConnect) map[string]any {
	o := map[string]any{"openIdConnectUrl": t.str(c.OpenIDConnectURL)}
	t.setStr(o, "type", c.Type)
	t.setStr(o, "description", c.Description)
	return o
}

func (t *treeBuilder) mtls(m *MutualTLSScheme) map[string]any {
	o := map[string]any{}
	t.setStr(o, "type", m.Type)
	t.setStr(o, "description", m.Description)
	return o
}

// flow sets an omitempty *Flow member.
func (t *treeBuilder) flow(flows map[string]any, name string, f *Flow) {
	if f == nil {
		return
	}
	o := map[string]any{"tokenUrl": t.str(f.TokenURL)}
	t.setStr(o, "authorizationUrl", f.AuthorizationURL)
	t.setStr(o, "deviceAuthorizationUrl", f.DeviceAuthorizationURL)
	t.setStr(o, "refreshUrl", f.RefreshURL)
	if len(f.Scopes) > 0 {
		o["scopes"] = mapTree(t, f.Scopes, func(s string) any { return t.str(s) })
	}
	if f.PKCERequired {
		o["pkceRequired"] = true
	}
	flows[name] = o
}

// requirementsV1 sets an omitempty securityRequirements member.
func (t *treeBuilder) requirementsV1(obj map[string]any, list []RequirementV1) {
	if len(list) == 0 {
		return
	}
	obj["securityRequirements"] = listTree(list, func(r *RequirementV1) any {
		return map[string]any{"schemes": mapTree(t, r.Schemes, func(l StringList) any {
			return map[string]any{"list": t.strings(l.List)}
		})}
	})
}

func (t *treeBuilder) v03(c *V03) map[string]any {
	if len(c.Signatures) > 0 {
		t.ok = false
	}
	obj := make(map[string]any, 17)
	obj["protocolVersion"] = t.str(c.ProtocolVersion)
	obj["name"] = t.str(c.Name)
	obj["description"] = t.str(c.Description)
	obj["version"] = t.str(c.Version)
	obj["url"] = t.str(c.URL)
	obj["preferredTransport"] = t.str(c.PreferredTransport)
	if len(c.AdditionalInterfaces) > 0 {
		obj["additionalInterfaces"] = listTree(c.AdditionalInterfaces, func(in *InterfaceV03) any {
			return map[string]any{"url": t.str(in.URL), "transport": t.str(in.Transport)}
		})
	}
	t.provider(obj, c.Provider)
	t.setStr(obj, "documentationUrl", c.DocumentationURL)
	t.setStr(obj, "iconUrl", c.IconURL)
	caps := make(map[string]any, 3)
	caps["streaming"] = c.Capabilities.Streaming
	caps["pushNotifications"] = c.Capabilities.PushNotifications
	t.extensions(caps, c.Capabilities.Extensions)
	obj["capabilities"] = caps
	if c.SupportsAuthenticatedExtendedCard {
		obj["supportsAuthenticatedExtendedCard"] = true
	}
	obj["defaultInputModes"] = t.strings(c.DefaultInputModes)
	obj["defaultOutputModes"] = t.strings(c.DefaultOutputModes)
	if len(c.SecuritySchemes) > 0 {
		obj["securitySchemes"] = mapTree(t, c.SecuritySchemes, t.schemeV03)
	}
	t.securityV03(obj, c.Security)
	obj["skills"] = listTree(c.Skills, func(s *SkillV03) any {
		o := t.skillText(s.ID, s.Name, s.Description, s.Tags, s.Examples, s.InputModes, s.OutputModes)
		t.securityV03(o, s.Security)
		return o
	})
	return obj
}

// schemeV03 is what SecuritySchemeV03.MarshalJSON writes, decoded.
func (t *treeBuilder) schemeV03(s SecuritySchemeV03) any {
	switch {
	case s.APIKey != nil:
		o := map[string]any{"type": t.str(s.APIKey.Type), "in": t.str(s.APIKey.In), "name": t.str(s.APIKey.Name)}
		t.setStr(o, "description", s.APIKey.Description)
		return o
	case s.HTTPAuth != nil:
		return t.httpAuth(s.HTTPAuth)
	case s.OAuth2 != nil:
		flows := map[string]any{}
		t.flow(flows, "authorizationCode", s.OAuth2.Flows.AuthorizationCode)
		t.flow(flows, "clientCredentials", s.OAuth2.Flows.ClientCredentials)
		o := t.oauth2(s.OAuth2.Description, flows, s.OAuth2.OAuth2MetadataURL)
		o["type"] = t.str(s.OAuth2.Type) // not omitempty in v0.3
		return o
	case s.OpenIDConnect != nil:
		return t.openIDConnect(s.OpenIDConnect)
	case s.MTLS != nil:
		return t.mtls(s.MTLS)
	}
	t.ok = false // MarshalJSON's error
	return nil
}

// securityV03 sets an omitempty v0.3 security member.
func (t *treeBuilder) securityV03(obj map[string]any, list []map[string][]string) {
	if len(list) == 0 {
		return
	}
	obj["security"] = listTree(list, func(m *map[string][]string) any {
		return mapTree(t, *m, t.strings)
	})
}
