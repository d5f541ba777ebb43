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
	changed := flattenRequirements(doc)
	if skills, ok := doc["skills"].([]any); ok {
		for _, s := range skills {
			if sm, ok := s.(map[string]any); ok && flattenRequirements(sm) {
				changed = true
			}
		}
	}
	if !changed {
		return cardJSON
	}
	out, err := sign.CanonicalValue(doc)
	if err != nil {
		return cardJSON
	}
	return out
}

// flattenRequirements flattens the scope lists of obj's
// securityRequirements in place, and reports whether it changed any.
func flattenRequirements(obj map[string]any) bool {
	reqs, ok := obj["securityRequirements"].([]any)
	if !ok {
		return false
	}
	changed := false
	for _, r := range reqs {
		rm, ok := r.(map[string]any)
		if !ok {
			continue
		}
		schemes, ok := rm["schemes"].(map[string]any)
		if !ok {
			continue
		}
		for name, scopes := range schemes {
			sl, ok := scopes.(map[string]any)
			if !ok {
				continue
			}
			switch list, has := sl["list"]; {
			case len(sl) == 0: // {} is an empty list, as SDK servers write it
				schemes[name] = []any{}
				changed = true
			case len(sl) == 1 && has:
				if arr, ok := list.([]any); ok {
					schemes[name] = arr
					changed = true
				}
			}
		}
	}
	return changed
}
