package sign

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/card"
)

// VerifyAlgorithms is the default allow-list: never "none", never HMAC.
// "Ed25519" is RFC 9864's name for what "EdDSA" means here.
var VerifyAlgorithms = []string{EdDSA, "Ed25519", ES256, string(jose.ES384), RS256, PS256}

// MaxSignatures is the most signatures a card may carry. A rotation overlap
// needs two or three keys, each with at most two signatures; a card with
// more is refused rather than checked signature by signature.
const MaxSignatures = 16

// Canonicalization names what a signature was found to cover.
type Canonicalization string

const (
	// Strict is RFC 8785 over the whole card without signatures.
	Strict Canonicalization = "strict"
	// SDKProjection is RFC 8785 over the card with empty values removed,
	// as the A2A SDKs compute it; the removed members are not covered, and
	// a signature counts only when every one of them is empty.
	SDKProjection Canonicalization = "sdk-projection"
)

// The kinds of verification failure, for errors.Is: every error Verify
// and VerifyDecoded return, or put in a Result, is one of them.
var (
	// ErrBadSignature is the error of a signature that does not verify with
	// the key its kid names, over any form of the card it may cover.
	ErrBadSignature = errors.New("signature does not verify")
	// ErrMalformed is a card, signature or protected header that cannot
	// be read as one: not JSON, duplicate members, not base64url...
	ErrMalformed = errors.New("malformed card or signature")
	// ErrUnsigned is a card without signatures.
	ErrUnsigned = errors.New("card has no signatures")
	// ErrUnknownKey is a signature whose kid names no trusted key.
	ErrUnknownKey = errors.New("no trusted key")
	// ErrAlgorithm is a signature whose alg is not allowed, or does not
	// fit the trusted key's alg.
	ErrAlgorithm = errors.New("algorithm refused")
	// ErrUncovered is a signature that verifies only over a form of the
	// card that leaves out members which are there: they were changed or
	// added after signing.
	ErrUncovered = errors.New("members not covered by the signature")
)

// kindError is an error of a kind (one of the above, or another
// package's) that keeps its own words: errors.Is(err, kind) holds, and
// Error is the message alone.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// Errorf is an error of kind kind, in the words format and args make:
// errors.Is(err, kind) holds, and the kind's own text is not repeated.
func Errorf(kind error, format string, args ...any) error {
	return &kindError{kind, fmt.Sprintf(format, args...)}
}

// Result is the outcome for one signature on a card.
type Result struct {
	Index     int
	KID       string
	Alg       string
	JKU       string
	Verified  bool
	Covers    Canonicalization // when Verified
	Uncovered []string         // members an SDKProjection signature does not cover (all empty)
	Err       error            // why not, when not Verified
	// Payload is the canonical form of the card the signature was found to
	// cover, when it verified (VerifyDecodedPayloads only).
	Payload []byte
}

// Verify checks every signature on a card against trusted keys, allowing
// only algs. A signature verifies when it covers the whole card (RFC 8785),
// or when it covers the A2A SDKs' projection of the card and every member
// the projection leaves out is empty (card.Omission). The card is read with
// card.Decode: duplicate or case-variant member names, invalid UTF-8 and
// deep nesting refuse it. It returns one Result per signature; err is set
// only when the card cannot be checked at all.
func Verify(cardJSON []byte, trusted *KeySet, algs []string) ([]Result, error) {
	doc, err := card.Decode(cardJSON, card.Strict)
	if err != nil {
		return nil, Errorf(ErrMalformed, "card refused: %v", err)
	}
	return VerifyDecoded(doc, trusted, algs)
}

// VerifyDecoded is Verify for a card already read with card.Decode and
// card.Strict; it removes the signatures member from doc.
func VerifyDecoded(doc map[string]any, trusted *KeySet, algs []string) ([]Result, error) {
	return verifyDecoded(doc, trusted, algs, false)
}

// VerifyDecodedPayloads is VerifyDecoded that also sets the Payload of
// every Result that verified: the canonical bytes its signature covers.
func VerifyDecodedPayloads(doc map[string]any, trusted *KeySet, algs []string) ([]Result, error) {
	return verifyDecoded(doc, trusted, algs, true)
}

// verifyDecoded is VerifyDecoded, setting the Payloads when keep.
func verifyDecoded(doc map[string]any, trusted *KeySet, algs []string, keep bool) ([]Result, error) {
	sigs, err := readSignatures(doc["signatures"])
	if err != nil {
		return nil, err
	}
	delete(doc, "signatures")
	// The canonical forms are written from the decoded tree (no second
	// parse of the card's text), into buffers used again for the next card.
	bufs := canonicalBufs.Get().(*[2][]byte)
	defer func() {
		if cap(bufs[0])+cap(bufs[1]) <= 1<<20 { // not a huge card's
			canonicalBufs.Put(bufs)
		}
	}()
	f, err := canonicalForms(doc, bufs)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(sigs))
	markedAt := make([]bool, len(sigs))
	over := make([][]byte, len(sigs)) // the form each verified over
	for i, sig := range sigs {
		r := &results[i]
		r.Index = i
		var key *jose.JSONWebKey
		var marked bool
		key, marked, r.Err = checkHeader(sig, trusted, algs, r)
		if r.Err != nil {
			continue
		}
		markedAt[i] = marked
		over[i] = f.verify(sig, key, marked, r)
	}
	settle(results, markedAt)
	if keep {
		keepPayloads(results, over)
	}
	return results, nil
}

// cardForms are the canonical forms of a card a signature may cover.
type cardForms struct {
	strict   []byte // the whole card
	restored []byte // the whole card with empty scope lists restored, or nil
	// projected is the A2A SDKs' projection, or nil when the card is its
	// own projection.
	projected []byte
	omitted   []card.Omission // what the projection leaves out
	altered   []string        // members no projection signature covers
}

// canonicalForms writes the canonical forms of doc, the strict and the
// projected one into bufs.
func canonicalForms(doc map[string]any, bufs *[2][]byte) (*cardForms, error) {
	f := &cardForms{}
	strict, err := appendCanonicalValue(bufs[0][:0], doc)
	if err != nil {
		return nil, err
	}
	bufs[0] = strict
	f.strict = strict
	// A card an A2A SDK server sent through its own types writes a
	// requirement without scopes as {} where agentcards signed
	// {"list": []}: the same requirement, so a strict signature over the
	// restored form covers the card as well.
	if alt, ok := card.WithScopeListsRestored(doc); ok {
		if f.restored, err = appendCanonicalValue(nil, alt); err != nil {
			return nil, err
		}
	}
	projectedDoc, omitted := card.SDKProjectionValue(doc)
	f.omitted = omitted
	if len(omitted) > 0 {
		if f.projected, err = appendCanonicalValue(bufs[1][:0], projectedDoc); err != nil {
			return nil, err
		}
		bufs[1] = f.projected
		for _, o := range omitted {
			if !o.Empty {
				f.altered = append(f.altered, o.Path)
			}
		}
	}
	return f, nil
}

// verify checks sig, whose header checkHeader accepted with key and
// found marked (or not) as signing the SDK projection, and records the
// outcome in r. It returns the form sig verified over, or nil.
func (f *cardForms) verify(sig card.Signature, key *jose.JSONWebKey, marked bool, r *Result) []byte {
	switch {
	case marked && f.projected == nil:
		// Made over the projection of a card that had more in it, but
		// this card is its own projection: what the projection drops
		// (a scope-less security requirement, say) was removed.
		if r.Err = verifyOne(sig, f.strict, key, r.Alg); r.Err == nil {
			r.Err = Errorf(ErrUncovered, "marked as signing the A2A SDKs' projection of a fuller card, but this card has nothing that projection leaves out: members were removed after signing (a security requirement without scopes, say)")
		}
	case marked:
		// Signed over the SDK projection: it never covers the whole card,
		// and counts only beside the same key's signature over the whole
		// card (below), so what it leaves out is covered by that one.
		if r.Err = verifyOne(sig, f.projected, key, r.Alg); r.Err == nil {
			r.Verified, r.Covers, r.Uncovered = true, SDKProjection, card.Paths(f.omitted)
			return f.projected
		}
	default:
		if r.Err = verifyOne(sig, f.strict, key, r.Alg); r.Err == nil {
			r.Verified, r.Covers = true, Strict
			return f.strict
		} else if f.restored != nil && verifyOne(sig, f.restored, key, r.Alg) == nil {
			r.Err = nil
			r.Verified, r.Covers = true, Strict
			return f.restored
		} else if f.projected != nil && verifyOne(sig, f.projected, key, r.Alg) == nil {
			r.Err = nil
			f.projectionCovers(r)
			return f.projected
		}
	}
	return nil
}

// projectionCovers decides a signature found to verify over the SDK
// projection: it vouches for the card only when all it leaves out is
// empty.
func (f *cardForms) projectionCovers(r *Result) {
	if len(f.altered) > 0 {
		r.Err = Errorf(ErrUncovered, "verifies only over the A2A SDKs' projection, which leaves out members that are not empty: %s; no signature covers them, so they were changed or added after signing", strings.Join(f.altered, ", "))
		return
	}
	r.Verified, r.Covers, r.Uncovered = true, SDKProjection, card.Paths(f.omitted)
}

// keepPayloads sets the Payload of every verified result to a copy of
// the form it verified over: the forms live in buffers the next card
// reuses.
func keepPayloads(results []Result, over [][]byte) {
	copies := map[*byte][]byte{}
	for i := range results {
		if b := over[i]; results[i].Verified && len(b) > 0 {
			if copies[&b[0]] == nil {
				copies[&b[0]] = bytes.Clone(b)
			}
			results[i].Payload = copies[&b[0]]
		}
	}
}

// settle applies to the results of one card the rules that weigh one
// signature against the others, and gives every error a kind.
func settle(results []Result, markedAt []bool) {
	// A projection signature agentcards made (marked) is written beside the
	// same key's signature over the whole card, always. Alone, or beside
	// one that fails, it means members were changed or removed where the
	// projection does not look (a security requirement, say): it counts
	// for nothing.
	for i := range results {
		r := &results[i]
		if !r.Verified || !markedAt[i] {
			continue
		}
		whole := false
		for _, o := range results {
			if o.KID == r.KID && o.Verified && o.Covers == Strict {
				whole = true
			}
		}
		if !whole {
			r.Verified, r.Covers, r.Uncovered = false, "", nil
			r.Err = Errorf(ErrUncovered, "a projection signature made by agentcards counts only beside the same key's signature over the whole card, which this card lacks or which fails: members were changed or removed where the projection does not look")
		}
	}
	// A signature found to verify over the SDK projection proves nothing
	// when a signature over the whole card by the same key fails: the card
	// was changed in members the projection leaves out (a requirement
	// removed, say).
	for i := range results {
		r := &results[i]
		if !r.Verified || r.Covers != SDKProjection {
			continue
		}
		for _, other := range results {
			if other.KID == r.KID && errors.Is(other.Err, ErrBadSignature) {
				r.Verified, r.Covers, r.Uncovered = false, "", nil
				r.Err = Errorf(ErrUncovered, "verifies over the SDK projection only, while the same key's signature over the whole card fails: the card was altered in members the projection leaves out")
				break
			}
		}
	}
	for i := range results {
		results[i].Err = classified(results[i].Err)
	}
}

// classified gives err a kind when it has none: what is left is a
// signature value or header that go-jose or base64 could not read.
func classified(err error) error {
	if err == nil {
		return nil
	}
	for _, kind := range []error{ErrBadSignature, ErrMalformed, ErrUnsigned, ErrUnknownKey, ErrAlgorithm, ErrUncovered} {
		if errors.Is(err, kind) {
			return err
		}
	}
	return &kindError{ErrMalformed, err.Error()}
}

// canonicalBufs holds buffers for the two canonical forms of a card,
// which VerifyDecoded needs only while it runs.
var canonicalBufs = sync.Pool{New: func() any { return new([2][]byte) }}

// readSignatures reads a card's signatures member: an array of at most
// MaxSignatures objects, each with exactly protected, signature and an
// optional unprotected header.
func readSignatures(v any) ([]card.Signature, error) {
	arr, ok := v.([]any)
	switch {
	case v == nil:
		return nil, ErrUnsigned
	case !ok:
		return nil, Errorf(ErrMalformed, `card refused: "signatures" is not an array`)
	case len(arr) == 0:
		return nil, ErrUnsigned
	case len(arr) > MaxSignatures:
		return nil, Errorf(ErrMalformed, "card refused: %d signatures, more than the %d a verifier checks", len(arr), MaxSignatures)
	}
	out := make([]card.Signature, len(arr))
	for i, e := range arr {
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, Errorf(ErrMalformed, "card refused: signatures[%d] is not an object", i)
		}
		for k, mv := range obj {
			switch k {
			case "protected", "signature":
				s, ok := mv.(string)
				if !ok {
					return nil, Errorf(ErrMalformed, "card refused: signatures[%d].%s is not a string", i, k)
				}
				if k == "protected" {
					out[i].Protected = s
				} else {
					out[i].Signature = s
				}
			case "header":
				h, ok := mv.(map[string]any)
				if !ok {
					return nil, Errorf(ErrMalformed, "card refused: signatures[%d].header is not an object", i)
				}
				out[i].Header = h
			default:
				return nil, Errorf(ErrMalformed, "card refused: signatures[%d] has the member %q, which a JWS signature does not have", i, k)
			}
		}
	}
	return out, nil
}

// checkHeader decodes the protected header, fills r, and returns the trusted
// key the signature names; projection reports a signature marked with
// ProjectionHeader. The header is read strictly (card.Decode), and the same
// rules hold whatever the algorithm: crit refuses the signature (checkCrit),
// and so do unencoded payloads (RFC 7797).
func checkHeader(sig card.Signature, trusted *KeySet, algs []string, r *Result) (key *jose.JSONWebKey, projection bool, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(sig.Protected)
	if err != nil {
		return nil, false, Errorf(ErrMalformed, "protected header is not base64url: %v", err)
	}
	h, err := card.Decode(raw, card.Strict)
	if err != nil {
		return nil, false, Errorf(ErrMalformed, "protected header refused: %v", err)
	}
	str := func(name string) (string, error) {
		v, ok := h[name]
		if !ok {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", Errorf(ErrMalformed, "protected header %q is not a string", name)
		}
		return s, nil
	}
	for _, name := range []string{"alg", "kid", "jku", "typ", ProjectionHeader} {
		if _, err := str(name); err != nil {
			return nil, false, err
		}
	}
	r.Alg, _ = str("alg")
	r.KID, _ = str("kid")
	r.JKU, _ = str("jku")
	payload, _ := str(ProjectionHeader)
	projection = payload == ProjectionValue
	if payload != "" && !projection {
		return nil, false, Errorf(ErrMalformed, "protected header %q is %q, which this verifier does not know", ProjectionHeader, payload)
	}
	for _, name := range []string{"alg", "crit", "b64", "kid", "jku", "jwk", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty"} {
		if _, ok := sig.Header[name]; ok {
			// What names or fetches the key, unsigned, is an attacker's to
			// write: a client that read it would trust the attacker's keys.
			return nil, false, Errorf(ErrMalformed, "%s must be in the protected header only: the unprotected header is not signed", name)
		}
	}
	for name := range sig.Header {
		if _, ok := h[name]; ok {
			return nil, false, Errorf(ErrMalformed, "%q is in both the protected and the unprotected header, which must be disjoint (RFC 7515 section 7.2.1)", name)
		}
	}
	if err := checkCrit(h); err != nil {
		return nil, false, err
	}
	if b64, ok := h["b64"]; ok && b64 != true {
		return nil, false, Errorf(ErrMalformed, "unencoded payload (b64: false, RFC 7797) refused: A2A signs the base64url-encoded canonical card")
	}
	if !slices.Contains(algs, r.Alg) {
		return nil, false, Errorf(ErrAlgorithm, "alg %q is not allowed (allowed: %v)", r.Alg, algs)
	}
	if r.KID == "" {
		return nil, false, Errorf(ErrMalformed, "protected header has no kid")
	}
	key = trusted.Find(r.KID)
	if key == nil {
		return nil, false, Errorf(ErrUnknownKey, "kid %q is not among the trusted keys", r.KID)
	}
	if !key.IsPublic() {
		return nil, false, Errorf(ErrUnknownKey, "trusted key %q carries private material; refusing it", r.KID)
	}
	want := key.Algorithm
	if want == EdDSA && r.Alg == "Ed25519" {
		want = "Ed25519"
	}
	if key.Algorithm == "" || want != r.Alg {
		return nil, false, Errorf(ErrAlgorithm, "header alg %q does not match the key's alg %q", r.Alg, key.Algorithm)
	}
	return key, projection, nil
}

// checkCrit applies RFC 7515 section 4.1.11: a recipient must refuse a
// signature whose crit names an extension it does not understand. This
// verifier (like go-jose, apart from RFC 7797's b64, which A2A does not use)
// understands no extension that needs crit, and agentcards never writes it,
// so any crit refuses the signature, whatever the algorithm.
func checkCrit(h map[string]any) error {
	v, ok := h["crit"]
	if !ok {
		return nil
	}
	list, _ := v.([]any)
	var names []string
	for _, e := range list {
		if name, ok := e.(string); ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 || len(names) != len(list) {
		return Errorf(ErrMalformed, "crit is not a non-empty list of header parameter names: signature refused (RFC 7515 section 4.1.11)")
	}
	return Errorf(ErrMalformed, "crit names %s, which this verifier does not understand: signature refused (RFC 7515 section 4.1.11)", strings.Join(names, ", "))
}

// verifyOne checks one detached signature over payload.
func verifyOne(sig card.Signature, payload []byte, key *jose.JSONWebKey, alg string) error {
	if alg == EdDSA {
		return verifyEdDSA(sig, payload, key)
	}
	if alg == "Ed25519" {
		// go-jose knows only the polymorphic name; the signing input is the same.
		pub, ok := key.Key.(ed25519.PublicKey)
		if !ok {
			return Errorf(ErrAlgorithm, "Ed25519 signature needs an Ed25519 key")
		}
		s, err := base64.RawURLEncoding.DecodeString(sig.Signature)
		if err != nil {
			return err
		}
		input := sig.Protected + "." + base64.RawURLEncoding.EncodeToString(payload)
		if !ed25519.Verify(pub, []byte(input), s) {
			return ErrBadSignature
		}
		return nil
	}
	return verifyJOSE(sig, payload, key, alg)
}

// verifyJOSE checks one detached signature over payload with go-jose.
func verifyJOSE(sig card.Signature, payload []byte, key *jose.JSONWebKey, alg string) error {
	obj, err := jose.ParseDetached(sig.Protected+".."+sig.Signature, payload, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(alg)})
	if err != nil {
		return err
	}
	if _, err := obj.Verify(key.Key); err != nil {
		return ErrBadSignature
	}
	return nil
}

// verifyEdDSA decides an EdDSA signature exactly as go-jose's ParseDetached
// and Verify do (verifyOne's general path), without their cost on every
// card: go-jose reads the protected header once per distinct header
// (edHeaderCheck), and the rest is what it then does, by hand. Like
// go-jose, it ignores white space in the signature, and signs over the
// protected header as decoded and encoded again (base64url without
// padding), a dot, and the payload encoded.
func verifyEdDSA(sig card.Signature, payload []byte, key *jose.JSONWebKey) error {
	protected, err := base64.RawURLEncoding.DecodeString(withoutSpace(sig.Protected))
	if err != nil {
		return err
	}
	s, err := base64.RawURLEncoding.DecodeString(withoutSpace(sig.Signature))
	if err != nil {
		return err
	}
	buf := signingInputs.Get().(*[]byte)
	defer func() {
		if cap(*buf) <= 1<<20 { // not a huge card's
			signingInputs.Put(buf)
		}
	}()
	in := base64.RawURLEncoding.AppendEncode((*buf)[:0], protected)
	if err := edHeaderCheck(string(in)); err != nil {
		return err
	}
	pub, ok := key.Key.(ed25519.PublicKey)
	if !ok || len(pub) != ed25519.PublicKeySize {
		// go-jose fails to verify (or panics, for a short key).
		return fmt.Errorf("%w: EdDSA needs an Ed25519 key", ErrBadSignature)
	}
	in = append(in, '.')
	in = appendBase64URL(in, payload)
	*buf = in
	if !ed25519.Verify(pub, in, s) {
		return ErrBadSignature
	}
	return nil
}

// signingInputs holds buffers for the signing inputs of verifyEdDSA and
// edSigner.sign (ed25519.Sign and Verify keep none).
var signingInputs = sync.Pool{New: func() any { return new([]byte) }}

// edHeaders keeps go-jose's verdict on the protected headers seen, by
// their base64url form: a site's cards share a header or two. It stops
// growing at maxEdHeaders (a card of a hostile site may bring a new one
// each); beyond it, headers are checked every time.
var (
	edHeaders     sync.Map // string -> error (nil: accepted)
	edHeaderCount atomic.Int64
)

const maxEdHeaders = 256

// edHeaderCheck is what go-jose's ParseDetached says of an EdDSA signature
// with the protected header protected (base64url): its verdict depends on
// nothing else (the payload and the signature bytes are only carried).
func edHeaderCheck(protected string) error {
	if v, ok := edHeaders.Load(protected); ok {
		err, _ := v.(error)
		return err
	}
	_, err := jose.ParseDetached(protected+"..", []byte{}, []jose.SignatureAlgorithm{jose.EdDSA})
	if edHeaderCount.Load() < maxEdHeaders {
		if _, loaded := edHeaders.LoadOrStore(protected, err); !loaded {
			edHeaderCount.Add(1)
		}
	}
	return err
}

// withoutSpace is s without the white space go-jose strips from a compact
// JWS (unicode.IsSpace), usually s itself.
func withoutSpace(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || unicode.IsSpace(rune(c)) {
			return strings.Map(func(r rune) rune {
				if unicode.IsSpace(r) {
					return -1
				}
				return r
			}, s)
		}
	}
	return s
}
