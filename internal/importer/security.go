package importer

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

// Security schemes and requirements, as v1.0, v0.3 and the registries
// write them, read into the manifest's.

func (im *importer) schemeV1(p string, obj map[string]any) (manifest.SecurityScheme, bool) {
	var s manifest.SecurityScheme
	switch {
	case obj["apiKeySecurityScheme"] != nil:
		o, _ := take(obj, "apiKeySecurityScheme")
		b, _ := o.(map[string]any)
		s = manifest.SecurityScheme{Type: manifest.TypeAPIKey, Description: str(pop(b, "description")), Location: str(pop(b, "location")), Name: str(pop(b, "name"))}
		im.leftovers(p+".apiKeySecurityScheme", b)
	case obj["httpAuthSecurityScheme"] != nil:
		o, _ := take(obj, "httpAuthSecurityScheme")
		b, _ := o.(map[string]any)
		s = manifest.SecurityScheme{Type: manifest.TypeHTTP, Description: str(pop(b, "description")), Scheme: str(pop(b, "scheme")), BearerFormat: str(pop(b, "bearerFormat"))}
		im.leftovers(p+".httpAuthSecurityScheme", b)
	case obj["oauth2SecurityScheme"] != nil:
		o, _ := take(obj, "oauth2SecurityScheme")
		b, _ := o.(map[string]any)
		s = manifest.SecurityScheme{Type: manifest.TypeOAuth2, Description: str(pop(b, "description")), OAuth2MetadataURL: str(pop(b, "oauth2MetadataUrl"))}
		flows, ok := im.flows(p+".oauth2SecurityScheme.flows", pop(b, "flows"))
		im.leftovers(p+".oauth2SecurityScheme", b)
		if !ok {
			im.leftovers(p, obj)
			return s, false
		}
		s.Flows = flows
	case obj["openIdConnectSecurityScheme"] != nil:
		o, _ := take(obj, "openIdConnectSecurityScheme")
		b, _ := o.(map[string]any)
		s = manifest.SecurityScheme{Type: manifest.TypeOpenIDConnect, Description: str(pop(b, "description")), OpenIDConnectURL: str(pop(b, "openIdConnectUrl"))}
		im.leftovers(p+".openIdConnectSecurityScheme", b)
	case obj["mtlsSecurityScheme"] != nil:
		o, _ := take(obj, "mtlsSecurityScheme")
		b, _ := o.(map[string]any)
		s = manifest.SecurityScheme{Type: manifest.TypeMutualTLS, Description: str(pop(b, "description"))}
		im.leftovers(p+".mtlsSecurityScheme", b)
	default:
		im.warnf("%s: dropped: no security scheme this version of A2A knows", p)
		return s, false
	}
	im.leftovers(p, obj)
	return s, true
}

// flows reads OAuth flows (v1.0 or v0.3 shape); v1.0 allows one.
func (im *importer) flows(p string, v any) (*manifest.OAuthFlows, bool) {
	obj, _ := v.(map[string]any)
	var f manifest.OAuthFlows
	n := 0
	for _, name := range []string{"authorizationCode", "clientCredentials", "deviceCode", "implicit", "password"} {
		raw, ok := take(obj, name)
		if !ok {
			continue
		}
		b, _ := raw.(map[string]any)
		fp := p + "." + name
		if name == "implicit" || name == "password" {
			// Not "one flow per scheme": no scheme can carry it.
			what := "use the authorization code flow with PKCE (flows.authorizationCode, pkceRequired = true) if the agent's server offers it"
			if n > 0 {
				what = "the scheme keeps its other flow"
			}
			im.warnf("%s: dropped: the %s flow is removed from A2A v1.0 (OAuth 2.0 Security BCP); %s", fp, name, what)
			continue
		}
		if n > 0 {
			im.warnf("%s: dropped: A2A v1.0 allows one flow per scheme (declare another scheme for it)", fp)
			continue
		}
		scopes := map[string]string{}
		rawScopes := pop(b, "scopes")
		if list, ok := rawScopes.([]any); ok {
			// A plain list of scope names: no descriptions.
			named := map[string]any{}
			for _, n := range list {
				if k := str(n); k != "" {
					named[k] = ""
				}
			}
			rawScopes = named
		}
		if sc, ok := rawScopes.(map[string]any); ok {
			for k, d := range sc {
				if k == "__proto__" {
					im.warnf("%s.scopes.%s: dropped: the A2A JS SDK cannot carry this key", fp, k)
					continue
				}
				desc := str(d)
				if desc == "" {
					desc = k
					im.warnf("%s.scopes.%s: no description; the scope name is used", fp, k)
				}
				scopes[k] = desc
			}
		}
		if len(scopes) == 0 {
			scopes = nil
		}
		switch name {
		case "authorizationCode":
			f.AuthorizationCode = &manifest.AuthorizationCodeFlow{AuthorizationURL: str(pop(b, "authorizationUrl")), TokenURL: str(pop(b, "tokenUrl")), RefreshURL: str(pop(b, "refreshUrl")), Scopes: scopes, PKCERequired: im.boolean(fp+".pkceRequired", pop(b, "pkceRequired"))}
		case "clientCredentials":
			f.ClientCredentials = &manifest.ClientCredentialsFlow{TokenURL: str(pop(b, "tokenUrl")), RefreshURL: str(pop(b, "refreshUrl")), Scopes: scopes}
		case "deviceCode":
			f.DeviceCode = &manifest.DeviceCodeFlow{DeviceAuthorizationURL: str(pop(b, "deviceAuthorizationUrl")), TokenURL: str(pop(b, "tokenUrl")), RefreshURL: str(pop(b, "refreshUrl")), Scopes: scopes}
		}
		n++
		im.leftovers(fp, b)
	}
	im.leftovers(p, obj)
	if n == 0 {
		im.warnf("%s: no flow A2A v1.0 supports is left, so the scheme is dropped, and so are the requirements that name it (add a supported flow to keep them)", p)
		return nil, false
	}
	return &f, true
}

func (im *importer) requirementsV1(p string, v any, dropped map[string]bool) []manifest.Requirement {
	var out []manifest.Requirement
	for i, e := range asObjects(v) {
		schemes, _ := pop(e, "schemes").(map[string]any)
		im.leftovers(fmt.Sprintf("%s[%d]", p, i), e)
		r := manifest.Requirement{}
		for name, sl := range schemes {
			switch x := sl.(type) {
			case map[string]any:
				r[name] = im.stringList(fmt.Sprintf("%s[%d].schemes.%s.list", p, i, name), pop(x, "list"))
			case []any:
				im.warnf("%s[%d].schemes.%s: a plain list of scopes; read as {\"list\": [...]}", p, i, name)
				r[name] = im.stringList(fmt.Sprintf("%s[%d].schemes.%s", p, i, name), x)
			default:
				im.warnf("%s[%d].schemes.%s: not a scope list; read as no scopes", p, i, name)
				r[name] = nil
			}
		}
		out = im.appendRequirement(out, fmt.Sprintf("%s[%d]", p, i), r, dropped)
	}
	return out
}

// warnOpened says loudly when a card asked for authentication and none of
// its requirements could be carried: the agent would be published as one
// anyone may call.
func (im *importer) warnOpened(p string, given any, kept []manifest.Requirement) {
	if list, ok := given.([]any); ok && len(list) > 0 && len(kept) == 0 {
		im.warnf("%s: WARNING: the card asks for authentication, but none of its requirements could be carried, so the imported agent declares NONE and its card would say anyone may call it; declare a supported scheme and requirement in agents.toml before you build", p)
	}
}

func (im *importer) appendRequirement(out []manifest.Requirement, p string, r manifest.Requirement, dropped map[string]bool) []manifest.Requirement {
	for name := range r {
		if dropped[name] {
			im.warnf("%s: dropped: it names scheme %q, which was dropped", p, name)
			return out
		}
	}
	if len(r) == 0 {
		return out
	}
	return append(out, r)
}

// flatFlow makes the flows object of an OAuth scheme written flat, as the
// A2A Registry does: {flow: "client_credentials", tokenUrl, scopes: [...]}.
func (im *importer) flatFlow(p, flow string, obj map[string]any) map[string]any {
	names := map[string]string{
		"client_credentials": "clientCredentials", "clientcredentials": "clientCredentials",
		"authorization_code": "authorizationCode", "authorizationcode": "authorizationCode",
		"device_code": "deviceCode", "devicecode": "deviceCode",
		"implicit": "implicit", "password": "password",
	}
	name, ok := names[strings.ToLower(flow)]
	if !ok {
		im.warnf("%s.flow: %q is no OAuth 2.0 flow A2A knows", p, flow)
		return nil
	}
	f := map[string]any{}
	for _, k := range []string{"authorizationUrl", "tokenUrl", "refreshUrl", "deviceAuthorizationUrl", "scopes", "pkceRequired"} {
		if v, ok := take(obj, k); ok {
			f[k] = v
		}
	}
	return map[string]any{name: f}
}

// alternatives is one requirement per scheme, in name order: for OAuth
// schemes every scope of their flow, for others none.
func alternatives(schemes map[string]manifest.SecurityScheme) []manifest.Requirement {
	var out []manifest.Requirement
	for _, name := range slices.Sorted(maps.Keys(schemes)) {
		var scopes []string
		if f := schemes[name].Flows; f != nil {
			var m map[string]string
			switch {
			case f.AuthorizationCode != nil:
				m = f.AuthorizationCode.Scopes
			case f.ClientCredentials != nil:
				m = f.ClientCredentials.Scopes
			case f.DeviceCode != nil:
				m = f.DeviceCode.Scopes
			}
			scopes = slices.Sorted(maps.Keys(m))
		}
		out = append(out, manifest.Requirement{name: scopes})
	}
	return out
}

func (im *importer) schemeV03(p string, obj map[string]any) (manifest.SecurityScheme, bool) {
	typ := str(pop(obj, "type"))
	desc := str(pop(obj, "description"))
	var s manifest.SecurityScheme
	switch strings.ToLower(typ) {
	case "apikey":
		loc := str(pop(obj, "in"))
		if l := str(pop(obj, "location")); loc == "" && l != "" {
			// The A2A Registry's schema names it location, like v1.0.
			loc = strings.ToLower(l)
		}
		if loc == "body" {
			im.warnf("%s: dropped: an API key in the request body has no A2A form (header, query or cookie)", p)
			im.leftovers(p, obj)
			return s, false
		}
		s = manifest.SecurityScheme{Type: manifest.TypeAPIKey, Description: desc, Location: loc, Name: str(pop(obj, "name"))}
	case "http":
		s = manifest.SecurityScheme{Type: manifest.TypeHTTP, Description: desc, Scheme: str(pop(obj, "scheme")), BearerFormat: str(pop(obj, "bearerFormat"))}
	case "jwt":
		// The registry's JWT: a bearer token in JWT form.
		s = manifest.SecurityScheme{Type: manifest.TypeHTTP, Description: desc, Scheme: "Bearer", BearerFormat: "JWT"}
		im.warnf("%s: type \"jwt\" read as an HTTP Bearer scheme with bearerFormat \"JWT\"", p)
	case "oauth2":
		s = manifest.SecurityScheme{Type: manifest.TypeOAuth2, Description: desc, OAuth2MetadataURL: str(pop(obj, "oauth2MetadataUrl"))}
		rawFlows, hasFlows := take(obj, "flows")
		if flow, flat := take(obj, "flow"); flat && !hasFlows {
			rawFlows = im.flatFlow(p, str(flow), obj)
		}
		flows, ok := im.flows(p+".flows", rawFlows)
		if !ok {
			im.leftovers(p, obj)
			return s, false
		}
		s.Flows = flows
	case "openidconnect":
		s = manifest.SecurityScheme{Type: manifest.TypeOpenIDConnect, Description: desc, OpenIDConnectURL: str(pop(obj, "openIdConnectUrl"))}
	case "mutualtls", "mtls":
		s = manifest.SecurityScheme{Type: manifest.TypeMutualTLS, Description: desc}
	default:
		im.warnf("%s: dropped: unknown scheme type %q", p, typ)
		im.leftovers(p, obj)
		return s, false
	}
	im.leftovers(p, obj)
	return s, true
}

func (im *importer) requirementsV03(p string, v any, dropped map[string]bool) []manifest.Requirement {
	var out []manifest.Requirement
	for i, e := range asObjects(v) {
		r := manifest.Requirement{}
		for name, scopes := range e {
			r[name] = strings_(scopes)
		}
		out = im.appendRequirement(out, fmt.Sprintf("%s[%d]", p, i), r, dropped)
	}
	return out
}
