package agentcards

import (
	"context"
	"fmt"
	"testing"
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
