package site

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/markdown"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
)

// Files the docs add at the top of the output folder.
const (
	SearchIndexFile = "search-index.json"
	SitemapFile     = "sitemap.xml"
	RobotsFile      = "robots.txt"
	NotFoundFile    = "404.html"
)

// PagesDir is the folder beside agents.toml holding hand-written Markdown:
// index.md (the front page's intro), agents/<id>.md (long-form docs per
// agent) and any other *.md (an extra page at /<name>/).
const PagesDir = "site"

// TemplatesDir is the folder beside agents.toml whose files override the
// built-in templates of the same name.
const TemplatesDir = "templates"

// extraPage is a site/*.md page.
type extraPage struct {
	Slug, Title string
	Body        template.HTML
}

// siteInfo is what every page knows about the site.
type siteInfo struct {
	Title   string
	BaseURL string
	Pages   []extraPage
}

// pageData is what a page template executes with.
type pageData struct {
	Site        siteInfo
	Lang        string
	Title       string
	Description string
	Canonical   string
	Root        string // relative path from the page to the site root
	JSONLD      any

	Intro  template.HTML
	Agents []indexAgent
	Agent  *agentPage
	Body   template.HTML
}

// indexAgent is what the front page shows of an agent.
type indexAgent struct {
	ID, Name, Version, Summary string
	Tags                       []string
	Default                    bool
}

// agentPage is what an agent's page shows.
type agentPage struct {
	ID, Name, Version            string
	Provider                     *manifest.Provider
	Description, Docs            template.HTML
	DocumentationURL, IconURL    string
	Default                      bool
	Interfaces                   []manifest.Interface
	Streaming, PushNotifications bool
	ExtendedAgentCard            bool
	Extensions                   []manifest.Extension
	InputModes, OutputModes      []string
	Security                     []schemeWords
	SecuritySummary              string
	Skills                       []skillView
	Signatures                   []signatureView
	VerifyCommand                string
}

type schemeWords struct{ Name, Words, Description string }

type skillView struct {
	manifest.Skill
	Security string
}

type signatureView struct {
	KID, Alg   string
	Projection bool
}

// docs renders the human-readable pages into root.
type docs struct {
	m        *manifest.Manifest
	root     string
	tpl      *templates.Set
	info     siteInfo
	intro    template.HTML
	agentSrc map[string]string // site/agents/<id>.md
	files    map[string][]byte
	notes    []string
}

// CloudflareMaxRules is how many _headers rules Cloudflare Pages applies.
const CloudflareMaxRules = 100

// templateIDs are the element ids the built-in templates use; Markdown
// headings never take them (a heading "Agents" must not break the search).
var templateIDs = []string{"main", "q", "count", "agents", "no-match", "docs-h", "ifaces-h", "caps-h", "sec-h", "skills-h", "sig-h"}

// writeDocs renders every HTML page, the search index, sitemap, robots.txt,
// _headers and the assets; it returns notes for the user and how many
// files it wrote.
func writeDocs(root string, opts Options, projected map[string][]string) (notes []string, written int, err error) {
	m := opts.Manifest
	tpl, err := templates.Load(filepath.Join(m.Dir, TemplatesDir))
	if err != nil {
		return nil, 0, fmt.Errorf("templates: %w", err)
	}
	d := &docs{m: m, root: root, tpl: tpl, files: map[string][]byte{}, agentSrc: map[string]string{}}
	d.info = siteInfo{Title: m.Site.Title, BaseURL: m.Site.BaseURL}
	if err := d.readPages(); err != nil {
		return nil, 0, err
	}
	for _, a := range m.Agents {
		if err := d.agentPage(&a, opts.Signers, projected[a.ID] != nil && m.Site.ProjectionSignatures()); err != nil {
			return nil, 0, fmt.Errorf("agent %q page: %w", a.ID, err)
		}
	}
	if err := d.indexPage(); err != nil {
		return nil, 0, err
	}
	for _, p := range d.info.Pages {
		data := d.base(p.Title, "", "../")
		data.Body = p.Body
		data.Canonical = m.Site.BaseURL + "/" + p.Slug + "/"
		if err := d.render("page.html", filepath.Join(p.Slug, "index.html"), data); err != nil {
			return nil, 0, err
		}
	}
	// 404.html is served at any path, so its links are absolute.
	nf := d.base("Not found", "", m.Site.BaseURL+"/")
	if err := d.render("404.html", NotFoundFile, nf); err != nil {
		return nil, 0, err
	}
	for _, a := range templates.Assets {
		d.files[a] = tpl.Asset(a)
	}
	if err := d.searchIndex(); err != nil {
		return nil, 0, err
	}
	d.files[SitemapFile] = d.sitemap()
	var slugs []string
	for _, p := range d.info.Pages {
		slugs = append(slugs, p.Slug)
	}
	d.files[HeadersFile] = renderHeaders(slugs)
	if n := len(headerRules(slugs)); n > CloudflareMaxRules {
		d.notes = append(d.notes, fmt.Sprintf("_headers has %d rules; Cloudflare Pages reads only the first %d (fewer extra pages in site/ keep it under)", n, CloudflareMaxRules))
	}
	d.files[RobotsFile] = []byte("User-agent: *\nAllow: /\nSitemap: " + m.Site.BaseURL + "/" + SitemapFile + "\n")

	for _, name := range slices.Sorted(maps.Keys(d.files)) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, 0, err
		}
		if err := writeOutput(opts.Secrets, root, p, d.files[name]); err != nil {
			return nil, 0, err
		}
	}
	return d.notes, len(d.files), nil
}

// readPages reads site/: the intro, per-agent docs and extra pages.
func (d *docs) readPages() error {
	dir := filepath.Join(d.m.Dir, PagesDir)
	entries, err := regular.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".md") {
			continue
		}
		src, err := regular.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		html, err := markdown.RenderWith(markdown.NewIDs(templateIDs...), string(src))
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
		}
		slug := strings.TrimSuffix(name, ".md")
		if slug == "index" {
			d.intro = html
			continue
		}
		if !validSlug(slug) || slices.Contains(reservedTop, slug) {
			return fmt.Errorf("%s: page names must be lower-case slugs other than %s", filepath.Join(dir, name), strings.Join(reservedTop, ", "))
		}
		d.info.Pages = append(d.info.Pages, extraPage{Slug: slug, Title: pageTitle(string(src), slug), Body: html})
	}
	agentsDir := filepath.Join(dir, "agents")
	ids := map[string]bool{}
	for _, a := range d.m.Agents {
		ids[a.ID] = true
	}
	agentEntries, err := regular.ReadDir(agentsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range agentEntries {
		id, ok := strings.CutSuffix(e.Name(), ".md")
		if e.IsDir() || !ok {
			continue
		}
		if !ids[id] {
			return fmt.Errorf("%s: no agent has id %q (rename the file to <id>.md)", filepath.Join(agentsDir, e.Name()), id)
		}
		src, err := regular.ReadFile(filepath.Join(agentsDir, e.Name()))
		if err != nil {
			return err
		}
		d.agentSrc[id] = string(src)
	}
	return nil
}

// reservedTop are top-level names the build writes itself.
var reservedTop = []string{"agents", "index", "404", "search", "style", "sitemap", "robots"}

func validSlug(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// pageTitle is the page's first "# " heading, else its name.
func pageTitle(src, slug string) string {
	for _, line := range strings.Split(src, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return slug
}

func (d *docs) base(title, desc, root string) *pageData {
	return &pageData{Site: d.info, Lang: "en", Title: title, Description: desc, Root: root}
}

func (d *docs) render(page, out string, data *pageData) error {
	var b bytes.Buffer
	if err := d.tpl.Page(page).ExecuteTemplate(&b, "layout", data); err != nil {
		return fmt.Errorf("%s: %w", page, err)
	}
	d.files[filepath.ToSlash(out)] = b.Bytes()
	return nil
}

func (d *docs) indexPage() error {
	m := d.m
	data := d.base("", "Signed A2A Agent Cards: "+agentNames(m), "")
	data.Canonical = m.Site.BaseURL + "/"
	data.Intro = d.intro
	for i := range m.Agents {
		a := &m.Agents[i]
		data.Agents = append(data.Agents, indexAgent{
			ID: a.ID, Name: a.Name, Version: a.Version, Summary: summary(a.Description),
			Tags: skillTags(a), Default: a.ID == m.DefaultAgentID(),
		})
	}
	data.JSONLD = map[string]any{
		"@context": "https://schema.org", "@type": "WebSite",
		"name": m.Site.Title, "url": m.Site.BaseURL + "/",
	}
	return d.render("index.html", "index.html", data)
}

func agentNames(m *manifest.Manifest) string {
	names := make([]string, len(m.Agents))
	for i, a := range m.Agents {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// summary is the first paragraph of a description, as plain text.
func summary(desc string) string {
	s := strings.TrimSpace(strings.SplitN(strings.TrimSpace(desc), "\n\n", 2)[0])
	return strings.Join(strings.Fields(s), " ")
}

func (d *docs) agentPage(a *manifest.Agent, signers []*sign.Signer, projected bool) error {
	m := d.m
	// One id set for the page: description and docs never share an id,
	// nor take the template's or a skill's.
	reserved := slices.Clone(templateIDs)
	for _, s := range a.Skills {
		reserved = append(reserved, "skill-"+s.ID)
	}
	ids := markdown.NewIDs(reserved...)
	desc, err := markdown.RenderWith(ids, a.Description)
	if err != nil {
		return err
	}
	docsHTML, err := markdown.RenderWith(ids, d.agentSrc[a.ID])
	if err != nil {
		return err
	}
	p := &agentPage{
		ID: a.ID, Name: a.Name, Version: a.Version, Provider: m.EffectiveProvider(a),
		Description: desc, Docs: docsHTML,
		DocumentationURL: a.DocumentationURL, IconURL: a.IconURL,
		Default:    a.ID == m.DefaultAgentID(),
		Interfaces: a.SupportedInterfaces,
		Streaming:  a.Capabilities.Streaming, PushNotifications: a.Capabilities.PushNotifications,
		ExtendedAgentCard: a.Capabilities.ExtendedAgentCard, Extensions: a.Capabilities.Extensions,
		InputModes: a.InputModes(), OutputModes: a.OutputModes(),
	}
	for _, name := range slices.Sorted(maps.Keys(a.SecuritySchemes)) {
		s := a.SecuritySchemes[name]
		p.Security = append(p.Security, schemeWords{Name: name, Words: describeScheme(s), Description: s.Description})
	}
	p.SecuritySummary = describeRequirements(a.SecurityRequirements, "Clients authenticate with")
	for _, s := range a.Skills {
		p.Skills = append(p.Skills, skillView{Skill: s, Security: describeRequirements(s.SecurityRequirements, "")})
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
	p.VerifyCommand = "agentcards verify " + cardURL
	if u := m.Site.BaseURL; strings.Count(u, "/") > 2 {
		// A site below a path: its JWKS is not at the origin's root.
		p.VerifyCommand = "agentcards verify -jwks " + JWKSURL(m) + " " + cardURL
	}
	data := d.base(a.Name, summary(a.Description), "../../")
	data.Agent = p
	data.Canonical = AgentURL(m, a.ID)
	ld := map[string]any{
		"@context": "https://schema.org", "@type": "SoftwareApplication",
		"name": a.Name, "description": summary(a.Description), "softwareVersion": a.Version,
		"applicationCategory": "AI agent (A2A)", "url": AgentURL(m, a.ID),
	}
	if prov := p.Provider; prov != nil {
		ld["provider"] = map[string]any{"@type": "Organization", "name": prov.Organization, "url": prov.URL}
	}
	if a.DocumentationURL != "" {
		ld["sameAs"] = a.DocumentationURL
	}
	data.JSONLD = ld
	return d.render("agent.html", filepath.Join("agents", a.ID, "index.html"), data)
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

// searchIndex writes the prebuilt index the front page's search uses.
func (d *docs) searchIndex() error {
	type entry struct {
		ID          string   `json:"id"`
		Name        string   `json:"name"`
		Description string   `json:"description"`
		Tags        []string `json:"tags"`
		Skills      []string `json:"skills"`
		URL         string   `json:"url"`
	}
	var idx struct {
		Agents []entry `json:"agents"`
	}
	for i := range d.m.Agents {
		a := &d.m.Agents[i]
		e := entry{ID: a.ID, Name: a.Name, Description: a.Description, Tags: skillTags(a), URL: "agents/" + a.ID + "/"}
		for _, s := range a.Skills {
			e.Skills = append(e.Skills, s.Name, s.Description)
		}
		idx.Agents = append(idx.Agents, e)
	}
	b, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	d.files[SearchIndexFile] = append(b, '\n')
	return nil
}

func (d *docs) sitemap() []byte {
	type loc struct {
		Loc string `xml:"loc"`
	}
	urls := []loc{{d.m.Site.BaseURL + "/"}}
	for _, a := range d.m.Agents {
		urls = append(urls, loc{AgentURL(d.m, a.ID)})
	}
	for _, p := range d.info.Pages {
		urls = append(urls, loc{d.m.Site.BaseURL + "/" + p.Slug + "/"})
	}
	doc := struct {
		XMLName xml.Name `xml:"urlset"`
		XMLNS   string   `xml:"xmlns,attr"`
		URLs    []loc    `xml:"url"`
	}{XMLNS: "http://www.sitemaps.org/schemas/sitemap/0.9", URLs: urls}
	b, _ := xml.MarshalIndent(doc, "", "  ")
	return append([]byte(xml.Header), append(b, '\n')...)
}
