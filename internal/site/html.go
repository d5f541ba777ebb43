package site

import (
	"fmt"
	"html/template"
	"maps"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/markdown"
)

// TemplatesDir is the folder beside agents.toml whose files override the
// built-in templates of the same name.
const TemplatesDir = "templates"

// siteInfo is what every page knows about the site.
type siteInfo struct {
	Title   string
	BaseURL string
	// Pages are site/*.md and site/<folder>/index.md, which the
	// navigation lists; Nested are the other pages of site/<folder>/.
	Pages  []extraPage
	Nested []extraPage
}

// all is every extra page, the navigation's first.
func (s siteInfo) all() []extraPage { return append(slices.Clip(s.Pages), s.Nested...) }

// pageRoot is the relative path from the extra page slug to the site root.
func pageRoot(slug string) string {
	return strings.Repeat("../", strings.Count(slug, "/")+1)
}

// renderPage renders the Markdown of site/<rel> for its page (the front
// page for index.md), where a relative link to another .md file of site/
// leads to that file's page: guide.md#setup to ../guide/#setup,
// ../index.md to the front page, agents/<id>.md to the agent's page.
// Other links are left as written.
func renderPage(src, rel string) (template.HTML, error) {
	slug := strings.TrimSuffix(rel, ".md")
	root := pageRoot(slug)
	if slug == "index" {
		root = ""
	} else if folder, ok := strings.CutSuffix(slug, "/index"); ok {
		root = pageRoot(folder)
	}
	return markdown.RenderLinks(markdown.NewIDs(templateIDs...), src, func(dest string) string {
		u, err := url.Parse(dest)
		if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || strings.HasPrefix(u.Path, "/") || !strings.HasSuffix(u.Path, ".md") {
			return dest
		}
		target := path.Join(path.Dir(rel), u.Path)
		if target == ".." || strings.HasPrefix(target, "../") {
			return dest
		}
		target = strings.TrimSuffix(target, ".md")
		if target == "index" {
			target = ""
		} else if folder, ok := strings.CutSuffix(target, "/index"); ok {
			target = folder
		}
		href := root + target
		if target != "" && !strings.HasSuffix(target, "/") {
			href += "/"
		}
		if href == "" {
			href = "./"
		}
		if u.Fragment != "" {
			href += "#" + u.EscapedFragment()
		}
		return href
	})
}

// pageData is what a page template executes with. It and the views in it
// (agentPage, mcpView) are flat on purpose, however many fields they have:
// templates, the built-in ones and the overrides in templates/, name their
// fields, and a field promoted from an embedded struct is looked up by
// reflect's slow path, which cost some 300 allocations per agent page
// (about 5% more bytes allocated by a whole build).
type pageData struct {
	Site        siteInfo
	Lang        string
	Title       string
	Description string
	Canonical   string
	Root        string // relative path from the page to the site root
	JSONLD      any

	Intro        template.HTML
	Agents       []indexAgent
	Pager        *pagerView
	SearchShards int
	Agent        *agentPage
	Body         template.HTML
	// TOC is a Markdown page's table of contents, when it is long: it
	// goes between Lead (the page's first heading) and Rest.
	TOC        []tocEntry
	Lead, Rest template.HTML
	// MCP is an MCP server's page; MCPServers the front page's list.
	MCP        *mcpView
	MCPServers []indexMCP
	// Keys and Catalog are the keys' and the catalog's pages; Count is
	// how many agents the site has.
	Keys    []keyView
	Catalog *catalogView
	Count   int
}

// indexMCP is what the front page shows of an MCP server.
type indexMCP struct {
	ID, Title, Version, Description string
	Tools                           int
	Tags                            []string
}

// indexAgent is what the front page shows of an agent.
type indexAgent struct {
	ID, Name, Version, Summary string
	IconURL                    string
	Tags                       []string
	Default                    bool
	// Auth are the kinds of authentication it needs ("API key"...),
	// none when it needs none.
	Auth                         []string
	Streaming, PushNotifications bool
}

// agentPage is what an agent's page shows.
type agentPage struct {
	ID, Name, Version string
	// Remote is set for a remote agent: who operates it, where.
	Remote                    *gatewayView
	Provider                  *manifest.Provider
	Description, Docs         template.HTML
	DocumentationURL, IconURL string
	Default                   bool
	Interfaces                []interfaceView
	Call                      *callExample
	// DocsHeading says the docs begin with a heading of their own, so
	// the page adds none above them.
	DocsHeading                  bool
	Streaming, PushNotifications bool
	ExtendedAgentCard            bool
	Extensions                   []manifest.Extension
	InputModes, OutputModes      []string
	Security                     []schemeWords
	SecuritySummary              string
	Skills                       []skillView
	// TOC lists the sections of a page with many skills.
	TOC           []tocEntry
	Signatures    []signatureView
	VerifyCommand string
}

type schemeWords struct{ Name, Words, Description string }

// interfaceView is an interface with its URL marked where a line may
// break. Like pageData it is flat: the fields of Interface are copied to
// the top, where templates find them fast, and Interface is kept whole
// for a template that names it (.Interface.URL), as it could when it was
// embedded.
type interfaceView struct {
	Interface                                     manifest.Interface
	URL, ProtocolBinding, ProtocolVersion, Tenant string
	Display                                       template.HTML
}

func newInterfaceView(in manifest.Interface) interfaceView {
	return interfaceView{Interface: in, URL: in.URL, ProtocolBinding: in.ProtocolBinding,
		ProtocolVersion: in.ProtocolVersion, Tenant: in.Tenant, Display: breakableURL(in.URL)}
}

// skillView is a skill with its security requirements in words. It is
// flat for the same reason as interfaceView, Skill kept whole.
type skillView struct {
	Skill                                   manifest.Skill
	ID, Name, Description                   string
	Tags, Examples, InputModes, OutputModes []string
	SecurityRequirements                    []manifest.Requirement
	Security                                string
}

func newSkillView(s manifest.Skill) skillView {
	return skillView{Skill: s, ID: s.ID, Name: s.Name, Description: s.Description,
		Tags: s.Tags, Examples: s.Examples, InputModes: s.InputModes, OutputModes: s.OutputModes,
		SecurityRequirements: s.SecurityRequirements, Security: describeRequirements(s.SecurityRequirements, "")}
}

type signatureView struct {
	KID, Alg   string
	Projection bool
}

// startsWithHeading reports whether Markdown begins with a heading.
func startsWithHeading(md string) bool {
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		return strings.HasPrefix(line, "#")
	}
	return false
}

// CloudflareMaxRules is how many _headers rules Cloudflare Pages applies.
const CloudflareMaxRules = 100

// frontPage renders page p (of pages) of the front list, showing agents.
func (pg *pages) frontPage(p, pages int, agents []*manifest.Agent) ([]byte, error) {
	m := pg.m
	root := ""
	if p > 1 {
		root = "../../"
	}
	title := ""
	if p > 1 {
		title = fmt.Sprintf("Agents, page %d of %d", p, pages)
	}
	data := pg.base(title, "Signed A2A Agent Cards published at "+m.Site.BaseURL, root)
	data.Canonical = m.Site.BaseURL + "/"
	if p > 1 {
		data.Canonical += frontPage(p)[:len(frontPage(p))-len("index.html")]
	}
	if p == 1 {
		data.Intro = pg.intro
		data.MCPServers = pg.mcpList()
	}
	for _, a := range agents {
		data.Agents = append(data.Agents, indexAgent{
			ID: a.ID, Name: a.Name, Version: a.Version, Summary: summary(a.Description),
			IconURL: a.IconURL, Tags: listedTags(a), Default: pg.plan.isDefault(a.ID),
			Auth: authKinds(a), Streaming: a.Capabilities.Streaming, PushNotifications: a.Capabilities.PushNotifications,
		})
	}
	data.Pager = pager(p, pages, root, pg.plan.n)
	data.SearchShards = pg.plan.groups
	data.JSONLD = map[string]any{
		"@context": "https://schema.org", "@type": "WebSite",
		"name": m.Site.Title, "url": m.Site.BaseURL + "/",
	}
	return pg.render("index.html", data)
}

// pagerView is the navigation between pages of the front list.
type pagerView struct {
	Page, Pages, Agents     int
	First, Prev, Next, Last string // hrefs; "" where there is none
	Near                    []pageLink
}

type pageLink struct {
	N       int
	Href    string
	Current bool
}

// pager links page p to its neighbours; nil for a list of one page.
func pager(p, pages int, root string, agents int) *pagerView {
	if pages <= 1 {
		return nil
	}
	href := func(n int) string {
		if n == 1 {
			return root
		}
		return root + layout.PagesFolder + "/" + strconv.Itoa(n) + "/"
	}
	v := &pagerView{Page: p, Pages: pages, Agents: agents}
	if p > 1 {
		v.First, v.Prev = href(1), href(p-1)
	}
	if p < pages {
		v.Next, v.Last = href(p+1), href(pages)
	}
	for n := max(1, p-3); n <= min(pages, p+3); n++ {
		v.Near = append(v.Near, pageLink{N: n, Href: href(n), Current: n == p})
	}
	return v
}

// summary is the first paragraph of a description, as plain text.
func summary(desc string) string {
	s := strings.TrimSpace(strings.SplitN(strings.TrimSpace(desc), "\n\n", 2)[0])
	return strings.Join(strings.Fields(s), " ")
}

// gatewayView is what a remote agent's page says of where it runs.
type gatewayView struct {
	Operator, UpstreamCard, Gateway, FetchedAt string
	// JWKS says the owner's keys were kept beside the copy (a card taken
	// unsigned has none).
	JWKS bool
}

// agentPage renders an agent's page.
func (pg *pages) agentPage(a *manifest.Agent, projected bool) ([]byte, error) {
	data, err := pg.agentData(a, projected)
	if err != nil {
		return nil, err
	}
	return pg.render("agent.html", data)
}

// agentData is what an agent's page is rendered from.
func (pg *pages) agentData(a *manifest.Agent, projected bool) (*pageData, error) {
	m, signers := pg.m, pg.signers
	// One id set for the page: description and docs never share an id,
	// nor take the template's or a skill's.
	reserved := slices.Clone(templateIDs)
	for _, s := range a.Skills {
		reserved = append(reserved, "skill-"+s.ID)
	}
	ids := markdown.NewIDs(reserved...)
	desc, err := markdown.RenderWith(ids, a.Description)
	if err != nil {
		return nil, err
	}
	docsHTML, err := markdown.RenderWith(ids, pg.docs[a.ID])
	if err != nil {
		return nil, err
	}
	p := &agentPage{
		ID: a.ID, Name: a.Name, Version: a.Version, Provider: m.EffectiveProvider(a),
		Description: desc, Docs: docsHTML,
		DocumentationURL: a.DocumentationURL, IconURL: a.IconURL,
		Default: pg.plan.isDefault(a.ID),
		Call:    howToCall(a), DocsHeading: startsWithHeading(pg.docs[a.ID]),
		Streaming: a.Capabilities.Streaming, PushNotifications: a.Capabilities.PushNotifications,
		ExtendedAgentCard: a.Capabilities.ExtendedAgentCard, Extensions: a.Capabilities.Extensions,
		InputModes: a.InputModes(), OutputModes: a.OutputModes(),
	}
	for _, in := range a.SupportedInterfaces {
		p.Interfaces = append(p.Interfaces, newInterfaceView(in))
	}
	if r := a.Remote; r != nil {
		// The owner's provider only: the site's [provider] does not run it.
		p.Provider = a.Provider
		p.Remote = &gatewayView{Operator: r.Operator, UpstreamCard: r.Upstream.URL, Gateway: r.Gateway,
			FetchedAt: r.Upstream.FetchedAt.UTC().Format("2006-01-02 15:04 UTC"), JWKS: r.Upstream.JWKS != ""}
	}
	for _, name := range slices.Sorted(maps.Keys(a.SecuritySchemes)) {
		s := a.SecuritySchemes[name]
		p.Security = append(p.Security, schemeWords{Name: name, Words: describeScheme(s), Description: s.Description})
	}
	p.SecuritySummary = describeRequirements(a.SecurityRequirements, "Clients authenticate with")
	for _, s := range a.Skills {
		p.Skills = append(p.Skills, newSkillView(s))
	}
	if len(a.Skills) >= tocMinSkills {
		p.TOC = agentTOC(p)
	}
	for _, s := range signers {
		p.Signatures = append(p.Signatures, signatureView{KID: s.KID, Alg: s.Alg})
	}
	if projected {
		for _, s := range signers {
			p.Signatures = append(p.Signatures, signatureView{KID: s.KID, Alg: s.Alg, Projection: true})
		}
	}
	cardURL := CardURL(m, a.ID)
	// Visitors paste this into a shell: every URL is one safe word.
	p.VerifyCommand = "agentcards verify " + shellQuote(shellURL(cardURL))
	if u := m.Site.BaseURL; strings.Count(u, "/") > 2 {
		// A site below a path: its JWKS is not at the origin's root.
		p.VerifyCommand = "agentcards verify -jwks " + shellQuote(shellURL(JWKSURL(m))) + " " + shellQuote(shellURL(cardURL))
	}
	sum := summary(a.Description)
	data := pg.base(a.Name, sum, "../../")
	data.Agent = p
	data.Canonical = AgentURL(m, a.ID)
	ld := map[string]any{
		"@context": "https://schema.org", "@type": "SoftwareApplication",
		"name": a.Name, "description": sum, "softwareVersion": a.Version,
		"applicationCategory": "AI agent (A2A)", "url": AgentURL(m, a.ID),
	}
	if prov := p.Provider; prov != nil {
		ld["provider"] = map[string]any{"@type": "Organization", "name": prov.Organization, "url": prov.URL}
	}
	if a.DocumentationURL != "" {
		ld["sameAs"] = a.DocumentationURL
	}
	data.JSONLD = ld
	return data, nil
}

// describeScheme says in plain words what a client sends.
func describeScheme(s manifest.SecurityScheme) string {
	switch s.Type {
	case manifest.TypeAPIKey:
		where := map[string]string{"header": "header", "query": "query parameter", "cookie": "cookie"}[s.Location]
		return fmt.Sprintf("an API key, sent in the %q %s", s.Name, where)
	case manifest.TypeHTTP:
		switch strings.ToLower(s.Scheme) {
		case "bearer":
			w := "a bearer token in the Authorization header (Authorization: Bearer …)"
			if s.BearerFormat != "" {
				w += "; the token is a " + s.BearerFormat
			}
			return w
		case "basic":
			return "a user name and password, with HTTP Basic authentication"
		}
		return fmt.Sprintf("HTTP %q authentication", s.Scheme)
	case manifest.TypeOAuth2:
		var b strings.Builder
		b.WriteString("an OAuth 2.0 access token")
		if f := s.Flows; f != nil {
			switch {
			case f.AuthorizationCode != nil:
				fmt.Fprintf(&b, " from the authorization code flow (authorize at %s, tokens from %s", f.AuthorizationCode.AuthorizationURL, f.AuthorizationCode.TokenURL)
				if f.AuthorizationCode.PKCERequired {
					b.WriteString(", PKCE required")
				}
				b.WriteString(")")
			case f.ClientCredentials != nil:
				fmt.Fprintf(&b, " from the client credentials flow (tokens from %s)", f.ClientCredentials.TokenURL)
			case f.DeviceCode != nil:
				fmt.Fprintf(&b, " from the device authorization flow (start at %s, tokens from %s)", f.DeviceCode.DeviceAuthorizationURL, f.DeviceCode.TokenURL)
			}
			if sc := s.Scopes(); len(sc) > 0 {
				var parts []string
				for _, k := range slices.Sorted(maps.Keys(sc)) {
					parts = append(parts, k+" ("+sc[k]+")")
				}
				b.WriteString("; scopes: " + strings.Join(parts, ", "))
			}
		}
		if s.OAuth2MetadataURL != "" {
			b.WriteString("; server metadata at " + s.OAuth2MetadataURL)
		}
		return b.String()
	case manifest.TypeOpenIDConnect:
		return "an OpenID Connect token (discovery document: " + s.OpenIDConnectURL + ")"
	default:
		return "a client TLS certificate (mutual TLS)"
	}
}

// describeRequirements says which schemes (and scopes) a client needs.
func describeRequirements(reqs []manifest.Requirement, lead string) string {
	if len(reqs) == 0 {
		return ""
	}
	var alts []string
	for _, r := range reqs {
		var all []string
		for _, name := range slices.Sorted(maps.Keys(r)) {
			w := name
			if len(r[name]) > 0 {
				w += " (scopes " + strings.Join(r[name], ", ") + ")"
			}
			all = append(all, w)
		}
		alts = append(alts, strings.Join(all, " and "))
	}
	s := strings.Join(alts, "; or ")
	if len(alts) > 1 {
		s = "any one of: " + s
	}
	if lead != "" {
		return lead + " " + s + "."
	}
	return s
}
