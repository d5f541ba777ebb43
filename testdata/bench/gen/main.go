// Command gen writes a benchmark input: an agents.toml of N realistic
// agents and a Hugo site with one page per agent holding the same text, so
// that agentcards and Hugo can be timed on the same content
// (testdata/bench/run.sh).
//
//	go run ./testdata/bench/gen -n 10000 -o /tmp/bench
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// words is the vocabulary descriptions are drawn from.
var words = strings.Fields(`agent answer api archive assistant audit automate available balance batch
billing booking budget calendar call capture card case catalog channel chart check claim classify client
cloud code collect compare compliance compute config contract convert cost country create currency
customer daily dashboard data date deadline deliver deploy detect device digest document domain draft
email engine entry error estimate event evidence expense export extract feedback field file filter
finance flight forecast form format fraud generate goal guide handle health history hotel image import
incident index insight inventory invoice issue itinerary job journey language ledger legal limit list
log logistics manage map market match measure meeting memo message metric model monitor month network
notify offer order outline owner page partner payment people period plan policy portfolio price
priority process product profile project propose purchase quality query queue quote rate receipt
recommend record reconcile refund region report request research reserve resolve resource response
review risk route rule sales schedule score search season security segment sentiment service session
ship shipment signal site skill source spend sprint status step stock store summary supplier support
survey task tax team template ticket timeline track trade transaction translate travel trend trip
update upload usage user validate vendor verify visit volume warehouse weather week workflow write
yield zone quickly carefully across within between before after every each only also often always`)

var tagWords = func() []string {
	var out []string
	for i, w := range words {
		if i%2 == 0 {
			out = append(out, w)
		}
	}
	return out
}()

type gen struct{ r *rand.Rand }

func (g *gen) word() string { return words[g.r.IntN(len(words))] }

// sentence is n words, capitalized, with a full stop.
func (g *gen) sentence(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// text is about n words in sentences, with an occasional **bold** word.
func (g *gen) text(n int) string {
	var parts []string
	for total := 0; total < n; {
		k := 6 + g.r.IntN(10)
		s := g.sentence(k)
		if g.r.IntN(6) == 0 {
			w := g.word()
			s = strings.Replace(s, " "+w+" ", " **"+w+"** ", 1)
		}
		parts = append(parts, s)
		total += k
	}
	return strings.Join(parts, " ")
}

type skill struct {
	id, name, desc string
	tags, examples []string
}

type agent struct {
	id, name, version string
	desc              []string // paragraphs
	oauth             bool
	skills            []skill
}

func (g *gen) agent(i int) agent {
	a := agent{
		id:      fmt.Sprintf("agent-%d", i),
		name:    fmt.Sprintf("%s %s Agent %d", strings.Title(g.word()), strings.Title(g.word()), i),
		version: fmt.Sprintf("%d.%d.%d", 1+i%3, i%10, i%7),
		oauth:   i%2 == 1,
	}
	a.desc = []string{g.text(45), g.text(35), "- " + g.sentence(6) + "\n- " + g.sentence(5)}
	for s := range 5 {
		sk := skill{id: fmt.Sprintf("skill-%d", s), name: strings.Title(g.word()) + " " + g.word()}
		sk.desc = g.text(25)
		seen := map[string]bool{}
		for len(sk.tags) < 3 {
			t := tagWords[g.r.IntN(len(tagWords))]
			if !seen[t] {
				seen[t] = true
				sk.tags = append(sk.tags, t)
			}
		}
		sk.examples = []string{g.sentence(7), g.sentence(6)}
		a.skills = append(a.skills, sk)
	}
	return a
}

func q(s string) string { return fmt.Sprintf("%q", s) }

func list(xs []string) string {
	qs := make([]string, len(xs))
	for i, x := range xs {
		qs[i] = q(x)
	}
	return "[" + strings.Join(qs, ", ") + "]"
}

func (a agent) toml(b *strings.Builder) {
	fmt.Fprintf(b, "\n[[agents]]\nid = %s\nname = %s\nversion = %s\ndescription = \"\"\"\n%s\n\"\"\"\n", q(a.id), q(a.name), q(a.version), strings.Join(a.desc, "\n\n"))
	fmt.Fprintf(b, "[[agents.supportedInterfaces]]\nurl = \"https://%s.example.com/a2a\"\nprotocolBinding = \"JSONRPC\"\nprotocolVersion = \"1.0\"\n", a.id)
	fmt.Fprintf(b, "[[agents.supportedInterfaces]]\nurl = \"https://%s.example.com/rest\"\nprotocolBinding = \"HTTP+JSON\"\nprotocolVersion = \"1.0\"\n", a.id)
	b.WriteString("[agents.capabilities]\nstreaming = true\n")
	if a.oauth {
		b.WriteString("[agents.securitySchemes.oauth]\ntype = \"oauth2\"\ndescription = \"OAuth 2.0 client credentials\"\n[agents.securitySchemes.oauth.flows.clientCredentials]\ntokenUrl = \"https://auth.example.com/token\"\nscopes = { read = \"Read access\", write = \"Write access\" }\n[[agents.securityRequirements]]\noauth = [\"read\"]\n")
	} else {
		b.WriteString("[agents.securitySchemes.key]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"X-API-Key\"\n[[agents.securityRequirements]]\nkey = []\n")
	}
	for _, s := range a.skills {
		fmt.Fprintf(b, "[[agents.skills]]\nid = %s\nname = %s\ndescription = %s\ntags = %s\nexamples = %s\n", q(s.id), q(s.name), q(s.desc), list(s.tags), list(s.examples))
	}
}

func (a agent) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: %s\nversion: %s\ntags: %s\n---\n\n", q(a.name), q(a.version), list(a.skills[0].tags))
	b.WriteString(strings.Join(a.desc, "\n\n") + "\n\n## Interfaces\n\n")
	fmt.Fprintf(&b, "| Endpoint | Binding |\n| --- | --- |\n| https://%s.example.com/a2a | JSONRPC |\n| https://%s.example.com/rest | HTTP+JSON |\n\n## Skills\n", a.id, a.id)
	for _, s := range a.skills {
		fmt.Fprintf(&b, "\n### %s\n\n%s\n\nTags: %s\n\nExamples:\n\n- %s\n- %s\n", s.name, s.desc, strings.Join(s.tags, ", "), s.examples[0], s.examples[1])
	}
	return b.String()
}

const hugoConfig = `baseURL = "https://agents.example.com/"
title = "Bench"
# One page per agent plus the paginated list, as agentcards writes; no
# taxonomy pages or feeds, which agentcards does not write either.
disableKinds = ["taxonomy", "term", "rss"]
[pagination]
pagerSize = 100
`

var hugoLayouts = map[string]string{
	"baseof.html": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ site.Title }}</title>
<meta name="description" content="{{ .Summary | plainify }}"><link rel="canonical" href="{{ .Permalink }}"></head>
<body><nav><a href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a></nav><main>{{ block "main" . }}{{ end }}</main></body></html>
`,
	"home.html": `{{ define "main" }}<h1>{{ site.Title }}</h1>
{{ $p := .Paginate (where site.RegularPages "Section" "agents") }}
<ul>{{ range $p.Pages }}<li><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a> v{{ .Params.version }}</h2><p>{{ .Summary | plainify }}</p>
<ul>{{ range .Params.tags }}<li>{{ . }}</li>{{ end }}</ul></li>{{ end }}</ul>
{{ with $p.Next }}<a href="{{ .URL }}">Next</a>{{ end }}{{ end }}
`,
	"page.html": `{{ define "main" }}<article><h1>{{ .Title }}</h1><p>Version {{ .Params.version }}</p>{{ .Content }}</article>{{ end }}
`,
	"section.html": `{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
`,
}

func main() {
	n := flag.Int("n", 1000, "number of agents")
	out := flag.String("o", "bench", "output folder")
	flag.Parse()
	g := &gen{r: rand.New(rand.NewPCG(1, 2))}
	var b strings.Builder
	b.WriteString("[site]\nbaseUrl = \"https://agents.example.com\"\ntitle = \"Bench\"\ndefaultAgent = \"agent-0\"\n\n[provider]\norganization = \"Bench Co.\"\nurl = \"https://bench.example.com\"\n")
	content := filepath.Join(*out, "hugo", "content", "agents")
	if err := os.MkdirAll(content, 0o755); err != nil {
		log.Fatal(err)
	}
	for i := range *n {
		a := g.agent(i)
		a.toml(&b)
		if err := os.WriteFile(filepath.Join(content, a.id+".md"), []byte(a.markdown()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(*out, "agents.toml"), []byte(b.String()), 0o644))
	must(os.WriteFile(filepath.Join(*out, "hugo", "hugo.toml"), []byte(hugoConfig), 0o644))
	must(os.WriteFile(filepath.Join(content, "_index.md"), []byte("---\ntitle: Agents\n---\n"), 0o644))
	layouts := filepath.Join(*out, "hugo", "layouts")
	must(os.MkdirAll(layouts, 0o755))
	for name, src := range hugoLayouts {
		must(os.WriteFile(filepath.Join(layouts, name), []byte(src), 0o644))
	}
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
