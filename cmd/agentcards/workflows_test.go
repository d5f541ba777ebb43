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

// step is one step of a job, or of a composite action.
type step struct {
	ID               string            `yaml:"id,omitempty"`
	Name             string            `yaml:"name,omitempty"`
	If               string            `yaml:"if,omitempty"`
	Uses             string            `yaml:"uses,omitempty"`
	Run              string            `yaml:"run,omitempty"`
	Shell            string            `yaml:"shell,omitempty"`
	WorkingDirectory string            `yaml:"working-directory,omitempty"`
	With             map[string]any    `yaml:"with,omitempty"`
	Env              map[string]string `yaml:"env,omitempty"`
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
	checkAttest(t, w, "build", "agentcards verify public", uses("actions/upload-pages-artifact@"))
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
	checkLiveVerify(t, w)
	for job := range w.Jobs {
		for _, s := range w.Jobs[job].Steps {
			if s.Uses != "" && !strings.Contains(s.Uses, "@v") {
				t.Errorf("%s: %s is not pinned to a version", job, s.Uses)
			}
		}
	}
}

// TestCDNWorkflow checks what matters in cdn.yml: the build job signs,
// verifies, attests and hands public/ on as the artifact "site" (hidden
// files included); Cloudflare's action runs in a job of its own, which has
// no permissions (so no OIDC token) and no signing key, and deploys what
// it downloaded; the live site is then checked to serve the root card this
// run built.
func TestCDNWorkflow(t *testing.T) {
	w, raw := readWorkflow(t, "cdn.yml")
	raw = withoutComments(raw)
	checkJobPermissions(t, w, map[string]map[string]string{
		"build":       attestPermissions,
		"deploy":      {},
		"verify-live": {"contents": "read"},
	})
	checkAttest(t, w, "build", "agentcards verify public", isSiteUpload)
	signing := w.stepIndex("build", func(_, run string) bool { return strings.Contains(run, "agentcards build") })
	verify := w.stepIndex("build", func(_, run string) bool { return strings.Contains(run, "agentcards verify public") })
	if !(signing >= 0 && signing < verify) {
		t.Errorf("order: build %d, verify %d", signing, verify)
	}
	for job, j := range w.Jobs {
		for i, s := range j.Steps {
			if _, has := s.Env["AGENTCARDS_SIGNING_KEY"]; has != (job == "build" && i == signing) {
				t.Errorf("%s step %d: signing key in env = %v", job, i, has)
			}
		}
	}
	if strings.Count(raw, "secrets.AGENTCARDS_SIGNING_KEY") != 1 {
		t.Error("signing key referenced more than once")
	}
	if w.stepIndex("build", func(uses, _ string) bool { return strings.HasPrefix(uses, "cloudflare/") }) >= 0 {
		t.Error("Cloudflare's action runs in the job that signs and attests")
	}
	for _, s := range w.Jobs["build"].Steps {
		if isSiteUpload(s) && (s.With["path"] != "public" || s.With["include-hidden-files"] != true || s.If != "") {
			t.Errorf("site upload %v (if %q): public/ whole, hidden files (/.well-known) included, always", s.With, s.If)
		}
	}
	if needs, _ := w.Jobs["deploy"].Needs.(string); needs != "build" {
		t.Errorf("deploy needs %v", w.Jobs["deploy"].Needs)
	}
	steps := w.Jobs["deploy"].Steps
	if len(steps) != 2 || !strings.HasPrefix(steps[0].Uses, "actions/download-artifact@") || !strings.HasPrefix(steps[1].Uses, "cloudflare/wrangler-action@") {
		t.Fatalf("the deploy job should download the site, then run wrangler: %+v", steps)
	}
	if steps[0].With["name"] != "site" || steps[0].With["path"] != "public" {
		t.Errorf("download %v", steps[0].With)
	}
	if cmd, _ := steps[1].With["command"].(string); !strings.HasPrefix(cmd, "pages deploy public ") {
		t.Errorf("wrangler command %q", cmd)
	}
	checkLiveVerify(t, w)
}

// TestExtendedCardsNeverPublished: in both publishing workflows the
// private output (extended cards) never reaches what is deployed. The
// site leaves as public/ only (the Pages upload, or the artifact "site"
// that cdn.yml's deploy job downloads by name, and wrangler deploys),
// which the example manifest's private output is not inside; no step
// copies private/ anywhere; the extended cards are verified and leave
// only as the artifact "extended-cards", kept one day, which no job
// downloads.
func TestExtendedCardsNeverPublished(t *testing.T) {
	m, err := manifest.Load(filepath.Join("..", "..", "agents.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(m.OutputDir(), m.PrivateDir()); err != nil || !strings.HasPrefix(rel, "..") {
		t.Fatalf("the example's private output %s is inside its output %s", m.PrivateDir(), m.OutputDir())
	}
	copies := regexp.MustCompile(`\b(cp|mv|rsync|ln|tar|zip|install)\b[^\n]*\bprivate\b|\bprivate\b[^\n]*\b(public|_site)\b`)
	for _, tc := range []struct {
		file    string
		publish func(step) bool
	}{
		{"publish.yml", uses("actions/upload-pages-artifact@")},
		{"cdn.yml", isSiteUpload},
	} {
		t.Run(tc.file, func(t *testing.T) {
			w, _ := readWorkflow(t, tc.file)
			steps := w.Jobs["build"].Steps
			published := false
			for job, j := range w.Jobs {
				for i, s := range j.Steps {
					if job == "build" && tc.publish(s) {
						published = true
						if s.With["path"] != "public" {
							t.Errorf("the site leaves as %v, want public only", s.With["path"])
						}
					}
					if copies.MatchString(s.Run) {
						t.Errorf("%s step %d copies the private output: %q", job, i, s.Run)
					}
					switch {
					case strings.HasPrefix(s.Uses, "actions/download-artifact@") && s.With["name"] != "site":
						// Without a name it downloads every artifact of
						// the run, the extended cards too.
						t.Errorf("%s step %d downloads %v, want the artifact site alone", job, i, s.With)
					case strings.HasPrefix(s.Uses, "actions/upload-artifact@") && !(s.With["name"] == "site" && s.With["path"] == "public" || s.With["name"] == "extended-cards"):
						t.Errorf("%s step %d uploads %v", job, i, s.With)
					case strings.HasPrefix(s.Uses, "actions/upload-pages-artifact@") && s.With["path"] != "public":
						t.Errorf("%s step %d uploads %v to Pages", job, i, s.With["path"])
					}
					if cmd, ok := s.With["command"].(string); ok && strings.HasPrefix(s.Uses, "cloudflare/") && !strings.HasPrefix(cmd, "pages deploy public ") {
						t.Errorf("the CDN deploy is %q, want public only", cmd)
					}
				}
			}
			if !published {
				t.Fatal("no step sends the site on")
			}
			verify := w.stepIndex("build", func(_, run string) bool {
				return strings.Contains(run, "agentcards verify -jwks public private/agents/")
			})
			upload := -1
			for i, s := range steps {
				if upload < 0 && strings.HasPrefix(s.Uses, "actions/upload-artifact@") && s.With["name"] == "extended-cards" {
					upload = i
				}
			}
			if verify < 0 || upload < 0 || verify > upload {
				t.Fatalf("the extended cards are not verified, then uploaded as an artifact (verify %d, upload %d)", verify, upload)
			}
			if !strings.Contains(steps[upload].If, "github.event.repository.private") {
				t.Errorf("the extended cards are uploaded from a public repository too (if %q): anyone signed in can download its artifacts", steps[upload].If)
			}
			up := steps[upload]
			if up.With["path"] != "private" || up.With["retention-days"] != 1 {
				t.Errorf("extended cards artifact: %v, want path private, kept 1 day", up.With)
			}
			for _, i := range []int{verify, upload} {
				if !strings.Contains(steps[i].If, "hashFiles('private/agents/**')") {
					t.Errorf("step %d runs when there are no extended cards: if %q", i, steps[i].If)
				}
			}
		})
	}
}

// allWorkflows reads the repository's workflows (by file name) and the
// docs' (site/docs/publishing.md: "README " and their name, as when the
// README held them).
func allWorkflows(t *testing.T) map[string]*workflow {
	t.Helper()
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
	return files
}

// TestIDTokenJobsRunOnlyGitHubActions: a job that may ask for an OIDC
// token (id-token: write) can have it minted by any action it runs, and
// the token names this repository's workflow (what an attestation or a
// Pages deploy trusts). Such jobs run only GitHub's own actions
// (actions/...) and, in the README's workflows, agentcards' action,
// whose own steps run only GitHub's actions too; Cloudflare's action runs
// in a job without it.
func TestIDTokenJobsRunOnlyGitHubActions(t *testing.T) {
	files := allWorkflows(t)
	checked := 0
	for name, w := range files {
		for jobName, j := range w.Jobs {
			if j.Permissions["id-token"] != "write" {
				continue
			}
			checked++
			for i, s := range j.Steps {
				own := strings.HasPrefix(name, "README ") && strings.HasPrefix(s.Uses, "agentcards/agentcards@")
				if s.Uses != "" && !strings.HasPrefix(s.Uses, "actions/") && !own {
					t.Errorf("%s job %s step %d runs %s next to the OIDC token", name, jobName, i, s.Uses)
				}
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d jobs checked", checked)
	}
	a, _ := readAction(t)
	for i, s := range a.Runs.Steps {
		if s.Uses != "" && !strings.HasPrefix(s.Uses, "actions/") {
			t.Errorf("action.yml step %d runs %s", i, s.Uses)
		}
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
	files := allWorkflows(t)
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
// the step that sends the site on (publish).
func checkAttest(t *testing.T, w *workflow, job, verifyRun string, publish func(step) bool) {
	t.Helper()
	verify := w.stepIndex(job, func(_, run string) bool { return strings.Contains(run, verifyRun) })
	subjects := w.stepIndex(job, func(_, run string) bool {
		return strings.Contains(run, ".github/scripts/attest-subjects.sh public") && strings.Contains(run, "GITHUB_OUTPUT")
	})
	attest := w.stepIndex(job, func(uses, _ string) bool { return strings.HasPrefix(uses, "actions/attest@") })
	out := -1
	for i, s := range w.Jobs[job].Steps {
		if out < 0 && publish(s) {
			out = i
		}
	}
	if !(verify >= 0 && verify < subjects && subjects < attest && attest < out) {
		t.Fatalf("order: verify %d, choose subjects %d, attest %d, publish %d", verify, subjects, attest, out)
	}
	a := w.Jobs[job].Steps[attest]
	if a.Uses != "actions/attest@v4" || a.With["subject-path"] != "${{ steps.subjects.outputs.paths }}" {
		t.Errorf("attest step %s %v", a.Uses, a.With)
	}
}

// uses matches a step that runs an action whose uses: starts with prefix.
func uses(prefix string) func(step) bool {
	return func(s step) bool { return strings.HasPrefix(s.Uses, prefix) }
}

// isSiteUpload matches the step that hands the public folder to a later
// job as the artifact "site".
func isSiteUpload(s step) bool {
	return strings.HasPrefix(s.Uses, "actions/upload-artifact@") && s.With["name"] == "site"
}

// checkLiveVerify checks that job verify-live, after the build and the
// deploy, retries until the live root card has the SHA-256 that the build
// job recorded of the one it built (so that the previous deploy, still
// served, cannot pass), and verifies it.
func checkLiveVerify(t *testing.T, w *workflow) {
	t.Helper()
	live := w.Jobs["verify-live"]
	needs, _ := live.Needs.([]any)
	if len(needs) != 2 || needs[0] != "build" || needs[1] != "deploy" {
		t.Errorf("verify-live needs %v, want [build deploy]", live.Needs)
	}
	if got := w.Jobs["build"].Outputs["card_sha256"]; got != "${{ steps.digest.outputs.card_sha256 }}" {
		t.Errorf("build job output card_sha256 = %q", got)
	}
	digest := w.stepIndex("build", func(_, run string) bool {
		return strings.Contains(run, "sha256sum public/.well-known/agent-card.json") && strings.Contains(run, "card_sha256=")
	})
	verify := w.stepIndex("build", func(_, run string) bool { return strings.Contains(run, "agentcards verify public") })
	if digest < 0 || digest < verify || w.Jobs["build"].Steps[digest].ID != "digest" {
		t.Errorf("no step digest recording the built root card's SHA-256 after the verify (%d, verify %d)", digest, verify)
	}
	i := w.stepIndex("verify-live", func(_, run string) bool { return strings.Contains(run, "for attempt") })
	if i < 0 {
		t.Fatal("no retrying verify of the live site")
	}
	s := live.Steps[i]
	if s.Env["CARD_SHA256"] != "${{ needs.build.outputs.card_sha256 }}" ||
		!strings.Contains(s.Run, `/.well-known/agent-card.json" | sha256sum`) ||
		!strings.Contains(s.Run, `[ "$live" = "$CARD_SHA256" ] && `) ||
		!strings.Contains(s.Run, `verify -jwks "$base/.well-known/jwks.json" "$base/.well-known/agent-card.json"`) ||
		!strings.Contains(s.Run, "exit 1") {
		t.Errorf("the live verify does not compare the live root card with the one built, then verify it: env %v\n%s", s.Env, s.Run)
	}
}
