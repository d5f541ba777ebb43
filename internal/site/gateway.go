package site

import (
	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/compose"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

// namedFile is a file of an agent's .well-known folder beyond its cards.
type namedFile struct {
	name string
	data []byte
}

// gatewayCards makes a remote agent's cards: the gateway's v1.0 card (its
// owner's card routed through the gateway, manifest.GatewayCard) and the
// v0.3.0 one made from it, each signed by every signer, and beside them
// the owner's card and JWKS as they were fetched, byte for byte.
func gatewayCards(m *manifest.Manifest, signers []*sign.Signer, a *manifest.Agent) (*agentOutput, error) {
	v03, notes := compose.NewV03(m, a)
	// The provider is the owner's, or none: never the site's [provider].
	v03.Provider = nil
	if a.Provider != nil {
		v03.Provider = &card.Provider{Organization: a.Provider.Organization, URL: a.Provider.URL}
	}
	out, err := signBoth(m, signers, a.Remote.Card, v03)
	if err != nil {
		return nil, err
	}
	out.notes = notes
	up := a.Remote.Upstream
	out.extra = []namedFile{{layout.UpstreamCardFile, []byte(up.Card)}}
	if up.JWKS != "" {
		out.extra = append(out.extra, namedFile{layout.UpstreamJWKSFile, []byte(up.JWKS)})
	}
	return out, nil
}
