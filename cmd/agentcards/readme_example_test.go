package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcards/agentcards/internal/sign"
)

// clientsDoc is the docs page of the client programs ("Verify from your
// own code"), which the README once held.
const clientsDoc = "../../site/docs/clients.md"

// readmeExample is the program site/docs/clients.md marks with the line
// `<!-- example: NAME -->`: the text of the fenced block that starts on the
// very next line. CI runs that text, so the docs cannot drift from what
// is tested.
func readmeExample(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile(clientsDoc)
	if err != nil {
		t.Fatal(err)
	}
	marker := "<!-- example: " + name + " -->\n"
	i := strings.Index(string(readme), marker)
	if i < 0 {
		t.Fatalf("%s has no %q", clientsDoc, strings.TrimSpace(marker))
	}
	if strings.Count(string(readme), marker) > 1 {
		t.Fatalf("%s marks two programs %q", clientsDoc, name)
	}
	rest := string(readme[i+len(marker):])
	if !strings.HasPrefix(rest, "```") {
		t.Fatalf("the line after %q is not a fenced block", strings.TrimSpace(marker))
	}
	rest = rest[strings.IndexByte(rest, '\n')+1:]
	end := strings.Index(rest, "\n```\n")
	if end < 0 {
		t.Fatalf("the block of example %s does not end", name)
	}
	return rest[:end+1]
}

// exampleSite is the repository's example site, built with its baseUrl
// on a listener of 127.0.0.1 (so that the cards' jku is the served JWKS),
// and served from one of its variants: "good" as built, "tampered" with
// one letter of two cards' descriptions changed, "foreign-key" with a
// JWKS that holds another key than the one that signed.
type exampleSite struct {
	URL     string
	Agents  []string // agent ids, each under /agents/<id>/
	dirs    map[string]string
	serving atomic.Pointer[string]
}

// Serve makes the server answer from variant v.
func (s *exampleSite) Serve(v string) {
	d := s.dirs[v]
	s.serving.Store(&d)
}

func newExampleSite(t *testing.T) *exampleSite {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &exampleSite{URL: "http://" + ln.Addr().String(), dirs: map[string]string{}}
	work := t.TempDir()
	for _, p := range []string{"agents.toml", "site", "keys"} {
		copyTree(t, filepath.Join("../..", p), filepath.Join(work, p))
	}
	manifest := filepath.Join(work, "agents.toml")
	m, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	m = bytes.Replace(m, []byte(`baseUrl = "https://agents.example.com"`), []byte(`baseUrl = "`+s.URL+`"`), 1)
	if err := os.WriteFile(manifest, m, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(work, "public")
	var stderr bytes.Buffer
	noEnv := func(string) string { return "" } // a development build, as on a newcomer's machine
	if code := run([]string{"build", "-manifest", manifest, "-out", good}, io.Discard, &stderr, noEnv); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr.String())
	}
	s.dirs["good"] = good
	agents, _ := filepath.Glob(filepath.Join(good, "agents", "*"))
	for _, a := range agents {
		s.Agents = append(s.Agents, filepath.Base(a))
	}

	tampered := filepath.Join(work, "tampered")
	copyTree(t, good, tampered)
	for _, card := range []string{".well-known/agent-card.json", "agents/" + s.Agents[0] + "/.well-known/agent-card.json"} {
		p := filepath.Join(tampered, card)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(b, []byte(`"description": "`)) + len(`"description": "`)
		b[i] ^= 0x20 // one letter's case
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.dirs["tampered"] = tampered

	foreign := filepath.Join(work, "foreign-key")
	copyTree(t, good, foreign)
	key, err := sign.GenerateKey(sign.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	jwk, err := sign.PublicJWK(key.Public(), sign.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	ks := &sign.KeySet{}
	ks.Add(jwk)
	jwks, err := ks.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, ".well-known", "jwks.json"), jwks, 0o644); err != nil {
		t.Fatal(err)
	}
	s.dirs["foreign-key"] = foreign

	s.Serve("good")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.FileServer(http.Dir(*s.serving.Load())).ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
