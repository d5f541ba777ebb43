package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	sitelayout "github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/remote"
)

// GatewayExtension is the URI of the A2A extension a gateway's card of a
// remote agent carries: whose agent it is and where the original lives
// (README, "Remote agent gateway extension v1").
const GatewayExtension = "https://github.com/agentcards/agentcards/blob/main/README.md#remote-agent-gateway-extension-v1"

// RemoteAgent is one [[remoteAgents]] entry: an agent that runs elsewhere,
// published under /agents/<id>/ from a snapshot of its owner's card
// (agentcards remote fetch), its interface URLs routed through a gateway
// and its card signed by this site's keys.
type RemoteAgent struct {
	// ID is a URL slug: the agent is published at /agents/<id>/; unique
	// among all agents.
	ID string `toml:"id"`
	// Snapshot is the file `agentcards remote fetch` wrote, relative to
	// the manifest's folder.
	Snapshot string `toml:"snapshot"`
	// Gateway is the URL every interface of the remote card is routed
	// through: each interface URL's path is appended to it.
	Gateway string `toml:"gateway"`
	// Interfaces gives the URL of the remote card's interfaces of a
	// binding (JSONRPC, GRPC, HTTP+JSON) outright, instead of the one made
	// from the gateway, e.g. interfaces = { JSONRPC = "https://gw.example.com/rpc" }.
	Interfaces map[string]string `toml:"interfaces"`
	// Lint silences lint rules for the gateway's card, as [agents.lint]
	// does for an agent.
	Lint *Lint `toml:"lint"`

	// Upstream is the snapshot, read and checked (remote.Read).
	Upstream *remote.Snapshot `toml:"-"`
	// UpstreamPath is where it was read from.
	UpstreamPath string `toml:"-"`
}

// RemoteOrigin is what a synthesized remote agent keeps of where it came
// from: the site builds its cards from Card, not from the Agent's fields.
type RemoteOrigin struct {
	// Gateway is the [[remoteAgents]] gateway URL.
	Gateway string
	// Upstream is the owner's card as fetched, with its JWKS.
	Upstream *remote.Snapshot
	// Card is the gateway's card before signing: the owner's card with
	// its interface URLs routed through the gateway, its signatures
	// removed and the gateway extension added.
	Card map[string]any
	// Operator is who runs the agent: the owner card's provider
	// organization, else the host of its URL.
	Operator string
}

// validateRemoteAgents checks every [[remoteAgents]] entry and reads its
// snapshot.
func (c *checker) validateRemoteAgents(m *Manifest) {
	seen := map[string]int{}
	for i := range m.RemoteAgents {
		r := &m.RemoteAgents[i]
		p := "remoteAgents[" + strconv.Itoa(i) + "]"
		n := len(c.errs)
		switch {
		case r.ID == "":
			c.errorf(p+".id", "required: a URL slug such as \"partner-travel\" (it becomes /agents/<id>/)")
		case !slugRE.MatchString(r.ID):
			c.errorf(p+".id", "%q is not a URL slug: use 1-64 lower-case letters, digits and inner hyphens", r.ID)
		default:
			if j, dup := seen[r.ID]; dup {
				c.errorf(p+".id", "duplicate id %q (also remoteAgents[%d].id); ids must be unique", r.ID, j)
			}
			seen[r.ID] = i
		}
		if r.Gateway == "" {
			c.errorf(p+".gateway", "required: the https URL the agent is routed through, e.g. \"https://gateway.example.com/a2a/%s\"", r.ID)
		} else if c.checkURL(p+".gateway", r.Gateway) {
			if u, _ := url.Parse(r.Gateway); u.RawQuery != "" || u.Fragment != "" {
				c.errorf(p+".gateway", "must not have a query or fragment: the interfaces' paths are appended to it")
			}
		}
		for _, b := range slices.Sorted(maps.Keys(r.Interfaces)) {
			kp := join(p+".interfaces", b)
			if !contains(Bindings, b) {
				c.errorf(kp, "%q is not an A2A binding: use one of %s", b, strings.Join(Bindings, ", "))
			} else if r.Interfaces[b] == "" {
				c.errorf(kp, "must not be empty: give the URL, or leave the key out")
			} else {
				c.checkURL(kp, r.Interfaces[b])
			}
		}
		if r.Lint != nil {
			c.validateLint(p+".lint", r.Lint)
		}
		if r.Snapshot == "" {
			c.errorf(p+".snapshot", "required: the snapshot of the agent's card, made with `agentcards remote fetch -o remote/%s.json URL`", r.ID)
			continue
		}
		r.UpstreamPath = r.Snapshot
		if !filepath.IsAbs(r.UpstreamPath) {
			r.UpstreamPath = filepath.Join(m.Dir, filepath.FromSlash(r.Snapshot))
		}
		s, err := remote.Read(r.UpstreamPath)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			c.errorf(p+".snapshot", "%s does not exist: make it with `agentcards remote fetch -o %s URL`", r.UpstreamPath, r.Snapshot)
		case err != nil:
			c.errorf(p+".snapshot", "%v", err)
		case len(c.errs) == n:
			// Only an entry without problems makes an agent.
			r.Upstream = s
		}
	}
}

// RemoteAgentOf is the agent synthesized for a remote agent whose entry
// and snapshot were checked: its fields read from the gateway's card (for
// the page, the catalog and lint), its Remote the card itself.
func (m *Manifest) RemoteAgentOf(r *RemoteAgent) (Agent, error) {
	gw, err := m.GatewayCard(r)
	if err != nil {
		return Agent{}, err
	}
	a, err := agentFromCard(gw)
	if err != nil {
		return Agent{}, err
	}
	a.ID, a.Lint = r.ID, r.Lint
	op := ""
	if a.Provider != nil {
		op = a.Provider.Organization
	} else if u, err := url.Parse(r.Upstream.URL); err == nil {
		op = u.Hostname()
	}
	a.Remote = &RemoteOrigin{Gateway: r.Gateway, Upstream: r.Upstream, Card: gw, Operator: op}
	return a, nil
}

// GatewayCard is the gateway's card of a remote agent, before signing: the
// owner's v1.0 card (or its v0.3 card in the v1.0 shape, card.FromV03)
// with every interface URL routed through the gateway (or as the entry's
// interfaces table gives it), the owner's signatures removed and the
// gateway extension added.
func (m *Manifest) GatewayCard(r *RemoteAgent) (map[string]any, error) {
	tree, err := card.Decode([]byte(r.Upstream.Card), card.Strict)
	if err != nil {
		return nil, fmt.Errorf("the snapshot's card: %v", err)
	}
	upstreamVersion := ""
	if card.IsV03(tree) {
		upstreamVersion, _ = tree["protocolVersion"].(string)
		if upstreamVersion == "" {
			upstreamVersion = card.LegacyProtocolVersion
		}
		if tree, err = card.FromV03(tree); err != nil {
			return nil, fmt.Errorf("the snapshot's card is an A2A v0.3 card that has no v1.0 form: %v", err)
		}
	}
	ifaces, ok := tree["supportedInterfaces"].([]any)
	if !ok {
		return nil, errors.New("the snapshot's card has no supportedInterfaces (v1.0) nor url (v0.3): it is not an A2A card")
	}
	delete(tree, "signatures")
	used := map[string]bool{}
	for i, v := range ifaces {
		in, _ := v.(map[string]any)
		from, _ := in["url"].(string)
		binding, _ := in["protocolBinding"].(string)
		if in == nil || from == "" {
			return nil, fmt.Errorf("the snapshot's card: supportedInterfaces[%d] has no url", i)
		}
		if to, ok := r.Interfaces[binding]; ok {
			in["url"], used[binding] = to, true
			continue
		}
		to, err := RebaseURL(r.Gateway, from)
		if err != nil {
			return nil, fmt.Errorf("the snapshot's card: supportedInterfaces[%d].url: %v", i, err)
		}
		in["url"] = to
	}
	for _, b := range slices.Sorted(maps.Keys(r.Interfaces)) {
		if !used[b] {
			return nil, &overrideError{b}
		}
	}
	caps, _ := tree["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
		tree["capabilities"] = caps
	}
	exts, _ := caps["extensions"].([]any)
	for _, e := range exts {
		if em, _ := e.(map[string]any); em != nil && em["uri"] == GatewayExtension {
			return nil, errors.New("the snapshot's card already carries the gateway extension: it is another gateway's card; fetch the owner's own card instead")
		}
	}
	caps["extensions"] = append(exts, m.gatewayExtension(r, upstreamVersion))
	return tree, nil
}

// gatewayExtension is the extension that says whose agent a gateway card
// routes and where the original and its keys are; upstreamVersion is the
// protocolVersion of an owner's card in the v0.3 shape, "" for v1.0.
func (m *Manifest) gatewayExtension(r *RemoteAgent, upstreamVersion string) map[string]any {
	s := r.Upstream
	params := map[string]any{
		"upstreamCard": s.URL,
		"upstreamCopy": sitelayout.URL(m.Site.BaseURL, sitelayout.AgentFile(r.ID, sitelayout.UpstreamCardFile)),
		"fetchedAt":    s.FetchedAt.UTC().Format(time.RFC3339),
		"gateway":      r.Gateway,
	}
	if s.JWKS != "" {
		params["upstreamJwks"] = sitelayout.URL(m.Site.BaseURL, sitelayout.AgentFile(r.ID, sitelayout.UpstreamJWKSFile))
	}
	if len(r.Interfaces) > 0 {
		var set []any
		for _, b := range slices.Sorted(maps.Keys(r.Interfaces)) {
			set = append(set, b)
		}
		params["setOutright"] = set
	}
	if upstreamVersion != "" {
		params["upstreamVersion"] = upstreamVersion
	}
	if len(s.Verification.KIDs) > 0 {
		kids := make([]any, len(s.Verification.KIDs))
		for i, k := range s.Verification.KIDs {
			kids[i] = k
		}
		params["upstreamKids"] = kids
	}
	return map[string]any{
		"uri":         GatewayExtension,
		"description": "This agent is operated by its owner elsewhere and routed through this gateway: upstreamCard is the owner's card, upstreamCopy the copy this site took of it (with the owner's signatures), upstreamJwks the owner's keys then; every interface URL is the owner's path under gateway, but for the bindings in setOutright.",
		"params":      params,
	}
}

// RebaseURL is from routed through gateway: from's path (and query)
// appended to gateway's path, which has no query.
func RebaseURL(gateway, from string) (string, error) {
	f, err := url.Parse(from)
	if err != nil || !f.IsAbs() {
		return "", fmt.Errorf("%q is not an absolute URL", from)
	}
	if hasDotSegment(f.EscapedPath()) {
		// Appended to the gateway's path, "." and ".." (in any encoding
		// a URL parser decodes) would lead out of it once a client
		// resolves the URL: to any path of the gateway's host.
		return "", fmt.Errorf("%q has a \".\" or \"..\" segment in its path, which would lead out of the gateway's path once resolved: give this binding's URL outright in the entry's interfaces", from)
	}
	out := strings.TrimSuffix(gateway, "/") + f.EscapedPath()
	if f.EscapedPath() == "" || f.EscapedPath() == "/" && strings.HasSuffix(gateway, "/") {
		out = gateway
	}
	if f.RawQuery != "" {
		out += "?" + f.RawQuery
	}
	return out, nil
}

// hasDotSegment reports whether the escaped path has a "." or ".."
// segment, spelled out or percent-encoded (%2e), as URL parsers resolve
// them.
func hasDotSegment(escapedPath string) bool {
	for _, seg := range strings.Split(escapedPath, "/") {
		switch strings.ReplaceAll(strings.ToLower(seg), "%2e", ".") {
		case ".", "..":
			return true
		}
	}
	return false
}

// overrideError is an interfaces key naming a binding the remote card
// has no interface of.
type overrideError struct{ binding string }

func (e *overrideError) Error() string {
	return fmt.Sprintf("the remote card has no %s interface: remove this key (its bindings are in the snapshot's card, supportedInterfaces)", e.binding)
}

// checkRemoteAgent makes the agent of remote agent r and checks it as an
// agent; its problems are reported at the entry's snapshot key.
func (c *checker) checkRemoteAgent(p string, m *Manifest, r *RemoteAgent) bool {
	a, err := m.RemoteAgentOf(r)
	var oe *overrideError
	switch {
	case errors.As(err, &oe):
		c.errorf(join(p+".interfaces", oe.binding), "%v", err)
		return false
	case err != nil:
		c.errorf(p+".snapshot", "%s: %v", r.UpstreamPath, err)
		return false
	}
	sub := &checker{file: c.file}
	sub.validateAgent("card", m, &a)
	if len(sub.errs) == 0 {
		return true
	}
	var msgs []string
	for _, d := range sub.errs {
		msgs = append(msgs, d.Path+": "+d.Msg)
	}
	c.errorf(p+".snapshot", "%s: the gateway's card would not be valid: %s", r.UpstreamPath, strings.Join(msgs, "; "))
	return false
}

// agentFromCard reads a v1.0 card's fields into an Agent.
func agentFromCard(tree map[string]any) (Agent, error) {
	if at, got, want := caseVariant(tree, reflect.TypeFor[card.V1](), ""); got != "" {
		// encoding/json would read "Skills" as skills: the page would
		// show what A2A clients, which read member names exactly, do not.
		return Agent{}, fmt.Errorf("the snapshot's card: %s has a member %q, which A2A spells %q: clients read it as an unknown member, so the gateway will not publish it as the owner's %s; ask the owner to fix the card", orCard(at), got, want, want)
	}
	b, err := json.Marshal(tree)
	if err != nil {
		return Agent{}, err
	}
	var v card.V1
	if err := json.Unmarshal(b, &v); err != nil {
		return Agent{}, fmt.Errorf("the snapshot's card: %v", err)
	}
	a := Agent{
		Name: v.Name, Description: v.Description, Version: v.Version,
		DocumentationURL: v.DocumentationURL, IconURL: v.IconURL,
		DefaultInputModes: v.DefaultInputModes, DefaultOutputModes: v.DefaultOutputModes,
		Capabilities: Capabilities{Streaming: v.Capabilities.Streaming, PushNotifications: v.Capabilities.PushNotifications, ExtendedAgentCard: v.Capabilities.ExtendedAgentCard},
	}
	if v.Provider != nil {
		a.Provider = &Provider{Organization: v.Provider.Organization, URL: v.Provider.URL}
	}
	for _, in := range v.SupportedInterfaces {
		a.SupportedInterfaces = append(a.SupportedInterfaces, Interface{URL: in.URL, ProtocolBinding: in.ProtocolBinding, ProtocolVersion: in.ProtocolVersion, Tenant: in.Tenant})
	}
	for _, e := range v.Capabilities.Extensions {
		a.Capabilities.Extensions = append(a.Capabilities.Extensions, Extension{URI: e.URI, Description: e.Description, Required: e.Required, Params: e.Params})
	}
	if len(v.SecuritySchemes) > 0 {
		a.SecuritySchemes = map[string]SecurityScheme{}
		for name, s := range v.SecuritySchemes {
			a.SecuritySchemes[name] = flatScheme(s)
		}
	}
	a.SecurityRequirements = requirementsOf(v.SecurityRequirements)
	for _, s := range v.Skills {
		a.Skills = append(a.Skills, Skill{
			ID: s.ID, Name: s.Name, Description: s.Description, Tags: s.Tags, Examples: s.Examples,
			InputModes: s.InputModes, OutputModes: s.OutputModes, SecurityRequirements: requirementsOf(s.SecurityRequirements),
		})
	}
	return a, nil
}

// flatScheme is a v1.0 security scheme in the manifest's flat form.
func flatScheme(s card.SecuritySchemeV1) SecurityScheme {
	switch {
	case s.APIKey != nil:
		return SecurityScheme{Type: TypeAPIKey, Description: s.APIKey.Description, Location: s.APIKey.Location, Name: s.APIKey.Name}
	case s.HTTPAuth != nil:
		return SecurityScheme{Type: TypeHTTP, Description: s.HTTPAuth.Description, Scheme: s.HTTPAuth.Scheme, BearerFormat: s.HTTPAuth.BearerFormat}
	case s.OAuth2 != nil:
		out := SecurityScheme{Type: TypeOAuth2, Description: s.OAuth2.Description, OAuth2MetadataURL: s.OAuth2.OAuth2MetadataURL, Flows: &OAuthFlows{}}
		f := s.OAuth2.Flows
		switch {
		case f.AuthorizationCode != nil:
			x := f.AuthorizationCode
			out.Flows.AuthorizationCode = &AuthorizationCodeFlow{AuthorizationURL: x.AuthorizationURL, TokenURL: x.TokenURL, RefreshURL: x.RefreshURL, Scopes: x.Scopes, PKCERequired: x.PKCERequired}
		case f.ClientCredentials != nil:
			x := f.ClientCredentials
			out.Flows.ClientCredentials = &ClientCredentialsFlow{TokenURL: x.TokenURL, RefreshURL: x.RefreshURL, Scopes: x.Scopes}
		case f.DeviceCode != nil:
			x := f.DeviceCode
			out.Flows.DeviceCode = &DeviceCodeFlow{DeviceAuthorizationURL: x.DeviceAuthorizationURL, TokenURL: x.TokenURL, RefreshURL: x.RefreshURL, Scopes: x.Scopes}
		}
		return out
	case s.OpenIDConnect != nil:
		return SecurityScheme{Type: TypeOpenIDConnect, Description: s.OpenIDConnect.Description, OpenIDConnectURL: s.OpenIDConnect.OpenIDConnectURL}
	case s.MTLS != nil:
		return SecurityScheme{Type: TypeMutualTLS, Description: s.MTLS.Description}
	}
	return SecurityScheme{}
}

// requirementsOf is v1.0 security requirements in the manifest's form.
func requirementsOf(reqs []card.RequirementV1) []Requirement {
	var out []Requirement
	for _, r := range reqs {
		req := Requirement{}
		for name, l := range r.Schemes {
			req[name] = append([]string{}, l.List...)
		}
		out = append(out, req)
	}
	return out
}

// caseVariant finds, in the JSON value v read as type t, a member whose
// name differs only in letter case from one of t's: where (a path), the
// name found and the name t has; "" when there is none.
func caseVariant(v any, t reflect.Type, at string) (where, got, want string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if items, ok := v.([]any); ok {
			for i, item := range items {
				if w, g, n := caseVariant(item, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); g != "" {
					return w, g, n
				}
			}
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if w, g, n := caseVariant(m[k], t.Elem(), join(at, k)); g != "" {
					return w, g, n
				}
			}
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return "", "", ""
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "" && name != "-" && f.IsExported() {
				fields[name] = f.Type
			}
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if ft, ok := fields[k]; ok {
				if w, g, n := caseVariant(m[k], ft, join(at, k)); g != "" {
					return w, g, n
				}
				continue
			}
			for name := range fields {
				if strings.EqualFold(name, k) {
					return at, k, name
				}
			}
		}
	}
	return "", "", ""
}

// orCard is at, or "the card" for its top.
func orCard(at string) string {
	if at == "" {
		return "the card"
	}
	return at
}
