package site

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/htmlexec"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/remote"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
)

// hostileWords are pieces of the text hostileText strings together.
var hostileWords = []string{
	"", "plain", `"quoted"`, "'single'", "<script>alert(1)</script>", "</script>", "<!--", "-->", "&", "&amp;",
	"javascript:alert(1)", "JAVASCRIPT:x", "data:text/html,<b>", "https://a.example/p?q=1&r=<2>#f", "mailto:x@y",
	"/rel:ative", "%41%zz", "+", "=", "`", "\x00", "\x01\x1f\x7f", "\t\n\r", "\u2028\u2029", "\xff\xfe\xc3",
	"é日本🙂", "\ufdd0\uffff", "{{.}}", "*/", "# Heading", "- item", "**bold**", "[link](javascript:x)", "<b>raw</b>",
}

// hostileText is a random string of hostile pieces, now and then very
// long, now and then empty.
func hostileText(r *rand.Rand) string {
	n := r.IntN(6)
	if r.IntN(20) == 0 {
		n = 400
	}
	var b strings.Builder
	for range n {
		b.WriteString(hostileWords[r.IntN(len(hostileWords))])
		if r.IntN(3) == 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// hostileList is nil, empty or a few hostile strings.
func hostileList(r *rand.Rand) []string {
	switch r.IntN(4) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	out := make([]string, 1+r.IntN(4))
	for i := range out {
		out[i] = hostileText(r)
	}
	return out
}

// hostileAgent is an agent with hostile text in every field, and its
// optional parts (provider, remote, interfaces...) present or not.
func hostileAgent(r *rand.Rand, i int) *manifest.Agent {
	h := func() string { return hostileText(r) }
	a := &manifest.Agent{
		ID: fmt.Sprintf("a%d-%s", i, h()), Name: h(), Description: h() + "\n\n" + h(), Version: h(),
		DocumentationURL: h(), IconURL: h(), DefaultInputModes: hostileList(r), DefaultOutputModes: hostileList(r),
		Capabilities: manifest.Capabilities{Streaming: r.IntN(2) == 0, PushNotifications: r.IntN(2) == 0, ExtendedAgentCard: r.IntN(2) == 0},
	}
	if r.IntN(2) == 0 {
		a.Provider = &manifest.Provider{Organization: h(), URL: h()}
	}
	for range r.IntN(3) {
		a.SupportedInterfaces = append(a.SupportedInterfaces, manifest.Interface{URL: h(), ProtocolBinding: h(), ProtocolVersion: h(), Tenant: h()})
	}
	for range r.IntN(3) {
		a.Capabilities.Extensions = append(a.Capabilities.Extensions, manifest.Extension{URI: h(), Description: h(), Required: r.IntN(2) == 0})
	}
	types := []string{manifest.TypeAPIKey, manifest.TypeHTTP, manifest.TypeOpenIDConnect, manifest.TypeMutualTLS}
	for range r.IntN(3) {
		if a.SecuritySchemes == nil {
			a.SecuritySchemes = map[string]manifest.SecurityScheme{}
		}
		name := h()
		a.SecuritySchemes[name] = manifest.SecurityScheme{Type: types[r.IntN(len(types))], Description: h(), Location: "header",
			Name: h(), Scheme: h(), BearerFormat: h(), OpenIDConnectURL: h()}
		a.SecurityRequirements = append(a.SecurityRequirements, manifest.Requirement{name: hostileList(r)})
	}
	for j := range r.IntN(12) {
		a.Skills = append(a.Skills, manifest.Skill{ID: fmt.Sprintf("s%d%s", j, h()), Name: h(), Description: h(),
			Tags: hostileList(r), Examples: hostileList(r), InputModes: hostileList(r), OutputModes: hostileList(r),
			SecurityRequirements: a.SecurityRequirements[:r.IntN(len(a.SecurityRequirements)+1)]})
	}
	if r.IntN(4) == 0 {
		a.Remote = &manifest.RemoteOrigin{Gateway: h(), Operator: h(),
			Upstream: &remote.Snapshot{URL: h(), FetchedAt: time.Unix(r.Int64N(1<<32), 0), JWKS: h()}}
	}
	return a
}

// TestHostilePages renders pages of agents with hostile text in every
// field: each page's compiled program gives html/template's bytes (or
// its render fails: TestMain's htmlexec.Crosscheck), and no page is left to
// html/template.
func TestHostilePages(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agents.toml")
	if err := os.WriteFile(path, []byte(generatedManifest(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	m := loadWithTestKeys(t, path)
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	allCompiled(t, tpl)
	r := rand.New(rand.NewPCG(30, 2026))
	d := &siteDir{intro: "<p>intro</p>", docs: map[string]string{}}
	var agents []*manifest.Agent
	for i := range 300 {
		a := hostileAgent(r, i)
		if r.IntN(3) == 0 {
			d.docs[a.ID] = hostileText(r) + "\n\n" + hostileText(r)
		}
		agents = append(agents, a)
	}
	pg := newPages(m, plan{n: len(agents), groups: 1 + r.IntN(2)}, tpl, d, testSigners(t, m, ks, "ed25519", "es256"))
	before := htmlexec.Fallbacks()
	for i, a := range agents {
		if _, err := pg.agentPage(a, i%2 == 0); err != nil {
			t.Fatalf("agent %d: %v", i, err)
		}
	}
	for p := 1; p <= 3; p++ {
		if _, err := pg.frontPage(p, 3, agents[(p-1)*100:p*100]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pg.catalogPage(agents); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.keysPage(ks, len(agents)); err != nil {
		t.Fatal(err)
	}
	if n := htmlexec.Fallbacks() - before; n != 0 {
		t.Errorf("%d pages left to html/template", n)
	}
}

// TestExampleCompiled: the example site (its templates are the
// repository's templates/ folder, read as overrides) renders every page
// by its compiled program.
func TestExampleCompiled(t *testing.T) {
	m := loadExample(t)
	tpl, err := templates.Load(filepath.Join(m.Dir, TemplatesDir))
	if err != nil {
		t.Fatal(err)
	}
	allCompiled(t, tpl)
	before := htmlexec.Fallbacks()
	buildWithTestKeys(t, m, filepath.Join(t.TempDir(), "public"), "ed25519")
	if n := htmlexec.Fallbacks() - before; n != 0 {
		t.Errorf("%d pages left to html/template", n)
	}
}

// allCompiled fails t unless every page of tpl compiles.
func allCompiled(t *testing.T, tpl *templates.Set) {
	t.Helper()
	for _, p := range templates.Pages {
		if !tpl.Compiled(p) {
			t.Errorf("%s is not compiled", p)
		}
	}
}
