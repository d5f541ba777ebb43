// Package manifest reads agents.toml into a typed, validated Manifest.
//
// The manifest uses the A2A specification's own field names (camelCase), so
// the specification documents it. Every problem found is reported at once,
// each as a Diagnostic carrying the file, line and column where the TOML
// source allows it, and always the key path (agents[1].skills[0].tags).
package manifest

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
)

// DefaultModes is what defaultInputModes and defaultOutputModes hold when the
// manifest leaves them out.
var DefaultModes = []string{"text/plain"}

// Manifest is a whole agents.toml.
type Manifest struct {
	Site     Site      `toml:"site"`
	Provider *Provider `toml:"provider"`
	Agents   []Agent   `toml:"agents"`
	// MCPServers are the MCP servers the site publishes Server Cards and
	// docs for. A server with an a2a table also becomes an agent: Load
	// and a Source give its synthesized agent after the [[agents]].
	MCPServers []MCPServer `toml:"mcpServers"`

	// Dir is the folder holding the manifest; relative paths resolve from it.
	Dir string `toml:"-"`
	// Path is the manifest's file as it was opened; "" for one read from
	// memory.
	Path string `toml:"-"`
}

// Site is the [site] table: where and how the site is published.
type Site struct {
	// BaseURL is the absolute URL the output folder is served at, without a
	// trailing slash once loaded.
	BaseURL string `toml:"baseUrl"`
	// Title names the site in its HTML pages and catalog.
	Title string `toml:"title"`
	// DefaultAgent is the id of the agent served at the origin's
	// /.well-known/agent-card.json.
	DefaultAgent string `toml:"defaultAgent"`
	// Output is the folder the site is written to (default "public").
	Output string `toml:"output"`
	// Keys is the folder of committed public keys (default "keys").
	Keys string `toml:"keys"`
	// PrivateOutput is the folder the agents' extended cards are written
	// to (default "private"): beside the public output, never inside it,
	// and never published.
	PrivateOutput string `toml:"privateOutput"`
	// SDKProjectionSignatures says whether cards the A2A SDKs canonicalize
	// differently (scope-less security requirements) also get a signature
	// over the SDKs' projection (default true). README: "Scope-less
	// security requirements".
	SDKProjectionSignatures *bool `toml:"sdkProjectionSignatures"`
	// Publisher is the domain that publishes the agents, the <publisher>
	// of their AI Catalog identifiers (urn:air:<publisher>:a2a:<id>).
	// Once loaded it is set: by default the host of BaseURL
	// (agent.localhost for a loopback one).
	Publisher string `toml:"publisher"`
}

// ProjectionSignatures reports whether site.sdkProjectionSignatures is on.
func (s *Site) ProjectionSignatures() bool {
	return s.SDKProjectionSignatures == nil || *s.SDKProjectionSignatures
}

// Provider is an A2A AgentProvider.
type Provider struct {
	Organization string `toml:"organization"`
	URL          string `toml:"url"`
}

// Agent is one [[agents]] entry.
type Agent struct {
	ID                   string                    `toml:"id"`
	Name                 string                    `toml:"name"`
	Description          string                    `toml:"description"`
	Version              string                    `toml:"version"`
	Provider             *Provider                 `toml:"provider"`
	DocumentationURL     string                    `toml:"documentationUrl"`
	IconURL              string                    `toml:"iconUrl"`
	SupportedInterfaces  []Interface               `toml:"supportedInterfaces"`
	Capabilities         Capabilities              `toml:"capabilities"`
	DefaultInputModes    []string                  `toml:"defaultInputModes"`
	DefaultOutputModes   []string                  `toml:"defaultOutputModes"`
	SecuritySchemes      map[string]SecurityScheme `toml:"securitySchemes"`
	SecurityRequirements []Requirement             `toml:"securityRequirements"`
	Skills               []Skill                   `toml:"skills"`
	// RepresentativeQueries are 2-5 requests a person might make of the
	// agent, for the AI Catalog's search indexes (default: the skills'
	// examples).
	RepresentativeQueries []string `toml:"representativeQueries"`
	// UpdatedAt is when the agent last changed (RFC 3339), for the AI
	// Catalog; never taken from the clock, so builds stay reproducible.
	UpdatedAt string `toml:"updatedAt"`
	// Extended is the overlay its authenticated extended cards are made
	// from (ExtendedCards); nil when it has none. It never reaches the
	// public cards, which only say that extended cards exist.
	Extended *Extended `toml:"extended"`
}

// Interface is an A2A AgentInterface: one endpoint and how to talk to it.
type Interface struct {
	URL             string `toml:"url"`
	ProtocolBinding string `toml:"protocolBinding"`
	ProtocolVersion string `toml:"protocolVersion"`
	Tenant          string `toml:"tenant"`
}

// Capabilities are the optional A2A features an agent supports.
type Capabilities struct {
	Streaming         bool        `toml:"streaming"`
	PushNotifications bool        `toml:"pushNotifications"`
	ExtendedAgentCard bool        `toml:"extendedAgentCard"`
	Extensions        []Extension `toml:"extensions"`
}

// Extension is an A2A AgentExtension.
type Extension struct {
	URI         string         `toml:"uri"`
	Description string         `toml:"description"`
	Required    bool           `toml:"required"`
	Params      map[string]any `toml:"params"`
}

// SecurityScheme is the flat, typed form of an A2A security scheme. Type
// selects which of the other fields apply.
type SecurityScheme struct {
	Type        string `toml:"type"`
	Description string `toml:"description"`

	// apiKey
	Location string `toml:"location"`
	Name     string `toml:"name"`

	// http
	Scheme       string `toml:"scheme"`
	BearerFormat string `toml:"bearerFormat"`

	// oauth2
	OAuth2MetadataURL string      `toml:"oauth2MetadataUrl"`
	Flows             *OAuthFlows `toml:"flows"`

	// openIdConnect
	OpenIDConnectURL string `toml:"openIdConnectUrl"`
}

// Scheme types accepted in SecurityScheme.Type.
const (
	TypeAPIKey        = "apiKey"
	TypeHTTP          = "http"
	TypeOAuth2        = "oauth2"
	TypeOpenIDConnect = "openIdConnect"
	TypeMutualTLS     = "mutualTLS"
)

// OAuthFlows holds the one OAuth 2.0 flow of an oauth2 scheme (A2A v1.0
// makes the flows a oneof).
type OAuthFlows struct {
	AuthorizationCode *AuthorizationCodeFlow `toml:"authorizationCode"`
	ClientCredentials *ClientCredentialsFlow `toml:"clientCredentials"`
	DeviceCode        *DeviceCodeFlow        `toml:"deviceCode"`
}

// AuthorizationCodeFlow is the OAuth 2.0 authorization code flow.
type AuthorizationCodeFlow struct {
	AuthorizationURL string            `toml:"authorizationUrl"`
	TokenURL         string            `toml:"tokenUrl"`
	RefreshURL       string            `toml:"refreshUrl"`
	Scopes           map[string]string `toml:"scopes"`
	PKCERequired     bool              `toml:"pkceRequired"`
}

// ClientCredentialsFlow is the OAuth 2.0 client credentials flow.
type ClientCredentialsFlow struct {
	TokenURL   string            `toml:"tokenUrl"`
	RefreshURL string            `toml:"refreshUrl"`
	Scopes     map[string]string `toml:"scopes"`
}

// DeviceCodeFlow is the OAuth 2.0 device authorization flow (RFC 8628).
type DeviceCodeFlow struct {
	DeviceAuthorizationURL string            `toml:"deviceAuthorizationUrl"`
	TokenURL               string            `toml:"tokenUrl"`
	RefreshURL             string            `toml:"refreshUrl"`
	Scopes                 map[string]string `toml:"scopes"`
}

// Requirement is one alternative way to authenticate: every named scheme,
// each with the scopes it needs (often none). A list of Requirements means
// "any one of these".
type Requirement map[string][]string

// Skill is an A2A AgentSkill.
type Skill struct {
	ID                   string        `toml:"id"`
	Name                 string        `toml:"name"`
	Description          string        `toml:"description"`
	Tags                 []string      `toml:"tags"`
	Examples             []string      `toml:"examples"`
	InputModes           []string      `toml:"inputModes"`
	OutputModes          []string      `toml:"outputModes"`
	SecurityRequirements []Requirement `toml:"securityRequirements"`
}

// Diagnostic is one problem found in a manifest.
type Diagnostic struct {
	File string // path of the manifest as given
	Line int    // 1-based; 0 when unknown
	Col  int    // 1-based, in characters; 0 when unknown
	Path string // key path such as agents[1].skills[0].tags; may be empty
	Msg  string
}

func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Col)
	}
	b.WriteString(": ")
	if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteString(": ")
	}
	b.WriteString(d.Msg)
	return b.String()
}

// Errors is every problem found in a manifest, in source order.
type Errors []Diagnostic

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, d := range e {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Load reads and validates the manifest at path, decoding its agents with
// all cores. On failure the error is an Errors listing every problem, or an
// *os.PathError when the file cannot be read.
func Load(path string) (*Manifest, error) {
	s, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.all()
}

// Parse validates manifest source; name is used in diagnostics only.
func Parse(name string, src []byte) (*Manifest, error) {
	s, err := OpenBytes(name, src)
	if err != nil {
		return nil, err
	}
	return s.all()
}

// all is the whole manifest with every agent decoded.
func (s *Source) all() (*Manifest, error) {
	agents, errs := s.decodeAll()
	if errs != nil {
		return nil, errs
	}
	m := *s.Head
	m.Agents = agents
	return &m, nil
}

// parseWhole decodes and validates a manifest in one piece: the way to read
// one whose layout split does not follow.
func parseWhole(name, dir string, src []byte) (*Manifest, []synthAgent, error) {
	c := &checker{file: name, src: src}
	raw, ok := c.parse()
	if !ok {
		return nil, nil, c.errs
	}
	m := &Manifest{Dir: dir}
	c.decode("", 0, raw, reflect.ValueOf(m).Elem())
	// Validate even after decoding errors, so that everything is reported
	// at once; errorf keeps only the first problem of each key path.
	c.validateHead(m)
	synth := c.synthesize(m)
	ids := make([]string, len(m.Agents), len(m.Agents)+len(synth))
	for i := range m.Agents {
		c.validateAgent(fmt.Sprintf("agents[%d]", i), m, &m.Agents[i])
		if slugRE.MatchString(m.Agents[i].ID) {
			ids[i] = m.Agents[i].ID
		}
	}
	for _, a := range synth {
		ids = append(ids, m.MCPServers[a.server].ID)
	}
	idPath := func(i int) string {
		if i >= len(m.Agents) {
			return fmt.Sprintf("mcpServers[%d].id", synth[i-len(m.Agents)].server)
		}
		return fmt.Sprintf("agents[%d].id", i)
	}
	for _, p := range checkIDs(m.Site.DefaultAgent, ids, len(m.MCPServers), idPath) {
		switch p.index {
		case -2:
			c.errorf("agents", "%s", p.msg)
		case -1:
			c.errorf("site.defaultAgent", "%s", p.msg)
		default:
			c.errorf(idPath(p.index), "%s", p.msg)
		}
	}
	if len(c.errs) > 0 {
		sortDiagnostics(c.errs)
		return nil, nil, c.errs
	}
	return m, synth, nil
}

// DefaultAgentID is the id of the agent served at the site root; "" for
// a site of MCP servers only.
func (m *Manifest) DefaultAgentID() string {
	if m.Site.DefaultAgent != "" {
		return m.Site.DefaultAgent
	}
	if len(m.Agents) == 0 {
		return ""
	}
	return m.Agents[0].ID
}

// OutputDir is the output folder, resolved against the manifest's folder.
func (m *Manifest) OutputDir() string { return m.resolve(m.Site.Output, "public") }

// PrivateDir is the folder of extended cards, resolved against the
// manifest's folder.
func (m *Manifest) PrivateDir() string { return m.resolve(m.Site.PrivateOutput, "private") }

// KeysDir is the public key folder, resolved against the manifest's folder.
func (m *Manifest) KeysDir() string { return m.resolve(m.Site.Keys, "keys") }

func (m *Manifest) resolve(p, def string) string {
	if p == "" {
		p = def
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(m.Dir, p)
}

// EffectiveProvider is the agent's provider, with the manifest-wide
// [provider] filling whatever the agent leaves out; nil when neither is set.
func (m *Manifest) EffectiveProvider(a *Agent) *Provider {
	if a.Provider == nil && m.Provider == nil {
		return nil
	}
	var p Provider
	if m.Provider != nil {
		p = *m.Provider
	}
	if a.Provider != nil {
		if a.Provider.Organization != "" {
			p.Organization = a.Provider.Organization
		}
		if a.Provider.URL != "" {
			p.URL = a.Provider.URL
		}
	}
	return &p
}

// InputModes is the agent's defaultInputModes, or DefaultModes.
func (a *Agent) InputModes() []string { return modesOrDefault(a.DefaultInputModes) }

// OutputModes is the agent's defaultOutputModes, or DefaultModes.
func (a *Agent) OutputModes() []string { return modesOrDefault(a.DefaultOutputModes) }

func modesOrDefault(m []string) []string {
	if len(m) == 0 {
		return DefaultModes
	}
	return m
}
