package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/prereq"
	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v3"
)

// action is the part of action.yml these tests read.
type action struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Default  string `yaml:"default"`
		Required bool   `yaml:"required"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) (*action, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return &a, string(data)
}

// TestActionMetadata checks what matters in action.yml: a composite action
// with the inputs manifest, output and verify and none that could carry
// the key; inputs reach scripts only through env (never ${{ }} pasted
// into a script, which would let an input run commands); agentcards is
// built from the action's own checkout; the site is verified unless the
// input says not to; the attestation subjects come from the one script
// the workflows use too.
func TestActionMetadata(t *testing.T) {
	a, raw := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	var inputs []string
	for name := range a.Inputs {
		inputs = append(inputs, name)
		if regexp.MustCompile(`(?i)key|secret|token|password|pem`).MatchString(name) {
			t.Errorf("input %q could carry a credential: inputs are printed in logs", name)
		}
	}
	slices.Sort(inputs)
	if !slices.Equal(inputs, []string{"manifest", "output", "verify"}) {
		t.Errorf("inputs %v", inputs)
	}
	// output: empty, so that the manifest's site.output is kept.
	if a.Inputs["manifest"].Default != "agents.toml" || a.Inputs["output"].Default != "" || a.Inputs["verify"].Default != "true" {
		t.Errorf("defaults %+v", a.Inputs)
	}
	for _, o := range []string{"output", "private-output", "attest-subjects"} {
		if a.Outputs[o].Value == "" {
			t.Errorf("no output %s", o)
		}
	}
	if strings.Contains(raw, "secrets.") {
		t.Error("the action reads a secret itself; the caller's env gives the key")
	}
	setup, gomod, cache, install, build, verify, subjects := -1, -1, -1, -1, -1, -1, -1
	for i, s := range a.Runs.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %d (%s) pastes an expression into its script: %q", i, s.Name, s.Run)
		}
		if s.Run != "" && s.Shell != "bash" {
			t.Errorf("step %d (%s): shell %q, want bash", i, s.Name, s.Shell)
		}
		for k, v := range s.Env {
			if strings.Contains(v, "secrets.") {
				t.Errorf("step %d sets %s from a secret itself", i, k)
			}
		}
		// The caller's env reaches every step: all but the build blank
		// the key.
		isBuild := s.ID == "build"
		if !isBuild && regexp.MustCompile(`\bbuild -manifest\b`).MatchString(s.Run) {
			t.Errorf("step %d (%s) builds, and is not the step build", i, s.Name)
		}
		if key, ok := s.Env["AGENTCARDS_SIGNING_KEY"]; isBuild == (ok && key == "") {
			t.Errorf("step %d (%s%s): AGENTCARDS_SIGNING_KEY env %q set=%v; only the build may see the key", i, s.Name, s.Uses, key, ok)
		}
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			setup = i
			if s.With["go-version-file"] != "${{ github.action_path }}/go.mod" || s.With["cache"] != false {
				t.Errorf("setup-go reads %v, want the action's own go.mod, no cache (setup-go hashes only workspace files)", s.With)
			}
		case s.ID == "gomod":
			gomod = i
			for _, want := range []string{`sha256sum "$GITHUB_ACTION_PATH/go.sum"`, "$RUNNER_OS", "$RUNNER_ARCH", "$(go env GOVERSION)", `path=$(go env GOMODCACHE)`} {
				if !strings.Contains(s.Run, want) {
					t.Errorf("the module cache's key and path step has no %s: %q", want, s.Run)
				}
			}
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			cache = i
			// The module cache alone (GOCACHE's compiled packages cannot
			// be checked), under the exact key: no restore-keys, which
			// would restore a cache made for another go.sum.
			if len(s.With) != 2 || s.With["path"] != "${{ steps.gomod.outputs.path }}" || s.With["key"] != "${{ steps.gomod.outputs.key }}" {
				t.Errorf("actions/cache %v, want the module cache at the gomod step's key, nothing else", s.With)
			}
		case strings.Contains(s.Run, "go build") && strings.Contains(s.Run, `cd "$GITHUB_ACTION_PATH"`):
			install = i
			v, b := strings.Index(s.Run, "\ngo mod verify\n"), strings.Index(s.Run, "\ngo build -trimpath ")
			if v < 0 || b < v || s.Env["GOFLAGS"] != "-mod=readonly" {
				t.Errorf("the install step does not run go mod verify, then go build -trimpath, with -mod=readonly: %v %q", s.Env, s.Run)
			}
		case isBuild:
			build = i
			if !strings.Contains(s.Run, `args=(build -manifest "$MANIFEST")`) || !strings.Contains(s.Run, `/agentcards" "${args[@]}"`) {
				t.Errorf("build step: %q", s.Run)
			}
			if s.Env["MANIFEST"] != "${{ inputs.manifest }}" || s.Env["OUTPUT"] != "${{ inputs.output }}" {
				t.Errorf("build step env %v", s.Env)
			}
		case strings.Contains(s.Run, `/agentcards" verify "$OUTPUT"`):
			verify = i
			if s.Env["VERIFY"] != "${{ inputs.verify }}" || !strings.Contains(s.Run, `verify -jwks "$OUTPUT"`) || !strings.Contains(s.Run, "false)") {
				t.Errorf("verify step: %v %q", s.Env, s.Run)
			}
		case strings.Contains(s.Run, `bash "$GITHUB_ACTION_PATH/.github/scripts/attest-subjects.sh" "$OUTPUT"`):
			subjects = i
		}
	}
	if !(setup >= 0 && setup < gomod && gomod < cache && cache < install && install < build && build < verify && verify < subjects) {
		t.Errorf("steps: setup-go %d, cache key %d, cache %d, install %d, build %d, verify %d, subjects %d", setup, gomod, cache, install, build, verify, subjects)
	}
}

// publishingDoc is the docs page of the user's workflows ("Publishing from
// your own repository"), which the README once held.
var publishingDoc = filepath.Join("..", "..", "site", "docs", "publishing.md")

// readmeWorkflows extracts from site/docs/publishing.md the user's workflow
// and the CDN variant, with that variant's upload step and deploy job put
// in place of the Pages upload and deploy job.
func readmeWorkflows(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(publishingDoc)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) != 2 || !strings.Contains(blocks[0], "uses: agentcards/agentcards@") || !strings.Contains(blocks[1], "cloudflare/wrangler-action@") {
		t.Fatalf("%s should hold two yaml blocks, the user's workflow and its CDN variant; found %d", publishingDoc, len(blocks))
	}
	pages := blocks[0]
	cut := strings.Index(pages, "      - uses: actions/upload-pages-artifact@")
	if cut < 0 {
		t.Fatal("the README workflow has no upload-pages-artifact step")
	}
	return map[string]string{"pages": pages, "cdn": pages[:cut] + blocks[1]}
}

// lintWorkflow runs actionlint, with shellcheck on the scripts, on a
// workflow in a project holding this repository's action.yml, with
// agentcards/agentcards@... read as that action (uses: ./), so that its
// inputs and outputs are checked.
func lintWorkflow(t *testing.T, name, content string) []*actionlint.Error {
	t.Helper()
	dir := t.TempDir()
	meta, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "action.yml"), meta, 0o644); err != nil {
		t.Fatal(err)
	}
	wf := filepath.Join(dir, ".github", "workflows", name+".yml")
	if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
		t.Fatal(err)
	}
	local := regexp.MustCompile(`uses: agentcards/agentcards@\S+`).ReplaceAllString(content, "uses: ./")
	if err := os.WriteFile(wf, []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{WorkingDir: dir, Shellcheck: shellcheckPath(t)})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := actionlint.NewProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFile(wf, proj)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// TestREADMEWorkflows runs actionlint on the workflows the docs (once the
// README; now site/docs/publishing.md) give
// users, against action.yml, and checks their properties: per-job
// permissions, the attestation's only on the job that attests, the key
// only in the env of the agentcards step, hidden files uploaded.
func TestREADMEWorkflows(t *testing.T) {
	for name, content := range readmeWorkflows(t) {
		t.Run(name, func(t *testing.T) {
			for _, e := range lintWorkflow(t, name, content) {
				t.Errorf("actionlint: %s", e.Error())
			}
			var w workflow
			if err := yaml.Unmarshal([]byte(content), &w); err != nil {
				t.Fatal(err)
			}
			want := map[string]map[string]string{"build": attestPermissions, "deploy": {}}
			if name == "pages" {
				want["deploy"] = map[string]string{"pages": "write", "id-token": "write"}
			}
			checkJobPermissions(t, &w, want)
			steps := w.Jobs["build"].Steps
			ac := w.stepIndex("build", func(uses, _ string) bool { return strings.HasPrefix(uses, "agentcards/agentcards@") })
			attest := w.stepIndex("build", func(uses, _ string) bool { return strings.HasPrefix(uses, "actions/attest@") })
			if ac < 0 || attest < ac {
				t.Fatalf("agentcards step %d, attest %d", ac, attest)
			}
			if strings.Count(content, "secrets.AGENTCARDS_SIGNING_KEY") != 1 || steps[ac].Env["AGENTCARDS_SIGNING_KEY"] != "${{ secrets.AGENTCARDS_SIGNING_KEY }}" {
				t.Error("the signing key does not reach the agentcards step through its env alone")
			}
			if steps[attest].With["subject-path"] != "${{ steps.agentcards.outputs.attest-subjects }}" {
				t.Errorf("attest subjects %v", steps[attest].With)
			}
			upload := "actions/upload-pages-artifact@"
			if name == "cdn" {
				upload = "actions/upload-artifact@"
			}
			ui := w.stepIndex("build", func(uses, _ string) bool { return strings.HasPrefix(uses, upload) })
			if ui < attest {
				t.Fatalf("upload %d, attest %d", ui, attest)
			}
			if up := steps[ui]; up.With["include-hidden-files"] != true || up.With["path"] != "${{ steps.agentcards.outputs.output }}" {
				t.Errorf("upload %v: /.well-known would be lost, or the wrong folder sent", up.With)
			}
			if name == "cdn" {
				// The deploy job: the site artifact, then wrangler on it,
				// in a job with no permissions and no signing key.
				if steps[ui].With["name"] != "site" {
					t.Errorf("the site artifact is named %v", steps[ui].With["name"])
				}
				d := w.Jobs["deploy"].Steps
				if len(d) != 2 || !strings.HasPrefix(d[0].Uses, "actions/download-artifact@") || d[0].With["name"] != "site" || d[0].With["path"] != "site" ||
					!strings.HasPrefix(d[1].Uses, "cloudflare/wrangler-action@") || !strings.HasPrefix(fmt.Sprint(d[1].With["command"]), "pages deploy site ") {
					t.Errorf("the deploy job should download the artifact site into site/, and deploy that: %+v", d)
				}
				if w.Jobs["deploy"].Needs != "build" {
					t.Errorf("deploy needs %v", w.Jobs["deploy"].Needs)
				}
			}
		})
	}
}

// shellcheckPath is the shellcheck that actionlint runs on scripts:
// required under CI=true (.ci/run installs it), optional elsewhere.
func shellcheckPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("shellcheck"); err == nil {
		return p
	}
	prereq.Partly(t, "no shellcheck on PATH: scripts in workflows are not checked", "Debian: apt-get install shellcheck")
	return ""
}

// actionAsWorkflow turns action.yml into a workflow that actionlint can
// check as a whole: actionlint lints workflows only, and for uses: ./ it
// reads the action's inputs and outputs, never its steps. The workflow
// is called (workflow_call) with the action's inputs as its inputs, so
// that inputs.* in the steps is typed; its one job runs the action's
// steps as they are and gives the action's outputs as its own.
func actionAsWorkflow(t *testing.T, meta []byte) string {
	t.Helper()
	var a struct {
		Inputs  map[string]map[string]any `yaml:"inputs"`
		Outputs map[string]map[string]any `yaml:"outputs"`
		Runs    struct {
			Steps []any `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(meta, &a); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]any{}
	for name, in := range a.Inputs {
		def := map[string]any{"type": "string"}
		for _, k := range []string{"description", "required", "default"} {
			if v, ok := in[k]; ok {
				def[k] = v
			}
		}
		inputs[name] = def
	}
	outputs := map[string]any{}
	for name, out := range a.Outputs {
		outputs[name] = out["value"]
	}
	if len(a.Runs.Steps) == 0 {
		t.Fatal("action.yml has no steps")
	}
	wf := map[string]any{
		"name":        "action",
		"on":          map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"permissions": map[string]any{},
		"jobs": map[string]any{"action": map[string]any{
			"runs-on": "ubuntu-latest",
			"outputs": outputs,
			"steps":   a.Runs.Steps,
		}},
	}
	out, err := yaml.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestActionStepsLint runs actionlint, with shellcheck, on action.yml's
// steps (through actionAsWorkflow): expressions, contexts, step ids, the
// uses: steps' inputs, and every bash script.
func TestActionStepsLint(t *testing.T) {
	meta, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lintWorkflow(t, "action", actionAsWorkflow(t, meta)) {
		t.Errorf("actionlint: %s", e.Error())
	}
}

// TestActionStepsLintCanFail: the check above sees the composite steps:
// an input the action does not have, a step id that does not exist and
// (with shellcheck) an unquoted variable are each reported.
func TestActionStepsLintCanFail(t *testing.T) {
	meta, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ old, new, want string }{
		{"${{ inputs.manifest }}", "${{ inputs.manifests }}", "manifests"},
		{"${{ steps.build.outputs.output }}", "${{ steps.bulid.outputs.output }}", "bulid"},
	}
	if shellcheckPath(t) != "" {
		cases = append(cases, struct{ old, new, want string }{`"$RUNNER_TEMP/agentcards-bin/agentcards" verify "$OUTPUT"`, `"$RUNNER_TEMP/agentcards-bin/agentcards" verify $OUTPUT`, "SC2086"})
	}
	for _, c := range cases {
		bad := strings.Replace(string(meta), c.old, c.new, 1)
		if bad == string(meta) {
			t.Fatalf("action.yml has no %q", c.old)
		}
		errs := lintWorkflow(t, "action", actionAsWorkflow(t, []byte(bad)))
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Error(), c.want)
		}
		if !found {
			t.Errorf("%s: actionlint did not report %s: %v", c.new, c.want, errs)
		}
	}
}

// TestRepoWorkflowsLint runs actionlint, with shellcheck, on this
// repository's workflows (as .ci/run does with the actionlint command).
func TestRepoWorkflowsLint(t *testing.T) {
	for _, name := range []string{"publish", "cdn", "ci"} {
		data, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", name+".yml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range lintWorkflow(t, name, string(data)) {
			t.Errorf("%s.yml: actionlint: %s", name, e.Error())
		}
	}
}

// TestShellScripts runs shellcheck on the repository's own shell scripts:
// .ci/run and the attestation subjects script the workflows and the
// action run.
func TestShellScripts(t *testing.T) {
	sc := shellcheckPath(t)
	if sc == "" {
		t.Skip("no shellcheck")
	}
	root := filepath.Join("..", "..")
	cmd := exec.Command(sc, "--shell=bash", filepath.Join(root, ".ci", "run"), filepath.Join(root, ".github", "scripts", "attest-subjects.sh"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

// TestREADMEWorkflowLintCanFail: the actionlint check above reads the
// action's metadata: an input the action does not have is reported.
func TestREADMEWorkflowLintCanFail(t *testing.T) {
	pages := readmeWorkflows(t)["pages"]
	bad := strings.Replace(pages, "        env:\n          AGENTCARDS_SIGNING_KEY", "        with:\n          manifests: agents.toml\n        env:\n          AGENTCARDS_SIGNING_KEY", 1)
	if bad == pages {
		t.Fatal("could not add an input")
	}
	errs := lintWorkflow(t, "bad", bad)
	found := false
	for _, e := range errs {
		found = found || strings.Contains(e.Message, "manifests")
	}
	if !found {
		t.Errorf("actionlint did not report the unknown input manifests: %v", errs)
	}
}

// TestAttestSubjects runs .github/scripts/attest-subjects.sh: the globs
// that match, and sha256sums.txt; past 1024 subjects, the root's
// .well-known/*.json (so that the root card still verifies with gh
// attestation verify) and sha256sums.txt; a folder without it is refused.
func TestAttestSubjects(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", ".github", "scripts", "attest-subjects.sh"))
	run := func(dir string) (string, error) {
		var out, errb bytes.Buffer
		cmd := exec.Command("bash", script, dir)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if err != nil {
			err = fmt.Errorf("%v: %s", err, errb.String())
		}
		return out.String(), err
	}
	site := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(site, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := run(site); err == nil {
		t.Error("a folder without sha256sums.txt was accepted")
	}
	for _, rel := range []string{"sha256sums.txt", ".well-known/agent-card.json", ".well-known/agent.json", ".well-known/jwks.json", ".well-known/ai-catalog.json", "agents/a/.well-known/agent-card.json", "index.html"} {
		write(rel)
	}
	got, err := run(site)
	if err != nil {
		t.Fatal(err)
	}
	want := site + "/.well-known/*.json\n" + site + "/agents/*/.well-known/*.json\n" + site + "/sha256sums.txt\n"
	if got != want {
		t.Errorf("small site:\n got %q\nwant %q", got, want)
	}
	// 4 root files, sha256sums.txt, 1 + 1018 per-agent cards: 1024.
	for i := range 1018 {
		write(fmt.Sprintf("agents/a%d/.well-known/agent-card.json", i))
	}
	if got, _ := run(site); got != want {
		t.Errorf("1024 subjects:\n got %q\nwant %q", got, want)
	}
	write("mcp/m/server-card.json")
	if got, _ := run(site); got != site+"/.well-known/*.json\n"+site+"/sha256sums.txt\n" {
		t.Errorf("1025 subjects: %q, want the root's cards, JWKS and catalog, and sha256sums.txt", got)
	}
	// Past the limit with no root card (a site of agents' folders alone):
	// sha256sums.txt alone.
	for _, rel := range []string{"agent-card.json", "agent.json", "jwks.json", "ai-catalog.json"} {
		if err := os.Remove(filepath.Join(site, ".well-known", rel)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		write(fmt.Sprintf("agents/b%d/.well-known/agent-card.json", i))
	}
	if got, _ := run(site); got != site+"/sha256sums.txt\n" {
		t.Errorf("1025 subjects, no root card: %q, want sha256sums.txt alone", got)
	}
}

// TestActionRunsInAFreshRepository runs action.yml's scripts, in order, the
// way the runner does (bash -e -o pipefail, env from the inputs' defaults
// and earlier steps' outputs), in a repository holding only agents.toml
// (no keys/ yet), with the key in the env as the README's workflow passes
// it: the site is built and signed, its JWKS holds the key's public half,
// it is verified, and the subjects to attest are chosen.
func TestActionRunsInAFreshRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("builds agentcards")
	}
	a, _ := readAction(t)
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	runner := t.TempDir()
	bin := filepath.Join(runner, "agentcards-bin", "agentcards")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "agentcards")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	repo := t.TempDir()
	manifest := `[site]
baseUrl = "https://agents.example.test"
output = "dist"

[[agents]]
id = "echo"
name = "Echo"
description = "Repeats back whatever text it is sent, for testing A2A clients."
version = "1.0.0"

[[agents.supportedInterfaces]]
url = "https://echo.example.test/a2a"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"

[[agents.skills]]
id = "echo"
name = "Echo"
description = "Sends the message it was given straight back."
tags = ["demo"]
`
	pem, err := os.ReadFile(filepath.Join(root, "testdata", "keys", "test-ed25519.pem"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(repo, "agents.toml"), []byte(manifest), 0o644)

	outputs := map[string]map[string]string{}
	expr := regexp.MustCompile(`\$\{\{ *(inputs|steps)\.([a-z-]+)(?:\.outputs\.([a-z-]+))? *\}\}`)
	for i, s := range a.Runs.Steps {
		if s.Run == "" || strings.Contains(s.Run, "go build") {
			continue // setup-go, and the install step done above
		}
		ghOut := filepath.Join(runner, fmt.Sprintf("output-%d", i))
		os.WriteFile(ghOut, nil, 0o644)
		env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "CI=true",
			"RUNNER_TEMP=" + runner, "GITHUB_OUTPUT=" + ghOut, "GITHUB_ACTION_PATH=" + root, "GITHUB_WORKSPACE=" + repo,
			"AGENTCARDS_SIGNING_KEY=" + string(pem)}
		for k, v := range s.Env {
			v = expr.ReplaceAllStringFunc(v, func(m string) string {
				p := expr.FindStringSubmatch(m)
				if p[1] == "inputs" {
					return a.Inputs[p[2]].Default
				}
				return outputs[p[2]][p[3]]
			})
			env = append(env, k+"="+v)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("step %d (%s): %v\n%s", i, s.Name, err, out)
		}
		outputs[s.ID] = parseOutput(t, ghOut)
	}
	// The output input is empty: the site goes where the manifest says.
	jwks, err := os.ReadFile(filepath.Join(repo, "dist", ".well-known", "jwks.json"))
	if err != nil || !bytes.Contains(jwks, []byte(`"kid": "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM"`)) {
		t.Errorf("jwks.json: %v\n%s", err, jwks)
	}
	if got := outputs["build"]["output"]; got != "dist" {
		t.Errorf("output %q, want the manifest's site.output, dist", got)
	}
	if _, err := os.Stat(filepath.Join(repo, "public")); !os.IsNotExist(err) {
		t.Errorf("public/ was built too: %v", err)
	}
	subjects := outputs["subjects"]["paths"]
	if subjects != "dist/.well-known/*.json\ndist/agents/*/.well-known/*.json\ndist/sha256sums.txt" {
		t.Errorf("attest-subjects %q", subjects)
	}
	sums, err := os.ReadFile(filepath.Join(repo, "dist", "sha256sums.txt"))
	if err != nil || !bytes.Contains(sums, []byte("  .well-known/agent-card.json\n")) {
		t.Errorf("sha256sums.txt: %v\n%s", err, sums)
	}
}

// parseOutput reads a $GITHUB_OUTPUT file: name=value lines and
// name<<DELIMITER blocks.
func parseOutput(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var v []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				v = append(v, lines[i])
			}
			out[name] = strings.Join(v, "\n")
		} else if name, v, ok := strings.Cut(lines[i], "="); ok {
			out[name] = v
		}
	}
	return out
}

// runBuildStep runs action.yml's build step in a workspace, with a
// stand-in for agentcards that records its arguments and prints the
// "built DIR: ..." line of a build into built (the "built" line is left
// out when built is empty). It returns the step's combined output, its
// $GITHUB_OUTPUT and the arguments agentcards was given.
func runBuildStep(t *testing.T, output, built string) (string, map[string]string, string, error) {
	t.Helper()
	a, _ := readAction(t)
	var script string
	for _, s := range a.Runs.Steps {
		if s.ID == "build" {
			script = s.Run
		}
	}
	ws := t.TempDir()
	runner := t.TempDir()
	fake := filepath.Join(runner, "agentcards-bin", "agentcards")
	if err := os.MkdirAll(filepath.Dir(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	stub := "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" > \"$RUNNER_TEMP/args\"\n"
	if built != "" {
		stub += "echo \"built $FAKE_BUILT: 1 agent, 12 files, signed by k (EdDSA)\"\n"
	}
	if err := os.WriteFile(fake, []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	built = strings.ReplaceAll(built, "$WS", ws)
	ghOut := filepath.Join(runner, "out")
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = ws
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "OUTPUT=" + output, "MANIFEST=agents.toml", "RUNNER_TEMP=" + runner,
		"GITHUB_OUTPUT=" + ghOut, "GITHUB_WORKSPACE=" + ws, "FAKE_BUILT=" + built}
	msg, err := cmd.CombinedOutput()
	var outputs map[string]string
	if _, serr := os.Stat(ghOut); serr == nil {
		outputs = parseOutput(t, ghOut)
	}
	args, _ := os.ReadFile(filepath.Join(runner, "args"))
	return string(msg), outputs, strings.TrimSpace(string(args)), err
}

// TestActionRefusesOddOutputs: the output folder becomes globs (which
// actions/attest splits at commas, and whose @actions/glob refuses '.'
// and '..' segments) and outputs; the build step refuses a name that is
// not plain before building anything.
func TestActionRefusesOddOutputs(t *testing.T) {
	for _, out := range []string{"my site,v2", "public\noutput=private", "-rf", "!public", "public/*",
		"../site", "a/../public", "public/./x", ".", "..", "./", "public/..", "/etc/site", "a//b", "public/"} {
		msg, _, args, err := runBuildStep(t, out, "public")
		if err == nil || !strings.Contains(msg, "is not a plain folder name") {
			t.Errorf("output %q: %v %s", out, err, msg)
		}
		if args != "" {
			t.Errorf("output %q: agentcards ran (%q)", out, args)
		}
	}
}

// TestActionOutputFolder: the build step passes the output input to the
// build (a leading ./ dropped), or, when it is empty, none, so that the
// manifest's site.output holds; either way the folder it outputs is the
// one the build printed, relative to the workspace, and checked as the
// input is.
func TestActionOutputFolder(t *testing.T) {
	for _, tc := range []struct{ input, built, args, want string }{
		{"", "dist", "build\n-manifest\nagents.toml", "dist"},
		{"", "$WS/site/out", "build\n-manifest\nagents.toml", "site/out"},
		{"public", "$WS/public", "build\n-manifest\nagents.toml\n-out\npublic", "public"},
		{"./public", "$WS/public", "build\n-manifest\nagents.toml\n-out\npublic", "public"},
	} {
		msg, outputs, args, err := runBuildStep(t, tc.input, tc.built)
		if err != nil {
			t.Errorf("output %q, built %q: %v\n%s", tc.input, tc.built, err, msg)
			continue
		}
		if args != tc.args || outputs["output"] != tc.want {
			t.Errorf("output %q, built %q: agentcards %q, output %q; want %q, %q", tc.input, tc.built, args, outputs["output"], tc.args, tc.want)
		}
	}
	// The manifest's site.output, checked after the build.
	for _, built := range []string{"../site", "a/../public", "public/./x", "/elsewhere/site", "$WS", "my site", "public,x"} {
		msg, outputs, _, err := runBuildStep(t, "", built)
		if err == nil || !strings.Contains(msg, "is not a plain folder name") || outputs["output"] != "" {
			t.Errorf("built %q: %v %q\n%s", built, err, outputs, msg)
		}
	}
	if msg, _, _, err := runBuildStep(t, "", ""); err == nil || !strings.Contains(msg, "did not say which folder") {
		t.Errorf("no built line: %v\n%s", err, msg)
	}
}

// TestActionModuleCacheIsVerified runs action.yml's cache key and install
// steps on a small module (standing in for the action's own) that needs
// one dependency, served by a file proxy, with the module cache restored
// three ways: as the go command left it (the build passes); with a file
// of the dependency changed (go mod verify fails); and as a cache made
// whole from other code for the same version, its recorded hashes
// consistent with it (go mod verify passes, and the build fails on the
// action's go.sum). Nothing poisoned is built.
func TestActionModuleCacheIsVerified(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go builds")
	}
	a, _ := readAction(t)
	var keyStep, install string
	var installEnv map[string]string
	for _, s := range a.Runs.Steps {
		switch {
		case s.ID == "gomod":
			keyStep = s.Run
		case strings.Contains(s.Run, "go mod verify"):
			install, installEnv = s.Run, s.Env
		}
	}
	if keyStep == "" || install == "" {
		t.Fatal("no cache key step, or no install step running go mod verify")
	}
	tmp := t.TempDir()
	proxy := func(name, body string) string {
		dir := filepath.Join(tmp, name, "example.com", "dep", "@v")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		mod := "module example.com/dep\n\ngo 1.21\n"
		var zb bytes.Buffer
		zw := zip.NewWriter(&zb)
		for name, content := range map[string]string{"go.mod": mod, "dep.go": "package dep\n\nfunc Hello() string { return \"" + body + "\" }\n"} {
			w, err := zw.Create("example.com/dep@v1.0.0/" + name)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(w, content)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		for name, content := range map[string]string{"list": "v1.0.0\n", "v1.0.0.info": `{"Version":"v1.0.0"}`, "v1.0.0.mod": mod, "v1.0.0.zip": zb.String()} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return "file://" + filepath.ToSlash(filepath.Join(tmp, name))
	}
	good, evil := proxy("proxy-good", "hello"), proxy("proxy-evil", "pwned")

	// The stand-in for the action's checkout: go.mod, go.sum (written by
	// go mod tidy from the good proxy), cmd/agentcards.
	action := filepath.Join(tmp, "action")
	os.MkdirAll(filepath.Join(action, "cmd", "agentcards"), 0o755)
	os.WriteFile(filepath.Join(action, "go.mod"), []byte("module example.com/ac\n\ngo 1.21\n\nrequire example.com/dep v1.0.0\n"), 0o644)
	os.WriteFile(filepath.Join(action, "cmd", "agentcards", "main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/dep\"\n)\n\nfunc main() { fmt.Println(dep.Hello()) }\n"), 0o644)
	goEnv := func(modcache, goproxy string) []string {
		return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "GOCACHE=" + goCacheDir(t),
			"GOMODCACHE=" + modcache, "GOPROXY=" + goproxy, "GOSUMDB=off", "GOTOOLCHAIN=local", "GOWORK=off", "GOENV=off", "GOFLAGS="}
	}
	run := func(dir string, env []string, script string) (string, error) {
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	cacheGood := filepath.Join(tmp, "cache-good")
	if out, err := run(action, goEnv(cacheGood, good), "go mod tidy"); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", tmp).Run() })

	// The key: the action's go.sum, the runner and the Go version.
	ghOut := filepath.Join(tmp, "gomod-output")
	env := append(goEnv(cacheGood, "off"), "GITHUB_ACTION_PATH="+action, "GITHUB_OUTPUT="+ghOut, "RUNNER_OS=Linux", "RUNNER_ARCH=X64")
	if out, err := run(tmp, env, keyStep); err != nil {
		t.Fatalf("cache key step: %v\n%s", err, out)
	}
	sum, _ := os.ReadFile(filepath.Join(action, "go.sum"))
	gomod := parseOutput(t, ghOut)
	if want := fmt.Sprintf("agentcards-gomod-Linux-X64-%s-%x", runtime.Version(), sha256.Sum256(sum)); gomod["key"] != want || gomod["path"] != cacheGood {
		t.Errorf("cache key step: %v, want key %s, path %s", gomod, want, cacheGood)
	}

	installWith := func(modcache string) (string, error) {
		env := append(goEnv(modcache, "off"), "GITHUB_ACTION_PATH="+action, "RUNNER_TEMP="+filepath.Join(tmp, "runner"))
		for k, v := range installEnv {
			env = append(env, k+"="+v)
		}
		os.Remove(filepath.Join(tmp, "runner", "agentcards-bin", "agentcards"))
		return run(tmp, env, install)
	}
	if out, err := installWith(cacheGood); err != nil {
		t.Fatalf("install from the cache as downloaded: %v\n%s", err, out)
	}

	// A cache with one file of the dependency changed.
	tampered := filepath.Join(tmp, "cache-tampered")
	if out, err := exec.Command("cp", "-a", cacheGood, tampered).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	src := filepath.Join(tampered, "example.com", "dep@v1.0.0", "dep.go")
	os.Chmod(filepath.Dir(src), 0o755)
	os.Chmod(src, 0o644)
	if err := os.WriteFile(src, []byte("package dep\n\nfunc Hello() string { return \"pwned\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := installWith(tampered)
	if err == nil || !strings.Contains(out, "dir has been modified") {
		t.Errorf("install from a tampered cache: %v\n%s", err, out)
	}

	// A cache made whole from other code for the same version.
	forged := filepath.Join(tmp, "cache-forged")
	if out, err := run(tmp, append(goEnv(forged, evil), "GOFLAGS=-mod=mod"), "go mod download example.com/dep@v1.0.0"); err != nil {
		t.Fatalf("forging a cache: %v\n%s", err, out)
	}
	out, err = installWith(forged)
	if err == nil || !strings.Contains(out, "all modules verified") || !strings.Contains(out, "checksum mismatch") {
		t.Errorf("install from a forged cache: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(tmp, "runner", "agentcards-bin", "agentcards")); err == nil {
		t.Error("a binary was built from a poisoned cache")
	}
}

// goCacheDir is the build cache the tests' go commands share with this
// one, so that the standard library is not compiled again.
func goCacheDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
