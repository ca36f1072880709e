package start_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/preview/previewtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

const headSHA = "feedfacefeedfacefeedfacefeedfacefeedface"

// app is a preview that answers with status until ready is set, and
// records whether the API key ever reached it.
type app struct {
	*httptest.Server
	ready  atomic.Bool
	asked  atomic.Int32
	keySen atomic.Bool
	// readyAfter makes it ready after that many answers, when set.
	readyAfter int32
}

func newApp(t *testing.T) *app {
	a := &app{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := a.asked.Add(1); a.readyAfter > 0 && n > a.readyAfter {
			a.ready.Store(true)
		}
		if strings.Contains(r.Header.Get("Authorization"), sandbox.ProjectKey) || r.Header.Get("Authorization") != "" {
			a.keySen.Store(true)
		}
		if !a.ready.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(a.Close)
	return a
}

func TestWaitForAppNeedsAURL(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--wait-for-app", "1m").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--wait-for-app needs an application URL")
	r = e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", "app_sandbox-web", "--preview", "github").Expect(t, 2)
	if e.Requests(postRun) != 0 {
		t.Fatal("a run was started")
	}
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--preview", "github").Expect(t, 2)
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", "app_sandbox-web", "--preview", "gitlab").Expect(t, 2)
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", "app_sandbox-web,url=https://x.example", "--wait-for-app", "0s").Expect(t, 2)
	apps := e.WriteFile("apps.json", `[{"applicationShortId":"app_sandbox-web","environment":{"shortId":"env_sandbox-staging"}}]`)
	r = e.Run("run", "start", "--plan", "pln-passing_sandbox", "--applications", apps, "--wait-for-app", "1m").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "the entries of --applications have no url")
	if e.Requests(postRun) != 0 {
		t.Fatal("a run was started")
	}
}

// Never ready: exit 7, nothing POSTed, progress on stderr with the query's
// values hidden, and the key never sent to the application.
func TestWaitForAppNeverReady(t *testing.T) {
	e := cmdtest.New(t)
	a := newApp(t)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", "app_sandbox-web,url="+a.URL+"/?x-vercel-protection-bypass=bypass-secret-123",
		"--wait-for-app", "2m").Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "waiting for "+a.URL+"/?x-vercel-protection-bypass=***: HTTP 503", "was not ready after", "nothing was started")
	if strings.Contains(r.Stderr, "bypass-secret-123") {
		t.Errorf("the bypass token is shown:\n%s", r.Stderr)
	}
	if e.Requests(postRun) != 0 || a.asked.Load() < 3 || a.keySen.Load() {
		t.Fatalf("runs started %d, app asked %d times, key sent %v", e.Requests(postRun), a.asked.Load(), a.keySen.Load())
	}
}

// Ready: the run starts; the request's URL shows *** for its query values
// in --dry-run and in the --debug log; under GitHub Actions the values are
// masked.
func TestWaitForAppReadyThenStarts(t *testing.T) {
	e := cmdtest.New(t)
	e.GitHubActions()
	a := newApp(t)
	a.ready.Store(true)
	spec := "app_sandbox-web,url=" + a.URL + "/?x-vercel-protection-bypass=bypass-secret-123&x-vercel-set-bypass-cookie=true"
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", spec, "--wait-for-app", "1m", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "is ready", "::add-mask::bypass-secret-123",
		`?x-vercel-protection-bypass=***\u0026x-vercel-set-bypass-cookie=***`)
	if e.Requests(postRun) != 1 {
		t.Fatalf("%d runs started", e.Requests(postRun))
	}
	if strings.Contains(withoutMasks(r.Stderr+r.Stdout), "bypass-secret-123") {
		t.Errorf("the bypass token is shown:\n%s", r.Stderr)
	}
	r = e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", spec, "--dry-run").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, "x-vercel-protection-bypass=***")
	if strings.Contains(r.Stdout, "bypass-secret-123") {
		t.Errorf("--dry-run shows the token:\n%s", r.Stdout)
	}
	r = e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", "app_sandbox-web,url=ftp://h/?t=bypass-secret-123").Expect(t, 2)
	if strings.Contains(r.Stderr, "bypass-secret-123") {
		t.Errorf("the usage error shows the token:\n%s", r.Stderr)
	}
}

func withoutMasks(log string) string {
	var keep []string
	for _, l := range strings.Split(log, "\n") {
		if !strings.HasPrefix(l, "::add-mask::") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// --preview github:ENV on a pull request: the deployment of the head
// commit --codehost uses, its environment_url once it succeeded and
// answers, then the start with it.
func TestPreviewFromTheDeploymentsAPI(t *testing.T) {
	e := cmdtest.New(t)
	e.GitHubActions()
	gh := previewtest.New(t, "ghs_job")
	gh.Env(e.Setenv)
	e.Setenv("GITHUB_EVENT_NAME", "pull_request")
	e.Setenv("GITHUB_EVENT_PATH", e.WriteFile("event.json", `{"pull_request":{"title":"Coupons","head":{"ref":"coupons","sha":"`+headSHA+`"}}}`))
	e.Setenv("GITHUB_SHA", "mergemergemergemergemergemergemergemerge")
	e.Setenv("GITHUB_ACTOR", "octocat")
	a := newApp(t)
	a.readyAfter = 2
	gh.Add(previewtest.Deployment{ID: 11, SHA: headSHA, Environment: "Preview", Statuses: []previewtest.Status{{State: "pending"}}})
	gh.OnRequest = func(n int) {
		if n == 3 {
			gh.SetStatus(11, previewtest.Status{State: "success", EnvironmentURL: a.URL, TargetURL: "https://vercel.com/dash"})
		}
	}
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--codehost", "--app", "app_sandbox-web", "--preview", "github:Preview", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "deployment 11 of environment Preview is pending", "succeeded",
		`"url":"`+a.URL+`"`, "waiting for "+a.URL+": HTTP 503", "is ready")
	if !strings.Contains(gh.Requests()[0], "sha="+headSHA) {
		t.Errorf("asked for %v, want the pull request's head", gh.Requests())
	}
	for _, h := range gh.Authorizations() {
		if h != "Bearer ghs_job" {
			t.Errorf("GitHub got Authorization %q", h)
		}
	}
	if e.Requests(postRun) != 1 || a.keySen.Load() {
		t.Fatalf("%d runs started; key sent to the app: %v", e.Requests(postRun), a.keySen.Load())
	}
}

// A deployment that failed, and a token without the permission: nothing
// started, exit 7 and 4, said on the workflow run's page.
func TestPreviewFailedOrRefused(t *testing.T) {
	e := cmdtest.New(t)
	e.GitHubActions()
	gh := previewtest.New(t, "ghs_job")
	gh.Env(e.Setenv)
	gh.Add(previewtest.Deployment{ID: 12, SHA: headSHA, Environment: "Preview", Statuses: []previewtest.Status{{State: "failure", Description: "Build failed"}}})
	args := []string{"run", "start", "--plan", "pln-passing_sandbox", "--commit", headSHA, "--app", "app_sandbox-web", "--preview", "github:Preview"}
	r := e.Run(args...).Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "deployment 12 of environment Preview ended in failure (Build failed)", "::error title=testctl%3A run start started nothing::")
	gh.Force(403, nil, "Resource not accessible by integration")
	r = e.Run(args...).Expect(t, 4)
	cmdtest.Contains(t, "stderr", r.Stderr, "deployments: read")
	if e.Requests(postRun) != 0 {
		t.Fatal("a run was started")
	}
}

// Under deployment_status the event's deployment gives the URL, and
// --codehost the commit and branch.
func TestPreviewFromADeploymentStatusEvent(t *testing.T) {
	e := cmdtest.New(t)
	gh := previewtest.New(t, "ghs_job")
	gh.Env(e.Setenv)
	a := newApp(t)
	a.ready.Store(true)
	d := previewtest.Deployment{ID: 13, SHA: headSHA, Ref: "coupons", Environment: "Preview",
		Statuses: []previewtest.Status{{State: "success", EnvironmentURL: a.URL + "/", TargetURL: "https://vercel.com/dash"}}}
	e.Setenv("GITHUB_EVENT_NAME", "deployment_status")
	e.Setenv("GITHUB_EVENT_PATH", previewtest.EventFile(t, e.Dir, d))
	e.Setenv("GITHUB_SHA", headSHA)
	e.Setenv("GITHUB_ACTOR", "vercel[bot]")
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--codehost", "--app", "app_sandbox-web", "--preview", "github", "--dry-run").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, `"url": "`+a.URL+`/"`, `"branch": "coupons"`, `"commitHash": "`+headSHA+`"`)
	if len(gh.Requests()) != 0 {
		t.Errorf("the API was asked: %v", gh.Requests())
	}
}
