// Package sign holds the keys, the JWKS, and the JCS + detached JWS
// signatures of A2A Agent Cards (A2A v1.0 section 8.4).
package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/secret"
)

// Algorithms this project signs with, by JWS name.
const (
	EdDSA = string(jose.EdDSA)
	ES256 = string(jose.ES256)
	RS256 = string(jose.RS256)
	PS256 = string(jose.PS256)
)

// SigningAlgorithms are the algorithms keygen makes keys for and cards are
// signed with.
var SigningAlgorithms = []string{EdDSA, ES256, RS256, PS256}

// NormalizeAlg maps user spellings to a JWS alg name: "Ed25519" (RFC 9864)
// and "EdDSA" both mean EdDSA over Ed25519.
func NormalizeAlg(s string) (string, error) {
	switch strings.ToUpper(s) {
	case "ED25519", "EDDSA", "":
		return EdDSA, nil
	case "ES256":
		return ES256, nil
	case "RS256":
		return RS256, nil
	case "PS256":
		return PS256, nil
	}
	return "", fmt.Errorf("unsupported algorithm %q: use Ed25519, ES256, RS256 or PS256", s)
}

// GenerateKey makes a new private key for alg.
func GenerateKey(alg string) (crypto.Signer, error) {
	switch alg {
	case EdDSA:
		_, k, err := ed25519.GenerateKey(rand.Reader)
		return k, err
	case ES256:
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case RS256, PS256:
		return rsa.GenerateKey(rand.Reader, 3072)
	}
	return nil, fmt.Errorf("sign: unsupported algorithm %q", alg)
}

// EncodePrivatePEM writes a private key as a PKCS #8 "PRIVATE KEY" PEM block.
func EncodePrivatePEM(k crypto.Signer) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// ParsePrivatePEM reads every private key in PEM data: PKCS #8
// ("PRIVATE KEY"), SEC 1 ("EC PRIVATE KEY") or PKCS #1 ("RSA PRIVATE KEY").
// Blocks of other types are an error, so a certificate pasted by mistake is
// noticed.
func ParsePrivatePEM(data []byte) ([]crypto.Signer, error) {
	var keys []crypto.Signer
	rest := data
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		var k any
		var err error
		switch b.Type {
		case "PRIVATE KEY":
			k, err = x509.ParsePKCS8PrivateKey(b.Bytes)
		case "EC PRIVATE KEY":
			k, err = x509.ParseECPrivateKey(b.Bytes)
		case "RSA PRIVATE KEY":
			k, err = x509.ParsePKCS1PrivateKey(b.Bytes)
		default:
			return nil, fmt.Errorf("PEM block %q is not a private key (want PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY)", b.Type)
		}
		if err != nil {
			return nil, fmt.Errorf("PEM block %q: %v", b.Type, err)
		}
		s, ok := k.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("PEM block %q: unsupported key type %T", b.Type, k)
		}
		switch pk := s.(type) {
		case *ecdsa.PrivateKey:
			if pk.Curve != elliptic.P256() {
				return nil, fmt.Errorf("ECDSA key on %s: only P-256 (ES256) is supported", pk.Curve.Params().Name)
			}
		case *rsa.PrivateKey:
			if pk.N.BitLen() < 2048 {
				return nil, fmt.Errorf("RSA key of %d bits: at least 2048 are required", pk.N.BitLen())
			}
		}
		keys = append(keys, s)
	}
	if len(keys) == 0 {
		return nil, errors.New("no PEM private key found")
	}
	return keys, nil
}

// Thumbprint is the RFC 7638 SHA-256 JWK thumbprint of a public key,
// base64url-encoded: the kid this project gives every key.
func Thumbprint(pub crypto.PublicKey) (string, error) {
	jwk := jose.JSONWebKey{Key: pub}
	tp, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// PublicJWK is the public JWK published for key k: kid (thumbprint), alg,
// use "sig", and the public members only.
func PublicJWK(pub crypto.PublicKey, alg string) (jose.JSONWebKey, error) {
	kid, err := Thumbprint(pub)
	if err != nil {
		return jose.JSONWebKey{}, err
	}
	if err := algFitsKey(alg, pub); err != nil {
		return jose.JSONWebKey{}, err
	}
	jwk := jose.JSONWebKey{Key: pub, KeyID: kid, Algorithm: alg, Use: "sig"}
	if !jwk.IsPublic() {
		return jose.JSONWebKey{}, errors.New("sign: refusing to publish a private key")
	}
	return jwk, nil
}

// algFitsKey reports an alg that cannot be used with the key's type.
func algFitsKey(alg string, pub crypto.PublicKey) error {
	var ok bool
	switch k := pub.(type) {
	case ed25519.PublicKey:
		ok = alg == EdDSA
	case *ecdsa.PublicKey:
		ok = alg == ES256 && k.Curve == elliptic.P256()
	case *rsa.PublicKey:
		ok = alg == RS256 || alg == PS256
	}
	if !ok {
		return fmt.Errorf("alg %q does not fit a %T key", alg, pub)
	}
	return nil
}

// KeySet is the set of public keys in the keys folder: the JWKS.
type KeySet struct {
	Keys []jose.JSONWebKey // sorted by kid
}

// LoadKeySet reads every *.json file in dir as one public JWK. Each must be
// public, carry alg and use "sig", and have kid equal to its thumbprint.
// dir must be a real folder holding no symbolic links (package regular).
// A missing folder is an empty set.
func LoadKeySet(dir string) (*KeySet, error) {
	entries, err := regular.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &KeySet{}, nil
	}
	if err != nil {
		return nil, err
	}
	ks := &KeySet{}
	seen := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		f := filepath.Join(dir, e.Name())
		data, err := regular.ReadFile(f)
		if err != nil {
			return nil, err
		}
		k, err := ParsePublicJWK(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if prev, dup := seen[k.KeyID]; dup {
			return nil, fmt.Errorf("%s: same key as %s", f, prev)
		}
		seen[k.KeyID] = f
		ks.Keys = append(ks.Keys, k)
	}
	ks.sort()
	return ks, nil
}

// ParsePublicJWK reads one public JWK and checks it is fit to publish.
func ParsePublicJWK(data []byte) (jose.JSONWebKey, error) {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return jose.JSONWebKey{}, fmt.Errorf("not a JSON object: %v", err)
	}
	if priv := secret.PrivateMembers(raw); len(priv) > 0 {
		return jose.JSONWebKey{}, fmt.Errorf("holds private key material (%q): only public keys belong in the keys folder; delete this file and rotate the key", priv[0])
	}
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(data); err != nil {
		return jose.JSONWebKey{}, err
	}
	if !k.IsPublic() {
		return jose.JSONWebKey{}, errors.New("not a public key")
	}
	if k.Algorithm == "" {
		return jose.JSONWebKey{}, errors.New(`missing "alg": say which algorithm the key signs with (EdDSA, ES256, RS256 or PS256)`)
	}
	if !slices.Contains(SigningAlgorithms, k.Algorithm) {
		return jose.JSONWebKey{}, fmt.Errorf("alg %q is not one of %s", k.Algorithm, strings.Join(SigningAlgorithms, ", "))
	}
	if err := algFitsKey(k.Algorithm, k.Key); err != nil {
		return jose.JSONWebKey{}, err
	}
	if k.Use != "" && k.Use != "sig" {
		return jose.JSONWebKey{}, fmt.Errorf(`use %q: signing keys have use "sig"`, k.Use)
	}
	k.Use = "sig"
	tp, err := Thumbprint(k.Key)
	if err != nil {
		return jose.JSONWebKey{}, err
	}
	if k.KeyID == "" {
		k.KeyID = tp
	} else if k.KeyID != tp {
		return jose.JSONWebKey{}, fmt.Errorf("kid %q is not the key's RFC 7638 thumbprint %q", k.KeyID, tp)
	}
	return k, nil
}

// Add puts a public key in the set, keeping it sorted; a key already in
// the set is left alone.
func (ks *KeySet) Add(k jose.JSONWebKey) {
	if ks.Find(k.KeyID) != nil {
		return
	}
	ks.Keys = append(ks.Keys, k)
	ks.sort()
}

func (ks *KeySet) sort() {
	slices.SortFunc(ks.Keys, func(a, b jose.JSONWebKey) int { return strings.Compare(a.KeyID, b.KeyID) })
}

// Find returns the key with the given kid, or nil.
func (ks *KeySet) Find(kid string) *jose.JSONWebKey {
	for i := range ks.Keys {
		if ks.Keys[i].KeyID == kid {
			return &ks.Keys[i]
		}
	}
	return nil
}

// JSON is the JWKS document, {"keys": [...]}, indented, public members
// only. It fails rather than publish a private key.
func (ks *KeySet) JSON() ([]byte, error) {
	keys := make([]jose.JSONWebKey, 0, len(ks.Keys))
	for _, k := range ks.Keys {
		if !k.IsPublic() {
			return nil, fmt.Errorf("sign: key %s is private; refusing to publish it", k.KeyID)
		}
		keys = append(keys, k)
	}
	b, err := json.MarshalIndent(jose.JSONWebKeySet{Keys: keys}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// WritePublicJWK writes k to dir/<kid>.json and returns the path.
func WritePublicJWK(dir string, k jose.JSONWebKey) (string, error) {
	if !k.IsPublic() {
		return "", errors.New("sign: refusing to write a private key as a public one")
	}
	b, err := json.MarshalIndent(k, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, k.KeyID+".json")
	b = append(b, '\n')
	if old, err := os.ReadFile(p); err == nil {
		if string(old) == string(b) {
			return p, nil // already published
		}
		return p, fmt.Errorf("%s exists and differs (another alg or use?); remove it first if you mean to replace it", p)
	}
	return p, WriteNewFile(p, b, 0o644)
}
