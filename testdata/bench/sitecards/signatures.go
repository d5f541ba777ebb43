package sitecards

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"

	"github.com/gowebpki/jcs"

	"github.com/agentcards/agentcards/internal/card"
)

// Projection is the value of the protected header member
// "agentcards:payload" of a signature made over a card's SDK projection
// (card.SDKProjection) rather than over the card itself.
const Projection = "a2a-sdk-projection"

// Signature is one detached JWS signature of a card, as written, with
// the protected header members the floors need.
type Signature struct {
	Protected, Signature string
	// Alg, Kid and Payload are the protected header's "alg", "kid" and
	// "agentcards:payload" (Projection, or "" for the card itself).
	Alg, Kid, Payload string
}

// Signatures reads a card's signatures (Split) and their protected
// headers; an error when there are none.
func Signatures(raw json.RawMessage) ([]Signature, error) {
	var sigs []Signature
	if err := json.Unmarshal(raw, &sigs); err != nil || len(sigs) == 0 {
		return nil, fmt.Errorf("no signatures (%v)", err)
	}
	for i := range sigs {
		header, err := base64.RawURLEncoding.DecodeString(sigs[i].Protected)
		if err != nil {
			return nil, err
		}
		var h struct {
			Alg, Kid string
			Payload  string `json:"agentcards:payload"`
		}
		if err := json.Unmarshal(header, &h); err != nil {
			return nil, fmt.Errorf("header %s: %v", header, err)
		}
		if h.Payload != "" && h.Payload != Projection {
			return nil, fmt.Errorf("header %s: unknown payload", header)
		}
		sigs[i].Alg, sigs[i].Kid, sigs[i].Payload = h.Alg, h.Kid, h.Payload
	}
	return sigs, nil
}

// Payload is what sig was made over before canonicalization: the card
// without its signatures (unsigned), or its SDK projection.
func Payload(unsigned []byte, sig Signature) ([]byte, error) {
	if sig.Payload != Projection {
		return unsigned, nil
	}
	projected, _, err := card.SDKProjection(unsigned)
	return projected, err
}

// Read reads the card at path: the card without its signatures (Split)
// and its signatures.
func Read(path string) (unsigned []byte, sigs []Signature, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	unsigned, raw, err := Split(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if sigs, err = Signatures(raw); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return unsigned, sigs, nil
}

// SigningInputs are the JWS signing inputs of sigs, the signatures of
// the card unsigned: each signature's protected header as written, '.',
// and the base64url of the RFC 8785 form (github.com/gowebpki/jcs) of
// its Payload, each payload put in that form once.
func SigningInputs(unsigned []byte, sigs []Signature) ([][]byte, error) {
	payloads := map[string]string{} // by Signature.Payload
	inputs := make([][]byte, len(sigs))
	for i, sig := range sigs {
		payload, ok := payloads[sig.Payload]
		if !ok {
			input, err := Payload(unsigned, sig)
			if err != nil {
				return nil, err
			}
			canonical, err := jcs.Transform(input)
			if err != nil {
				return nil, err
			}
			payload = base64.RawURLEncoding.EncodeToString(canonical)
			payloads[sig.Payload] = payload
		}
		inputs[i] = []byte(sig.Protected + "." + payload)
	}
	return inputs, nil
}
