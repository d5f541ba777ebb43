package importer

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/compose"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

const site = "[site]\nbaseUrl = \"https://agents.example.com\"\n\n"

// canonicalV1 builds agent a's v1.0 card and returns its RFC 8785 form.
func canonicalV1(t *testing.T, m *manifest.Manifest, a *manifest.Agent) []byte {
	t.Helper()
	b, err := card.Marshal(compose.NewV1(m, a))
	if err != nil {
		t.Fatal(err)
	}
	c, err := sign.Canonicalize(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// variety is a manifest that uses every feature of the manifest.
const variety = site + `[provider]
organization = "Org"
url = "https://org.example.com"

[[agents]]
id = "all"
name = "All <features> & \"quotes\""
description = "Tabs\tnewlines\nand ünïcödé 🚀"
version = "1.2.3"
documentationUrl = "https://docs.example.com"
iconUrl = "https://docs.example.com/icon.png"
defaultInputModes = ["text/plain", "application/json; charset=utf-8"]
[[agents.supportedInterfaces]]
url = "https://a.example.com/v1"
protocolBinding = "GRPC"
protocolVersion = "1.0"
tenant = "acme"
[[agents.supportedInterfaces]]
url = "http://localhost:8080/a2a"
protocolBinding = "HTTP+JSON"
protocolVersion = "0.3.0"
[agents.capabilities]
streaming = true
extendedAgentCard = true
[[agents.capabilities.extensions]]
uri = "urn:example:ext"
description = "x"
required = true
params = { n = 9007199254740992, neg = -3, f = 1.5, big = 1e300, small = 2.5e-8, whole = 5.0, s = "x", b = false, list = [1, "two", { three = 3 }], nested = { deep = { deeper = true } }, "odd key" = "v" }
[[agents.capabilities.extensions]]
uri = "https://ext.example.com/2"
[agents.securitySchemes.k]
type = "apiKey"
location = "cookie"
name = "sid"
[agents.securitySchemes.h]
type = "http"
scheme = "Basic"
[agents.securitySchemes.o]
type = "oauth2"
oauth2MetadataUrl = "https://auth.example.com/meta"
[agents.securitySchemes.o.flows.deviceCode]
deviceAuthorizationUrl = "https://auth.example.com/device"
tokenUrl = "https://auth.example.com/token"
refreshUrl = "https://auth.example.com/refresh"
scopes = { "a:b" = "A B", c = "C" }
[agents.securitySchemes.ac]
type = "oauth2"
[agents.securitySchemes.ac.flows.authorizationCode]
authorizationUrl = "https://auth.example.com/authorize"
tokenUrl = "https://auth.example.com/token"
pkceRequired = true
scopes = { read = "Read" }
[agents.securitySchemes.oidc]
type = "openIdConnect"
openIdConnectUrl = "https://auth.example.com/.well-known/openid-configuration"
[agents.securitySchemes.m]
type = "mutualTLS"
[agents.securitySchemes."dotted.name"]
type = "mutualTLS"
description = "Described"
[[agents.securityRequirements]]
k = []
m = []
[[agents.securityRequirements]]
o = ["a:b", "c"]
[[agents.skills]]
id = "s.1:x"
name = "S"
description = "D"
tags = ["t", "ü"]
examples = ["e1", "e2"]
inputModes = ["image/png"]
outputModes = ["text/csv"]
[[agents.skills.securityRequirements]]
ac = ["read"]
[[agents.skills.securityRequirements]]
oidc = []
`

// TestRoundTrip is the import property: for every v1.0 card in normal form,
// import -> agents.toml -> build gives the card back (without signatures).
func TestRoundTrip(t *testing.T) {
	example, err := os.ReadFile("../../agents.toml")
	if err != nil {
		t.Fatal(err)
	}
	var gen strings.Builder
	gen.WriteString(strings.Replace(site, "[site]\n", "[site]\ndefaultAgent = \"g0\"\n", 1))
	for i := range 30 {
		fmt.Fprintf(&gen, "[[agents]]\nid = \"g%d\"\nname = \"Generated %d\"\ndescription = \"D %d\"\nversion = \"%d.0\"\n[[agents.supportedInterfaces]]\nurl = \"https://g%d.example.com\"\nprotocolBinding = \"JSONRPC\"\nprotocolVersion = \"1.0\"\n[agents.capabilities]\npushNotifications = %v\n[[agents.skills]]\nid = \"s\"\nname = \"S\"\ndescription = \"D\"\ntags = [\"t%d\"]\n\n", i, i, i, i, i, i%2 == 0, i)
	}
	for name, src := range map[string]string{"example": string(example), "variety": variety, "generated": gen.String()} {
		m, err := manifest.Parse(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range m.Agents {
			a := &m.Agents[i]
			t.Run(name+"/"+a.ID, func(t *testing.T) {
				want := canonicalV1(t, m, a)
				signed, err := card.Marshal(compose.NewV1(m, a))
				if err != nil {
					t.Fatal(err)
				}
				res, err := Card(signed, a.ID)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Warnings) > 0 {
					t.Errorf("warnings for a normal-form card: %v", res.Warnings)
				}
				block := manifest.EncodeAgent(&res.Agent)
				m2, err := manifest.Parse("imported", append([]byte(site), block...))
				if err != nil {
					t.Fatalf("imported block does not load: %v\n%s", err, block)
				}
				got := canonicalV1(t, m2, &m2.Agents[0])
				if string(got) != string(want) {
					t.Errorf("round trip differs:\n got  %s\n want %s\nblock:\n%s", got, want, block)
				}
			})
		}
	}
}

// TestShapes imports each testdata/import card and checks the block loads
// and the warnings name what was dropped.
func TestShapes(t *testing.T) {
	for file, want := range map[string][]string{
		"v03.json": {"signatures: dropped", "capabilities.stateTransitionHistory: dropped", "securitySchemes.fxOAuth.flows.implicit: dropped"},
		"v02.json": {`defaultInputModes: "text" written as "text/plain"`, "protocolVersion: missing"},
		"legacy-registry.json": {
			"@context: dropped", "@type: dropped", `id "agent://registry.example.org/acme/weather-bot"`,
			"authentication.credentials: dropped: it holds a secret",
			"securitySchemes.partnerKey.shared_secret: dropped: it holds a secret",
			"llmConfig: dropped: no A2A field carries it",
		},
	} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile("../../testdata/import/" + file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Card(data, "")
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(res.Warnings, "\n")
			for _, w := range want {
				if !strings.Contains(all, w) {
					t.Errorf("no warning %q in:\n%s", w, all)
				}
			}
			if strings.Contains(all, "hunter2") || strings.Contains(all, "sk-live") {
				t.Error("a warning repeats a secret")
			}
			block := manifest.EncodeAgent(&res.Agent)
			if strings.Contains(string(block), "hunter2") || strings.Contains(string(block), "sk-live") {
				t.Error("the block carries a secret")
			}
			if _, err := manifest.Parse(file, append([]byte(site), block...)); err != nil {
				t.Errorf("block does not load: %v\n%s", err, block)
			}
		})
	}
}

func TestStringBooleansAndLegacyInterface(t *testing.T) {
	data, _ := os.ReadFile("../../testdata/import/legacy-registry.json")
	res, err := Card(data, "")
	if err != nil {
		t.Fatal(err)
	}
	a := res.Agent
	if a.ID != "weather-bot" || !a.Capabilities.Streaming || a.Capabilities.PushNotifications {
		t.Errorf("got id %q streaming %v push %v", a.ID, a.Capabilities.Streaming, a.Capabilities.PushNotifications)
	}
	if len(a.SupportedInterfaces) != 1 || a.SupportedInterfaces[0].URL != "https://weather.example.com/rpc" || a.DefaultOutputModes[0] != "application/json" {
		t.Errorf("interface object not hoisted: %+v %v", a.SupportedInterfaces, a.DefaultOutputModes)
	}
	if s, ok := a.SecuritySchemes["partnerKey"]; !ok || s.Location != "query" {
		t.Errorf("array securitySchemes: %+v", a.SecuritySchemes)
	}
	if s, ok := a.SecuritySchemes["bearer"]; !ok || s.Scheme != "Bearer" {
		t.Errorf("authentication.schemes: %+v", a.SecuritySchemes)
	}
}

func TestNoEndpoint(t *testing.T) {
	if _, err := Card([]byte(`{"name":"x"}`), ""); err == nil || !strings.Contains(err.Error(), "no endpoint") {
		t.Errorf("got %v", err)
	}
	if _, err := Card([]byte(`[1]`), ""); err == nil {
		t.Error("array accepted")
	}
}

// TestSecretsNeverCarried: secrets under any spelling of a secret key, key
// material in any string, and URL user information never reach the block
// or the warnings.
func TestSecretsNeverCarried(t *testing.T) {
	card := `{
	  "name": "Leaky", "version": "1",
	  "description": "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIHL8SECRETPEM\n-----END PRIVATE KEY-----",
	  "url": "https://user:pa55word@leaky.example.com/a2a",
	  "documentationUrl": "https://admin:hunter2@docs.example.com/",
	  "Password": "hunter2", "access_token": "sk-live-123",
	  "capabilities": {"extensions": [{"uri": "urn:x", "params": {"Client-Secret": "cs-999", "jwk": "{\"kty\":\"OKP\",\"d\":\"SECRETD\"}", "ok": "fine"}}]},
	  "skills": [{"id": "s", "name": "S", "description": "D", "tags": ["t"]}]
	}`
	res, err := Card([]byte(card), "")
	if err != nil {
		t.Fatal(err)
	}
	block := string(manifest.EncodeAgent(&res.Agent))
	all := block + strings.Join(res.Warnings, "\n")
	for _, secret := range []string{"hunter2", "sk-live-123", "cs-999", "SECRETD", "SECRETPEM", "pa55word"} {
		if strings.Contains(all, secret) {
			t.Errorf("%q carried:\n%s", secret, all)
		}
	}
	if !strings.Contains(block, `ok = "fine"`) || !strings.Contains(block, "https://leaky.example.com/a2a") {
		t.Errorf("innocent values lost:\n%s", block)
	}
	if _, err := manifest.Parse("b", append([]byte(site), block...)); err != nil {
		t.Errorf("block does not load: %v", err)
	}
}

// TestDeepAndAmbiguousCardsRefused: a card nested deeper than a manifest
// may nest, or with members that differ only in case, is refused at once
// with a clear error (10,000 levels used to cost memory growing with the
// square of the depth).
func TestDeepAndAmbiguousCardsRefused(t *testing.T) {
	deep := `{"name":"x","url":"https://a.example.com","capabilities":{"extensions":[{"uri":"https://e.example.com","params":` +
		strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000) + `}]}}`
	if _, err := Card([]byte(deep), "x"); err == nil || !strings.Contains(err.Error(), "nested more than 31 levels deep") {
		t.Errorf("deep card: %v", err)
	}
	if _, err := Card([]byte(`{"name":"x","NAME":"y","url":"https://a.example.com"}`), "x"); err == nil || !strings.Contains(err.Error(), "differ only in letter case") {
		t.Errorf("case variants: %v", err)
	}
}

// TestInexactNumbersKeptAsStrings: import reads numbers RFC 8785 cannot
// pin (verify refuses them), and keeps them as strings with a warning.
func TestInexactNumbersKeptAsStrings(t *testing.T) {
	res, err := Card([]byte(`{"name":"x","url":"https://a.example.com","capabilities":{"extensions":[{"uri":"https://e.example.com","params":{"big":9007199254740993}}]}}`), "x")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "9007199254740993 is beyond ±2^53") {
		t.Errorf("warnings %v", res.Warnings)
	}
}

func TestSlugTransliterates(t *testing.T) {
	for in, want := range map[string]string{
		"Café Concierge":  "cafe-concierge",
		"Zürich":          "zurich",
		"Straße & Ærø":    "strasse-aero",
		"Łódź Dvořák":     "lodz-dvorak",
		"São Paulo Ñandú": "sao-paulo-nandu",
		"東京 agent":        "agent",
		"Київ":            "",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestImportSaysWhenAuthenticationIsLost: a card whose only scheme uses
// the implicit flow asks for authentication; imported, it would declare
// none, and the import says so loudly.
func TestImportSaysWhenAuthenticationIsLost(t *testing.T) {
	card := `{"name":"X","description":"d","version":"1","supportedInterfaces":[{"url":"https://x.example.com/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
"securitySchemes":{"o":{"oauth2SecurityScheme":{"flows":{"implicit":{"authorizationUrl":"https://x.example.com/auth","scopes":{"a":"A"}}}}}},
"securityRequirements":[{"schemes":{"o":{"list":["a"]}}}],
"skills":[{"id":"s","name":"S","description":"d","tags":["t"]}]}`
	res, err := Card([]byte(card), "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		if strings.Contains(w, "declares NONE") {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning that the agent lost its authentication: %q", res.Warnings)
	}
}
