package manifest

import (
	"errors"
	"strings"
	"testing"
)

func TestExampleManifestLoads(t *testing.T) {
	m, err := Load("../../agents.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Agents) != 3 || m.DefaultAgentID() != "travel-planner" {
		t.Fatalf("got %d agents, default %q", len(m.Agents), m.DefaultAgentID())
	}
	if m.Site.BaseURL != "https://agents.example.com" {
		t.Errorf("baseUrl %q", m.Site.BaseURL)
	}
	inv := m.Agents[1]
	if p := m.EffectiveProvider(&inv); p.Organization != "Example Co. Finance Tools" || p.URL != "https://example.com" {
		t.Errorf("provider defaults not merged: %+v", p)
	}
	if got := m.Agents[2].InputModes(); len(got) != 1 || got[0] != "text/plain" {
		t.Errorf("default input modes %v", got)
	}
}

const validAgent = `
[site]
baseUrl = "https://agents.example.com/"

[[agents]]
id = "a"
name = "A"
description = "D"
version = "1"
[[agents.supportedInterfaces]]
url = "https://a.example.com"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"
[[agents.skills]]
id = "s"
name = "S"
description = "D"
tags = ["t"]
`

// TestPublisher: the AI Catalog publisher is site.publisher, else the
// host of baseUrl, else the placeholder for loopback sites.
func TestPublisher(t *testing.T) {
	for _, tc := range []struct{ site, want string }{
		{"baseUrl = \"https://Agents.Example.com/\"", "agents.example.com"},
		{"baseUrl = \"https://agents.example.com:8443\"", "agents.example.com"},
		{"baseUrl = \"http://localhost:8090\"", "agent.localhost"},
		{"baseUrl = \"http://127.0.0.1:8090\"", "agent.localhost"},
		{"baseUrl = \"https://cdn.example.net\"\npublisher = \"example.com\"", "example.com"},
	} {
		m, err := Parse("m.toml", []byte(strings.Replace(validAgent, "baseUrl = \"https://agents.example.com/\"", tc.site, 1)))
		if err != nil {
			t.Fatalf("%s: %v", tc.site, err)
		}
		if m.Site.Publisher != tc.want {
			t.Errorf("%s: publisher %q, want %q", tc.site, m.Site.Publisher, tc.want)
		}
	}
}

func TestValidMinimal(t *testing.T) {
	m, err := Parse("m.toml", []byte(validAgent))
	if err != nil {
		t.Fatal(err)
	}
	if m.Site.BaseURL != "https://agents.example.com" {
		t.Errorf("trailing slash kept: %q", m.Site.BaseURL)
	}
	if m.DefaultAgentID() != "a" {
		t.Errorf("default agent %q", m.DefaultAgentID())
	}
}

// TestDiagnostics checks each class of bad manifest yields the exact
// file:line:col, key path and message.
func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"syntax", "[site\nbaseUrl = 1\n", []string{"m.toml:2:6: not valid TOML"}},
		{"unknown key with suggestion", strings.Replace(validAgent, `baseUrl = "https://agents.example.com/"`, `baseUrl = "https://agents.example.com/"`+"\nbase_url = 1", 1),
			[]string{`m.toml:4:1: site.base_url: unknown key (did you mean "baseUrl"?)`}},
		{"typo in nested key", strings.Replace(validAgent, `protocolVersion = "1.0"`, `protocolVersion = "1.0"`+"\nprotocolBindng = \"GRPC\"", 1),
			[]string{`m.toml:14:1: agents["a"].supportedInterfaces[0].protocolBindng: unknown key (did you mean "protocolBinding"?)`}},
		{"missing required", strings.Replace(validAgent, "name = \"A\"\n", "", 1),
			[]string{"m.toml:5:1: agents[\"a\"].name: required"}},
		{"empty tags", strings.Replace(validAgent, `tags = ["t"]`, "tags = []", 1),
			[]string{"m.toml:18:1: agents[\"a\"].skills[\"s\"].tags: must not be empty"}},
		{"empty tag inside", strings.Replace(validAgent, `tags = ["t"]`, `tags = ["t", ""]`, 1),
			[]string{"m.toml:18:14: agents[\"a\"].skills[\"s\"].tags[1]: must not be empty"}},
		{"wrong type", strings.Replace(validAgent, `name = "A"`, "name = 5", 1),
			[]string{"m.toml:7:1: agents[\"a\"].name: got an integer; name must be a string, like name = \"...\""}},
		{"bad slug", strings.Replace(validAgent, `id = "a"`, `id = "Travel Planner"`, 1),
			[]string{`m.toml:6:1: agents[0].id: "Travel Planner" is not a URL slug`}},
		{"http url", strings.Replace(validAgent, `url = "https://a.example.com"`, `url = "http://a.example.com"`, 1),
			[]string{`m.toml:11:1: agents["a"].supportedInterfaces[0].url: "http://a.example.com" uses http`}},
		{"relative url", strings.Replace(validAgent, `url = "https://a.example.com"`, `url = "/a2a"`, 1),
			[]string{`agents["a"].supportedInterfaces[0].url: "/a2a" is not an absolute URL`}},
		{"bad binding", strings.Replace(validAgent, `"JSONRPC"`, `"jsonrpc"`, 1),
			[]string{`agents["a"].supportedInterfaces[0].protocolBinding: "jsonrpc" is not an A2A binding: use one of JSONRPC, GRPC, HTTP+JSON (did you mean "JSONRPC"?)`}},
		{"bad mime", strings.Replace(validAgent, `tags = ["t"]`, "tags = [\"t\"]\ninputModes = [\"text\"]", 1),
			[]string{`m.toml:19:15: agents["a"].skills["s"].inputModes[0]: "text" is not a media type`}},
		{"undeclared scheme", validAgent + "[[agents.securityRequirements]]\nnope = []\n",
			[]string{`m.toml:20:1: agents["a"].securityRequirements[0].nope: names scheme "nope", but the agent declares no securitySchemes`}},
		{"undeclared scope", validAgent + "[agents.securitySchemes.o]\ntype = \"oauth2\"\n[agents.securitySchemes.o.flows.clientCredentials]\ntokenUrl = \"https://t.example.com\"\nscopes = { read = \"Read\" }\n[[agents.securityRequirements]]\no = [\"write\"]\n",
			[]string{`m.toml:25:6: agents["a"].securityRequirements[0].o[0]: scope "write" is not among the scopes scheme "o" declares (read)`}},
		{"two oauth flows", validAgent + "[agents.securitySchemes.o]\ntype = \"oauth2\"\n[agents.securitySchemes.o.flows.clientCredentials]\ntokenUrl = \"https://t.example.com\"\nscopes = { read = \"Read\" }\n[agents.securitySchemes.o.flows.deviceCode]\ndeviceAuthorizationUrl = \"https://t.example.com/d\"\ntokenUrl = \"https://t.example.com\"\nscopes = { read = \"Read\" }\n",
			[]string{`agents["a"].securitySchemes.o.flows: A2A v1.0 allows one flow per oauth2 scheme`}},
		{"field of another scheme type", validAgent + "[agents.securitySchemes.k]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"X\"\nscheme = \"Bearer\"\n",
			[]string{`m.toml:23:1: agents["a"].securitySchemes.k.scheme: not used by type "apiKey"`}},
		{"duplicate ids", validAgent + "[[agents]]" + strings.SplitN(validAgent, "[[agents]]", 2)[1],
			[]string{`agents[1].id: duplicate id "a" (also agents[0].id)`, `site.defaultAgent: required when there are several agents`}},
		{"duplicate skill ids", validAgent + "[[agents.skills]]\nid = \"s\"\nname = \"S2\"\ndescription = \"D\"\ntags = [\"t\"]\n",
			[]string{`m.toml:20:1: agents["a"].skills[1].id: duplicate skill id "s"`}},
		{"missing default agent", strings.Replace(validAgent, "[site]\n", "[site]\ndefaultAgent = \"zz\"\n", 1),
			[]string{`m.toml:3:1: site.defaultAgent: no agent has id "zz"; set it to one of: a`}},
		{"integer beyond 2^53", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\nparams = { big = 9007199254740993 }\n",
			[]string{`m.toml:21:12: agents["a"].capabilities.extensions[0].params.big: integer 9007199254740993 is outside ±2^53`}},
		{"date in params", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\nparams = { since = 2024-05-01 }\n",
			[]string{`m.toml:21:12: agents["a"].capabilities.extensions[0].params.since: dates and times have no JSON form`}},
		{"syntax error at a line start", "[site]\nbaseUrl = \"https://a.example.com\"\nbaseUrl = \"https://b.example.com\"\n",
			[]string{"m.toml:3:1: not valid TOML: Key 'site.baseUrl' has already been defined."}},
		{"syntax error column in characters", "[site]\ntitle = \"Zürich\n", []string{"m.toml:2:16: not valid TOML"}},
		{"infinite float", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\nparams = { f = inf }\n",
			[]string{`params.f: +Inf cannot be written in JSON`}},
		{"secret keys", validAgent + "[agents.securitySchemes.k]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"X\"\nclient_secret = \"s3cr3t\"\n",
			[]string{`m.toml:23:1: agents["a"].securitySchemes.k.client_secret: looks like a secret (client_secret); agent cards and everything else built from agents.toml are published`}},
		{"credentials in params", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\n[agents.capabilities.extensions.params]\ncredentials = \"s3cr3t-Value\"\nshared_secret = \"y\"\n",
			[]string{`params.credentials: looks like a secret`, `params.shared_secret: looks like a secret`}},
		{"pem in description", strings.Replace(validAgent, `description = "D"`, "description = \"\"\"-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIHL8\n-----END PRIVATE KEY-----\"\"\"", 1),
			[]string{`m.toml:8:1: agents["a"].description: contains a PEM private key`}},
		{"private jwk in params", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\nparams = { key = { kty = \"OKP\", crv = \"Ed25519\", x = \"abc\", d = \"def\" } }\n",
			[]string{`params.key: looks like a private JSON Web Key`}},
		{"private jwk as string", strings.Replace(validAgent, `description = "D"`, `description = '{"kty":"EC","d":"x"}'`, 1),
			[]string{`agents["a"].description: contains a private JSON Web Key`}},
		{"invalid UTF-8", "[site]\nbaseUrl = \"\xff\"\n", []string{"m.toml:2:11: not valid TOML: invalid UTF-8 byte"}},
		{"surrogate escape", "[site]\nbaseUrl = \"\\uD800\"\n", []string{"m.toml:2:", "not valid UTF-8"}},
		{"__proto__ in params", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\nparams = { \"__proto__\" = { a = 1 }, b = 2 }\n",
			[]string{`m.toml:21:12: agents["a"].capabilities.extensions[0].params.__proto__: "__proto__" cannot be a key`}},
		{"__proto__ as a scope", validAgent + "[agents.securitySchemes.o]\ntype = \"oauth2\"\n[agents.securitySchemes.o.flows.clientCredentials]\ntokenUrl = \"https://t.example.com\"\nscopes = { \"__proto__\" = \"x\", read = \"r\" }\n",
			[]string{`scopes.__proto__: "__proto__" cannot be a key`}},
		{"scheme names differing in case", validAgent + "[agents.securitySchemes.Key]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"A\"\n[agents.securitySchemes.key]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"B\"\n",
			[]string{`agents["a"].securitySchemes.key: "Key" and "key" differ only in letter case`}},
		{"scopes differing in case", validAgent + "[agents.securitySchemes.o]\ntype = \"oauth2\"\n[agents.securitySchemes.o.flows.clientCredentials]\ntokenUrl = \"https://t.example.com\"\nscopes = { READ = \"x\", read = \"r\" }\n",
			[]string{`scopes.read: "READ" and "read" differ only in letter case`}},
		{"params differing in case (Kelvin sign)", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\nparams = { n = { k = 1, \"\u212a\" = 2 } }\n",
			[]string{"params.n.\"\u212a\": \"k\" and \"\u212a\" differ only in letter case"}},
		{"private JWKS in a string", strings.Replace(validAgent, `description = "D"`, `description = '{"keys":[{"kty":"OKP","crv":"Ed25519","x":"abc","d":"def"}]}'`, 1),
			[]string{`agents["a"].description: contains a private JSON Web Key`}},
		{"private JWK among text", validAgent + "[[agents.capabilities.extensions]]\nuri = \"urn:x\"\nparams = { note = 'my key: {\"kty\":\"EC\", \"d\" : \"x\"} ok' }\n",
			[]string{`params.note: contains a private JSON Web Key`}},
		{"media type with spaces", strings.Replace(validAgent, `tags = ["t"]`, "tags = [\"t\"]\ninputModes = [\" text/plain \", \"text/plain;\"]", 1),
			[]string{`inputModes[0]: " text/plain " is not written in canonical form; write "text/plain"`, `inputModes[1]: "text/plain;" is not written in canonical form`}},
		{"URL with a space", strings.Replace(validAgent, `version = "1"`, "version = \"1\"\ndocumentationUrl = \"https://example.com/my docs\"", 1),
			[]string{`documentationUrl: "https://example.com/my docs" is not a well-formed URL`}},
		{"URL with a bad port", strings.Replace(validAgent, `url = "https://a.example.com"`, `url = "https://a.example.com:99999"`, 1),
			[]string{`port 99999 is not between 1 and 65535`}},
		{"device code only", validAgent + "[agents.securitySchemes.dev]\ntype = \"oauth2\"\n[agents.securitySchemes.dev.flows.deviceCode]\ndeviceAuthorizationUrl = \"https://t.example.com/d\"\ntokenUrl = \"https://t.example.com\"\nscopes = { read = \"Read\" }\n[[agents.securityRequirements]]\ndev = [\"read\"]\n",
			[]string{`agents["a"].securityRequirements: every requirement names a device code scheme, which A2A v0.3 cannot express`}},
		{"no agents", "[site]\nbaseUrl = \"https://x.example.com\"\n", []string{"m.toml: agents: no agents"}},
		{"publisher not a domain", strings.Replace(validAgent, "[site]\n", "[site]\npublisher = \"Example.COM\"\n", 1),
			[]string{`m.toml:3:1: site.publisher: "Example.COM" is not a domain name`}},
		{"publisher an IP address", strings.Replace(validAgent, "[site]\n", "[site]\npublisher = \"10.0.0.1\"\n", 1),
			[]string{`site.publisher: "10.0.0.1" is an IP address`}},
		{"baseUrl on an IP address", strings.Replace(validAgent, "agents.example.com/", "192.0.2.7/", 1),
			[]string{`site.publisher: required when baseUrl's host (192.0.2.7) is not a domain name`}},
		{"baseUrl on a single-label host", strings.Replace(validAgent, "agents.example.com/", "intranet/", 1),
			[]string{`site.publisher: required when baseUrl's host (intranet) is not a domain name`}},
		{"one representative query", strings.Replace(validAgent, `version = "1"`, "version = \"1\"\nrepresentativeQueries = [\"q\"]", 1),
			[]string{`m.toml:10:1: agents["a"].representativeQueries: has 1 queries; the AI Catalog takes 2 to 5`}},
		{"updatedAt not RFC 3339", strings.Replace(validAgent, `version = "1"`, "version = \"1\"\nupdatedAt = \"20 Nov 2026\"", 1),
			[]string{`m.toml:10:1: agents["a"].updatedAt: "20 Nov 2026" is not an RFC 3339 timestamp`}},
		{"updatedAt as a TOML date-time", strings.Replace(validAgent, `version = "1"`, "version = \"1\"\nupdatedAt = 2026-11-20T09:30:00Z", 1),
			[]string{`m.toml:10:1: agents["a"].updatedAt: expected a string, got a date/time: quote it`}},
		{"several problems together", strings.Replace(strings.Replace(validAgent, `tags = ["t"]`, "tags = []", 1), `name = "A"`, "name = 5", 1),
			[]string{"agents[\"a\"].name: got an integer; name must be a string", "agents[\"a\"].skills[\"s\"].tags: must not be empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.toml", []byte(tt.src))
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("got %v, want diagnostics", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("missing %q in:\n%s", w, err)
				}
			}
		})
	}
}

func TestScopeNamedLikeASecretIsFine(t *testing.T) {
	src := validAgent + "[agents.securitySchemes.o]\ntype = \"oauth2\"\n[agents.securitySchemes.o.flows.clientCredentials]\ntokenUrl = \"https://t.example.com\"\nscopes = { credentials = \"Manage stored credentials\" }\n"
	if _, err := Parse("m.toml", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

func TestLocalhostHTTPAllowed(t *testing.T) {
	src := strings.Replace(validAgent, `url = "https://a.example.com"`, `url = "http://localhost:8080/a2a"`, 1)
	src = strings.Replace(src, `baseUrl = "https://agents.example.com/"`, `baseUrl = "http://127.0.0.1:8000"`, 1)
	if _, err := Parse("m.toml", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

func TestPositions(t *testing.T) {
	src := `# comment
[site]
baseUrl = "x"  # trailing
"quoted key" = 1

[[agents]]
id = "a"
tags = ["x", 'y', """z
still z"""]
inline = { k = 1, nested = { deep = true } }
[agents.capabilities]
streaming = true

[[agents]]
id = "b"
[[agents.skills]]
id = "s0"
[[agents.skills]]
id = "s1"
dotted.key = 2
multi = [{ a = 1,
  b = 2 }, { c = 3 }]
`
	pos := indexPositions([]byte(src), 0)
	want := map[string]struct{ line, col int }{
		"site":                             {2, 1},
		"site.baseUrl":                     {3, 1},
		`site."quoted key"`:                {4, 1},
		"agents[0]":                        {6, 1},
		"agents[0].id":                     {7, 1},
		"agents[0].tags[1]":                {8, 14},
		"agents[0].tags[2]":                {8, 19},
		"agents[0].inline.k":               {10, 12},
		"agents[0].inline.nested.deep":     {10, 30},
		"agents[0].capabilities.streaming": {12, 1},
		"agents[1].id":                     {15, 1},
		"agents[1].skills[1].id":           {19, 1},
		"agents[1].skills[1].dotted.key":   {20, 1},
	}
	for path, w := range want {
		got, ok := pos[path]
		if !ok || got.line != w.line || got.col([]byte(src)) != w.col {
			t.Errorf("%s: got line %d col %d (found %v), want %v", path, got.line, got.col([]byte(src)), ok, w)
		}
	}
}

func TestParentPath(t *testing.T) {
	for in, want := range map[string]string{
		"a.b[2]":      "a.b",
		"a.b":         "a",
		"a":           "",
		`a."x.y"`:     "a",
		"a[0].b[1].c": "a[0].b[1]",
	} {
		if got := parentPath(in); got != want {
			t.Errorf("parentPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSecretKeyNamesInParams: the names a credential goes by are refused in
// params, also with a zero-width character hiding inside.
func TestSecretKeyNamesInParams(t *testing.T) {
	src := validAgent + `
[[agents.capabilities.extensions]]
uri = "https://e.example.com"
params = {api_key = "k1", secret_key = "k2", token = "k3", pwd = "k4", "pass` + "\u200b" + `word" = "k5", region = "eu"}
`
	_, err := Parse("m.toml", []byte(src))
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("got %v", err)
	}
	got := errs.Error()
	for _, name := range []string{"api_key", "secret_key", "token", "pwd", "pass\u200bword"} {
		if !strings.Contains(got, "looks like a secret ("+name+")") {
			t.Errorf("%s not refused:\n%s", name, got)
		}
	}
	if strings.Contains(got, "region") || strings.Contains(got, "k1") {
		t.Errorf("too much reported:\n%s", got)
	}
}

// FuzzFoldKey: two keys share a foldKey exactly when strings.EqualFold
// (the comparison Go's encoding/json and card.Decode make) holds.
func FuzzFoldKey(f *testing.F) {
	f.Add("Key", "key")
	f.Add("k", "\u212a")
	f.Add("ǅ", "ǆ")
	f.Add("ß", "ss")
	f.Add("\xff", "\ufffd")
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := foldKey(a) == foldKey(b), strings.EqualFold(a, b); got != want {
			t.Fatalf("foldKey(%q) == foldKey(%q) is %v, EqualFold %v", a, b, got, want)
		}
	})
}

// TestUpdatedAtIsStrictRFC3339: what Go's time.Parse takes beyond RFC
// 3339 (a comma before the fraction) is refused, since catalog readers
// refuse it.
func TestUpdatedAtIsStrictRFC3339(t *testing.T) {
	for v, ok := range map[string]bool{"2026-11-20T09:30:00Z": true, "2026-11-20T09:30:00.5+01:00": true, "2026-11-20T09:30:00,5Z": false, "2026-11-20 09:30:00Z": false} {
		_, err := Parse("m.toml", []byte(strings.Replace(validAgent, "version = \"1\"", "version = \"1\"\nupdatedAt = \""+v+"\"", 1)))
		if (err == nil) != ok {
			t.Errorf("%s: %v", v, err)
		}
	}
}
