package lint

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"
)

// protectedHeaderRef is protectedHeader as first written: every header
// read by json.Unmarshal.
func protectedHeaderRef(b64 string) map[string]any {
	if b64 == "" || len(b64) > 64<<10 {
		return nil
	}
	data, err := base64.RawURLEncoding.DecodeString(trimPadding(b64))
	if err != nil {
		return nil
	}
	var h map[string]any
	if json.Unmarshal(data, &h) != nil {
		return nil
	}
	return h
}

// trimPadding is strings.TrimRight(s, "=").
func trimPadding(s string) string {
	for len(s) > 0 && s[len(s)-1] == '=' {
		s = s[:len(s)-1]
	}
	return s
}

// headerTexts are JSON texts a protected header may be, plain and not.
var headerTexts = []string{
	`{"alg":"EdDSA","jku":"https://agents.example.com/.well-known/jwks.json","kid":"k1","typ":"JOSE"}`,
	`{"agentcards:payload":"a2a-sdk-projection","alg":"EdDSA","jku":"https://x.example.com/k","kid":"k","typ":"JOSE"}`,
	` { "alg" : "ES256" ,	"x5u":"http://10.0.0.1/cert"
	} `,
	`{}`, ` {} `, `{"jku":"a","jku":"b"}`, `{"jku":""}`, `{"":""}`,
	`{"alg":"EdDSA","b64":false,"crit":["b64"]}`, `{"jku":"https:\/\/x.example.com"}`, `{"j\u006bu":"http://127.0.0.1"}`,
	`{"alg":"EdDSA"`, `{"alg":"EdDSA",}`, `{"alg" "EdDSA"}`, `{"alg":"EdDSA"}x`, `{"alg":"EdDSA"}}`, `{,}`, `{"a":1}`,
	`null`, `[]`, `"x"`, `{"a":"\u00e9"}`, "{\"a\":\"\xff\"}", "{\"a\":\"\x01\"}", "{\"a\":\"é\"}", `{"a":{"b":"c"}}`,
	`{"a":"b"} `, "\t{\"a\":\"b\"}\n", `{ }`, `{"a":"b",,"c":"d"}`, `{"a":"b" "c":"d"}`, ``, ` `, `{`, `}`,
}

// sameHeader fails t when protectedHeader reads b64 otherwise than
// protectedHeaderRef.
func sameHeader(t *testing.T, b64 string) {
	t.Helper()
	if got, want := protectedHeader(b64), protectedHeaderRef(b64); !reflect.DeepEqual(got, want) {
		t.Fatalf("protectedHeader(%q) = %#v, as first written %#v", b64, got, want)
	}
}

// TestProtectedHeaderSameAsRef: flatHeader reads the headers it takes as
// json.Unmarshal does, and takes the plain ones.
func TestProtectedHeaderSameAsRef(t *testing.T) {
	for _, text := range headerTexts {
		sameHeader(t, base64.RawURLEncoding.EncodeToString([]byte(text)))
		sameHeader(t, base64.URLEncoding.EncodeToString([]byte(text)))
	}
	for _, b64 := range []string{"", "!!", "e30", "e30=", "eyJhIjoiYiJ9", "not base64 at all"} {
		sameHeader(t, b64)
	}
	if _, ok := flatHeader([]byte(headerTexts[0])); !ok {
		t.Fatal("flatHeader leaves a signature's usual header to json.Unmarshal")
	}
}

// FuzzProtectedHeader holds protectedHeader to protectedHeaderRef on any
// JSON text, and on any base64url.
func FuzzProtectedHeader(f *testing.F) {
	for _, text := range headerTexts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sameHeader(t, base64.RawURLEncoding.EncodeToString([]byte(text)))
		sameHeader(t, text)
	})
}
