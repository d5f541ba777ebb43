// Package card turns manifest agents into A2A Agent Cards in normal form:
// a v1.0 card for agent-card.json and a v0.3.0-shaped card for the legacy
// agent.json. A card in normal form holds no empty value and no proto3
// default, so strict RFC 8785 canonicalization and the A2A SDKs'
// canonicalizers produce the same bytes (README, "Normal form").
package card

import (
	"github.com/agentcards/agentcards/internal/manifest"
)

// Signature is one detached JWS over the card (A2A v1.0 section 8.4).
type Signature struct {
	Protected string         `json:"protected"`
	Signature string         `json:"signature"`
	Header    map[string]any `json:"header,omitempty"`
}

// V1 is an A2A v1.0 AgentCard (lf.a2a.v1.AgentCard in ProtoJSON).
// Field order is the order cards are written in.
type V1 struct {
	Name                 string                      `json:"name"`
	Description          string                      `json:"description"`
	Version              string                      `json:"version"`
	Provider             *Provider                   `json:"provider,omitempty"`
	DocumentationURL     string                      `json:"documentationUrl,omitempty"`
	IconURL              string                      `json:"iconUrl,omitempty"`
	SupportedInterfaces  []Interface                 `json:"supportedInterfaces"`
	Capabilities         Capabilities                `json:"capabilities"`
	DefaultInputModes    []string                    `json:"defaultInputModes"`
	DefaultOutputModes   []string                    `json:"defaultOutputModes"`
	SecuritySchemes      map[string]SecuritySchemeV1 `json:"securitySchemes,omitempty"`
	SecurityRequirements []RequirementV1             `json:"securityRequirements,omitempty"`
	Skills               []SkillV1                   `json:"skills"`
	Signatures           []Signature                 `json:"signatures,omitempty"`
}

// Provider is an A2A AgentProvider.
type Provider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// Interface is an A2A v1.0 AgentInterface.
type Interface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
	Tenant          string `json:"tenant,omitempty"`
}

// Capabilities is an A2A v1.0 AgentCapabilities. The three booleans are
// always written, so the object is never empty (normal-form rule 4).
type Capabilities struct {
	Streaming         bool        `json:"streaming"`
	PushNotifications bool        `json:"pushNotifications"`
	ExtendedAgentCard bool        `json:"extendedAgentCard"`
	Extensions        []Extension `json:"extensions,omitempty"`
}

// Extension is an A2A AgentExtension; Required is omitted when false.
type Extension struct {
	URI         string         `json:"uri"`
	Description string         `json:"description,omitempty"`
	Required    bool           `json:"required,omitempty"`
	Params      map[string]any `json:"params,omitempty"`
}

// SecuritySchemeV1 is the v1.0 oneof: exactly one member is set.
type SecuritySchemeV1 struct {
	APIKey        *APIKeyV1        `json:"apiKeySecurityScheme,omitempty"`
	HTTPAuth      *HTTPAuth        `json:"httpAuthSecurityScheme,omitempty"`
	OAuth2        *OAuth2V1        `json:"oauth2SecurityScheme,omitempty"`
	OpenIDConnect *OpenIDConnect   `json:"openIdConnectSecurityScheme,omitempty"`
	MTLS          *MutualTLSScheme `json:"mtlsSecurityScheme,omitempty"`
}

// APIKeyV1 is a v1.0 APIKeySecurityScheme.
type APIKeyV1 struct {
	Description string `json:"description,omitempty"`
	Location    string `json:"location"`
	Name        string `json:"name"`
}

// HTTPAuth is an HTTP authentication scheme (same shape in v1.0 and v0.3
// apart from v0.3's type discriminator).
type HTTPAuth struct {
	Type         string `json:"type,omitempty"`
	Description  string `json:"description,omitempty"`
	Scheme       string `json:"scheme"`
	BearerFormat string `json:"bearerFormat,omitempty"`
}

// OAuth2V1 is a v1.0 OAuth2SecurityScheme.
type OAuth2V1 struct {
	Description       string  `json:"description,omitempty"`
	Flows             FlowsV1 `json:"flows"`
	OAuth2MetadataURL string  `json:"oauth2MetadataUrl,omitempty"`
}

// FlowsV1 is the v1.0 OAuthFlows oneof.
type FlowsV1 struct {
	AuthorizationCode *Flow `json:"authorizationCode,omitempty"`
	ClientCredentials *Flow `json:"clientCredentials,omitempty"`
	DeviceCode        *Flow `json:"deviceCode,omitempty"`
}

// Flow is one OAuth 2.0 flow; which URLs apply depends on the flow.
type Flow struct {
	AuthorizationURL       string            `json:"authorizationUrl,omitempty"`
	DeviceAuthorizationURL string            `json:"deviceAuthorizationUrl,omitempty"`
	TokenURL               string            `json:"tokenUrl"`
	RefreshURL             string            `json:"refreshUrl,omitempty"`
	Scopes                 map[string]string `json:"scopes,omitempty"`
	PKCERequired           bool              `json:"pkceRequired,omitempty"`
}

// OpenIDConnect is an OpenID Connect scheme.
type OpenIDConnect struct {
	Type             string `json:"type,omitempty"`
	Description      string `json:"description,omitempty"`
	OpenIDConnectURL string `json:"openIdConnectUrl"`
}

// MutualTLSScheme is a mutual TLS scheme.
type MutualTLSScheme struct {
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
}

// RequirementV1 is a v1.0 SecurityRequirement.
type RequirementV1 struct {
	Schemes map[string]StringList `json:"schemes"`
}

// StringList is the v1.0 wrapper around a list of scopes. An empty list is
// written as [] so the requirement is visible to strict verifiers; the A2A
// SDKs erase it (see SDKProjection).
type StringList struct {
	List []string `json:"list"`
}

// SkillV1 is a v1.0 AgentSkill.
type SkillV1 struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	Tags                 []string        `json:"tags"`
	Examples             []string        `json:"examples,omitempty"`
	InputModes           []string        `json:"inputModes,omitempty"`
	OutputModes          []string        `json:"outputModes,omitempty"`
	SecurityRequirements []RequirementV1 `json:"securityRequirements,omitempty"`
}

// MTLSDefaultDescription is written into a mutualTLS scheme that has no
// description: a bare {"mtlsSecurityScheme": {}} is erased by the A2A SDKs
// before they check a signature, so the card could not verify there.
const MTLSDefaultDescription = "Mutual TLS: the client authenticates with an X.509 certificate."

// mtlsDescription is a mutualTLS scheme's description, or the default one.
func mtlsDescription(s manifest.SecurityScheme) string {
	if s.Description == "" {
		return MTLSDefaultDescription
	}
	return s.Description
}

// NewV1 builds the v1.0 card for agent a of manifest m.
func NewV1(m *manifest.Manifest, a *manifest.Agent) *V1 {
	c := &V1{
		Name:               a.Name,
		Description:        a.Description,
		Version:            a.Version,
		DocumentationURL:   a.DocumentationURL,
		IconURL:            a.IconURL,
		DefaultInputModes:  a.InputModes(),
		DefaultOutputModes: a.OutputModes(),
		Capabilities: Capabilities{
			Streaming:         a.Capabilities.Streaming,
			PushNotifications: a.Capabilities.PushNotifications,
			ExtendedAgentCard: a.Capabilities.ExtendedAgentCard,
			Extensions:        extensions(a.Capabilities.Extensions),
		},
	}
	if p := m.EffectiveProvider(a); p != nil {
		c.Provider = &Provider{Organization: p.Organization, URL: p.URL}
	}
	for _, in := range a.SupportedInterfaces {
		c.SupportedInterfaces = append(c.SupportedInterfaces, Interface(in))
	}
	if len(a.SecuritySchemes) > 0 {
		c.SecuritySchemes = make(map[string]SecuritySchemeV1, len(a.SecuritySchemes))
		for name, s := range a.SecuritySchemes {
			c.SecuritySchemes[name] = schemeV1(s)
		}
	}
	c.SecurityRequirements = requirementsV1(a.SecurityRequirements)
	for _, s := range a.Skills {
		c.Skills = append(c.Skills, SkillV1{
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

func extensions(in []manifest.Extension) []Extension {
	var out []Extension
	for _, e := range in {
		out = append(out, Extension(e))
	}
	return out
}

func schemeV1(s manifest.SecurityScheme) SecuritySchemeV1 {
	switch s.Type {
	case manifest.TypeAPIKey:
		return SecuritySchemeV1{APIKey: &APIKeyV1{Description: s.Description, Location: s.Location, Name: s.Name}}
	case manifest.TypeHTTP:
		return SecuritySchemeV1{HTTPAuth: &HTTPAuth{Description: s.Description, Scheme: s.Scheme, BearerFormat: s.BearerFormat}}
	case manifest.TypeOAuth2:
		return SecuritySchemeV1{OAuth2: &OAuth2V1{Description: s.Description, Flows: flowsV1(s.Flows), OAuth2MetadataURL: s.OAuth2MetadataURL}}
	case manifest.TypeOpenIDConnect:
		return SecuritySchemeV1{OpenIDConnect: &OpenIDConnect{Description: s.Description, OpenIDConnectURL: s.OpenIDConnectURL}}
	default: // mutualTLS
		return SecuritySchemeV1{MTLS: &MutualTLSScheme{Description: mtlsDescription(s)}}
	}
}

func flowsV1(f *manifest.OAuthFlows) FlowsV1 {
	var out FlowsV1
	if a := f.AuthorizationCode; a != nil {
		out.AuthorizationCode = &Flow{AuthorizationURL: a.AuthorizationURL, TokenURL: a.TokenURL, RefreshURL: a.RefreshURL, Scopes: a.Scopes, PKCERequired: a.PKCERequired}
	}
	if c := f.ClientCredentials; c != nil {
		out.ClientCredentials = &Flow{TokenURL: c.TokenURL, RefreshURL: c.RefreshURL, Scopes: c.Scopes}
	}
	if d := f.DeviceCode; d != nil {
		out.DeviceCode = &Flow{DeviceAuthorizationURL: d.DeviceAuthorizationURL, TokenURL: d.TokenURL, RefreshURL: d.RefreshURL, Scopes: d.Scopes}
	}
	return out
}

func requirementsV1(in []manifest.Requirement) []RequirementV1 {
	var out []RequirementV1
	for _, r := range in {
		schemes := make(map[string]StringList, len(r))
		for name, scopes := range r {
			list := scopes
			if list == nil {
				list = []string{}
			}
			schemes[name] = StringList{List: list}
		}
		out = append(out, RequirementV1{Schemes: schemes})
	}
	return out
}
