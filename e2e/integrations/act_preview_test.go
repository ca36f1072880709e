package integrations_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/preview/previewtest"
)

// The Action under act on a deployment_status event, as Vercel sends it:
// with preview github, the event's environment_url (never its target_url)
// is the app's URL, asked until it answers before the run starts, and
// --codehost sends the deployment's commit and branch. A deployment that
// failed starts nothing: exit 7, said in the outputs.
func TestActDeploymentStatusPreview(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	const token = "ghs_e2ePreviewToken0123456789"
	const sha = "0123456789abcdef0123456789abcdef01234567"
	gh := previewtest.New(t, token)
	var asked atomic.Int32
	var keySent atomic.Bool
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.Header.Get("Authorization") != "" {
			keySent.Store(true)
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(app.Close)

	payload := func(id int64, state string) map[string]any {
		return map[string]any{"action": "created",
			"deployment": map[string]any{"id": id, "sha": sha, "ref": "coupons", "environment": "Preview", "production_environment": false},
			"deployment_status": map[string]any{"state": state, "environment_url": app.URL + "/",
				"target_url": "https://vercel.example/octo/app/dpl_1"},
			"repository": map[string]any{"full_name": previewtest.Repo, "name": "app", "owner": map[string]any{"login": "octo"}, "default_branch": "main"},
			"sender":     map[string]any{"login": "vercel[bot]"}}
	}
	run := func(id int64, state string) actResult {
		in := with(actInputs(rel, sb, "pln-passing_sandbox"), "app", "app_sandbox-web", "preview", "github",
			"wait-for-app", "1m", "github-token", token)
		return runAct(t, actWorkflow{Event: "deployment_status", Payload: payload(id, state), Jobs: map[string]any{"test": actJob(in)},
			Env: map[string]string{"GITHUB_API_URL": gh.URL, "GITHUB_REPOSITORY": previewtest.Repo}})
	}

	ok := run(77, "success")
	if ok.Code != 0 {
		t.Fatalf("act exit %d, want 0\n%s", ok.Code, ok.Log)
	}
	cmdtest.WantValues(t, "the step after the Action", ok.outputs(t, "test"), map[string]string{"verdict": "passed", "exit-code": "0"})
	for _, want := range []string{"deployment 77 of environment Preview (from the deployment_status event) succeeded",
		app.URL + "/ is ready", "on coupons", "0123456789ab"} {
		if !strings.Contains(ok.Log, want) {
			t.Errorf("the log lacks %q:\n%s", want, ok.Log)
		}
	}
	if strings.Contains(ok.Log, "vercel.example") {
		t.Error("the target_url was used")
	}
	if asked.Load() < 2 || keySent.Load() {
		t.Errorf("the preview was asked %d times (want 2 or more), with a key: %v", asked.Load(), keySent.Load())
	}
	if len(gh.Requests()) != 0 {
		t.Errorf("GitHub's API was asked %v: the event says it all", gh.Requests())
	}
	started := sb.Server.Stats().Requests["POST /v1/run"]

	gh.Add(previewtest.Deployment{ID: 78, SHA: sha, Ref: "coupons", Environment: "Preview",
		Statuses: []previewtest.Status{{State: "failure", Description: "Build failed"}}})
	failed := run(78, "failure")
	cmdtest.WantValues(t, "a failed deployment", failed.outputs(t, "test"), map[string]string{"verdict": "timeout", "exit-code": "7"})
	if !strings.Contains(failed.Log, "deployment 78 of environment Preview ended in failure (Build failed)") {
		t.Errorf("the log does not name the failed deployment:\n%s", failed.Log)
	}
	if n := sb.Server.Stats().Requests["POST /v1/run"]; n != started {
		t.Errorf("%d runs started for a failed deployment", n-started)
	}
	for _, a := range gh.Authorizations() {
		if a != "Bearer "+token {
			t.Errorf("GitHub got Authorization %q, want the job's token only", a)
		}
	}
	for _, res := range []actResult{ok, failed} {
		if strings.Contains(res.Log, testKey) || strings.Contains(res.Log, token) {
			t.Error("the key or the token appears in act's log")
		}
	}
}

// docs/ci.md's Vercel workflows run as pasted: their job, its condition
// on the event and its inputs, with only the plan and the application id
// made the sandbox's and the install pointed at the release served here;
// the key, the base URL and Vercel's bypass token come from the secrets
// and the variable they name. With preview, the event's environment_url is
// tested; behind Deployment Protection, the bypass token in app's URL gets
// testctl past it and never shows in the log. A status that is not yet
// success skips the job.
func TestActDocsVercelWorkflows(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	md, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	var docs []map[string]any
	for _, m := range yamlBlock.FindAllStringSubmatch(string(md), -1) {
		if strings.Contains(m[1], "on: deployment_status") {
			var doc map[string]any
			if err := yaml.Unmarshal([]byte(m[1]), &doc); err != nil {
				t.Fatal(err)
			}
			docs = append(docs, doc)
		}
	}
	if len(docs) != 2 {
		t.Fatalf("docs/ci.md has %d workflows on deployment_status, want 2 (preview, protected preview)", len(docs))
	}
	const bypass = "vercelBypassSecret0123456789"
	var passed atomic.Int32
	var protected atomic.Bool
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("x-vercel-protection-bypass") == bypass {
			http.SetCookie(w, &http.Cookie{Name: "_vercel_jwt", Value: "ok", Path: "/"})
			http.Redirect(w, r, r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
		if c, err := r.Cookie("_vercel_jwt"); protected.Load() && (err != nil || c.Value != "ok") {
			http.Redirect(w, r, "https://vercel.example/login", http.StatusFound)
			return
		}
		passed.Add(1)
	}))
	t.Cleanup(app.Close)
	gh := previewtest.New(t, "ghs_docsToken0123456789")
	event := func(state string) map[string]any {
		return map[string]any{"action": "created",
			"deployment":        map[string]any{"id": 90, "sha": "0123456789abcdef0123456789abcdef01234567", "ref": "coupons", "environment": "Preview"},
			"deployment_status": map[string]any{"state": state, "environment_url": app.URL + "/", "target_url": "https://vercel.example/dash"},
			"repository":        map[string]any{"full_name": previewtest.Repo}, "sender": map[string]any{"login": "vercel[bot]"}}
	}
	for i, doc := range docs {
		jobs, _ := doc["jobs"].(map[string]any)
		job, _ := jobs["e2e"].(map[string]any)
		steps, _ := job["steps"].([]any)
		if job == nil || len(steps) != 1 {
			t.Fatalf("workflow %d: the job e2e is not one step of the action: %v", i+1, doc)
		}
		step := steps[0].(map[string]any)
		in := step["with"].(map[string]any)
		in["plan"] = "pln-passing_sandbox"
		in["app"] = strings.Replace(in["app"].(string), "app_web", "app_sandbox-web", 1)
		in["version"], in["download-base-url"], in["interval"] = releaseVersion, rel.URL, "100ms"
		step["id"] = "t"
		job["steps"] = append(steps, actionUse("e2e", nil)[1])
		protected.Store(in["preview"] == nil)
		run := func(state string) actResult {
			return runAct(t, actWorkflow{Event: "deployment_status", Payload: event(state), Jobs: jobs,
				Env: map[string]string{"GITHUB_API_URL": gh.URL, "GITHUB_REPOSITORY": previewtest.Repo},
				Flags: []string{"--secret", "TESTCTL_API_KEY=" + testKey, "--secret", "VERCEL_AUTOMATION_BYPASS_SECRET=" + bypass,
					"--var", "TESTCTL_BASE_URL=" + sb.BaseURL}})
		}
		before, okBefore := sb.Server.Stats().Requests["POST /v1/run"], passed.Load()
		res := run("success")
		if res.Code != 0 {
			t.Fatalf("workflow %d: act exit %d, want 0\n%s", i+1, res.Code, res.Log)
		}
		cmdtest.WantValues(t, "the docs' workflow", res.outputs(t, "e2e"), map[string]string{"verdict": "passed", "exit-code": "0"})
		if n := passed.Load() - okBefore; n < 2 {
			t.Errorf("workflow %d: the preview let testctl in %d times, want 2 or more", i+1, n)
		}
		if n := sb.Server.Stats().Requests["POST /v1/run"] - before; n != 1 {
			t.Errorf("workflow %d: %d runs started, want 1", i+1, n)
		}
		if strings.Contains(res.Log, bypass) {
			t.Errorf("workflow %d: the bypass token shows in the log", i+1)
		}
		started := sb.Server.Stats().Requests["POST /v1/run"]
		if res = run("pending"); res.Code != 0 || sb.Server.Stats().Requests["POST /v1/run"] != started {
			t.Errorf("workflow %d, a pending status: act exit %d, want the job skipped\n%s", i+1, res.Code, res.Log)
		}
	}
}
