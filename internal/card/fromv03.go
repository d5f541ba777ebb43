package card

import (
	"fmt"
	"maps"
	"slices"
)

// IsV03 says whether a decoded card is in the A2A v0.3 shape: it has no
// supportedInterfaces and names its endpoint in url.
func IsV03(doc map[string]any) bool {
	_, v1 := doc["supportedInterfaces"]
	_, url := doc["url"]
	return !v1 && url
}

// FromV03 converts a decoded A2A v0.3.x card into the v1.0 shape, as a new
// map (doc's nested objects are not changed; the members kept are shared):
//
//   - url with preferredTransport (default JSONRPC), then the
//     additionalInterfaces (less the one equal to url's), become
//     supportedInterfaces, each with the card's protocolVersion (default
//     0.3.0): the endpoints speak the protocol the card says they do;
//   - security ([{scheme: [scopes]}]) becomes securityRequirements
//     ([{schemes: {scheme: {list: [scopes]}}}]), in the card and in each
//     skill;
//   - securitySchemes with a type (apiKey, http, oauth2, openIdConnect,
//     mutualTLS) become the v1.0 oneof (apiKeySecurityScheme with
//     location for in, httpAuthSecurityScheme, oauth2SecurityScheme,
//     openIdConnectSecurityScheme, mtlsSecurityScheme), their other
//     members as they are;
//   - supportsAuthenticatedExtendedCard becomes
//     capabilities.extendedAgentCard, and capabilities'
//     stateTransitionHistory, which v1.0 does not have, is left out.
//
// protocolVersion, url, preferredTransport and additionalInterfaces are
// left out; every other member is kept as it is, signatures too. A member
// of the wrong type, or what v1.0 cannot say (an OAuth scheme with more
// than one flow: v1.0 allows one), is an error naming its path.
func FromV03(doc map[string]any) (map[string]any, error) {
	out := maps.Clone(doc)
	for _, k := range []string{"protocolVersion", "url", "preferredTransport", "additionalInterfaces", "supportsAuthenticatedExtendedCard", "security"} {
		delete(out, k)
	}
	ifaces, err := interfacesFromV03(doc)
	if err != nil {
		return nil, err
	}
	out["supportedInterfaces"] = ifaces
	if err := capabilitiesFromV03(doc, out); err != nil {
		return nil, err
	}
	if v, ok := doc["securitySchemes"]; ok {
		schemes, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("securitySchemes: not an object")
		}
		conv := make(map[string]any, len(schemes))
		for _, name := range slices.Sorted(maps.Keys(schemes)) {
			if conv[name], err = schemeFromV03("securitySchemes."+name, schemes[name]); err != nil {
				return nil, err
			}
		}
		out["securitySchemes"] = conv
	}
	if v, ok := doc["security"]; ok {
		if out["securityRequirements"], err = requirementsFromV03("security", v); err != nil {
			return nil, err
		}
	}
	if v, ok := doc["skills"]; ok {
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("skills: not an array")
		}
		skills := make([]any, len(list))
		for i, s := range list {
			if skills[i], err = skillFromV03(fmt.Sprintf("skills[%d]", i), s); err != nil {
				return nil, err
			}
		}
		out["skills"] = skills
	}
	return out, nil
}

// interfacesFromV03 is the supportedInterfaces of a v0.3 card.
func interfacesFromV03(doc map[string]any) ([]any, error) {
	pv := LegacyProtocolVersion
	if v, ok := doc["protocolVersion"]; ok {
		s, ok := v.(string)
		if !ok || s == "" {
			return nil, fmt.Errorf("protocolVersion: not a version string")
		}
		pv = s
	}
	main, ok := doc["url"].(string)
	if !ok || main == "" {
		return nil, fmt.Errorf("url: not a URL string")
	}
	preferred := "JSONRPC"
	if v, ok := doc["preferredTransport"]; ok {
		if preferred, ok = v.(string); !ok || preferred == "" {
			return nil, fmt.Errorf("preferredTransport: not a transport name")
		}
	}
	out := []any{map[string]any{"url": main, "protocolBinding": preferred, "protocolVersion": pv}}
	v, ok := doc["additionalInterfaces"]
	if !ok {
		return out, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("additionalInterfaces: not an array")
	}
	for i, e := range list {
		p := fmt.Sprintf("additionalInterfaces[%d]", i)
		in, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: not an object", p)
		}
		u, _ := in["url"].(string)
		t, _ := in["transport"].(string)
		if u == "" || t == "" {
			return nil, fmt.Errorf("%s: needs a url and a transport", p)
		}
		if u == main && t == preferred {
			continue // the main interface, listed again as v0.3 asks
		}
		iface := maps.Clone(in)
		delete(iface, "transport")
		iface["protocolBinding"], iface["protocolVersion"] = t, pv
		out = append(out, iface)
	}
	return out, nil
}

// capabilitiesFromV03 sets out's capabilities from the v0.3 card doc's.
func capabilitiesFromV03(doc, out map[string]any) error {
	ext, hasExt := doc["supportsAuthenticatedExtendedCard"]
	v, ok := doc["capabilities"]
	if !ok && !hasExt {
		return nil
	}
	caps, isObj := v.(map[string]any)
	if ok && !isObj {
		return fmt.Errorf("capabilities: not an object")
	}
	caps = maps.Clone(caps)
	if caps == nil {
		caps = map[string]any{}
	}
	delete(caps, "stateTransitionHistory")
	if hasExt {
		on, ok := ext.(bool)
		if !ok {
			return fmt.Errorf("supportsAuthenticatedExtendedCard: not a boolean")
		}
		if was, _ := caps["extendedAgentCard"].(bool); was {
			on = true
		}
		caps["extendedAgentCard"] = on
	}
	out["capabilities"] = caps
	return nil
}

// schemeNamesV03 maps a v0.3 scheme's type to its v1.0 oneof member.
var schemeNamesV03 = map[string]string{
	"apiKey":        "apiKeySecurityScheme",
	"http":          "httpAuthSecurityScheme",
	"oauth2":        "oauth2SecurityScheme",
	"openIdConnect": "openIdConnectSecurityScheme",
	"mutualTLS":     "mtlsSecurityScheme",
}

// schemeFromV03 is the v1.0 form of the v0.3 security scheme v at p.
func schemeFromV03(p string, v any) (any, error) {
	s, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", p)
	}
	typ, _ := s["type"].(string)
	member, ok := schemeNamesV03[typ]
	if !ok {
		return nil, fmt.Errorf("%s.type: %q is not a v0.3 security scheme type (apiKey, http, oauth2, openIdConnect, mutualTLS)", p, s["type"])
	}
	body := maps.Clone(s)
	delete(body, "type")
	switch typ {
	case "apiKey":
		if in, ok := body["in"]; ok {
			delete(body, "in")
			body["location"] = in
		}
	case "oauth2":
		flows, _ := body["flows"].(map[string]any)
		if len(flows) > 1 {
			return nil, fmt.Errorf("%s.flows: %d flows (%v): A2A v1.0 allows one flow per scheme", p, len(flows), slices.Sorted(maps.Keys(flows)))
		}
	}
	return map[string]any{member: body}, nil
}

// requirementsFromV03 is the v1.0 form of the v0.3 security list v at p.
func requirementsFromV03(p string, v any) ([]any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an array", p)
	}
	out := make([]any, len(list))
	for i, e := range list {
		req, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d]: not an object", p, i)
		}
		schemes := make(map[string]any, len(req))
		for name, scopes := range req {
			l, ok := scopes.([]any)
			if !ok {
				return nil, fmt.Errorf("%s[%d].%s: not a list of scopes", p, i, name)
			}
			schemes[name] = map[string]any{"list": l}
		}
		out[i] = map[string]any{"schemes": schemes}
	}
	return out, nil
}

// skillFromV03 is the v1.0 form of the v0.3 skill v at p: its security
// becomes securityRequirements.
func skillFromV03(p string, v any) (any, error) {
	s, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", p)
	}
	sec, ok := s["security"]
	if !ok {
		return s, nil
	}
	s = maps.Clone(s)
	delete(s, "security")
	reqs, err := requirementsFromV03(p+".security", sec)
	if err != nil {
		return nil, err
	}
	s["securityRequirements"] = reqs
	return s, nil
}
