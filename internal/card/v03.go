package card

import (
	"fmt"
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
