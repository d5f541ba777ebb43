package manifest

import (
	"fmt"
	"maps"
	"mime"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	sitelayout "github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/lintrule"
)

var (
	slugRE      = regexp.MustCompile(sitelayout.IDPattern)
	skillIDRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)
	schemeKeyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	versionRE   = regexp.MustCompile(`^[0-9]+\.[0-9]+(\.[0-9]+)?$`)
	rfc3339RE   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$`)
)

// Bindings are the protocol bindings A2A v1.0 defines.
var Bindings = []string{"JSONRPC", "GRPC", "HTTP+JSON"}

// APIKeyLocations are where an apiKey scheme's key may go.
var APIKeyLocations = []string{"header", "query", "cookie"}

// validateHead checks what is not an agent: [site], [provider] and the
// [[mcpServers]] with their snapshots.
func (c *checker) validateHead(m *Manifest) {
	c.validateSite(m)
	if m.Provider != nil {
		c.validateProvider("provider", m.Provider, true)
	}
	c.validateMCPServers(m)
	c.validateRemoteAgents(m)
}

// idProblem is what is wrong with one agent's id across the manifest.
type idProblem struct {
	index int    // the agent whose id is at fault; -1 for site.defaultAgent
	msg   string // the diagnostic's message
}

// checkIDs finds what is wrong across agents: no agents (nor MCP
// servers), ids used twice, and a default agent that is missing or not
// named. ids are every agent's id in order, synthesized agents' last (""
// where it is missing, which validateAgent reports); idPath names where
// agent i's id is.
func checkIDs(defaultAgent string, ids []string, mcpServers int, idPath func(int) string) []idProblem {
	if len(ids) == 0 {
		switch {
		case mcpServers > 0 && defaultAgent == "":
			return nil
		case mcpServers > 0:
			return []idProblem{{-1, fmt.Sprintf("no agent has id %q: the site has MCP servers only, and one is an agent only with an a2a table; remove defaultAgent, or give that server an a2a table", defaultAgent)}}
		}
		return []idProblem{{index: -2, msg: "no agents: add at least one [[agents]] table (or an [[mcpServers]] table)"}}
	}
	var out []idProblem
	first := map[string]int{}
	var known []string
	for i, id := range ids {
		if id == "" {
			continue
		}
		if j, dup := first[id]; dup {
			why := ""
			switch {
			case strings.HasPrefix(idPath(i), "mcpServers"):
				why = " (an MCP server with an a2a table is an agent at /agents/<id>/ too)"
			case strings.HasPrefix(idPath(i), "remoteAgents"):
				why = " (a remote agent is published at /agents/<id>/ like the others)"
			}
			out = append(out, idProblem{i, fmt.Sprintf("duplicate id %q (also %s); ids must be unique%s", id, idPath(j), why)})
			continue
		}
		first[id] = i
		known = append(known, id)
	}
	list := func() string {
		if len(known) > 20 {
			return strings.Join(known[:20], ", ") + fmt.Sprintf(" (and %d more)", len(known)-20)
		}
		return strings.Join(known, ", ")
	}
	switch {
	case defaultAgent != "":
		if _, ok := first[defaultAgent]; !ok {
			out = append(out, idProblem{-1, fmt.Sprintf("no agent has id %q; set it to one of: %s", defaultAgent, list())})
		}
	case len(ids) > 1:
		out = append(out, idProblem{-1, fmt.Sprintf("required when there are several agents: it names the agent served at /.well-known/agent-card.json (one of: %s)", list())})
	}
	return out
}

func (c *checker) validateSite(m *Manifest) {
	s := &m.Site
	if s.BaseURL == "" {
		c.errorf("site.baseUrl", "required: the absolute https URL the site is served at, e.g. \"https://agents.example.com\"")
	} else if c.checkURL("site.baseUrl", s.BaseURL) {
		u, _ := url.Parse(s.BaseURL)
		if u.RawQuery != "" || u.Fragment != "" {
			c.errorf("site.baseUrl", "must not have a query or fragment")
		}
		s.BaseURL = strings.TrimRight(s.BaseURL, "/")
	}
	if s.Title == "" {
		s.Title = "A2A agents"
	}
	c.validatePublisher(s)
}

// domainRE is a fully qualified domain name in lower case, as the AI
// Catalog's urn:air identifiers take it.
var domainRE = regexp.MustCompile(`^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)

// loopbackPublisher is the publisher of a site served from a loopback
// address: the placeholder domain ARD's naming guide gives for local
// development (RFC 2606 reserves .localhost).
const loopbackPublisher = "agent.localhost"

// validatePublisher checks site.publisher, or derives it from baseUrl.
func (c *checker) validatePublisher(s *Site) {
	if s.Publisher != "" {
		switch {
		case len(s.Publisher) > 253 || !domainRE.MatchString(s.Publisher):
			c.errorf("site.publisher", "%q is not a domain name: write the domain that publishes these agents in lower case, e.g. \"example.com\"", s.Publisher)
		case net.ParseIP(s.Publisher) != nil:
			c.errorf("site.publisher", "%q is an IP address: the publisher of AI Catalog identifiers is a domain name, e.g. \"example.com\"", s.Publisher)
		}
		return
	}
	u, err := url.Parse(s.BaseURL)
	if err != nil || u.Hostname() == "" {
		return // baseUrl has its own diagnostic
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if isLoopback(host) {
		s.Publisher = loopbackPublisher
		return
	}
	host = strings.ToLower(host)
	if net.ParseIP(host) != nil || len(host) > 253 || !domainRE.MatchString(host) {
		c.errorf("site.publisher", "required when baseUrl's host (%s) is not a domain name in ASCII: set publisher in [site] to the domain that publishes these agents, e.g. publisher = \"example.com\" (an international name in its xn-- form)", host)
		return
	}
	s.Publisher = host
}

func (c *checker) validateProvider(p string, pr *Provider, complete bool) {
	if pr.URL != "" {
		c.checkURL(p+".url", pr.URL)
	}
	if complete {
		if pr.Organization == "" {
			c.errorf(p+".organization", "required: A2A's AgentProvider needs both organization and url")
		}
		if pr.URL == "" {
			c.errorf(p+".url", "required: A2A's AgentProvider needs both organization and url")
		}
	}
}

func (c *checker) validateAgent(p string, m *Manifest, a *Agent) {
	if a.Extended != nil {
		// The public cards advertise what the overlay gives.
		a.Capabilities.ExtendedAgentCard = true
		defer c.validateExtended(p, m, a)
	}
	switch {
	case a.ID == "":
		c.errorf(p+".id", "required: a URL slug such as \"travel-planner\" (it becomes /agents/<id>/)")
	case !slugRE.MatchString(a.ID):
		c.errorf(p+".id", "%q is not a URL slug: use 1-64 lower-case letters, digits and inner hyphens", a.ID)
	}
	c.required(p+".name", a.Name)
	c.required(p+".description", a.Description)
	c.required(p+".version", a.Version)
	if a.Lint != nil && p != mergedPrefix {
		// A merged extended card shares the agent's table: checked once.
		c.validateLint(p+".lint", a.Lint)
	}
	if a.Provider != nil {
		c.validateProvider(p+".provider", a.Provider, m.Provider == nil)
	}
	if a.DocumentationURL != "" {
		c.checkURL(p+".documentationUrl", a.DocumentationURL)
	}
	if a.IconURL != "" {
		c.checkURL(p+".iconUrl", a.IconURL)
	}
	if n := len(a.RepresentativeQueries); n != 0 && (n < 2 || n > 5) {
		c.errorf(p+".representativeQueries", "has %d queries; the AI Catalog takes 2 to 5 (leave it out to use the skills' examples)", n)
	}
	if a.UpdatedAt != "" {
		// time.Parse takes more than RFC 3339 (a comma before the
		// fraction), which catalog readers refuse.
		if _, err := time.Parse(time.RFC3339, a.UpdatedAt); err != nil || !rfc3339RE.MatchString(a.UpdatedAt) {
			c.errorf(p+".updatedAt", "%q is not an RFC 3339 timestamp; write it like \"2026-11-20T09:30:00Z\"", a.UpdatedAt)
		}
	}
	if len(a.SupportedInterfaces) == 0 {
		c.errorf(p+".supportedInterfaces", "required: add at least one [[%s.supportedInterfaces]] with url, protocolBinding and protocolVersion", tableOf(p))
	}
	for i, in := range a.SupportedInterfaces {
		c.validateInterface(fmt.Sprintf("%s.supportedInterfaces[%d]", p, i), in)
	}
	uris := map[string]int{}
	for i, e := range a.Capabilities.Extensions {
		ep := fmt.Sprintf("%s.capabilities.extensions[%d]", p, i)
		if e.URI == "" {
			c.errorf(ep+".uri", "required: the extension's URI")
		} else if u, err := url.Parse(e.URI); err != nil || u.Scheme == "" {
			c.errorf(ep+".uri", "%q is not an absolute URI", e.URI)
		} else if j, dup := uris[e.URI]; dup {
			// A client looks an extension up by its URI: two would mean
			// whichever it meets first.
			c.errorf(ep+".uri", "%q is declared twice (also extensions[%d]); declare an extension once", e.URI, j)
		}
		uris[e.URI] = i
	}
	c.checkModes(p+".defaultInputModes", a.DefaultInputModes)
	c.checkModes(p+".defaultOutputModes", a.DefaultOutputModes)
	for _, name := range slices.Sorted(maps.Keys(a.SecuritySchemes)) {
		c.validateScheme(join(p+".securitySchemes", name), name, a.SecuritySchemes[name])
	}
	c.checkRequirements(p+".securityRequirements", a, a.SecurityRequirements)
	c.checkLegacyExpressible(p+".securityRequirements", a, a.SecurityRequirements)
	if len(a.Skills) == 0 {
		c.errorf(p+".skills", "required: add at least one [[%s.skills]] with id, name, description and tags", tableOf(p))
	}
	skillIDs := map[string]int{}
	for i := range a.Skills {
		s := &a.Skills[i]
		sp := fmt.Sprintf("%s.skills[%d]", p, i)
		switch {
		case s.ID == "":
			c.errorf(sp+".id", "required")
		case !skillIDRE.MatchString(s.ID):
			c.errorf(sp+".id", "%q: use letters, digits, '.', '_', ':' and '-' (no spaces)", s.ID)
		default:
			if j, dup := skillIDs[s.ID]; dup {
				c.errorf(sp+".id", "duplicate skill id %q (also %s.skills[%d].id)", s.ID, p, j)
			}
			skillIDs[s.ID] = i
		}
		c.required(sp+".name", s.Name)
		c.required(sp+".description", s.Description)
		if s.Tags == nil {
			c.errorf(sp+".tags", "required: at least one tag")
		}
		c.checkModes(sp+".inputModes", s.InputModes)
		c.checkModes(sp+".outputModes", s.OutputModes)
		c.checkRequirements(sp+".securityRequirements", a, s.SecurityRequirements)
		c.checkLegacyExpressible(sp+".securityRequirements", a, s.SecurityRequirements)
	}
}

// tableOf is the TOML table name of a key path: "agents[2]" -> "agents",
// "mcpServers[0].a2a" -> "mcpServers.a2a".
func tableOf(path string) string { return indexRE.ReplaceAllString(path, "") }

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

func (c *checker) required(path, v string) {
	if v == "" {
		c.errorf(path, "required")
	}
}

func (c *checker) validateInterface(p string, in Interface) {
	if in.URL == "" {
		c.errorf(p+".url", "required: the endpoint's absolute URL")
	} else {
		c.checkURL(p+".url", in.URL)
	}
	switch {
	case in.ProtocolBinding == "":
		c.errorf(p+".protocolBinding", "required: one of %s", strings.Join(Bindings, ", "))
	case !contains(Bindings, in.ProtocolBinding):
		hint := ""
		for _, b := range Bindings {
			if strings.EqualFold(b, in.ProtocolBinding) || strings.EqualFold(strings.ReplaceAll(b, "+", ""), in.ProtocolBinding) {
				hint = fmt.Sprintf(" (did you mean %q?)", b)
			}
		}
		c.errorf(p+".protocolBinding", "%q is not an A2A binding: use one of %s%s", in.ProtocolBinding, strings.Join(Bindings, ", "), hint)
	}
	switch {
	case in.ProtocolVersion == "":
		c.errorf(p+".protocolVersion", "required: the A2A version the endpoint speaks, such as \"1.0\"")
	case !versionRE.MatchString(in.ProtocolVersion):
		c.errorf(p+".protocolVersion", "%q is not a version such as \"1.0\" or \"0.3.0\"", in.ProtocolVersion)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkURL reports a URL that is not absolute https (or http on loopback),
// and returns whether it was fine.
func (c *checker) checkURL(path, s string) bool {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" {
		c.errorf(path, "%q is not an absolute URL; write it in full, e.g. \"https://example.com/path\"", s)
		return false
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			c.errorf(path, "%q uses http; published URLs must use https (http is only allowed for localhost)", s)
			return false
		}
	default:
		c.errorf(path, "%q must use https (http only for localhost)", s)
		return false
	}
	if u.User != nil {
		u.User = nil
		c.errorf(path, "%q carries user information (not repeated here); %s", u.String(), publicWarning)
		return false
	}
	if u.String() != s {
		c.errorf(path, "%q is not a well-formed URL (spaces and other special characters must be percent-encoded: %q)", s, u.String())
		return false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			c.errorf(path, "%q: port %s is not between 1 and 65535", s, p)
			return false
		}
	}
	return true
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkModes reports media types that are not of the form type/subtype.
func (c *checker) checkModes(path string, modes []string) {
	for i, m := range modes {
		mt, params, err := mime.ParseMediaType(m)
		if err == nil && mime.FormatMediaType(mt, params) != strings.ToLower(m) && mime.FormatMediaType(mt, params) != m {
			c.errorf(path+"["+strconv.Itoa(i)+"]", "%q is not written in canonical form; write %q", m, mime.FormatMediaType(mt, params))
			continue
		}
		if err != nil || !strings.Contains(mt, "/") || strings.HasPrefix(mt, "/") || strings.HasSuffix(mt, "/") {
			c.errorf(path+"["+strconv.Itoa(i)+"]", "%q is not a media type such as \"text/plain\" or \"application/json\"", m)
		}
	}
}

// schemeFields lists, per scheme type, the keys that type uses.
var schemeFields = map[string][]string{
	TypeAPIKey:        {"location", "name"},
	TypeHTTP:          {"scheme", "bearerFormat"},
	TypeOAuth2:        {"flows", "oauth2MetadataUrl"},
	TypeOpenIDConnect: {"openIdConnectUrl"},
	TypeMutualTLS:     {},
}

func (c *checker) validateScheme(p, name string, s SecurityScheme) {
	if !schemeKeyRE.MatchString(name) {
		c.errorf(p, "scheme name %q: use letters, digits, '.', '_' and '-'", name)
	}
	used, ok := schemeFields[s.Type]
	if !ok {
		if s.Type == "" {
			c.errorf(p+".type", "required: one of apiKey, http, oauth2, openIdConnect, mutualTLS")
		} else {
			c.errorf(p+".type", "%q is not a scheme type: use one of apiKey, http, oauth2, openIdConnect, mutualTLS", s.Type)
		}
		return
	}
	set := map[string]bool{
		"location": s.Location != "", "name": s.Name != "",
		"scheme": s.Scheme != "", "bearerFormat": s.BearerFormat != "",
		"flows": s.Flows != nil, "oauth2MetadataUrl": s.OAuth2MetadataURL != "",
		"openIdConnectUrl": s.OpenIDConnectURL != "",
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if set[k] && !contains(used, k) {
			c.errorf(p+"."+k, "not used by type %q (it takes: %s)", s.Type, strings.Join(append([]string{"type", "description"}, used...), ", "))
		}
	}
	switch s.Type {
	case TypeAPIKey:
		switch {
		case slices.Contains(APIKeyLocations, s.Location):
		case s.Location == "":
			c.errorf(p+".location", "required: where the key goes: header, query or cookie")
		default:
			c.errorf(p+".location", "%q: use header, query or cookie", s.Location)
		}
		if s.Name == "" {
			c.errorf(p+".name", "required: the header, query parameter or cookie name, e.g. \"X-API-Key\"")
		}
	case TypeHTTP:
		if s.Scheme == "" {
			c.errorf(p+".scheme", "required: the HTTP auth scheme, e.g. \"Bearer\" or \"Basic\"")
		}
	case TypeOAuth2:
		if s.Flows == nil {
			c.errorf(p+".flows", "required: one of flows.authorizationCode, flows.clientCredentials, flows.deviceCode")
		} else {
			c.validateFlows(p+".flows", s.Flows)
		}
		if s.OAuth2MetadataURL != "" {
			c.checkURL(p+".oauth2MetadataUrl", s.OAuth2MetadataURL)
		}
	case TypeOpenIDConnect:
		if s.OpenIDConnectURL == "" {
			c.errorf(p+".openIdConnectUrl", "required: the OpenID Connect discovery URL")
		} else {
			c.checkURL(p+".openIdConnectUrl", s.OpenIDConnectURL)
		}
	}
}

func (c *checker) validateFlows(p string, f *OAuthFlows) {
	n := 0
	if a := f.AuthorizationCode; a != nil {
		n++
		fp := p + ".authorizationCode"
		c.flowURL(fp+".authorizationUrl", a.AuthorizationURL, true)
		c.flowURL(fp+".tokenUrl", a.TokenURL, true)
		c.flowURL(fp+".refreshUrl", a.RefreshURL, false)
		c.scopes(fp+".scopes", a.Scopes)
	}
	if cc := f.ClientCredentials; cc != nil {
		n++
		fp := p + ".clientCredentials"
		c.flowURL(fp+".tokenUrl", cc.TokenURL, true)
		c.flowURL(fp+".refreshUrl", cc.RefreshURL, false)
		c.scopes(fp+".scopes", cc.Scopes)
	}
	if d := f.DeviceCode; d != nil {
		n++
		fp := p + ".deviceCode"
		c.flowURL(fp+".deviceAuthorizationUrl", d.DeviceAuthorizationURL, true)
		c.flowURL(fp+".tokenUrl", d.TokenURL, true)
		c.flowURL(fp+".refreshUrl", d.RefreshURL, false)
		c.scopes(fp+".scopes", d.Scopes)
	}
	switch {
	case n == 0:
		c.errorf(p, "name one flow: authorizationCode, clientCredentials or deviceCode")
	case n > 1:
		c.errorf(p, "A2A v1.0 allows one flow per oauth2 scheme; declare another scheme for the other flow")
	}
}

func (c *checker) scopes(path string, s map[string]string) {
	if s == nil {
		c.errorf(path, "required: a table of scope = \"what it allows\", e.g. scopes = { \"read\" = \"Read access\" }")
	}
}

func (c *checker) flowURL(path, v string, required bool) {
	if v == "" {
		if required {
			c.errorf(path, "required")
		}
		return
	}
	c.checkURL(path, v)
}

// Scopes returns the scopes an oauth2 scheme declares, or nil.
func (s SecurityScheme) Scopes() map[string]string {
	if s.Flows == nil {
		return nil
	}
	switch f := s.Flows; {
	case f.AuthorizationCode != nil:
		return f.AuthorizationCode.Scopes
	case f.ClientCredentials != nil:
		return f.ClientCredentials.Scopes
	case f.DeviceCode != nil:
		return f.DeviceCode.Scopes
	}
	return nil
}

// checkLegacyExpressible reports requirement lists that agent.json (A2A
// v0.3, which has no device code flow) could only show as empty: v0.3
// clients would take the agent for an open one.
func (c *checker) checkLegacyExpressible(p string, a *Agent, reqs []Requirement) {
	if len(reqs) == 0 {
		return
	}
	for _, r := range reqs {
		device := false
		for name := range r {
			if s, ok := a.SecuritySchemes[name]; ok && s.Flows != nil && s.Flows.DeviceCode != nil {
				device = true
			}
		}
		if !device {
			return
		}
	}
	c.errorf(p, "every requirement names a device code scheme, which A2A v0.3 cannot express: agent.json would show no authentication at all; add an alternative requirement with a scheme v0.3 knows")
}

func (c *checker) checkRequirements(p string, a *Agent, reqs []Requirement) {
	for i, r := range reqs {
		rp := fmt.Sprintf("%s[%d]", p, i)
		for _, name := range slices.Sorted(maps.Keys(r)) {
			np := join(rp, name)
			s, ok := a.SecuritySchemes[name]
			if !ok {
				declared := slices.Sorted(maps.Keys(a.SecuritySchemes))
				if len(declared) == 0 {
					c.errorf(np, "names scheme %q, but the agent declares no securitySchemes", name)
				} else {
					c.errorf(np, "names scheme %q, which the agent does not declare (declared: %s)", name, strings.Join(declared, ", "))
				}
				continue
			}
			if scopes := s.Scopes(); scopes != nil {
				for j, sc := range r[name] {
					if _, ok := scopes[sc]; !ok {
						c.errorf(fmt.Sprintf("%s[%d]", np, j), "scope %q is not among the scopes scheme %q declares (%s)", sc, name, strings.Join(slices.Sorted(maps.Keys(scopes)), ", "))
					}
				}
			}
		}
	}
}

// reasonWords counts the words of a reason: runs of two letters or more
// (format characters, punctuation and lone letters say nothing).
func reasonWords(s string) int {
	n := 0
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Cf, r) }) {
		letters := 0
		for _, r := range w {
			switch {
			case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
				n++ // written without spaces: each character counts
			case unicode.IsLetter(r):
				letters++
			}
		}
		if letters >= 2 {
			n++
		}
	}
	return n
}

// validateLint checks [agents.lint]: every silenced rule is a rule, with a
// reason.
func (c *checker) validateLint(p string, l *Lint) {
	for _, id := range slices.Sorted(maps.Keys(l.Silence)) {
		kp := p + ".silence." + id
		if !lintrule.Known(id) {
			msg := fmt.Sprintf("%q is not a lint rule", id)
			best, bestDist := "", 4
			for _, rule := range lintrule.IDs() {
				if d := EditDistance(id, rule); d < bestDist {
					best, bestDist = rule, d
				}
			}
			if best != "" {
				msg += fmt.Sprintf("; did you mean %q?", best)
			}
			c.errorf(kp, "%s (agentcards lint -rules lists the rules)", msg)
			continue
		}
		if reasonWords(l.Silence[id]) < 2 {
			c.errorf(kp, "give the reason the rule does not apply to this agent, in words: a finding silenced without one hides a problem from the next reader")
		}
	}
}
