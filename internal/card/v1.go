// Package card is the wire format: the A2A Agent Card (v1.0, and the
// v0.3.0 shape of the legacy agent.json) and the MCP Server Card as Go
// types, their strict decoding, their encoding, and the A2A SDKs'
// projection of a card. A card in normal form holds no empty value and no
// proto3 default, so strict RFC 8785 canonicalization and the A2A SDKs'
// canonicalizers produce the same bytes (README, "Normal form"). It
// imports nothing of the project but the standard library: a verifier
// needs it without the manifest (package compose builds cards from that).
package card

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
