package agentcards

import (
	"context"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/sign"
)

// VerifyingParser returns a card parser for a client library: it verifies
// the bytes it is given with v (within ctx) and hands parse only the
// verified card ([Result.Card]), so nothing unsigned reaches the parsed
// value; a card that does not verify is an error and parse never sees it.
// With a2a-go v2 it is assigned to agentcard.Resolver.CardParser, T being
// *a2a.AgentCard; the resolver gives the parser no URL, so v should trust
// a JWKS URL or pinned keys, not [TrustOrigin].
func VerifyingParser[T any](ctx context.Context, v *Verifier, parse func([]byte) (T, error)) func([]byte) (T, error) {
	return func(body []byte) (T, error) {
		res, err := v.Verify(ctx, body)
		if err != nil {
			var zero T
			return zero, err
		}
		return parse(res.Card)
	}
}

// FlattenScopeLists rewrites the security requirements of a v1.0 card
// (the card's and its skills') from the A2A v1.0 JSON form,
// {"schemes": {"name": {"list": ["scope"]}}}, to the form a2a-go v2.4.0
// reads, {"schemes": {"name": ["scope"]}} (a2a-go issue #430): the same
// requirements, nothing added or dropped. Anything else, and a card it
// cannot read, comes back unchanged. Give it the verified bytes
// ([Result.Card]).
func FlattenScopeLists(cardJSON []byte) []byte {
	doc, err := card.Decode(cardJSON, card.Strict)
	if err != nil {
		return cardJSON
	}
	flat, changed := card.RewriteScopeLists(doc, func(scopes map[string]any) (any, bool) {
		switch list, ok := scopes["list"].([]any); {
		case len(scopes) == 0: // {} is an empty list, as SDK servers write it
			return []any{}, true
		case len(scopes) == 1 && ok:
			return list, true
		}
		return nil, false
	})
	if !changed {
		return cardJSON
	}
	out, err := sign.CanonicalValue(flat)
	if err != nil {
		return cardJSON
	}
	return out
}
