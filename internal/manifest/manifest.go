// Package manifest reads agents.toml into a typed, validated Manifest.
//
// The manifest uses the A2A specification's own field names (camelCase), so
// the specification documents it. Every problem found is reported at once,
// each as a Diagnostic carrying the file, line and column where the TOML
// source allows it, and always the key path (agents["travel"].skills[0].tags,
// agents and skills named by their ids where they have usable ones).
package manifest

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
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
	// RemoteAgents are agents that run elsewhere, published from
	// snapshots of their owners' cards with their interfaces routed
	// through a gateway; each is an agent too, after the MCP servers'.
	RemoteAgents []RemoteAgent `toml:"remoteAgents"`

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

// Provider is an A2A AgentProvider: who runs the agent.
type Provider struct {
	// Organization is the provider's name.
	Organization string `toml:"organization"`
	// URL is the provider's website (absolute https).
	URL string `toml:"url"`
}

// Agent is one [[agents]] entry: an agent and its A2A card.
type Agent struct {
	// ID is a URL slug (a-z, 0-9, inner -, up to 64); the agent lives at
	// /agents/<id>/.
	ID string `toml:"id"`
	// Name is the agent's name, as people see it.
	Name string `toml:"name"`
	// Description says what the agent does (Markdown on its page).
	Description string `toml:"description"`
	// Version is the agent's version, e.g. "1.2.0".
	Version string `toml:"version"`
	// Provider is who runs the agent; merged over [provider].
	Provider *Provider `toml:"provider"`
	// DocumentationURL is where the agent's documentation is (absolute https).
	DocumentationURL string `toml:"documentationUrl"`
	// IconURL is the agent's icon (absolute https).
	IconURL string `toml:"iconUrl"`
	// SupportedInterfaces are the agent's endpoints, the preferred first.
	SupportedInterfaces []Interface `toml:"supportedInterfaces"`
	// Capabilities are the optional A2A features the agent supports.
	Capabilities Capabilities `toml:"capabilities"`
	// DefaultInputModes are the media types the agent takes (default
	// ["text/plain"]).
	DefaultInputModes []string `toml:"defaultInputModes"`
	// DefaultOutputModes are the media types the agent returns (default
	// ["text/plain"]).
	DefaultOutputModes []string `toml:"defaultOutputModes"`
	// SecuritySchemes are the named ways to authenticate.
	SecuritySchemes map[string]SecurityScheme `toml:"securitySchemes"`
	// SecurityRequirements are the alternatives a caller meets, each a
	// table of scheme = [scopes].
	SecurityRequirements []Requirement `toml:"securityRequirements"`
	// Skills are what the agent can do.
	Skills []Skill `toml:"skills"`
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
	// Lint is how `agentcards lint` (and the warnings of build) treats
	// the agent's cards; it never reaches a card.
	Lint *Lint `toml:"lint"`

	// Remote is set for an agent of a [[remoteAgents]] entry, whose cards
	// are made from its owner's card rather than from these fields.
	Remote *RemoteOrigin `toml:"-"`
}

// Lint is an agent's [agents.lint] table.
type Lint struct {
	// Silence maps a lint rule id to the reason the rule does not apply
	// to this agent (skill-no-examples = "its one skill takes a ticket
	// id"); its findings are still listed, as silenced, and fail nothing.
	Silence map[string]string `toml:"silence"`
}

// Silenced is the agent's [agents.lint.silence] table, or nil.
func (a *Agent) Silenced() map[string]string {
	if a.Lint == nil {
		return nil
	}
	return a.Lint.Silence
}

// Interface is an A2A AgentInterface: one endpoint and how to talk to it.
type Interface struct {
	// URL is the endpoint (absolute https).
	URL string `toml:"url"`
	// ProtocolBinding is JSONRPC, GRPC or HTTP+JSON.
	ProtocolBinding string `toml:"protocolBinding"`
	// ProtocolVersion is the A2A version the endpoint speaks, e.g. "1.0".
	ProtocolVersion string `toml:"protocolVersion"`
	// Tenant is sent with every request to this endpoint, when set.
	Tenant string `toml:"tenant"`
}

// Capabilities are the optional A2A features an agent supports.
type Capabilities struct {
	// Streaming: the agent streams responses (default false).
	Streaming bool `toml:"streaming"`
	// PushNotifications: the agent sends push notifications (default false).
	PushNotifications bool `toml:"pushNotifications"`
	// ExtendedAgentCard: authenticated callers can get a richer card; set
	// by the build for an agent with [agents.extended].
	ExtendedAgentCard bool `toml:"extendedAgentCard"`
	// Extensions are the A2A extensions the agent supports.
	Extensions []Extension `toml:"extensions"`
}

// Extension is an A2A AgentExtension.
type Extension struct {
	// URI identifies the extension.
	URI string `toml:"uri"`
	// Description says how the agent uses it.
	Description string `toml:"description"`
	// Required: clients must support the extension to talk to the agent.
	Required bool `toml:"required"`
	// Params are the extension's settings, any TOML table.
	Params map[string]any `toml:"params"`
}

// SecurityScheme is the flat, typed form of an A2A security scheme. Type
// selects which of the other fields apply.
type SecurityScheme struct {
	// Type is apiKey, http, oauth2, openIdConnect or mutualTLS.
	Type string `toml:"type"`
	// Description says how to get credentials.
	Description string `toml:"description"`

	// Location is where an apiKey goes: header, query or cookie.
	Location string `toml:"location"`
	// Name is the apiKey's header, query parameter or cookie name.
	Name string `toml:"name"`

	// Scheme is the http scheme, e.g. Bearer or Basic.
	Scheme string `toml:"scheme"`
	// BearerFormat hints at the bearer token's format, e.g. JWT.
	BearerFormat string `toml:"bearerFormat"`

	// OAuth2MetadataURL is the OAuth 2.0 authorization server metadata
	// URL (RFC 8414).
	OAuth2MetadataURL string `toml:"oauth2MetadataUrl"`
	// Flows holds the one OAuth 2.0 flow of an oauth2 scheme.
	Flows *OAuthFlows `toml:"flows"`

	// OpenIDConnectURL is the OpenID Connect discovery URL.
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

// Skill is an A2A AgentSkill: one thing the agent can do.
type Skill struct {
	// ID is unique in the agent: letters, digits, '.', '_', ':' and '-'.
	ID string `toml:"id"`
	// Name is the skill's name.
	Name string `toml:"name"`
	// Description says what the skill does.
	Description string `toml:"description"`
	// Tags are keywords for the skill (at least one).
	Tags []string `toml:"tags"`
	// Examples are requests a person might make of the skill.
	Examples []string `toml:"examples"`
	// InputModes override the agent's defaultInputModes for this skill.
	InputModes []string `toml:"inputModes"`
	// OutputModes override the agent's defaultOutputModes for this skill.
	OutputModes []string `toml:"outputModes"`
	// SecurityRequirements are what calling this skill needs, beyond the
	// agent's.
	SecurityRequirements []Requirement `toml:"securityRequirements"`
}

// Diagnostic is one problem found in a manifest.
type Diagnostic struct {
	File string // path of the manifest as given
	Line int    // 1-based; 0 when unknown
	Col  int    // 1-based, in characters; 0 when unknown
	Path string // key path such as agents["travel"].skills[0].tags; may be empty
	Msg  string

	// sortLine and sortCol, when set, are where Sort places the
	// diagnostic instead of Line and Col: an unknown key sorts at the
	// start of its table, before the table's other problems.
	sortLine, sortCol int
	// sortFirst places an unknown key of the root table before every
	// other diagnostic, those without a position included.
	sortFirst bool
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

// Sort orders e as problems are reported: by line and column, except that
// the unknown keys of a table come first among its problems (a misspelt
// key is the cause of the "required" beside it), keeping the order of
// those on the same spot.
func (e Errors) Sort() {
	sort.SliceStable(e, func(i, j int) bool {
		a, b := e[i].sortKey(), e[j].sortKey()
		return slices.Compare(a[:], b[:]) < 0
	})
}

// sortKey is where Sort places d: its table's start for an unknown key
// (ahead of the table's other problems there), then its own place.
func (d Diagnostic) sortKey() [5]int {
	if d.sortFirst {
		return [5]int{-1, 0, 0, d.Line, d.Col}
	}
	if d.sortLine > 0 {
		return [5]int{d.sortLine, d.sortCol, 0, d.Line, d.Col}
	}
	return [5]int{d.Line, d.Col, 1}
}

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
	agents, errs := s.decodeAll(true)
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
		ids = append(ids, a.id(m))
	}
	idPath := func(i int) string {
		if i >= len(m.Agents) {
			return synth[i-len(m.Agents)].idPath()
		}
		return fmt.Sprintf("agents[%d].id", i)
	}
	// Problems across agents name them by index, as Source.CheckIDs does:
	// two agents with one id are told apart so.
	c.names, c.lists = nil, nil
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
		c.errs.Sort()
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

// KeysNamed reports whether site.keys names a keys folder other than the
// default one, which must then exist.
func (m *Manifest) KeysNamed() bool {
	return m.Site.Keys != "" && filepath.Clean(m.Site.Keys) != "keys"
}

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
