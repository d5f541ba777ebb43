package verify

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/site"
	"github.com/agentcards/agentcards/internal/trust"
)

// benchWords is the vocabulary of the generated descriptions.
var benchWords = strings.Fields(`account action agent alert analyse answer approve archive assign audit
availability balance batch billing booking budget calendar campaign capture carrier case catalog change
channel check claim classify client cluster collect commit compare compliance contract convert cost
coverage create currency customer dashboard data deadline deliver deploy detect device digest dispatch
document domain draft email employee engine entry error estimate event evidence expense export extract
feedback field file filter finance flight forecast form fraud generate guide handle health history hotel
incident index insight inventory invoice issue itinerary journey language ledger legal limit list log
manage market match measure meeting merge message metric model monitor network notify offer order outline
owner partner payment people period plan policy portfolio price priority process product profile project
purchase quality query queue quote rate receipt recommend record reconcile refund region release report
request research reserve resolve resource response review risk route rule sales schedule score search
season security segment sentiment service session shipment signal skill source spend sprint status stock
store summary supplier support survey task team template ticket timeline track trade transaction translate
travel trend update upload usage user validate vendor verify visit volume warehouse weather workflow write
quickly carefully across within between before after every each only also often always never`)

// benchText is about n words in sentences of 6 to 15 words.
func benchText(r *rand.Rand, n int) string {
	var b strings.Builder
	for total := 0; total < n; {
		k := 6 + r.IntN(10)
		for i := range k {
			w := benchWords[r.IntN(len(benchWords))]
			switch {
			case i == 0:
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			default:
				b.WriteByte(' ')
				b.WriteString(w)
			}
		}
		b.WriteByte('.')
		total += k
	}
	return b.String()
}

// benchManifest is agents.toml text of n agents, each with a description
// of about 100 words and 5 skills of about 25 words, 3 tags and 2
// examples. Even agents have a scope-less API-key requirement, so each of
// their two cards carries a second signature, over the SDK projection.
func benchManifest(n int) string {
	r := rand.New(rand.NewPCG(7, 11))
	var b strings.Builder
	b.WriteString("[site]\nbaseUrl = \"https://agents.example.com\"\ntitle = \"Bench\"\ndefaultAgent = \"agent-0\"\n\n[provider]\norganization = \"Bench Co.\"\nurl = \"https://bench.example.com\"\n")
	q := strconv.Quote
	for i := range n {
		id := fmt.Sprintf("agent-%d", i)
		fmt.Fprintf(&b, "\n[[agents]]\nid = %s\nname = %s\nversion = \"%d.%d.%d\"\ndescription = \"\"\"\n%s\n\n%s\n\"\"\"\n",
			q(id), q(fmt.Sprintf("%s Agent %d", strings.ToUpper(benchWords[i%len(benchWords)][:1])+benchWords[i%len(benchWords)][1:], i)),
			1+i%3, i%10, i%7, benchText(r, 55), benchText(r, 45))
		fmt.Fprintf(&b, "[[agents.supportedInterfaces]]\nurl = \"https://%s.example.com/a2a\"\nprotocolBinding = \"JSONRPC\"\nprotocolVersion = \"1.0\"\n", id)
		fmt.Fprintf(&b, "[[agents.supportedInterfaces]]\nurl = \"https://%s.example.com/rest\"\nprotocolBinding = \"HTTP+JSON\"\nprotocolVersion = \"1.0\"\n", id)
		b.WriteString("[agents.capabilities]\nstreaming = true\n")
		if i%2 == 0 {
			b.WriteString("[agents.securitySchemes.key]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"X-API-Key\"\n[[agents.securityRequirements]]\nkey = []\n")
		} else {
			b.WriteString("[agents.securitySchemes.oauth]\ntype = \"oauth2\"\ndescription = \"OAuth 2.0 client credentials\"\n[agents.securitySchemes.oauth.flows.clientCredentials]\ntokenUrl = \"https://auth.example.com/token\"\nscopes = { read = \"Read access\", write = \"Write access\" }\n[[agents.securityRequirements]]\noauth = [\"read\"]\n")
		}
		for s := range 5 {
			tags := make([]string, 3)
			for t := range tags {
				tags[t] = q(benchWords[(i+s*7+t*31)%len(benchWords)] + "-" + strconv.Itoa(t))
			}
			fmt.Fprintf(&b, "[[agents.skills]]\nid = \"skill-%d\"\nname = %s\ndescription = %s\ntags = [%s]\nexamples = [%s, %s]\n",
				s, q(benchWords[r.IntN(len(benchWords))]+" "+benchWords[r.IntN(len(benchWords))]), q(benchText(r, 25)),
				strings.Join(tags, ", "), q(benchText(r, 7)), q(benchText(r, 6)))
		}
	}
	return b.String()
}

// buildBenchSite builds a signed site of n generated agents in dir and
// returns its folder.
func buildBenchSite(tb testing.TB, dir string, n int) string {
	tb.Helper()
	path := filepath.Join(dir, "agents.toml")
	if err := os.WriteFile(path, []byte(benchManifest(n)), 0o644); err != nil {
		tb.Fatal(err)
	}
	m, err := manifest.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	jwk, err := sign.PublicJWK(priv.Public(), sign.EdDSA)
	if err != nil {
		tb.Fatal(err)
	}
	ks := &sign.KeySet{}
	ks.Add(jwk)
	signer, err := sign.NewSigner(priv, sign.EdDSA, site.JWKSURL(m))
	if err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	if _, err := site.Build(site.Options{Manifest: m, OutDir: out, Keys: ks, Signers: []*sign.Signer{signer}}); err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkVerifySite verifies a whole built site as `agentcards verify
// SITE` does: 1,000 generated agents (2,000 cards, half of them with two
// signatures), or AGENTCARDS_BENCH_AGENTS of them, or the site already
// built in AGENTCARDS_BENCH_SITE. For a profile:
//
//	AGENTCARDS_BENCH_AGENTS=10000 go test -run '^$' -bench VerifySite -benchtime 5x -cpuprofile cpu.out ./internal/verify
func BenchmarkVerifySite(b *testing.B) {
	dir := os.Getenv("AGENTCARDS_BENCH_SITE")
	n := 1000
	if dir == "" {
		if s := os.Getenv("AGENTCARDS_BENCH_AGENTS"); s != "" {
			var err error
			if n, err = strconv.Atoi(s); err != nil || n < 1 {
				b.Fatalf("AGENTCARDS_BENCH_AGENTS=%q: not a number of agents", s)
			}
		}
		dir = buildBenchSite(b, b.TempDir(), n)
	}
	opts := Options{Fetch: &fetch.Client{}}
	b.ReportAllocs()
	b.ResetTimer()
	var cards int
	for range b.N {
		opts.Keys = trust.NewCache()
		rep := &Report{}
		if err := Target(context.Background(), dir, opts, rep); err != nil {
			b.Fatal(err)
		}
		Finish(rep)
		if !rep.Verified {
			b.Fatalf("the site does not verify: %v", rep.Problems)
		}
		cards = len(rep.Cards)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*cards), "ns/card")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}

// TestBenchSiteVerifies builds a small generated site and checks that
// every card verifies, two signatures on the cards of even agents.
func TestBenchSiteVerifies(t *testing.T) {
	dir := buildBenchSite(t, t.TempDir(), 6)
	rep := verifyTarget(t, dir, Options{})
	if !rep.Verified {
		t.Fatalf("problems %v", rep.Problems)
	}
	for _, c := range rep.Cards {
		if !c.Verified {
			t.Errorf("%s: %s %v", c.Source, c.Outcome, c.Problems)
		}
	}
	if len(rep.Cards) != 2*6+2 {
		t.Errorf("%d cards", len(rep.Cards))
	}
}
