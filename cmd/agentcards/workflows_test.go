package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentcards/agentcards/internal/manifest"
)

// workflow is the part of a GitHub Actions workflow these tests read.
type workflow struct {
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Concurrency struct {
		Group            string `yaml:"group"`
		CancelInProgress bool   `yaml:"cancel-in-progress"`
	} `yaml:"concurrency"`
	Jobs map[string]job `yaml:"jobs"`
}

// job is one job of a workflow.
type job struct {
	Needs       any               `yaml:"needs"`
	Permissions map[string]string `yaml:"permissions"`
	Environment any               `yaml:"environment"`
	Outputs     map[string]string `yaml:"outputs"`
	Steps       []step            `yaml:"steps"`
}

// step is one step of a job.
type step struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]any    `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

// holdsSecrets says whether a job can sign or mint credentials: it may
// ask for an OIDC token (id-token: write), or a step reads a secret.
func (j job) holdsSecrets() bool {
	if j.Permissions["id-token"] == "write" {
		return true
	}
	for _, s := range j.Steps {
		for _, v := range s.Env {
			if strings.Contains(v, "secrets.") {
				return true
			}
		}
		for _, v := range s.With {
			if v, ok := v.(string); ok && strings.Contains(v, "secrets.") {
				return true
			}
		}
	}
	return false
}

func readWorkflow(t *testing.T, name string) (*workflow, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", name))
	if err != nil {
		t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &w, string(data)
}

// stepIndex is the position of the first step of job matching pred, or -1.
func (w *workflow) stepIndex(job string, pred func(uses, run string) bool) int {
	for i, s := range w.Jobs[job].Steps {
		if pred(s.Uses, s.Run) {
			return i
		}
	}
	return -1
}

// TestPublishWorkflow checks what matters in publish.yml: hidden files are
// uploaded, permissions are minimal, the signing key reaches the signing
// step only (through env), the site is verified before upload and after
// deploy, and deploys are never cancelled mid-way.
func TestPublishWorkflow(t *testing.T) {
	w, raw := readWorkflow(t, "publish.yml")
	raw = withoutComments(raw)
	if _, ok := w.On["push"]; !ok {
		t.Error("not run on push")
	}
	if _, ok := w.On["workflow_dispatch"]; !ok {
		t.Error("cannot be run by hand")
	}
	checkJobPermissions(t, w, map[string]map[string]string{
		"build":       attestPermissions,
		"deploy":      {"pages": "write", "id-token": "write"},
		"verify-live": {"contents": "read"},
	})
	checkAttest(t, w, "build", "agentcards verify public", "actions/upload-pages-artifact@")
	if w.Concurrency.Group != "pages" || w.Concurrency.CancelInProgress {
		t.Errorf("concurrency %+v", w.Concurrency)
	}
	// The secret: exactly one mention, in the env of the build step.
	if n := strings.Count(raw, "secrets."); n != 1 {
		t.Errorf("secrets referenced %d times, want once", n)
	}
	build := w.Jobs["build"]
	signing := w.stepIndex("build", func(_, run string) bool { return strings.Contains(run, "agentcards build") })
	if signing < 0 {
		t.Fatal("no build step")
	}
	for i, s := range build.Steps {
		_, has := s.Env["AGENTCARDS_SIGNING_KEY"]
		if has != (i == signing) {
			t.Errorf("step %d (%s%s): AGENTCARDS_SIGNING_KEY in env = %v", i, s.Name, s.Uses, has)
		}
		if strings.Contains(s.Run, "secrets.") || strings.Contains(s.Run, "SIGNING_KEY") {
			t.Errorf("step %d puts the key on a command line: %q", i, s.Run)
		}
	}
	if v := build.Steps[signing].Env["AGENTCARDS_SIGNING_KEY"]; v != "${{ secrets.AGENTCARDS_SIGNING_KEY }}" {
		t.Errorf("signing step env: %q", v)
	}
	verify := w.stepIndex("build", func(_, run string) bool { return strings.Contains(run, "agentcards verify public") })
	upload := w.stepIndex("build", func(uses, _ string) bool { return strings.HasPrefix(uses, "actions/upload-pages-artifact@") })
	if verify < 0 || upload < 0 || !(signing < verify && verify < upload) {
		t.Errorf("order: build %d, verify %d, upload %d", signing, verify, upload)
	}
	up := build.Steps[upload]
	if up.Uses != "actions/upload-pages-artifact@v5" || up.With["include-hidden-files"] != true || up.With["path"] != "public" {
		t.Errorf("upload step %s %v: /.well-known would be lost", up.Uses, up.With)
	}
	if w.stepIndex("build", func(uses, _ string) bool { return strings.HasPrefix(uses, "actions/configure-pages@") }) < 0 {
		t.Error("no configure-pages")
	}
	if w.stepIndex("deploy", func(uses, _ string) bool { return strings.HasPrefix(uses, "actions/deploy-pages@") }) < 0 {
		t.Error("no deploy-pages")
	}
	live := w.Jobs["verify-live"]
	needs, _ := live.Needs.([]any)
	if len(needs) != 2 || needs[1] != "deploy" || !strings.Contains(raw, "CARD_SHA256") || w.stepIndex("verify-live", func(_, run string) bool {
		return strings.Contains(run, "verify") && strings.Contains(run, "for attempt") && strings.Contains(run, "exit 1")
	}) < 0 {
		t.Error("no retrying verify of the live site after deploy")
	}
	for job := range w.Jobs {
		for _, s := range w.Jobs[job].Steps {
			if s.Uses != "" && !strings.Contains(s.Uses, "@v") {
				t.Errorf("%s: %s is not pinned to a version", job, s.Uses)
			}
		}
	}
}

func TestCDNWorkflow(t *testing.T) {
	w, raw := readWorkflow(t, "cdn.yml")
	raw = withoutComments(raw)
	checkJobPermissions(t, w, map[string]map[string]string{"deploy": attestPermissions})
	checkAttest(t, w, "deploy", "agentcards verify public", "cloudflare/wrangler-action@")
	signing := w.stepIndex("deploy", func(_, run string) bool { return strings.Contains(run, "agentcards build") })
	verify := w.stepIndex("deploy", func(_, run string) bool { return strings.Contains(run, "agentcards verify public") })
	deploy := w.stepIndex("deploy", func(uses, _ string) bool { return strings.HasPrefix(uses, "cloudflare/wrangler-action@") })
	live := w.stepIndex("deploy", func(_, run string) bool { return strings.Contains(run, "for attempt") })
	if !(signing >= 0 && signing < verify && verify < deploy && deploy < live) {
		t.Errorf("order: build %d, verify %d, deploy %d, live verify %d", signing, verify, deploy, live)
	}
	for i, s := range w.Jobs["deploy"].Steps {
		if _, has := s.Env["AGENTCARDS_SIGNING_KEY"]; has != (i == signing) {
			t.Errorf("step %d: signing key in env = %v", i, has)
		}
	}
	if strings.Count(raw, "secrets.AGENTCARDS_SIGNING_KEY") != 1 {
		t.Error("signing key referenced more than once")
	}
}

// TestExtendedCardsNeverPublished: in both publishing workflows the
// private output (extended cards) never reaches what is deployed. The
// site upload takes public/ only, which the example manifest's private
// output is not inside; no step copies private/ anywhere; the extended
// cards are verified and leave only as a workflow artifact kept one day,
// which no deploying job downloads.
func TestExtendedCardsNeverPublished(t *testing.T) {
	m, err := manifest.Load(filepath.Join("..", "..", "agents.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(m.OutputDir(), m.PrivateDir()); err != nil || !strings.HasPrefix(rel, "..") {
		t.Fatalf("the example's private output %s is inside its output %s", m.PrivateDir(), m.OutputDir())
	}
	copies := regexp.MustCompile(`\b(cp|mv|rsync|ln|tar|zip|install)\b[^\n]*\bprivate\b|\bprivate\b[^\n]*\b(public|_site)\b`)
	for _, tc := range []struct{ file, job, deploy string }{
		{"publish.yml", "build", "actions/upload-pages-artifact@"},
		{"cdn.yml", "deploy", "cloudflare/wrangler-action@"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			w, _ := readWorkflow(t, tc.file)
			steps := w.Jobs[tc.job].Steps
			deploy := w.stepIndex(tc.job, func(uses, _ string) bool { return strings.HasPrefix(uses, tc.deploy) })
			if deploy < 0 {
				t.Fatal("no deploy step")
			}
			d := steps[deploy]
			if path, ok := d.With["path"]; ok && path != "public" {
				t.Errorf("the site upload takes %v, want public only", path)
			}
			if cmd, ok := d.With["command"].(string); ok && !strings.HasPrefix(cmd, "pages deploy public ") {
				t.Errorf("the CDN deploy is %q, want public only", cmd)
			}
			for job, j := range w.Jobs {
				for i, s := range j.Steps {
					if copies.MatchString(s.Run) {
						t.Errorf("%s step %d copies the private output: %q", job, i, s.Run)
					}
					if strings.HasPrefix(s.Uses, "actions/download-artifact@") {
						t.Errorf("%s step %d downloads an artifact into a publishing workflow", job, i)
					}
					if strings.HasPrefix(s.Uses, "actions/upload-pages-artifact@") && s.With["path"] != "public" {
						t.Errorf("%s step %d uploads %v to Pages", job, i, s.With["path"])
					}
				}
			}
			verify := w.stepIndex(tc.job, func(_, run string) bool {
				return strings.Contains(run, "agentcards verify -jwks public private/agents/")
			})
			upload := w.stepIndex(tc.job, func(uses, _ string) bool { return strings.HasPrefix(uses, "actions/upload-artifact@") })
			if verify < 0 || upload < 0 || verify > upload {
				t.Fatalf("the extended cards are not verified, then uploaded as an artifact (verify %d, upload %d)", verify, upload)
			}
			if !strings.Contains(steps[upload].If, "github.event.repository.private") {
				t.Errorf("the extended cards are uploaded from a public repository too (if %q): anyone signed in can download its artifacts", steps[upload].If)
			}
			up := steps[upload]
			if up.With["name"] != "extended-cards" || up.With["path"] != "private" || up.With["retention-days"] != 1 {
				t.Errorf("extended cards artifact: %v, want name extended-cards, path private, kept 1 day", up.With)
			}
			for _, i := range []int{verify, upload} {
				if !strings.Contains(steps[i].If, "hashFiles('private/agents/**')") {
					t.Errorf("step %d runs when there are no extended cards: if %q", i, steps[i].If)
				}
			}
		})
	}
}

// TestNoGoCacheNextToSecrets: ci.yml runs third-party code (npm install
// scripts, the tests) on every push to main, and setup-go saves the Go
// module and build caches under a key that the publishing workflows would
// restore. A job that holds the signing key or can ask for an OIDC token
// must restore none of that: setup-go caches unless told not to, so each
// of its steps there says cache: false, and no actions/cache step runs
// there. In publish.yml and cdn.yml every job does without, including
// the ones that build the agentcards checking the live site.
func TestNoGoCacheNextToSecrets(t *testing.T) {
	files := map[string]*workflow{}
	for _, name := range []string{"publish.yml", "cdn.yml", "ci.yml"} {
		files[name], _ = readWorkflow(t, name)
	}
	for name, content := range readmeWorkflows(t) {
		var w workflow
		if err := yaml.Unmarshal([]byte(content), &w); err != nil {
			t.Fatal(err)
		}
		files["README "+name] = &w
	}
	checked := 0
	for name, w := range files {
		for jobName, j := range w.Jobs {
			if !j.holdsSecrets() && name != "publish.yml" && name != "cdn.yml" {
				continue
			}
			checked++
			for i, s := range j.Steps {
				if strings.HasPrefix(s.Uses, "actions/setup-go@") && s.With["cache"] != false {
					t.Errorf("%s job %s step %d: setup-go without cache: false restores what ci.yml saved", name, jobName, i)
				}
				if strings.HasPrefix(s.Uses, "actions/cache@") || strings.HasPrefix(s.Uses, "actions/cache/") {
					t.Errorf("%s job %s step %d: %s next to the secrets", name, jobName, i, s.Uses)
				}
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d jobs checked", checked)
	}
}

func TestCIWorkflow(t *testing.T) {
	w, raw := readWorkflow(t, "ci.yml")
	raw = withoutComments(raw)
	if _, ok := w.On["pull_request"]; !ok {
		t.Error("not run on pull requests")
	}
	if strings.Contains(raw, "pull_request_target") || strings.Contains(raw, "secrets.") {
		t.Error("ci.yml must use pull_request and no secrets")
	}
	if len(w.Permissions) != 1 || w.Permissions["contents"] != "read" {
		t.Errorf("permissions %v", w.Permissions)
	}
	if w.stepIndex("test", func(_, run string) bool { return strings.Contains(run, ".ci/run") }) < 0 {
		t.Error("ci.yml does not run .ci/run")
	}
}

// withoutComments drops YAML comment lines.
func withoutComments(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// attestPermissions are what the job that attests needs, and only it:
// the OIDC token for the Sigstore certificate, writing the attestation and
// its storage record.
var attestPermissions = map[string]string{"contents": "read", "id-token": "write", "attestations": "write", "artifact-metadata": "write"}

// checkJobPermissions checks that the workflow grants nothing and each job
// exactly what want says.
func checkJobPermissions(t *testing.T, w *workflow, want map[string]map[string]string) {
	t.Helper()
	if len(w.Permissions) != 0 {
		t.Errorf("workflow-level permissions %v, want none (per job)", w.Permissions)
	}
	for job, j := range w.Jobs {
		if !maps.Equal(j.Permissions, want[job]) {
			t.Errorf("job %s: permissions %v, want %v", job, j.Permissions, want[job])
		}
	}
}

// checkAttest checks that job attests with actions/attest@v4 the subjects
// attest-subjects.sh chose for public/, after the verify step and before
// the site leaves (publish).
func checkAttest(t *testing.T, w *workflow, job, verifyRun, publish string) {
	t.Helper()
	verify := w.stepIndex(job, func(_, run string) bool { return strings.Contains(run, verifyRun) })
	subjects := w.stepIndex(job, func(_, run string) bool {
		return strings.Contains(run, ".github/scripts/attest-subjects.sh public") && strings.Contains(run, "GITHUB_OUTPUT")
	})
	attest := w.stepIndex(job, func(uses, _ string) bool { return strings.HasPrefix(uses, "actions/attest@") })
	out := w.stepIndex(job, func(uses, _ string) bool { return strings.HasPrefix(uses, publish) })
	if !(verify >= 0 && verify < subjects && subjects < attest && attest < out) {
		t.Fatalf("order: verify %d, choose subjects %d, attest %d, publish %d", verify, subjects, attest, out)
	}
	a := w.Jobs[job].Steps[attest]
	if a.Uses != "actions/attest@v4" || a.With["subject-path"] != "${{ steps.subjects.outputs.paths }}" {
		t.Errorf("attest step %s %v", a.Uses, a.With)
	}
}

// TestActionPinsAgree: every file that names an action (the workflows,
// action.yml, the README's workflows and prose) names the same major
// version of it, so that an update (Dependabot's, or by hand) reaches
// them all; and each is a major version tag.
func TestActionPinsAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", ".github", "workflows", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no workflows", err)
	}
	files = append(files, filepath.Join("..", "..", "action.yml"), filepath.Join("..", "..", "README.md"))
	pin := regexp.MustCompile(`\b((?:actions|cloudflare)/[A-Za-z0-9_.-]+)@(\S+?)[` + "`" + `\s,)]`)
	seen := map[string]map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range pin.FindAllStringSubmatch(string(data), -1) {
			if seen[m[1]] == nil {
				seen[m[1]] = map[string][]string{}
			}
			seen[m[1]][m[2]] = append(seen[m[1]][m[2]], filepath.Base(f))
		}
	}
	for _, a := range []string{"actions/checkout", "actions/setup-go", "actions/attest", "actions/upload-pages-artifact", "actions/deploy-pages", "cloudflare/wrangler-action"} {
		if len(seen[a]) == 0 {
			t.Errorf("%s is named nowhere", a)
		}
	}
	for a, refs := range seen {
		if len(refs) != 1 {
			t.Errorf("%s is pinned to several versions: %v", a, refs)
		}
		for ref := range refs {
			if !regexp.MustCompile(`^v[0-9]+$`).MatchString(ref) {
				t.Errorf("%s@%s: pin a major version tag (or change this test to a full commit SHA everywhere)", a, ref)
			}
		}
	}
}
