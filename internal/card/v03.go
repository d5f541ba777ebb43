package card

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

// LegacyProtocolVersion is the protocolVersion of every agent.json card.
const LegacyProtocolVersion = "0.3.0"

// V03 is an A2A v0.3.0 AgentCard, as the v0.3.0 JSON Schema defines it.
type V03 struct {
	ProtocolVersion                   string                       `json:"protocolVersion"`
	Name                              string                       `json:"name"`
	Description                       string                       `json:"description"`
	Version                           string                       `json:"version"`
	URL                               string                       `json:"url"`
	PreferredTransport                string                       `json:"preferredTransport"`
	AdditionalInterfaces              []InterfaceV03               `json:"additionalInterfaces,omitempty"`
	Provider                          *Provider                    `json:"provider,omitempty"`
	DocumentationURL                  string                       `json:"documentationUrl,omitempty"`
	IconURL                           string                       `json:"iconUrl,omitempty"`
	Capabilities                      CapabilitiesV03              `json:"capabilities"`
	SupportsAuthenticatedExtendedCard bool                         `json:"supportsAuthenticatedExtendedCard,omitempty"`
	DefaultInputModes                 []string                     `json:"defaultInputModes"`
	DefaultOutputModes                []string                     `json:"defaultOutputModes"`
	SecuritySchemes                   map[string]SecuritySchemeV03 `json:"securitySchemes,omitempty"`
	Security                          []map[string][]string        `json:"security,omitempty"`
	Skills                            []SkillV03                   `json:"skills"`
	Signatures                        []Signature                  `json:"signatures,omitempty"`
}

// InterfaceV03 is a v0.3 AgentInterface.
type InterfaceV03 struct {
	URL       string `json:"url"`
	Transport string `json:"transport"`
}

// CapabilitiesV03 is a v0.3 AgentCapabilities.
type CapabilitiesV03 struct {
	Streaming         bool        `json:"streaming"`
	PushNotifications bool        `json:"pushNotifications"`
	Extensions        []Extension `json:"extensions,omitempty"`
}

// SecuritySchemeV03 is a v0.3 security scheme: an object with a "type"
// discriminator. Exactly one member is set; it marshals as that member.
type SecuritySchemeV03 struct {
	APIKey        *APIKeyV03
	HTTPAuth      *HTTPAuth
	OAuth2        *OAuth2V03
	OpenIDConnect *OpenIDConnect
	MTLS          *MutualTLSScheme
}

// MarshalJSON writes the one member that is set.
func (s SecuritySchemeV03) MarshalJSON() ([]byte, error) {
	switch {
	case s.APIKey != nil:
		return marshalPlain(s.APIKey)
	case s.HTTPAuth != nil:
		return marshalPlain(s.HTTPAuth)
	case s.OAuth2 != nil:
		return marshalPlain(s.OAuth2)
	case s.OpenIDConnect != nil:
		return marshalPlain(s.OpenIDConnect)
	case s.MTLS != nil:
		return marshalPlain(s.MTLS)
	}
	return nil, fmt.Errorf("card: empty v0.3 security scheme")
}

// APIKeyV03 is a v0.3 APIKeySecurityScheme (the location is "in").
type APIKeyV03 struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	In          string `json:"in"`
	Name        string `json:"name"`
}

// OAuth2V03 is a v0.3 OAuth2SecurityScheme.
type OAuth2V03 struct {
	Type              string   `json:"type"`
	Description       string   `json:"description,omitempty"`
	Flows             FlowsV03 `json:"flows"`
	OAuth2MetadataURL string   `json:"oauth2MetadataUrl,omitempty"`
}

// FlowsV03 is a v0.3 OAuthFlows (which has no device code flow).
type FlowsV03 struct {
	AuthorizationCode *Flow `json:"authorizationCode,omitempty"`
	ClientCredentials *Flow `json:"clientCredentials,omitempty"`
}

// SkillV03 is a v0.3 AgentSkill.
type SkillV03 struct {
	ID          string                `json:"id"`
	Name        string                `json:"name"`
	Description string                `json:"description"`
	Tags        []string              `json:"tags"`
	Examples    []string              `json:"examples,omitempty"`
	InputModes  []string              `json:"inputModes,omitempty"`
	OutputModes []string              `json:"outputModes,omitempty"`
	Security    []map[string][]string `json:"security,omitempty"`
}

// NewV03 builds the legacy v0.3.0-shaped card for agent a. The notes say
// what the v0.3 shape could not carry.
func NewV03(m *manifest.Manifest, a *manifest.Agent) (*V03, []string) {
	var notes []string
	c := &V03{
		ProtocolVersion:                   LegacyProtocolVersion,
		Name:                              a.Name,
		Description:                       a.Description,
		Version:                           a.Version,
		DocumentationURL:                  a.DocumentationURL,
		IconURL:                           a.IconURL,
		SupportsAuthenticatedExtendedCard: a.Capabilities.ExtendedAgentCard,
		DefaultInputModes:                 a.InputModes(),
		DefaultOutputModes:                a.OutputModes(),
		Capabilities: CapabilitiesV03{
			Streaming:         a.Capabilities.Streaming,
			PushNotifications: a.Capabilities.PushNotifications,
			Extensions:        extensions(a.Capabilities.Extensions),
		},
	}
	if p := m.EffectiveProvider(a); p != nil {
		c.Provider = &Provider{Organization: p.Organization, URL: p.URL}
	}
	ifaces := legacyInterfaces(a.SupportedInterfaces)
	c.URL, c.PreferredTransport = ifaces[0].URL, ifaces[0].ProtocolBinding
	if len(ifaces) > 1 {
		for _, in := range ifaces {
			c.AdditionalInterfaces = append(c.AdditionalInterfaces, InterfaceV03{URL: in.URL, Transport: in.ProtocolBinding})
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
			c.SecuritySchemes = map[string]SecuritySchemeV03{}
		}
		c.SecuritySchemes[name] = schemeV03(s)
	}
	c.Security = requirementsV03(a.SecurityRequirements, dropped)
	for _, s := range a.Skills {
		c.Skills = append(c.Skills, SkillV03{
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

func schemeV03(s manifest.SecurityScheme) SecuritySchemeV03 {
	switch s.Type {
	case manifest.TypeAPIKey:
		return SecuritySchemeV03{APIKey: &APIKeyV03{Type: "apiKey", Description: s.Description, In: s.Location, Name: s.Name}}
	case manifest.TypeHTTP:
		return SecuritySchemeV03{HTTPAuth: &HTTPAuth{Type: "http", Description: s.Description, Scheme: s.Scheme, BearerFormat: s.BearerFormat}}
	case manifest.TypeOAuth2:
		f := flowsV1(s.Flows)
		if f.AuthorizationCode != nil {
			f.AuthorizationCode.PKCERequired = false // not in v0.3
		}
		return SecuritySchemeV03{OAuth2: &OAuth2V03{Type: "oauth2", Description: s.Description,
			Flows:             FlowsV03{AuthorizationCode: f.AuthorizationCode, ClientCredentials: f.ClientCredentials},
			OAuth2MetadataURL: s.OAuth2MetadataURL}}
	case manifest.TypeOpenIDConnect:
		return SecuritySchemeV03{OpenIDConnect: &OpenIDConnect{Type: "openIdConnect", Description: s.Description, OpenIDConnectURL: s.OpenIDConnectURL}}
	default:
		return SecuritySchemeV03{MTLS: &MutualTLSScheme{Type: "mutualTLS", Description: mtlsDescription(s)}}
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
