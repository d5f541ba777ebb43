package htmlexec

import (
	"bytes"
	"fmt"
	"html/template"
	"math/rand/v2"
	"strings"
	"testing"
)

// genTemplate writes a random template: text and actions in the HTML
// contexts the escapers serve, if, with, range (over what text/template
// ranges over, and over what it refuses), break, continue, variables,
// template calls, the builtins, over samplePage's fields, some missing.
type genTemplate struct {
	r     *rand.Rand
	b     strings.Builder
	vars  []string // in scope
	nvars int
	loops int // ranges the current point is in
}

var (
	genExprs = []string{".Title", ".Count", ".Flag", ".Ptr.Name", ".Ptr", ".NilPtr", ".Items", ".Strs", ".Anys", ".Any", ".NilAny",
		".Inner.HTML", ".Inner.URL", ".Inner", ".Str", ".NilStr", ".Arr", ".Name", ".Tags", ".N", ".Missing", ".Map", ".",
		"$", "$.Title", "$.Items", `"a<b&c"`, "1", "0", "true", "len .Strs", "len .Title", "eq .Count 3", "ne .Title \"x\"",
		"not .Flag", "eq .N 1", "(.Ptr).Name", "len .", "eq . \"y\""}
	genContexts = [][2]string{{"<p>", "</p>"}, {`<a title="`, `">`}, {`<a href="`, `">`}, {`<a href="/p/`, `">`},
		{`<a href="/p?q=`, `">`}, {"<title>", "</title>"}, {"<script>var v = ", ";</script>"}, {`<b onclick="f(`, `)">`}}
	genRanges = []string{".Items", ".Strs", ".Anys", ".None", ".Arr", ".Ptr.Tags", ".Tags", ".", ".Map", ".Count", ".NilPtr", "$.Items"}
)

func (g *genTemplate) expr() string {
	if len(g.vars) > 0 && g.r.IntN(4) == 0 {
		v := g.vars[g.r.IntN(len(g.vars))]
		if g.r.IntN(2) == 0 {
			return v + []string{".Name", ".Title", ".Tags", ".N"}[g.r.IntN(4)]
		}
		return v
	}
	return genExprs[g.r.IntN(len(genExprs))]
}

func (g *genTemplate) list(depth int) {
	for range 1 + g.r.IntN(4) {
		g.stmt(depth)
	}
}

func (g *genTemplate) stmt(depth int) {
	n := g.r.IntN(10)
	if depth > 3 {
		n = g.r.IntN(3)
	}
	switch n {
	case 0:
		g.b.WriteString([]string{"text ", "<br>", " & ", "\n", "<i>x</i>"}[g.r.IntN(5)])
	case 1, 2:
		c := genContexts[g.r.IntN(len(genContexts))]
		fmt.Fprintf(&g.b, "%s{{%s}}%s", c[0], g.expr(), c[1])
	case 3:
		e := g.expr()
		v := fmt.Sprintf("$v%d", g.nvars)
		g.nvars++
		fmt.Fprintf(&g.b, "{{%s := %s}}", v, e)
		g.vars = append(g.vars, v)
	case 4:
		if g.loops > 0 {
			g.b.WriteString([]string{"{{break}}", "{{continue}}"}[g.r.IntN(2)])
			return
		}
		g.b.WriteString("{{template \"helper\" " + g.expr() + "}}")
	case 5, 6:
		kw := []string{"if", "with"}[g.r.IntN(2)]
		mark := len(g.vars)
		decl := ""
		e := g.expr()
		if kw == "with" && g.r.IntN(3) == 0 {
			v := fmt.Sprintf("$v%d", g.nvars)
			g.nvars++
			decl = v + " := "
			g.vars = append(g.vars, v)
		}
		fmt.Fprintf(&g.b, "{{%s %s%s}}", kw, decl, e)
		inner := len(g.vars)
		g.list(depth + 1)
		g.vars = g.vars[:inner]
		if g.r.IntN(2) == 0 {
			g.b.WriteString("{{else}}")
			g.list(depth + 1)
		}
		g.vars = g.vars[:mark]
		g.b.WriteString("{{end}}")
	default:
		mark := len(g.vars)
		decl := ""
		switch g.r.IntN(3) {
		case 1:
			v := fmt.Sprintf("$v%d", g.nvars)
			g.nvars++
			decl = v + " := "
			g.vars = append(g.vars, v)
		case 2:
			i, v := fmt.Sprintf("$v%d", g.nvars), fmt.Sprintf("$v%d", g.nvars+1)
			g.nvars += 2
			decl = i + ", " + v + " := "
			g.vars = append(g.vars, i, v)
		}
		fmt.Fprintf(&g.b, "{{range %s%s}}", decl, genRanges[g.r.IntN(len(genRanges))])
		inner := len(g.vars)
		g.loops++
		g.list(depth + 1)
		g.loops--
		g.vars = g.vars[:inner]
		if g.r.IntN(3) == 0 {
			g.b.WriteString("{{else}}")
			g.list(depth + 1)
		}
		g.vars = g.vars[:mark]
		g.b.WriteString("{{end}}")
	}
}

// randomTemplate is a random template's source, from seed.
func randomTemplate(seed uint64) string {
	g := &genTemplate{r: rand.New(rand.NewPCG(seed, 30))}
	g.b.WriteString(`{{define "helper"}}<em>{{.}}</em>{{end}}`)
	g.list(0)
	return g.b.String()
}

// compareRandom renders src by html/template and by Execute: the same
// bytes and errors. It reports whether the compiled program ran it.
func compareRandom(t *testing.T, src string, data any) (compiled, ran bool) {
	tpl, err := template.New("x").Parse(src)
	if err != nil {
		return false, false // the generator's mistake: a parse error
	}
	c, err := Compile(tpl, "x")
	var want, got bytes.Buffer
	werr := tpl.Execute(&want, data)
	if err != nil {
		return false, false
	}
	gerr := c.Execute(&got, data)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%s\n compiled:      %q (%v)\n html/template: %q (%v)", src, got.Bytes(), gerr, want.Bytes(), werr)
	}
	var scratch bytes.Buffer
	return true, c.run(&scratch, data)
}

// TestRandomTemplates: random templates over samplePage (and a zero
// page) give
// html/template's bytes and errors, by their compiled programs where
// those run to the end.
func TestRandomTemplates(t *testing.T) {
	var compiled, ran int
	const n = 3000
	for seed := range uint64(n) {
		src := randomTemplate(seed)
		c, r := compareRandom(t, src, samplePage())
		if c {
			compiled++
		}
		if r {
			ran++
		}
		// Zero values: nil slices, pointers and interfaces everywhere.
		compareRandom(t, src, &page{})
	}
	t.Logf("%d templates: %d compiled, %d ran compiled", n, compiled, ran)
	if compiled < n*9/10 || ran < n/5 {
		t.Errorf("too few compiled (%d) or run (%d): the generator misses the compiler", compiled, ran)
	}
}

// FuzzTemplates holds the compiled programs of random templates to
// html/template.
func FuzzTemplates(f *testing.F) {
	f.Add(uint64(0))
	f.Fuzz(func(t *testing.T, seed uint64) {
		src := randomTemplate(seed)
		compareRandom(t, src, samplePage())
		compareRandom(t, src, &page{})
	})
}
