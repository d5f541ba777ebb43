package agentcards

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/sign"
)

// BenchmarkVerify is the cost of verifying one Ed25519-signed card through
// the public API, on one core: decoding, RFC 8785, the signature and the
// verified card's bytes.
func BenchmarkVerify(b *testing.B) {
	k := newTestKey(b, "")
	signed := signCard(b, unsignedCard, k)
	v := pinned(b, k.jwks)
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(int64(len(signed)))
	for b.Loop() {
		if _, err := v.Verify(ctx, signed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyMany verifies n different cards in turn: the cost and the
// allocations per card do not grow with the number of cards verified.
func BenchmarkVerifyMany(b *testing.B) {
	k := newTestKey(b, "")
	v := pinned(b, k.jwks)
	ctx := context.Background()
	for _, n := range []int{10, 1000} {
		cards := make([][]byte, n)
		for i := range cards {
			cards[i] = signCard(b, fmt.Sprintf(`{"name":"Agent %d",`, i)+unsignedCard[len(`{"name":"Echo",`):], k)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := v.Verify(ctx, cards[i%n]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkVerifyFloor is the part of BenchmarkVerify no verifier can
// skip: one Ed25519 verification of the same card's signing input, with the
// canonical form already at hand. Verify's cost over this is reading the
// card strictly, RFC 8785 and the checks around the signature.
func BenchmarkVerifyFloor(b *testing.B) {
	k := newTestKey(b, "")
	signed := signCard(b, unsignedCard, k)
	payload, err := sign.Canonicalize([]byte(unsignedCard))
	if err != nil {
		b.Fatal(err)
	}
	var c struct{ Signatures []card.Signature }
	if err := json.Unmarshal(signed, &c); err != nil {
		b.Fatal(err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(c.Signatures[0].Signature)
	if err != nil {
		b.Fatal(err)
	}
	input := []byte(c.Signatures[0].Protected + "." + base64.RawURLEncoding.EncodeToString(payload))
	pub := k.signer.Public.Key.(ed25519.PublicKey)
	b.ReportAllocs()
	for b.Loop() {
		if !ed25519.Verify(pub, input, sig) {
			b.Fatal("does not verify")
		}
	}
}
