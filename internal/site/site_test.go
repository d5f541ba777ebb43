package site

import (
	"bytes"
	"crypto"
	"encoding/json"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const (
	repoRoot      = "../.."
	testKeysDir   = repoRoot + "/testdata/keys"
	goldenSite    = repoRoot + "/testdata/golden/example-site"
	goldenPrivate = repoRoot + "/testdata/golden/example-private"
	exampleToml   = repoRoot + "/agents.toml"
	v03SchemaRel  = repoRoot + "/testdata/schema/a2a-v0.3.0.schema.json"
)

// loadExample reads the repository's agents.toml with the published test
// keys as its key folder, from a copy holding the example's own pages:
// site/ without site/docs/, the project's documentation, which the
// repository's build renders too but the golden example site leaves out
// (so that editing the docs never rewrites the golden files). The
// templates/ folder beside it is copied too: the repository's build reads
// it as overrides.
func loadExample(t testing.TB) *manifest.Manifest {
	t.Helper()
	dir := t.TempDir()
	err := os.CopyFS(dir, fs.FS(exampleFiles{os.DirFS(repoRoot)}))
	if err != nil {
		t.Fatal(err)
	}
	return loadWithTestKeys(t, filepath.Join(dir, "agents.toml"))
}

// exampleFiles is the repository root as the example sees it: agents.toml,
// site/ but for site/docs/, and the files of templates/.
type exampleFiles struct{ fs.FS }

func (e exampleFiles) ReadDir(name string) ([]fs.DirEntry, error) {
	all, err := fs.ReadDir(e.FS, name)
	if err != nil {
		return nil, err
	}
	var keep []fs.DirEntry
	for _, d := range all {
		p := path.Join(name, d.Name())
		switch {
		case name == ".":
			if p == "agents.toml" || p == PagesDir || p == TemplatesDir {
				keep = append(keep, d)
			}
		case p == PagesDir+"/docs":
		case strings.HasPrefix(p, TemplatesDir+"/") && (d.IsDir() || strings.HasSuffix(p, ".go")):
		default:
			keep = append(keep, d)
		}
	}
	return keep, nil
}

// loadWithTestKeys reads a manifest with the published test keys as its
// key folder.
func loadWithTestKeys(t testing.TB, path string) *manifest.Manifest {
	t.Helper()
	m, err := manifest.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(testKeysDir + "/public")
	if err != nil {
		t.Fatal(err)
	}
	m.Site.Keys = abs
	// Never beside the manifest, which may be the repository's own.
	m.Site.PrivateOutput = filepath.Join(t.TempDir(), "private")
	return m
}

// testSigners returns signers for the named test keys (test-<name>.pem).
func testSigners(t testing.TB, m *manifest.Manifest, ks *sign.KeySet, names ...string) []*sign.Signer {
	t.Helper()
	var out []*sign.Signer
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(testKeysDir, "test-"+n+".pem"))
		if err != nil {
			t.Fatal(err)
		}
		keys, err := sign.ParsePrivatePEM(data)
		if err != nil {
			t.Fatal(err)
		}
		kid, _ := sign.Thumbprint(keys[0].Public())
		pub := ks.Find(kid)
		if pub == nil {
			t.Fatalf("test key %s is not in %s", n, m.KeysDir())
		}
		s, err := sign.NewSigner(keys[0], pub.Algorithm, JWKSURL(m))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// buildExample builds the example site into dir with the named test keys.
func buildExample(t testing.TB, dir string, keys ...string) (*manifest.Manifest, *Report) {
	t.Helper()
	return buildWithTestKeys(t, loadExample(t), dir, keys...)
}

// buildWithTestKeys builds m into dir with the named test keys.
func buildWithTestKeys(t testing.TB, m *manifest.Manifest, dir string, keys ...string) (*manifest.Manifest, *Report) {
	t.Helper()
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Build(Options{Manifest: m, OutDir: dir, Keys: ks, Signers: testSigners(t, m, ks, keys...)})
	if err != nil {
		t.Fatal(err)
	}
	return m, rep
}

// readTree returns every file under dir by slash path.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGoldenExampleSite builds agents.toml with the Ed25519 test key and
// compares the whole tree with testdata/golden/example-site, and the
// private output with testdata/golden/example-private (-update rewrites
// them).
func TestGoldenExampleSite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m, rep := buildExample(t, out, "ed25519")
	if rep.Extended != 2 || rep.PrivateDir == "" {
		t.Fatalf("extended cards: %d in %q", rep.Extended, rep.PrivateDir)
	}
	compareGolden(t, readTree(t, out), goldenSite)
	// The private output's .gitignore would hide the golden copy from git.
	private := readTree(t, m.PrivateDir())
	private["dot-gitignore"] = private[".gitignore"]
	delete(private, ".gitignore")
	// It names the manifest by its path from the private output, which
	// here is a temporary folder.
	if !bytes.HasSuffix(private[ownerFile], []byte("/agents.toml\nagents/invoice-reader/extended-agent-card.enterprise.json\nagents/invoice-reader/extended-agent-card.json\nagents/invoice-reader/extended-agent.enterprise.json\nagents/invoice-reader/extended-agent.json\n")) {
		t.Errorf("%s: %q", ownerFile, private[ownerFile])
	}
	delete(private, ownerFile)
	compareGolden(t, private, goldenPrivate)
}

// compareGolden compares a tree with the golden one (or, with -update,
// replaces the golden one).
func compareGolden(t *testing.T, got map[string][]byte, golden string) {
	t.Helper()
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		for name, b := range got {
			p := filepath.Join(golden, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want := readTree(t, golden)
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: missing from the build", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		w, ok := want[name]
		switch {
		case !ok:
			t.Errorf("%s: not in the golden tree %s (run go test ./internal/site -run Golden -update)", name, golden)
		case !bytes.Equal(got[name], w):
			t.Errorf("%s differs from the golden file (run with -update if the change is intended):\n%s", name, firstDiff(got[name], w))
		}
	}
}

func firstDiff(got, want []byte) string {
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return "line " + strconv.Itoa(i+1) + ":\n  got:  " + g + "\n  want: " + w
		}
	}
	return ""
}

// jwkOf wraps a private key as a JWK (private members included).
func jwkOf(k crypto.Signer) jose.JSONWebKey {
	return jose.JSONWebKey{Key: k, Algorithm: sign.EdDSA, Use: "sig"}
}

// TestReproducible builds twice with Ed25519 and compares byte for byte.
func TestReproducible(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	buildExample(t, a, "ed25519")
	buildExample(t, b, "ed25519")
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) != len(tb) {
		t.Fatalf("%d files vs %d", len(ta), len(tb))
	}
	for name, x := range ta {
		if !bytes.Equal(x, tb[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

// TestTreeAndCards checks the output tree and that every card verifies with
// every key that signed it, strictly.
func TestTreeAndCards(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m, rep := buildExample(t, out, "ed25519", "es256", "rs256", "ps256")
	tree := readTree(t, out)
	want := []string{".nojekyll", "index.html", ".well-known/agent-card.json", ".well-known/agent.json", ".well-known/jwks.json", ".well-known/ai-catalog.json",
		"404.html", "_headers", "robots.txt", "sitemap.xml", "search/1.json", "search.js", "copy.js", "signature.js", "style.css", "favicon.svg", "verify/index.html", "sha256sums.txt",
		"keys/index.html", "ai-catalog/index.html"}
	for _, a := range m.Agents {
		want = append(want, "agents/"+a.ID+"/.well-known/agent-card.json", "agents/"+a.ID+"/.well-known/agent.json", "agents/"+a.ID+"/index.html")
	}
	if got := slices.Sorted(maps.Keys(tree)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Fatalf("tree:\n got  %v\n want %v", got, want)
	}
	if rep.Files != len(want) {
		t.Errorf("Report.Files = %d, want %d", rep.Files, len(want))
	}
	def := "agents/" + m.DefaultAgentID() + "/.well-known/"
	for _, f := range []string{"agent-card.json", "agent.json"} {
		if !bytes.Equal(tree[".well-known/"+f], tree[def+f]) {
			t.Errorf("root %s is not the default agent's", f)
		}
	}
	ks, _ := sign.LoadKeySet(m.KeysDir())
	for name, b := range tree {
		if !strings.HasSuffix(name, "agent-card.json") && !strings.HasSuffix(name, "/agent.json") && name != ".well-known/agent.json" {
			continue
		}
		res, err := sign.Verify(b, ks, sign.VerifyAlgorithms)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		strict := map[string]bool{}
		for _, r := range res {
			if r.Verified && r.Covers == sign.Strict {
				strict[r.Alg] = true
			}
			if r.JKU != "https://agents.example.com/.well-known/jwks.json" {
				t.Errorf("%s: jku %q", name, r.JKU)
			}
		}
		if len(strict) != 4 {
			t.Errorf("%s: strictly verified algs %v, want all four", name, strict)
		}
	}
	// The JWKS is exactly the keys folder, public members only.
	var jwks struct{ Keys []map[string]any }
	if err := json.Unmarshal(tree[".well-known/jwks.json"], &jwks); err != nil {
		t.Fatal(err)
	}
	if len(jwks.Keys) != len(ks.Keys) {
		t.Errorf("jwks has %d keys, keys folder %d", len(jwks.Keys), len(ks.Keys))
	}
	for _, k := range jwks.Keys {
		for _, priv := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
			if _, ok := k[priv]; ok {
				t.Errorf("jwks key %v has private member %q", k["kid"], priv)
			}
		}
		if k["use"] != "sig" || k["alg"] == nil || k["kid"] == nil {
			t.Errorf("jwks key lacks use/alg/kid: %v", k)
		}
	}
}

// TestNoPrivateKeyInOutput scans every output file for the private keys
// that signed it: PEM text, PKCS #8 DER in base64, and the raw private
// scalar as a JWK "d" would carry it.
func TestNoPrivateKeyInOutput(t *testing.T) {
	dir := t.TempDir()
	m := loadExample(t)
	m.Dir = dir // the development key goes here
	ks, _ := sign.LoadKeySet(m.KeysDir())
	dev, _, _, err := sign.DevKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	devSigner, err := sign.NewSigner(dev, sign.EdDSA, JWKSURL(m))
	if err != nil {
		t.Fatal(err)
	}
	ks.Add(devSigner.Public)
	signers := append(testSigners(t, m, ks, "ed25519", "es256", "rs256"), devSigner)
	out := filepath.Join(dir, "public")
	if _, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: signers}); err != nil {
		t.Fatal(err)
	}
	var needles [][]byte
	for _, n := range []string{"ed25519", "es256", "rs256"} {
		pemBytes, _ := os.ReadFile(filepath.Join(testKeysDir, "test-"+n+".pem"))
		needles = append(needles, secretNeedles(t, pemBytes)...)
	}
	devPEM, _ := os.ReadFile(filepath.Join(dir, sign.DevKeyDir, sign.DevKeyFile))
	needles = append(needles, secretNeedles(t, devPEM)...)
	for name, b := range readTree(t, out) {
		for _, n := range needles {
			if bytes.Contains(b, n) {
				t.Errorf("%s contains private key material %q", name, n)
			}
		}
	}
	// The development key's public half is published, so the cards verify.
	if ks.Find(devSigner.KID) == nil {
		t.Error("dev key missing from the key set")
	}
}

// secretNeedles returns byte strings that would reveal a private key.
func secretNeedles(t testing.TB, pemBytes []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for _, line := range strings.Split(string(pemBytes), "\n") {
		if len(line) >= 40 && !strings.HasPrefix(line, "-----") {
			out = append(out, []byte(line[:40]))
		}
	}
	keys, err := sign.ParsePrivatePEM(pemBytes)
	if err != nil {
		t.Fatal(err)
	}
	jwk, _ := json.Marshal(jwkOf(keys[0]))
	var m map[string]any
	json.Unmarshal(jwk, &m)
	for _, p := range []string{"d", "p", "q"} {
		if s, ok := m[p].(string); ok {
			out = append(out, []byte(s))
		}
	}
	return out
}

// TestFailedBuildLeavesOutputUntouched makes the build fail after the new
// tree was partly written and checks the old tree is byte-identical.
func TestFailedBuildLeavesOutputUntouched(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m, _ := buildExample(t, out, "ed25519")
	before := readTree(t, out)

	// A signer whose key is not in the key set fails before writing.
	ks, _ := sign.LoadKeySet(m.KeysDir())
	stranger, _ := sign.GenerateKey(sign.EdDSA)
	s, _ := sign.NewSigner(stranger, sign.EdDSA, JWKSURL(m))
	if _, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: []*sign.Signer{s}}); err == nil {
		t.Fatal("build with a key outside the key set succeeded")
	}
	// A private key in the key set fails after the cards are written.
	bad := &sign.KeySet{Keys: append(slices.Clone(ks.Keys), jwkOf(stranger))}
	bad.Keys[len(bad.Keys)-1].KeyID = s.KID
	signers := testSigners(t, m, ks, "ed25519")
	if _, err := Build(Options{Manifest: m, OutDir: out, Keys: bad, Signers: signers}); err == nil {
		t.Fatal("build publishing a private key succeeded")
	}
	after := readTree(t, out)
	if len(before) != len(after) {
		t.Fatalf("file count changed: %d -> %d", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(b, after[name]) {
			t.Errorf("%s changed", name)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if !besideOutput[e.Name()] {
			t.Errorf("leftover %s beside the output", e.Name())
		}
	}
}

// besideOutput is what a build keeps beside an output folder named public.
var besideOutput = map[string]bool{"public": true, ".public.standby": true, ".public.state": true}

func TestRefusesForeignOutputFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "docs")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "mine.txt"), []byte("keep"), 0o644)
	m := loadExample(t)
	ks, _ := sign.LoadKeySet(m.KeysDir())
	_, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: testSigners(t, m, ks, "ed25519")})
	if err == nil || !strings.Contains(err.Error(), "not an agentcards site") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "mine.txt")); string(b) != "keep" {
		t.Error("foreign file was touched")
	}
}

// TestProjectionMatchesReport: the cards the report lists as projected are
// exactly those whose SDK projection differs.
func TestProjectionMatchesReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m, rep := buildExample(t, out, "ed25519")
	for _, a := range m.Agents {
		b, _ := os.ReadFile(filepath.Join(out, "agents", a.ID, layout.WellKnown, layout.CardFile))
		unsigned, _ := card.Unsigned(b)
		_, omitted, err := card.SDKProjection(unsigned)
		removed := card.Paths(omitted)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(removed, rep.Projected[a.ID]) {
			t.Errorf("%s: projection removes %v, report says %v", a.ID, removed, rep.Projected[a.ID])
		}
		var c card.V1
		json.Unmarshal(b, &c)
		want := 1
		if len(removed) > 0 {
			want = 2
		}
		if len(c.Signatures) != want {
			t.Errorf("%s: %d signatures, want %d", a.ID, len(c.Signatures), want)
		}
	}
}

// TestProjectionSignaturesOff: with site.sdkProjectionSignatures = false,
// cards carry strict signatures only, and the report still names them.
func TestProjectionSignaturesOff(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m := loadExample(t)
	off := false
	m.Site.SDKProjectionSignatures = &off
	ks, _ := sign.LoadKeySet(m.KeysDir())
	rep, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: testSigners(t, m, ks, "ed25519")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Projected["invoice-reader"]) == 0 {
		t.Error("report does not name the card the SDKs cannot verify")
	}
	b, _ := os.ReadFile(filepath.Join(out, "agents", "invoice-reader", layout.WellKnown, layout.CardFile))
	var c card.V1
	json.Unmarshal(b, &c)
	if len(c.Signatures) != 1 {
		t.Errorf("%d signatures, want 1", len(c.Signatures))
	}
}

// TestConcurrentBuildsIntoOneFolder: builds into the same output folder
// take turns (an advisory lock beside it), so none fails half-way and the
// tree left is a whole build with no build folders beside it.
func TestConcurrentBuildsIntoOneFolder(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	m := loadExample(t)
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		t.Fatal(err)
	}
	signers := testSigners(t, m, ks, "ed25519")
	// A folder a killed build left behind.
	os.MkdirAll(filepath.Join(parent, ".public.build-4242", "agents"), 0o755)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: signers})
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if !besideOutput[e.Name()] {
			t.Errorf("left beside the output: %s", e.Name())
		}
	}
	want := readTree(t, filepath.Join("..", "..", "testdata", "golden", "example-site"))
	got := readTree(t, out)
	if len(got) != len(want) {
		t.Errorf("%d files, want %d", len(got), len(want))
	}
}

// TestNoCardVerifiersRefuse: the build reads each card it signs as a
// verifier does, and signs none a verifier would refuse (here, member
// names that differ only in letter case, which the manifest checks too).
func TestNoCardVerifiersRefuse(t *testing.T) {
	m := loadExample(t)
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		t.Fatal(err)
	}
	signers := testSigners(t, m, ks, "ed25519")
	if _, err := decodedCard(map[string]any{}, []byte(`{"name":"A","securitySchemes":{"Key":{},"key":{}}}`)); err == nil || !strings.Contains(err.Error(), "differ only in letter case") {
		t.Fatalf("signed a card verifiers refuse: %v", err)
	}
	v1 := &card.V1{Name: "A", SecuritySchemes: map[string]card.SecuritySchemeV1{"Key": {}, "key": {}}}
	unsigned, err := card.Compact(v1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodedCard(v1, unsigned); err == nil || !strings.Contains(err.Error(), "differ only in letter case") {
		t.Fatalf("signed a card verifiers refuse: %v", err)
	}
	doc, err := decodedCard(map[string]any{}, []byte(`{"name":"A"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := signaturesOf(doc, signers, true); err != nil {
		t.Fatal(err)
	}
}
