package sign

import (
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
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
	// projection signs SDK projections; its protected header also carries
	// ProjectionHeader.
	projection jose.Signer
	// ed and edProjection sign in their place when the key is an Ed25519
	// private key (nil otherwise).
	ed, edProjection *edSigner
}

// edSigner makes the detached JWS a go-jose signer makes with an Ed25519
// key, without go-jose's work on every call (a header map marshaled twice,
// the object serialized again): the protected header is the same for every
// payload, so it is taken once from go-jose itself, and Ed25519 is
// deterministic, so signing the same input gives the same bytes.
type edSigner struct {
	key       ed25519.PrivateKey
	protected string // base64url of the protected header, as go-jose writes it
}

// newEdSigner is the edSigner doing js's work with key; nil when key is
// not an Ed25519 private key.
func newEdSigner(js jose.Signer, key crypto.Signer) (*edSigner, error) {
	k, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, nil
	}
	// The header does not depend on the payload (no nonce, no embedded
	// key): any payload shows it.
	sig, err := signPayload(js, nil, nil)
	if err != nil {
		return nil, err
	}
	return &edSigner{key: k, protected: sig.Protected}, nil
}

// sign signs the JWS signing input, protected "." base64url(payload) (RFC
// 7515, section 5.1), as go-jose's Ed25519 signer does.
func (e *edSigner) sign(payload []byte) card.Signature {
	enc := base64.RawURLEncoding
	buf := signingInputs.Get().(*[]byte)
	input := append((*buf)[:0], e.protected...)
	input = append(input, '.')
	input = appendBase64URL(input, payload)
	sig := enc.EncodeToString(ed25519.Sign(e.key, input))
	if cap(input) <= 1<<20 { // not a huge card's
		*buf = input[:0]
		signingInputs.Put(buf)
	}
	return card.Signature{Protected: e.protected, Signature: sig}
}

// base64URL is the base64url alphabet (RFC 4648, section 5).
const base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// appendBase64URL is base64.RawURLEncoding.AppendEncode(dst, src), six
// bytes at a time (eight characters from one 64-bit word).
func appendBase64URL(dst, src []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, base64.RawURLEncoding.EncodedLen(len(src)))
	out := dst[n : n+base64.RawURLEncoding.EncodedLen(len(src))]
	o := 0
	// Each step reads eight bytes and encodes the first six of them.
	for len(src) >= 8 {
		x := binary.BigEndian.Uint64(src)
		d := out[o : o+8]
		d[0] = base64URL[x>>58&63]
		d[1] = base64URL[x>>52&63]
		d[2] = base64URL[x>>46&63]
		d[3] = base64URL[x>>40&63]
		d[4] = base64URL[x>>34&63]
		d[5] = base64URL[x>>28&63]
		d[6] = base64URL[x>>22&63]
		d[7] = base64URL[x>>16&63]
		src = src[6:]
		o += 8
	}
	base64.RawURLEncoding.Encode(out[o:], src)
	return dst[:n+len(out)]
}

// ProjectionHeader is the protected header parameter that marks a signature
// over the A2A SDKs' projection of a card rather than over the whole card,
// so that a verifier can tell the two apart (README, "Scope-less security
// requirements"). Its value is ProjectionValue.
const ProjectionHeader = "agentcards:payload"

// ProjectionValue is the value of ProjectionHeader.
const ProjectionValue = "a2a-sdk-projection"

// NewSigner prepares key to sign with alg; every signature's protected
// header is {alg, jku, kid, typ: "JOSE"} with kid the key's thumbprint.
func NewSigner(key crypto.Signer, alg, jku string) (*Signer, error) {
	return newSigner(key, alg, jku, "")
}

// DevKIDPrefix begins the kid of the development key (its thumbprint
// after it), so that anyone who meets a card it signed can tell.
const DevKIDPrefix = "dev-"

// NewDevSigner is NewSigner (EdDSA) for the development key: its kid is
// DevKIDPrefix and the thumbprint.
func NewDevSigner(key crypto.Signer, jku string) (*Signer, error) {
	kid, err := Thumbprint(key.Public())
	if err != nil {
		return nil, err
	}
	return newSigner(key, EdDSA, jku, DevKIDPrefix+kid)
}

// IsDevKID reports whether kid names a development key.
func IsDevKID(kid string) bool { return strings.HasPrefix(kid, DevKIDPrefix) }

// newSigner is NewSigner with the kid set (default: the thumbprint).
func newSigner(key crypto.Signer, alg, jku, kid string) (*Signer, error) {
	pub, err := PublicJWK(key.Public(), alg)
	if err != nil {
		return nil, err
	}
	if kid != "" {
		pub.KeyID = kid
	}
	opts := (&jose.SignerOptions{}).WithType("JOSE")
	if jku != "" {
		opts = opts.WithHeader("jku", jku)
	}
	sk := jose.SigningKey{
		Algorithm: jose.SignatureAlgorithm(alg),
		Key:       jose.JSONWebKey{Key: key, KeyID: pub.KeyID, Algorithm: alg},
	}
	js, err := jose.NewSigner(sk, opts)
	if err != nil {
		return nil, err
	}
	popts := *opts
	popts.ExtraHeaders = maps.Clone(opts.ExtraHeaders)
	pjs, err := jose.NewSigner(sk, popts.WithHeader(ProjectionHeader, ProjectionValue))
	if err != nil {
		return nil, err
	}
	s := &Signer{KID: pub.KeyID, Alg: alg, Public: pub, signer: js, projection: pjs}
	if s.ed, err = newEdSigner(js, key); err != nil {
		return nil, err
	}
	if s.edProjection, err = newEdSigner(pjs, key); err != nil {
		return nil, err
	}
	return s, nil
}

// Sign canonicalizes doc (a card without signatures) and returns the
// detached JWS over it.
func (s *Signer) Sign(doc []byte) (card.Signature, error) {
	return sign(s.signer, s.ed, doc)
}

// SignProjection is Sign for a card's SDK projection (card.SDKProjection):
// the protected header also carries ProjectionHeader.
func (s *Signer) SignProjection(projected []byte) (card.Signature, error) {
	return sign(s.projection, s.edProjection, projected)
}

// SignCanonical is Sign for a card already in its RFC 8785 form (as
// CanonicalValue writes it).
func (s *Signer) SignCanonical(payload []byte) (card.Signature, error) {
	return signPayload(s.signer, s.ed, payload)
}

// SignProjectionCanonical is SignProjection for a projection already in
// its RFC 8785 form.
func (s *Signer) SignProjectionCanonical(payload []byte) (card.Signature, error) {
	return signPayload(s.projection, s.edProjection, payload)
}

func sign(js jose.Signer, ed *edSigner, doc []byte) (card.Signature, error) {
	payload, err := Canonicalize(doc)
	if err != nil {
		return card.Signature{}, err
	}
	return signPayload(js, ed, payload)
}

// signPayload makes the detached JWS over a canonical payload: with ed
// when there is one, else with js.
func signPayload(js jose.Signer, ed *edSigner, payload []byte) (card.Signature, error) {
	if ed != nil {
		return ed.sign(payload), nil
	}
	obj, err := js.Sign(payload)
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
