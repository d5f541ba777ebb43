package site

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"fmt"
	"slices"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

// The pages for people about the site's machine files: the keys' page
// (keys/, the JWKS) and the catalog's page (ai-catalog/, the root AI
// Catalog), each linking to the JSON it describes.

// keyView is what the keys' page shows of one published key.
type keyView struct {
	KID, Alg, Type string
	// Signs says the build signs every card with it; a key that signs
	// none is published for a rotation (next, or retired).
	Signs bool
	// Dev marks the development key, which no published site should use.
	Dev bool
}

// catalogView is what the catalog's page shows: the root AI Catalog's
// entries (every agent of a site of one group, else its nested catalogs)
// and the MCP servers' Server Cards.
type catalogView struct {
	Agents  []catalogAgent
	Nested  []nestedView
	Servers []indexMCP
}

// catalogAgent is an agent's entry on the catalog's page.
type catalogAgent struct {
	ID, Name, Version, Summary string
}

// nestedView is a nested catalog on the catalog's page: agents First to
// Last, at Href.
type nestedView struct {
	First, Last int
	Href        string
}

// keysPage renders keys/index.html: every key of the JWKS, which of them
// sign this site's cards (agents of them), and which is a development key.
func (pg *pages) keysPage(keys *sign.KeySet, agents int) ([]byte, error) {
	data := pg.base("Keys", "The public keys that verify the signed Agent Cards of "+pg.m.Site.BaseURL, "../")
	data.Canonical = layout.URL(pg.m.Site.BaseURL, layout.KeysPage)
	data.Count = agents
	for _, k := range keys.Keys {
		signs := slices.ContainsFunc(pg.signers, func(s *sign.Signer) bool { return s.KID == k.KeyID })
		data.Keys = append(data.Keys, keyView{KID: k.KeyID, Alg: k.Algorithm, Type: keyType(k.Key), Signs: signs, Dev: sign.IsDevKID(k.KeyID)})
	}
	return pg.render("keys.html", data)
}

// keyType names a public key's type in words: "Ed25519 (OKP)", "EC
// P-256", "RSA 2048-bit".
func keyType(k any) string {
	switch k := k.(type) {
	case ed25519.PublicKey:
		return "Ed25519 (OKP)"
	case *ecdsa.PublicKey:
		return "EC " + k.Curve.Params().Name
	case *rsa.PublicKey:
		return fmt.Sprintf("RSA %d-bit", k.N.BitLen())
	}
	return fmt.Sprintf("%T", k)
}

// catalogPage renders ai-catalog/index.html. For a site of one group it
// lists agents, every agent of the site; for a larger one (agents nil),
// the nested catalogs of the plan.
func (pg *pages) catalogPage(agents []*manifest.Agent) ([]byte, error) {
	m := pg.m
	data := pg.base("Catalog", "The AI Catalog of "+m.Site.BaseURL+": every agent and MCP server it lists", "../")
	data.Canonical = layout.URL(m.Site.BaseURL, layout.CatalogPage)
	v := &catalogView{}
	if pg.plan.flat() {
		for _, a := range agents {
			v.Agents = append(v.Agents, catalogAgent{ID: a.ID, Name: a.Name, Version: a.Version, Summary: summary(a.Description)})
		}
	} else {
		for g := range pg.plan.groups {
			lo, hi := pg.plan.bounds(g)
			v.Nested = append(v.Nested, nestedView{First: lo + 1, Last: hi, Href: "../" + layout.NestedCatalog(g+1)})
		}
	}
	v.Servers = pg.mcpList()
	data.Catalog = v
	data.Count = pg.plan.n
	return pg.render("catalog.html", data)
}

// mcpList is what the front page and the catalog's page show of the MCP
// servers.
func (pg *pages) mcpList() []indexMCP {
	var out []indexMCP
	for i := range pg.m.MCPServers {
		s := &pg.m.MCPServers[i]
		out = append(out, indexMCP{ID: s.ID, Title: serverTitle(s), Version: s.Version, Description: s.Description, Tools: len(s.Snapshot.Tools), Tags: s.Tags})
	}
	return out
}
