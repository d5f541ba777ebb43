package site

import (
	"fmt"
	"path/filepath"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/compose"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/sign"
)

// signedCards makes an agent's card in both shapes, each signed by every
// signer.
func signedCards(m *manifest.Manifest, signers []*sign.Signer, a *manifest.Agent) (*agentOutput, error) {
	v03, notes := compose.NewV03(m, a)
	out, err := signBoth(m, signers, compose.NewV1(m, a), v03)
	if err != nil {
		return nil, err
	}
	out.notes = notes
	return out, nil
}

// signBoth encodes an agent's v1.0 card and its v0.3.0 twin, each signed
// by every signer (the v1.0 one over the SDKs' projection too, when the
// site wants that and the card needs it).
func signBoth(m *manifest.Manifest, signers []*sign.Signer, v1, v03 any) (*agentOutput, error) {
	out := &agentOutput{}
	// Each card is encoded once: the signatures go in as its last member.
	unsigned, err := card.Compact(v1)
	if err != nil {
		return nil, err
	}
	out.unsigned = unsigned
	project := m.Site.ProjectionSignatures()
	if out.doc, err = decodedCard(v1, unsigned); err != nil {
		return nil, err
	}
	sigs, projected, err := signaturesOf(out.doc, signers, project)
	if err != nil {
		return nil, err
	}
	out.projected = projected
	if out.cardJSON, err = card.MarshalSigned(unsigned, sigs); err != nil {
		return nil, err
	}
	if unsigned, err = card.Compact(v03); err != nil {
		return nil, err
	}
	doc, err := decodedCard(v03, unsigned)
	if err != nil {
		return nil, err
	}
	if sigs, _, err = signaturesOf(doc, signers, project); err != nil {
		return nil, err
	}
	if out.legacyJSON, err = card.MarshalSigned(unsigned, sigs); err != nil {
		return nil, err
	}
	return out, nil
}

// rootCards puts the default agent's cards at /.well-known/.
func (b *builder) rootCards(ids []string) error {
	def := b.m.Site.DefaultAgent
	if def == "" && len(ids) == 1 {
		def = ids[0]
	}
	if def == "" && len(ids) == 0 {
		return nil // MCP servers only: no agent card at the root
	}
	t := b.tree
	k := t.agent(def).Key
	if k == (key{}) {
		return fmt.Errorf("default agent %q was not built", def)
	}
	for _, name := range []string{layout.CardFile, layout.LegacyFile} {
		rel := layout.WellKnown + "/" + name
		if t.fileIntact(rel, k) {
			t.kept(1)
			continue
		}
		t.record(rel, key{}, fileSum{})
		data, err := regular.ReadFile(filepath.Join(t.root, filepath.FromSlash(agentFile(def, name))))
		if err != nil {
			return err
		}
		if err := t.replace(rel, k, data); err != nil {
			return err
		}
	}
	return nil
}

// decodedCard is the card v, encoded as unsigned, decoded as decodeOwn
// decodes it: made from v's fields when card.DecodedOf can, else read
// from unsigned.
func decodedCard(v any, unsigned []byte) (map[string]any, error) {
	if doc, ok := card.DecodedOf(v); ok {
		return doc, nil
	}
	return decodeOwn(unsigned)
}

// decodeOwn decodes a card the build encoded, as verifiers read cards
// (card.Decode, card.Strict), so that no card is signed that they would
// refuse. One decoding serves both canonical forms, written from the
// tree, and the lint (Options.Inspect).
func decodeOwn(unsigned []byte) (map[string]any, error) {
	tree, err := card.Decode(unsigned, card.Strict)
	if err != nil {
		return nil, fmt.Errorf("verifiers would refuse this card (%v): change the manifest so that it does not hold this", err)
	}
	return tree, nil
}

// signaturesOf signs a card, decoded (decodedCard), with every signer;
// it does not change tree. When the A2A SDKs' canonical form of the card
// differs from its strict JCS form (a security requirement without
// scopes), and project is set, each signer also signs the SDK projection,
// after all the strict signatures; projected lists what that form leaves
// out either way.
func signaturesOf(tree map[string]any, signers []*sign.Signer, project bool) (sigs []card.Signature, projected []string, err error) {
	projectedTree, omitted := card.SDKProjectionValue(tree)
	removed := card.Paths(omitted)
	both := len(removed) > 0 && project
	var strict, projectedDoc []byte
	if both {
		// The projection shares most of the card: its form copies
		// those parts from the card's.
		strict, projectedDoc, err = sign.CanonicalPair(tree, projectedTree)
	} else {
		strict, err = sign.CanonicalValue(tree)
	}
	if err != nil {
		return nil, nil, err
	}
	for _, s := range signers {
		sig, err := s.SignCanonical(strict)
		if err != nil {
			return nil, nil, err
		}
		sigs = append(sigs, sig)
	}
	if !both {
		return sigs, removed, nil
	}
	for _, s := range signers {
		sig, err := s.SignProjectionCanonical(projectedDoc)
		if err != nil {
			return nil, nil, err
		}
		sigs = append(sigs, sig)
	}
	return sigs, removed, nil
}
