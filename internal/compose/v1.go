// Package compose builds the cards the manifest describes: for each agent
// an A2A v1.0 card (agent-card.json) and a v0.3.0-shaped card (the legacy
// agent.json), and for each MCP server its Server Card, all in the normal
// form package card defines. It is the one place that knows both the
// manifest and the wire format; verifiers need only package card.
package compose

import (
	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
)

// mtlsDescription is a mutualTLS scheme's description, or the default one.
func mtlsDescription(s manifest.SecurityScheme) string {
	if s.Description == "" {
		return card.MTLSDefaultDescription
	}
	return s.Description
}

// NewV1 builds the v1.0 card for agent a of manifest m.
func NewV1(m *manifest.Manifest, a *manifest.Agent) *card.V1 {
	c := &card.V1{
		Name:               a.Name,
		Description:        a.Description,
		Version:            a.Version,
		DocumentationURL:   a.DocumentationURL,
		IconURL:            a.IconURL,
		DefaultInputModes:  a.InputModes(),
		DefaultOutputModes: a.OutputModes(),
		Capabilities: card.Capabilities{
			Streaming:         a.Capabilities.Streaming,
			PushNotifications: a.Capabilities.PushNotifications,
			ExtendedAgentCard: a.Capabilities.ExtendedAgentCard,
			Extensions:        extensions(a.Capabilities.Extensions),
		},
	}
	if p := m.EffectiveProvider(a); p != nil {
		c.Provider = &card.Provider{Organization: p.Organization, URL: p.URL}
	}
	for _, in := range a.SupportedInterfaces {
		c.SupportedInterfaces = append(c.SupportedInterfaces, card.Interface(in))
	}
	if len(a.SecuritySchemes) > 0 {
		c.SecuritySchemes = make(map[string]card.SecuritySchemeV1, len(a.SecuritySchemes))
		for name, s := range a.SecuritySchemes {
			c.SecuritySchemes[name] = schemeV1(s)
		}
	}
	c.SecurityRequirements = requirementsV1(a.SecurityRequirements)
	for _, s := range a.Skills {
		c.Skills = append(c.Skills, card.SkillV1{
			ID:                   s.ID,
			Name:                 s.Name,
			Description:          s.Description,
			Tags:                 s.Tags,
			Examples:             s.Examples,
			InputModes:           s.InputModes,
			OutputModes:          s.OutputModes,
			SecurityRequirements: requirementsV1(s.SecurityRequirements),
		})
	}
	return c
}

func extensions(in []manifest.Extension) []card.Extension {
	var out []card.Extension
	for _, e := range in {
		out = append(out, card.Extension(e))
	}
	return out
}

func schemeV1(s manifest.SecurityScheme) card.SecuritySchemeV1 {
	switch s.Type {
	case manifest.TypeAPIKey:
		return card.SecuritySchemeV1{APIKey: &card.APIKeyV1{Description: s.Description, Location: s.Location, Name: s.Name}}
	case manifest.TypeHTTP:
		return card.SecuritySchemeV1{HTTPAuth: &card.HTTPAuth{Description: s.Description, Scheme: s.Scheme, BearerFormat: s.BearerFormat}}
	case manifest.TypeOAuth2:
		return card.SecuritySchemeV1{OAuth2: &card.OAuth2V1{Description: s.Description, Flows: flowsV1(s.Flows), OAuth2MetadataURL: s.OAuth2MetadataURL}}
	case manifest.TypeOpenIDConnect:
		return card.SecuritySchemeV1{OpenIDConnect: &card.OpenIDConnect{Description: s.Description, OpenIDConnectURL: s.OpenIDConnectURL}}
	default: // mutualTLS
		return card.SecuritySchemeV1{MTLS: &card.MutualTLSScheme{Description: mtlsDescription(s)}}
	}
}

func flowsV1(f *manifest.OAuthFlows) card.FlowsV1 {
	var out card.FlowsV1
	if a := f.AuthorizationCode; a != nil {
		out.AuthorizationCode = &card.Flow{AuthorizationURL: a.AuthorizationURL, TokenURL: a.TokenURL, RefreshURL: a.RefreshURL, Scopes: a.Scopes, PKCERequired: a.PKCERequired}
	}
	if c := f.ClientCredentials; c != nil {
		out.ClientCredentials = &card.Flow{TokenURL: c.TokenURL, RefreshURL: c.RefreshURL, Scopes: c.Scopes}
	}
	if d := f.DeviceCode; d != nil {
		out.DeviceCode = &card.Flow{DeviceAuthorizationURL: d.DeviceAuthorizationURL, TokenURL: d.TokenURL, RefreshURL: d.RefreshURL, Scopes: d.Scopes}
	}
	return out
}

func requirementsV1(in []manifest.Requirement) []card.RequirementV1 {
	var out []card.RequirementV1
	for _, r := range in {
		schemes := make(map[string]card.StringList, len(r))
		for name, scopes := range r {
			list := scopes
			if list == nil {
				list = []string{}
			}
			schemes[name] = card.StringList{List: list}
		}
		out = append(out, card.RequirementV1{Schemes: schemes})
	}
	return out
}
