package sign

import (
	"crypto"
	"errors"
	"fmt"
	"strings"

	"github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"

	"github.com/agentcards/agentcards/internal/card"
)

// Canonicalize returns the RFC 8785 (JCS) form of a JSON document.
func Canonicalize(doc []byte) ([]byte, error) {
	out, err := jcs.Transform(doc)
	if err != nil {
		return nil, fmt.Errorf("sign: canonicalize: %w", err)
	}
	return out, nil
}

// Signer signs card payloads with one private key. It is safe for
// concurrent use.
type Signer struct {
	KID    string
	Alg    string
	Public jose.JSONWebKey
	signer jose.Signer
}

// NewSigner prepares key to sign with alg; every signature's protected
// header is {alg, jku, kid, typ: "JOSE"} with kid the key's thumbprint.
func NewSigner(key crypto.Signer, alg, jku string) (*Signer, error) {
	pub, err := PublicJWK(key.Public(), alg)
	if err != nil {
		return nil, err
	}
	opts := (&jose.SignerOptions{}).WithType("JOSE")
	if jku != "" {
		opts = opts.WithHeader("jku", jku)
	}
	js, err := jose.NewSigner(jose.SigningKey{
		Algorithm: jose.SignatureAlgorithm(alg),
		Key:       jose.JSONWebKey{Key: key, KeyID: pub.KeyID, Algorithm: alg},
	}, opts)
	if err != nil {
		return nil, err
	}
	return &Signer{KID: pub.KeyID, Alg: alg, Public: pub, signer: js}, nil
}

// Sign canonicalizes doc (a card without signatures) and returns the
// detached JWS over it.
func (s *Signer) Sign(doc []byte) (card.Signature, error) {
	payload, err := Canonicalize(doc)
	if err != nil {
		return card.Signature{}, err
	}
	obj, err := s.signer.Sign(payload)
	if err != nil {
		return card.Signature{}, err
	}
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		return card.Signature{}, err
	}
	protected, signature, ok := strings.Cut(compact, "..")
	if !ok {
		return card.Signature{}, errors.New("sign: unexpected detached serialization")
	}
	return card.Signature{Protected: protected, Signature: signature}, nil
}
