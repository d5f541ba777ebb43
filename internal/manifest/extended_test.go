package manifest

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// securedAgent is validAgent with the authentication an extended card
// needs, and something of every field class to merge over.
const securedAgent = `
[site]
baseUrl = "https://agents.example.com/"

[[agents]]
id = "a"
name = "A"
description = "D"
version = "1"
documentationUrl = "https://docs.example.com/a"
defaultInputModes = ["text/plain"]
defaultOutputModes = ["application/json"]
securityRequirements = [{ key = [] }]
[[agents.supportedInterfaces]]
url = "https://a.example.com"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"
[agents.provider]
organization = "Example"
url = "https://example.com"
[agents.capabilities]
streaming = true
pushNotifications = true
[[agents.capabilities.extensions]]
uri = "https://example.com/ext/public"
[agents.securitySchemes.key]
type = "apiKey"
location = "header"
name = "X-API-Key"
description = "Public key"
[[agents.skills]]
id = "s"
name = "S"
description = "D"
tags = ["t"]
[[agents.skills]]
id = "s2"
name = "S2"
description = "Second public skill"
tags = ["t"]
`

func extendedCards(t *testing.T, overlay string) []ExtendedCard {
	t.Helper()
	m, err := Parse("m.toml", []byte(securedAgent+overlay))
	if err != nil {
		t.Fatalf("%v\n--- overlay:%s", err, overlay)
	}
	if !m.Agents[0].Capabilities.ExtendedAgentCard {
		t.Error("the public agent does not advertise its extended card")
	}
	return m.Agents[0].ExtendedCards()
}

func skillIDs(a *Agent) []string {
	var ids []string
	for _, s := range a.Skills {
		ids = append(ids, s.ID)
	}
	return ids
}

// TestMergeRules holds Merge to A2X's rules, one field class at a time:
// scalars replace, lists replace whole, capabilities merge by key,
// securitySchemes merge by name (the overlay winning), addSkills appends.
func TestMergeRules(t *testing.T) {
	public, err := Parse("m.toml", []byte(securedAgent))
	if err != nil {
		t.Fatal(err)
	}
	pub := public.Agents[0]
	for _, tc := range []struct {
		name, overlay string
		check         func(t *testing.T, a *Agent)
	}{
		{"empty overlay is the public card", "[agents.extended]\n", func(t *testing.T, a *Agent) {
			pa := pub
			pa.Extended = nil
			pa.Capabilities.ExtendedAgentCard = true
			if !reflect.DeepEqual(*a, pa) {
				t.Errorf("got %+v\nwant %+v", *a, pa)
			}
		}},
		{"scalars replace", `[agents.extended]
name = "A Pro"
description = "Longer"
version = "2"
documentationUrl = "https://docs.example.com/private"
iconUrl = "https://example.com/pro.png"
[agents.extended.provider]
organization = "Example Private"
url = "https://private.example.com"
`, func(t *testing.T, a *Agent) {
			if a.Name != "A Pro" || a.Description != "Longer" || a.Version != "2" || a.DocumentationURL != "https://docs.example.com/private" || a.IconURL != "https://example.com/pro.png" {
				t.Errorf("scalars: %+v", a)
			}
			if a.Provider.Organization != "Example Private" || a.Provider.URL != "https://private.example.com" {
				t.Errorf("provider %+v", a.Provider)
			}
		}},
		{"scalars left out keep the public value", "[agents.extended]\nversion = \"2\"\n", func(t *testing.T, a *Agent) {
			if a.Name != pub.Name || a.Description != pub.Description || a.DocumentationURL != pub.DocumentationURL || a.Provider.Organization != "Example" {
				t.Errorf("public scalars lost: %+v", a)
			}
		}},
		{"lists replace whole", `[agents.extended]
defaultInputModes = ["application/json"]
defaultOutputModes = ["text/markdown"]
securityRequirements = [{ key = [] }, { oidc = [] }]
[[agents.extended.supportedInterfaces]]
url = "https://private.example.com/a2a"
protocolBinding = "HTTP+JSON"
protocolVersion = "1.0"
[agents.extended.securitySchemes.oidc]
type = "openIdConnect"
openIdConnectUrl = "https://id.example.com/.well-known/openid-configuration"
`, func(t *testing.T, a *Agent) {
			if !slices.Equal(a.DefaultInputModes, []string{"application/json"}) || !slices.Equal(a.DefaultOutputModes, []string{"text/markdown"}) {
				t.Errorf("modes %v %v", a.DefaultInputModes, a.DefaultOutputModes)
			}
			if len(a.SupportedInterfaces) != 1 || a.SupportedInterfaces[0].URL != "https://private.example.com/a2a" {
				t.Errorf("interfaces %+v", a.SupportedInterfaces)
			}
			if len(a.SecurityRequirements) != 2 {
				t.Errorf("requirements %+v", a.SecurityRequirements)
			}
		}},
		{"skills replace whole", `[agents.extended]
[[agents.extended.skills]]
id = "only"
name = "Only"
description = "The one skill callers see"
tags = ["t"]
`, func(t *testing.T, a *Agent) {
			if got := skillIDs(a); !slices.Equal(got, []string{"only"}) {
				t.Errorf("skills %v", got)
			}
		}},
		{"addSkills appends", `[agents.extended]
[[agents.extended.addSkills]]
id = "extra"
name = "Extra"
description = "For subscribers"
tags = ["t"]
`, func(t *testing.T, a *Agent) {
			if got := skillIDs(a); !slices.Equal(got, []string{"s", "s2", "extra"}) {
				t.Errorf("skills %v", got)
			}
		}},
		{"skills then addSkills", `[agents.extended]
[[agents.extended.skills]]
id = "only"
name = "Only"
description = "Replaces"
tags = ["t"]
[[agents.extended.addSkills]]
id = "extra"
name = "Extra"
description = "Then appended"
tags = ["t"]
`, func(t *testing.T, a *Agent) {
			if got := skillIDs(a); !slices.Equal(got, []string{"only", "extra"}) {
				t.Errorf("skills %v", got)
			}
		}},
		{"capabilities merge by key", `[agents.extended.capabilities]
pushNotifications = false
`, func(t *testing.T, a *Agent) {
			c := a.Capabilities
			if !c.Streaming || c.PushNotifications || !c.ExtendedAgentCard || len(c.Extensions) != 1 {
				t.Errorf("capabilities %+v", c)
			}
		}},
		{"capabilities.extensions is a list: it replaces", `[[agents.extended.capabilities.extensions]]
uri = "https://example.com/ext/private"
`, func(t *testing.T, a *Agent) {
			c := a.Capabilities
			if len(c.Extensions) != 1 || c.Extensions[0].URI != "https://example.com/ext/private" || !c.Streaming || !c.PushNotifications {
				t.Errorf("capabilities %+v", c)
			}
		}},
		{"securitySchemes merge by name, the overlay winning", `[agents.extended.securitySchemes.key]
type = "apiKey"
location = "header"
name = "X-Pro-Key"
[agents.extended.securitySchemes.bearer]
type = "http"
scheme = "Bearer"
`, func(t *testing.T, a *Agent) {
			if len(a.SecuritySchemes) != 2 || a.SecuritySchemes["key"].Name != "X-Pro-Key" || a.SecuritySchemes["key"].Description != "" || a.SecuritySchemes["bearer"].Scheme != "Bearer" {
				t.Errorf("schemes %+v", a.SecuritySchemes)
			}
			if pub.SecuritySchemes["key"].Name != "X-API-Key" || len(pub.SecuritySchemes) != 1 {
				t.Errorf("the public agent changed: %+v", pub.SecuritySchemes)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cards := extendedCards(t, tc.overlay)
			if len(cards) != 1 || cards[0].Tier != "" {
				t.Fatalf("cards %+v", cards)
			}
			if cards[0].Agent.Extended != nil {
				t.Error("a merged card keeps an overlay")
			}
			tc.check(t, cards[0].Agent)
		})
	}
}

// TestMergeTiers: each tier is merged over the extended overlay with the
// same rules, and gives a card of its own, in name order.
func TestMergeTiers(t *testing.T) {
	cards := extendedCards(t, `[agents.extended]
description = "For signed-in callers"
[[agents.extended.addSkills]]
id = "extra"
name = "Extra"
description = "For every signed-in caller"
tags = ["t"]
[agents.extended.tiers.pro]
version = "2-pro"
[[agents.extended.tiers.pro.addSkills]]
id = "bulk"
name = "Bulk"
description = "For the pro plan"
tags = ["t"]
[agents.extended.tiers.enterprise]
description = "Enterprise"
[[agents.extended.tiers.enterprise.skills]]
id = "sla"
name = "SLA"
description = "Enterprise only"
tags = ["t"]
[agents.extended.tiers.enterprise.capabilities]
streaming = false
`)
	if len(cards) != 3 || cards[0].Tier != "" || cards[1].Tier != "enterprise" || cards[2].Tier != "pro" {
		t.Fatalf("tiers %+v", cards)
	}
	ext, ent, pro := cards[0].Agent, cards[1].Agent, cards[2].Agent
	if got := skillIDs(ext); !slices.Equal(got, []string{"s", "s2", "extra"}) {
		t.Errorf("extended skills %v", got)
	}
	if got := skillIDs(pro); !slices.Equal(got, []string{"s", "s2", "extra", "bulk"}) {
		t.Errorf("pro skills %v", got)
	}
	if pro.Description != "For signed-in callers" || pro.Version != "2-pro" {
		t.Errorf("pro scalars: %q %q", pro.Description, pro.Version)
	}
	if got := skillIDs(ent); !slices.Equal(got, []string{"sla"}) || ent.Description != "Enterprise" || ent.Capabilities.Streaming || !ent.Capabilities.PushNotifications {
		t.Errorf("enterprise: skills %v, %q, %+v", got, ent.Description, ent.Capabilities)
	}
	if ext.Version != "1" || ext.Capabilities.Streaming != true {
		t.Errorf("a tier changed the extended card: %+v", ext)
	}
}

// TestExtendedDiagnostics: overlays are checked like everything else,
// each problem at the key that holds it, with the merged card held to
// every rule a public card meets.
func TestExtendedDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"no authentication on the public card", validAgent + "[agents.extended]\nversion = \"2\"\n",
			[]string{"m.toml:19:1: agents[\"a\"].extended: an extended card is served only to authenticated callers"}},
		{"id", securedAgent + "[agents.extended]\nid = \"b\"\n",
			[]string{"agents[\"a\"].extended.id: an extended card describes the same agent, so its id cannot change"}},
		{"extendedAgentCard", securedAgent + "[agents.extended.capabilities]\nextendedAgentCard = false\n",
			[]string{"agents[\"a\"].extended.capabilities.extendedAgentCard: the build sets this"}},
		{"unknown key", securedAgent + "[agents.extended]\nupdatedAt = \"2026-11-20T09:30:00Z\"\n",
			[]string{"agents[\"a\"].extended.updatedAt: unknown key"}},
		{"added skill repeats a public id", securedAgent + "[[agents.extended.addSkills]]\nid = \"s2\"\nname = \"N\"\ndescription = \"D\"\ntags = [\"t\"]\n",
			[]string{`m.toml:42:1: agents["a"].extended.addSkills["s2"].id: duplicate skill id "s2" (also agents["a"].skills["s2"].id)`}},
		{"added skill without tags", securedAgent + "[[agents.extended.addSkills]]\nid = \"x\"\nname = \"N\"\ndescription = \"D\"\n",
			[]string{"agents[\"a\"].extended.addSkills[\"x\"].tags: required: at least one tag"}},
		{"requirement names an undeclared scheme", securedAgent + "[agents.extended]\nsecurityRequirements = [{ nope = [] }]\n",
			[]string{`agents["a"].extended.securityRequirements[0].nope: names scheme "nope", which the agent does not declare (declared: key)`}},
		{"overlay URL over http", securedAgent + "[agents.extended]\ndocumentationUrl = \"http://docs.example.com/x\"\n",
			[]string{"agents[\"a\"].extended.documentationUrl: \"http://docs.example.com/x\" uses http"}},
		{"secret in an overlay", securedAgent + "[agents.extended]\ndescription = \"key: -----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\\n-----END PRIVATE KEY-----\"\n",
			[]string{"agents[\"a\"].extended.description: contains"}},
		{"secret key in an overlay scheme", securedAgent + "[agents.extended.securitySchemes.key]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"X\"\napiKey = \"abc\"\n",
			[]string{"agents[\"a\"].extended.securitySchemes.key.apiKey: looks like a secret"}},
		{"tier name", securedAgent + "[agents.extended.tiers.Pro]\nversion = \"2\"\n",
			[]string{`agents["a"].extended.tiers.Pro: tier name "Pro"`}},
		{"tiers do not nest", securedAgent + "[agents.extended.tiers.pro.tiers.max]\nversion = \"3\"\n",
			[]string{"agents[\"a\"].extended.tiers.pro.tiers: tiers do not nest"}},
		{"tier skill problem", securedAgent + "[[agents.extended.tiers.pro.addSkills]]\nid = \"bad id\"\nname = \"N\"\ndescription = \"D\"\ntags = [\"t\"]\n",
			[]string{`agents["a"].extended.tiers.pro.addSkills[0].id: "bad id": use letters`}},
		{"tier scheme wins and breaks a public requirement's scopes", securedAgent + `[agents.extended.tiers.pro.securitySchemes.key]
type = "oauth2"
[agents.extended.tiers.pro.securitySchemes.key.flows.clientCredentials]
tokenUrl = "https://id.example.com/token"
scopes = { read = "Read" }
[agents.extended.tiers.pro]
securityRequirements = [{ key = ["write"] }]
`, []string{`agents["a"].extended.tiers.pro.securityRequirements[0].key[0]: scope "write" is not among the scopes scheme "key" declares (read)`}},
		{"tier redefines a scheme the public requirements use", securedAgent + `[agents.extended.tiers.gold.securitySchemes.key]
type = "oauth2"
[agents.extended.tiers.gold.securitySchemes.key.flows.deviceCode]
deviceAuthorizationUrl = "https://id.example.com/device"
tokenUrl = "https://id.example.com/token"
scopes = { read = "Read" }
`, []string{`m.toml:41:1: agents["a"].extended.tiers.gold: the card this table makes breaks agents["a"].securityRequirements: every requirement names a device code scheme`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("m.toml", []byte(tc.src))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("missing %q in:\n%v", w, err)
				}
			}
		})
	}
}

// TestExtendedSplitAndWhole: the per-agent reader (Source) and the
// whole-file reader give the same overlays.
func TestExtendedSplitAndWhole(t *testing.T) {
	src := securedAgent + "[agents.extended]\ndescription = \"Private\"\n[agents.extended.tiers.pro]\nversion = \"3\"\n"
	whole, _, err := parseWhole("m.toml", "", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	split, err := Parse("m.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole.Agents[0].ExtendedCards(), split.Agents[0].ExtendedCards()) {
		t.Error("the two readers disagree")
	}
}
