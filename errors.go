package agentcards

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/terminal"
	"github.com/agentcards/agentcards/internal/trust"
)

// The kinds of failure, for errors.Is. A *VerificationError matches every
// kind one of its signatures failed with.
var (
	// ErrMalformed: the card, a signature or a protected header cannot be
	// read (not JSON, duplicate or case-variant member names, invalid
	// UTF-8, not base64url, a crit or unencoded payload).
	ErrMalformed = sign.ErrMalformed
	// ErrUnsigned: the card has no signatures.
	ErrUnsigned = sign.ErrUnsigned
	// ErrUnknownKey: a signature's kid names no trusted key.
	ErrUnknownKey = sign.ErrUnknownKey
	// ErrAlgorithm: a signature's alg is not allowed or does not fit the
	// key its kid names.
	ErrAlgorithm = sign.ErrAlgorithm
	// ErrBadSignature: a signature does not verify with the key its kid
	// names: the card was changed after signing, or forged.
	ErrBadSignature = sign.ErrBadSignature
	// ErrUncovered: a signature verifies only over a form of the card that
	// leaves out members which are there: they were changed or added after
	// signing.
	ErrUncovered = sign.ErrUncovered
	// ErrCrossOrigin: a signature's jku names a JWKS other than the
	// trusted one.
	ErrCrossOrigin = trust.ErrCrossOrigin
	// ErrJWKS: the trusted JWKS cannot be used (not a JWKS, no usable key,
	// a private key published).
	ErrJWKS = trust.ErrJWKS
	// ErrPolicy: signatures verified, but not as [RequireWholeCard] or
	// [RequireAllSignatures] demands.
	ErrPolicy = errors.New("card refused by the verifier's policy")
)

// SignatureError is why one signature of a card did not verify.
type SignatureError struct {
	Index     int    // its place in the card's signatures
	KeyID     string // its kid, as the card says
	Algorithm string // its alg, as the card says
	Err       error  // of one of the kinds above
}

// Error says which signature failed and why, with control and bidi
// characters escaped, as in every error of this package.
func (e *SignatureError) Error() string {
	var b strings.Builder
	b.WriteString("signatures[")
	b.WriteString(strconv.Itoa(e.Index))
	b.WriteString("]")
	if e.KeyID != "" {
		b.WriteString(" (kid " + e.KeyID + ")")
	}
	b.WriteString(": " + e.Err.Error())
	return terminal.Escape(b.String())
}

// Unwrap returns the cause.
func (e *SignatureError) Unwrap() error { return e.Err }

// VerificationError is a card none of whose signatures verified, or which
// the policy refused.
type VerificationError struct {
	Signatures []*SignatureError
	Policy     []error // ErrPolicy failures
}

// Error lists why the card was refused.
func (e *VerificationError) Error() string {
	parts := make([]string, 0, len(e.Signatures)+len(e.Policy))
	for _, p := range e.Policy {
		parts = append(parts, p.Error())
	}
	for _, s := range e.Signatures {
		parts = append(parts, s.Error())
	}
	if len(parts) == 0 {
		return "agentcards: card not verified"
	}
	return "agentcards: card not verified: " + strings.Join(parts, "; ")
}

// Unwrap returns the errors of every signature and of the policy.
func (e *VerificationError) Unwrap() []error {
	out := make([]error, 0, len(e.Signatures)+len(e.Policy))
	for _, s := range e.Signatures {
		out = append(out, s)
	}
	return append(out, e.Policy...)
}

// FetchError is a card or JWKS that could not be fetched: a refused URL
// or redirect, a network error, an HTTP status other than 200 (StatusCode),
// a body over the size limit.
type FetchError struct {
	URL        string // without any password
	StatusCode int    // 0 when there was no HTTP answer
	Err        error
}

// Error says which URL failed and why, with control and bidi characters
// escaped.
func (e *FetchError) Error() string {
	return terminal.Escape("agentcards: fetch " + e.URL + ": " + e.Err.Error())
}

// Unwrap returns the cause.
func (e *FetchError) Unwrap() error { return e.Err }

// fetchError is err as a *FetchError when it is a fetch failure (u, when
// set, names the URL if err does not).
func fetchError(err error, u *url.URL) error {
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return &FetchError{URL: fe.URL, StatusCode: fe.StatusCode, Err: fe.Err}
	}
	if u != nil && !errors.Is(err, ErrJWKS) {
		return &FetchError{URL: u.Redacted(), Err: err}
	}
	return err
}

// escaped is an error whose text has control and bidi characters escaped
// (a card's or a server's words may try to rewrite a terminal); errors.Is
// and errors.As see through it. Every error this package returns is one.
type escaped struct{ err error }

func (e *escaped) Error() string { return terminal.Escape(e.err.Error()) }
func (e *escaped) Unwrap() error { return e.err }

// escape wraps err, when there is one, in escaped.
func escape(err error) error {
	if err == nil {
		return nil
	}
	return &escaped{err}
}
