// Command gen writes a benchmark input: an agents.toml of N realistic
// agents and a Hugo site with one page per agent holding the same text, so
// that agentcards and Hugo can be timed on the same content
// (testdata/bench/run.sh).
//
//	go run ./testdata/bench/gen -n 10000 -o /tmp/bench
//
// The output depends only on -n: the random source has a fixed seed, and
// agent i is the same in every N > i.
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

// words is the vocabulary descriptions are drawn from: everyday English,
// business and technical words, so the text looks like prose and the
// search index of agentcards sees a realistic number of distinct words.
var words = strings.Fields(`
able about above accept access account accurate across action active actual adapt add address adjust
advance advice after again against agent agree ahead alert align allow almost alone along already also
always amount analyse annual answer anyone apply approach approve archive area around arrange arrive
article ask assess asset assign assist attach attempt audience audit author automatic available average
avoid aware balance bank base batch before begin behind believe below benefit best better between beyond
billing book border borrow bottom brief bring broad budget build bundle business busy buyer calendar
call campaign cancel capture card care career carry case catalog cause center certain chain change
channel chapter charge chart check choice choose city claim clean clear client climate close cloud coach
code collect column combine comfort comment common company compare complete comply compute concern
confirm connect consider contact contain content context continue contract control convert copy correct
cost count country course cover create credit critical culture current customer cycle daily damage data
date deadline deal debate decide default define degree delay deliver demand depend deploy describe design
detail detect develop device differ digest direct discover discuss display distance divide document
domain double draft drive during early earn easy edge edit effect effort either email employee enable
energy engine enough ensure enter entire entry equal error estimate evaluate even event every evidence
exact example exchange exist expand expect expense expert explain export express extend extract fact
factor fair family fast feature feedback field figure file fill filter final finance find finish first
fix flight flow focus follow forecast form format forward frame free fresh friend front full fund future
gather general generate gentle global goal good grant graph great group grow guard guest guide handle
happen health hear heavy help high history hold holiday home hotel hour house human idea identify image
impact import improve include income increase index industry inform initial input insight inspect
install instead insurance intent interest invoice issue item itinerary job join journey judge keep key
kind know label language large later launch layer lead learn lease ledger legal lesson letter level
light limit line link list listen little local locate logistics long loyal machine main maintain major
manage manual map margin mark market match matter measure media meeting member memo memory mention
merge message method metric middle minute mobile model modern moment money monitor month morning move
narrow native nature near need network never next night normal note notice notify number object obtain
offer office often online open operate option order origin outline output owner package page panel
paper parent part partner party pass patient pattern pause payment peak people percent period permit
person phone pick piece place plan platform policy portfolio position possible post power practice
predict prefer prepare present press prevent price primary print priority private process produce
product profile program progress project promise proof propose protect provide public publish purchase
purpose quality quarter query question queue quick quiet quote raise range rank rapid rate reach read
ready reason receipt receive recent recommend record reduce refund region register regular related
release rely remain remind remote remove renew repair repeat replace reply report request require
research reserve resolve resource respond result retail return review reward right risk road role room
route routine rule safe salary sales sample save scale schedule school scope score screen search season
second section secure segment select send sense sentiment sequence series serve service session set
settle share shift ship shipment short show sign signal simple single site size skill small smart
solve sort source space speak special spend split sport staff stage standard start state status steady
step stock store story strategy stream strong student study style submit success suggest summary
supplier supply support sure survey switch system table target task team template term test text thank
theme think through ticket tight time timeline today together tool topic total touch track trade train
transfer translate travel trend trial trip true trust turn type under unit update upload urgent usage
user usual valid value vendor verify version view visit voice volume wait warehouse watch weather week
weight while whole wide window within without word work workflow write year yield young zone`)

// tags is the tag vocabulary, about 200 tags as a catalog of agents would
// use them.
var tags = strings.Fields(`
accounting accessibility ads analytics anomaly-detection api-design appointments archiving asset-management
audit audio automation b2b backup banking benefits billing biology booking bookkeeping budgeting
bug-triage calendar call-center campaign car-rental catalog chat checkout chemistry ci-cd classification
climate cloud-cost coaching code-review coding collections compliance construction content-moderation
contracts copywriting crm cryptography customer-support cybersecurity dashboards data-cleaning
data-pipeline databases debugging design devops diagnostics diagrams documentation dubbing e-commerce
education email embeddings energy engineering entity-extraction esg events expenses extraction
facilities faq finance fleet forecasting forms fraud fundraising gaming genealogy geospatial grants
graphics hardware health helpdesk hiring hospitality hotels hr identity image-generation incident-response
insurance integrations interviews inventory investing invoicing it-support journalism knowledge-base
kyc labeling language-learning leads legal licensing localization logistics loyalty machine-learning
maintenance manufacturing mapping marketing math media meetings mentoring messaging metrics mining
mobile monitoring music negotiation networking news nonprofit note-taking nutrition observability
ocr onboarding operations optimization orders outreach packaging payments payroll pdf performance
permits personalization pharmacy photography planning podcasts policy pricing privacy procurement
product project-management proofreading property public-sector qa quality question-answering
real-estate recipes recommendations recruiting refunds regulatory reporting research reservations
retail returns reviews risk robotics routing safety sales scheduling science scraping search security
sentiment seo shipping simulation social-media spreadsheets sql statistics storage summarization
supply-chain support surveys sustainability tax telecom testing ticketing time-tracking training
transcription translation travel tutoring ux vendor-management video voice warehousing weather
web wellness workflow writing`)

var providers = []string{
	"Northwind Labs", "Contoso Automation", "Fabrikam AI", "Tailspin Systems", "Adventure Works Digital",
	"Blue Yonder Agents", "Litware Inc.", "Proseware", "Wide World Importers", "Woodgrove Analytics",
	"Alpine Data Co.", "Harbor Logic", "Meridian Tools", "Quartz Cloud", "Redwood Robotics",
	"Summit Software", "Tidewater Services", "Vantage Point AI", "Willow Health Tech", "Zenith Ledger",
}

var roles = strings.Fields(`Assistant Agent Analyst Planner Helper Copilot Advisor Operator Concierge Scout`)

// verbs and nouns name skills and make their examples ("Summarize the
// invoices for ...").
var verbs = strings.Fields(`analyse approve archive audit book cancel check classify compare convert
create draft estimate export extract file find forecast generate import index label list merge monitor
notify plan price rank reconcile record refund renew reply report reschedule review route schedule
score search sort split submit summarize tag track transcribe translate update upload validate verify`)

var nouns = strings.Fields(`accounts alerts appointments bookings budgets calendars campaigns cases
claims comments contracts customers dashboards deadlines deliveries documents drafts emails entries
errors estimates events expenses feedback files flights forecasts forms grants holidays hotels images
incidents invoices issues itineraries jobs leads ledgers leases letters meetings memos messages metrics
notes offers orders payments permits policies prices products profiles projects purchases queries
quotes receipts records refunds reports requests reservations returns reviews risks routes schedules
shipments signals sprints statements stock suppliers surveys tasks tickets timesheets trades trips
vendors visits workflows`)

type gen struct{ r *rand.Rand }

func (g *gen) word() string            { return words[g.r.IntN(len(words))] }
func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// title upper-cases the first letter of an ASCII word.
func title(w string) string { return strings.ToUpper(w[:1]) + w[1:] }

// sentence is n words, capitalized, with a full stop; bold puts one inner
// word in **bold** (Markdown).
func (g *gen) sentence(n int, bold bool) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	if bold && n > 2 {
		k := 1 + g.r.IntN(n-1)
		ws[k] = "**" + ws[k] + "**"
	}
	ws[0] = title(ws[0])
	return strings.Join(ws, " ") + "."
}

// text is n words in sentences of 6 to 14 words; about one sentence in six
// has a bold word.
func (g *gen) text(n int) string {
	var parts []string
	for n > 0 {
		k := min(n, 6+g.r.IntN(9))
		if n-k < 4 { // no tiny last sentence
			k = n
		}
		parts = append(parts, g.sentence(k, g.r.IntN(6) == 0))
		n -= k
	}
	return strings.Join(parts, " ")
}

type skill struct {
	id, name, desc string
	tags, examples []string
}

type agent struct {
	id, name, version string
	org, orgURL       string
	desc              string // Markdown, paragraphs separated by blank lines
	push              bool
	oauth             bool
	skills            []skill
}

// agent makes agent i: a description of about 100 words in two or three
// paragraphs (one agent in three ends with a short bullet list instead of
// the third paragraph) and 5 skills of about 25 words, 3 tags and 2
// examples each.
func (g *gen) agent(i int) agent {
	org := g.r.IntN(len(providers))
	a := agent{
		id:      fmt.Sprintf("agent-%d", i),
		name:    title(g.word()) + " " + title(g.word()) + " " + g.pick(roles),
		version: fmt.Sprintf("%d.%d.%d", 1+g.r.IntN(3), g.r.IntN(20), g.r.IntN(10)),
		org:     providers[org],
		orgURL:  fmt.Sprintf("https://provider-%d.example.com", org),
		push:    g.r.IntN(2) == 0,
		oauth:   i%2 == 1,
	}
	paras := []string{g.text(40 + g.r.IntN(11)), g.text(25 + g.r.IntN(11))}
	if g.r.IntN(3) == 0 {
		var items []string
		for range 3 {
			items = append(items, "- "+g.sentence(4+g.r.IntN(4), false))
		}
		paras = append(paras, "It can:\n\n"+strings.Join(items, "\n"))
	} else {
		paras = append(paras, g.text(20+g.r.IntN(6)))
	}
	a.desc = strings.Join(paras, "\n\n")
	for s := range 5 {
		verb, noun := g.pick(verbs), g.pick(nouns)
		sk := skill{
			id:   fmt.Sprintf("%s-%s-%d", verb, noun, s),
			name: title(verb) + " " + noun,
			desc: g.text(22 + g.r.IntN(7)),
		}
		for len(sk.tags) < 3 {
			if t := g.pick(tags); !contains(sk.tags, t) {
				sk.tags = append(sk.tags, t)
			}
		}
		sk.examples = []string{
			title(verb) + " the " + noun + " of the " + g.word() + " team for this " + g.pick([]string{"week", "month", "quarter"}) + ".",
			"Can you " + verb + " all " + noun + " that mention " + g.word() + " and " + g.word() + "?",
		}
		a.skills = append(a.skills, sk)
	}
	return a
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// allTags is the agent's distinct skill tags, in order of appearance.
func (a agent) allTags() []string {
	var out []string
	for _, s := range a.skills {
		for _, t := range s.tags {
			if !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func q(s string) string { return fmt.Sprintf("%q", s) }

func list(xs []string) string {
	qs := make([]string, len(xs))
	for i, x := range xs {
		qs[i] = q(x)
	}
	return "[" + strings.Join(qs, ", ") + "]"
}

const manifestHead = `[site]
baseUrl = "https://agents.example.com"
title = "Bench"
defaultAgent = "agent-0"

[provider]
organization = "Bench Co."
url = "https://bench.example.com"
`

// toml writes the agent's [[agents]] table in the syntax of README.md.
// run.sh edits the first word after `description = """`, so the description
// must start with a plain word.
func (a agent) toml(b *strings.Builder) {
	fmt.Fprintf(b, "\n[[agents]]\nid = %s\nname = %s\nversion = %s\ndescription = \"\"\"\n%s\"\"\"\n", q(a.id), q(a.name), q(a.version), a.desc)
	b.WriteString("defaultInputModes = [\"text/plain\", \"application/json\"]\ndefaultOutputModes = [\"text/plain\", \"application/json\"]\n")
	fmt.Fprintf(b, "[agents.provider]\norganization = %s\nurl = %s\n", q(a.org), q(a.orgURL))
	fmt.Fprintf(b, "[[agents.supportedInterfaces]]\nurl = \"https://%s.example.com/a2a\"\nprotocolBinding = \"JSONRPC\"\nprotocolVersion = \"1.0\"\n", a.id)
	fmt.Fprintf(b, "[[agents.supportedInterfaces]]\nurl = \"https://%s.example.com/rest\"\nprotocolBinding = \"HTTP+JSON\"\nprotocolVersion = \"1.0\"\n", a.id)
	fmt.Fprintf(b, "[agents.capabilities]\nstreaming = true\npushNotifications = %t\n", a.push)
	if a.oauth {
		b.WriteString("[agents.securitySchemes.oauth]\ntype = \"oauth2\"\ndescription = \"OAuth 2.0 client credentials\"\n[agents.securitySchemes.oauth.flows.clientCredentials]\ntokenUrl = \"https://auth.example.com/token\"\nscopes = { read = \"Read access\", write = \"Write access\" }\n[[agents.securityRequirements]]\noauth = [\"read\"]\n")
	} else {
		b.WriteString("[agents.securitySchemes.key]\ntype = \"apiKey\"\ndescription = \"API key issued in the provider's console\"\nlocation = \"header\"\nname = \"X-API-Key\"\n[[agents.securityRequirements]]\nkey = []\n")
	}
	for _, s := range a.skills {
		fmt.Fprintf(b, "[[agents.skills]]\nid = %s\nname = %s\ndescription = %s\ntags = %s\nexamples = %s\n", q(s.id), q(s.name), q(s.desc), list(s.tags), list(s.examples))
	}
}

// markdown is the agent's Hugo page: the same text as the agent page of
// agentcards (description, provider, interfaces, capabilities, security,
// skills with tags and examples), in Markdown.
func (a agent) markdown(weight int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "+++\ntitle = %s\nversion = %s\nprovider = %s\ntags = %s\nweight = %d\n+++\n\n", q(a.name), q(a.version), q(a.org), list(a.allTags()), weight)
	b.WriteString(a.desc + "\n\n")
	fmt.Fprintf(&b, "Provided by [%s](%s).\n\n", a.org, a.orgURL)
	fmt.Fprintf(&b, "## Interfaces\n\n| Endpoint | Binding | Protocol |\n| --- | --- | --- |\n| https://%s.example.com/a2a | JSONRPC | 1.0 |\n| https://%s.example.com/rest | HTTP+JSON | 1.0 |\n\n", a.id, a.id)
	fmt.Fprintf(&b, "## Capabilities\n\n- Streaming: yes\n- Push notifications: %s\n- Extended agent card: no\n\nInput: text/plain, application/json. Output: text/plain, application/json.\n\n", yesNo(a.push))
	if a.oauth {
		b.WriteString("## Security\n\nOAuth 2.0 client credentials (token URL https://auth.example.com/token), scope `read` (Read access).\n\n")
	} else {
		b.WriteString("## Security\n\nAn API key in the `X-API-Key` header.\n\n")
	}
	b.WriteString("## Skills\n")
	for _, s := range a.skills {
		fmt.Fprintf(&b, "\n### %s\n\n%s\n\nTags: %s\n\nExamples:\n\n- %s\n- %s\n", s.name, s.desc, strings.Join(s.tags, ", "), s.examples[0], s.examples[1])
	}
	return b.String()
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// hugoConfig is the Hugo site's configuration; its comment says which page
// kinds it keeps and why.
const hugoConfig = `baseURL = "https://agents.example.com/"
title = "Bench"
languageCode = "en"
# Chosen for a fair comparison: agentcards writes one page per agent, a
# front list of 100 agents a page, 404.html, sitemap.xml and robots.txt, and
# no taxonomy pages, feeds or /agents/ index. So the taxonomy, term, RSS and
# section kinds are disabled (tags stay a page parameter shown on each
# page); home (the paginated list), sitemap, robots.txt and 404 are kept.
disableKinds = ["taxonomy", "term", "rss", "section"]
enableRobotsTXT = true
[pagination]
pagerSize = 100
`

var hugoLayouts = map[string]string{
	// baseof.html: the base template every page fills.
	"baseof.html": `<!doctype html>
<html lang="{{ site.Language.LanguageCode }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if .IsHome }}{{ site.Title }}{{ else }}{{ .Title }} · {{ site.Title }}{{ end }}</title>
<meta name="description" content="{{ .Summary | plainify | truncate 160 }}">
<link rel="canonical" href="{{ .Permalink }}"></head>
<body><a href="#main">Skip to content</a>
<header><nav><a href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a></nav></header>
<main id="main">{{ block "main" . }}{{ end }}</main>
<footer>{{ site.Title }}</footer></body></html>
`,
	// page.html: the single page of an agent.
	"page.html": `{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p>Version {{ .Params.version }} · {{ .Params.provider }}</p>
<ul class="tags">{{ range .Params.tags }}<li>{{ . }}</li>{{ end }}</ul>
{{ .Content }}</article>{{ end }}
`,
	// list.html: the front list, 100 agents a page (home and /page/<n>/).
	"list.html": `{{ define "main" }}<h1>{{ site.Title }}</h1>
{{ $p := .Paginate site.RegularPages }}
<ul class="agents">{{ range $p.Pages }}<li><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a> <small>v{{ .Params.version }}</small></h2>
<p>{{ .Summary | plainify | truncate 160 }}</p>
<ul class="tags">{{ range .Params.tags }}<li>{{ . }}</li>{{ end }}</ul></li>{{ end }}</ul>
<nav aria-label="pages">{{ with $p.First }}<a href="{{ .URL }}">First</a>{{ end }}
{{ with $p.Prev }}<a href="{{ .URL }}">Previous</a>{{ end }}
Page {{ $p.PageNumber }} of {{ $p.TotalPages }}
{{ with $p.Next }}<a href="{{ .URL }}">Next</a>{{ end }}
{{ with $p.Last }}<a href="{{ .URL }}">Last</a>{{ end }}</nav>{{ end }}
`,
	"404.html": `{{ define "main" }}<h1>Not found</h1><p><a href="{{ site.Home.RelPermalink }}">All agents</a></p>{{ end }}
`,
}

func main() {
	n := flag.Int("n", 1000, "number of agents")
	out := flag.String("o", "bench", "output folder (agents.toml and hugo/ are written in it)")
	flag.Parse()
	if *n < 1 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	g := &gen{r: rand.New(rand.NewPCG(1, 2))}
	content := filepath.Join(*out, "hugo", "content", "agents")
	layouts := filepath.Join(*out, "hugo", "layouts")
	must(os.MkdirAll(content, 0o755))
	must(os.MkdirAll(layouts, 0o755))
	var b strings.Builder
	b.WriteString(manifestHead)
	for i := range *n {
		a := g.agent(i)
		a.toml(&b)
		must(os.WriteFile(filepath.Join(content, a.id+".md"), []byte(a.markdown(i+1)), 0o644))
	}
	must(os.WriteFile(filepath.Join(*out, "agents.toml"), []byte(b.String()), 0o644))
	must(os.WriteFile(filepath.Join(*out, "hugo", "hugo.toml"), []byte(hugoConfig), 0o644))
	for name, src := range hugoLayouts {
		must(os.WriteFile(filepath.Join(layouts, name), []byte(src), 0o644))
	}
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
