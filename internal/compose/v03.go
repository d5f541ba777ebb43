package compose

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
)

// NewV03 builds the legacy v0.3.0-shaped card for agent a. The notes say
// what the v0.3 shape could not carry.
func NewV03(m *manifest.Manifest, a *manifest.Agent) (*card.V03, []string) {
	var notes []string
	c := &card.V03{
		ProtocolVersion:                   card.LegacyProtocolVersion,
		Name:                              a.Name,
		Description:                       a.Description,
		Version:                           a.Version,
		DocumentationURL:                  a.DocumentationURL,
		IconURL:                           a.IconURL,
		SupportsAuthenticatedExtendedCard: a.Capabilities.ExtendedAgentCard,
		DefaultInputModes:                 a.InputModes(),
		DefaultOutputModes:                a.OutputModes(),
		Capabilities: card.CapabilitiesV03{
			Streaming:         a.Capabilities.Streaming,
			PushNotifications: a.Capabilities.PushNotifications,
			Extensions:        extensions(a.Capabilities.Extensions),
		},
	}
	if p := m.EffectiveProvider(a); p != nil {
		c.Provider = &card.Provider{Organization: p.Organization, URL: p.URL}
	}
	ifaces := legacyInterfaces(a.SupportedInterfaces)
	c.URL, c.PreferredTransport = ifaces[0].URL, ifaces[0].ProtocolBinding
	if len(ifaces) > 1 {
		for _, in := range ifaces {
			c.AdditionalInterfaces = append(c.AdditionalInterfaces, card.InterfaceV03{URL: in.URL, Transport: in.ProtocolBinding})
		}
	}
	dropped := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(a.SecuritySchemes)) {
		s := a.SecuritySchemes[name]
		if s.Type == manifest.TypeOAuth2 && s.Flows.DeviceCode != nil {
			dropped[name] = true
			notes = append(notes, fmt.Sprintf("agent.json of %q leaves out scheme %q and the requirements naming it: A2A v0.3 has no OAuth device code flow", a.ID, name))
			continue
		}
		if c.SecuritySchemes == nil {
			c.SecuritySchemes = map[string]card.SecuritySchemeV03{}
		}
		c.SecuritySchemes[name] = schemeV03(s)
	}
	c.Security = requirementsV03(a.SecurityRequirements, dropped)
	for _, s := range a.Skills {
		c.Skills = append(c.Skills, card.SkillV03{
			ID:          s.ID,
			Name:        s.Name,
			Description: s.Description,
			Tags:        s.Tags,
			Examples:    s.Examples,
			InputModes:  s.InputModes,
			OutputModes: s.OutputModes,
			Security:    requirementsV03(s.SecurityRequirements, dropped),
		})
	}
	return c, notes
}

// legacyInterfaces picks the interfaces the legacy card lists: those that
// speak a pre-1.0 protocol when there are any (v0.3 clients can talk to
// them), otherwise all of them.
func legacyInterfaces(all []manifest.Interface) []manifest.Interface {
	var old []manifest.Interface
	for _, in := range all {
		if strings.HasPrefix(in.ProtocolVersion, "0.") {
			old = append(old, in)
		}
	}
	if len(old) > 0 {
		return old
	}
	return all
}

func schemeV03(s manifest.SecurityScheme) card.SecuritySchemeV03 {
	switch s.Type {
	case manifest.TypeAPIKey:
		return card.SecuritySchemeV03{APIKey: &card.APIKeyV03{Type: "apiKey", Description: s.Description, In: s.Location, Name: s.Name}}
	case manifest.TypeHTTP:
		return card.SecuritySchemeV03{HTTPAuth: &card.HTTPAuth{Type: "http", Description: s.Description, Scheme: s.Scheme, BearerFormat: s.BearerFormat}}
	case manifest.TypeOAuth2:
		f := flowsV1(s.Flows)
		if f.AuthorizationCode != nil {
			f.AuthorizationCode.PKCERequired = false // not in v0.3
		}
		return card.SecuritySchemeV03{OAuth2: &card.OAuth2V03{Type: "oauth2", Description: s.Description,
			Flows:             card.FlowsV03{AuthorizationCode: f.AuthorizationCode, ClientCredentials: f.ClientCredentials},
			OAuth2MetadataURL: s.OAuth2MetadataURL}}
	case manifest.TypeOpenIDConnect:
		return card.SecuritySchemeV03{OpenIDConnect: &card.OpenIDConnect{Type: "openIdConnect", Description: s.Description, OpenIDConnectURL: s.OpenIDConnectURL}}
	default:
		return card.SecuritySchemeV03{MTLS: &card.MutualTLSScheme{Type: "mutualTLS", Description: mtlsDescription(s)}}
	}
}

func requirementsV03(in []manifest.Requirement, dropped map[string]bool) []map[string][]string {
	var out []map[string][]string
outer:
	for _, r := range in {
		req := make(map[string][]string, len(r))
		for name, scopes := range r {
			if dropped[name] {
				continue outer
			}
			if scopes == nil {
				scopes = []string{}
			}
			req[name] = scopes
		}
		out = append(out, req)
	}
	return out
}
