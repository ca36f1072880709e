package wait_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"golang.org/x/net/html"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/prcomment/prcommenttest"
)

// The token of the fake code hosts: it must never be printed.
const ghToken = "ghs_s3cr3tT0kenNeverPrinted"

// commentEnv is a GitHub Actions job on a pull request, with --comment's
// fake GitHub.
func commentEnv(t *testing.T) (*cmdtest.Env, *prcommenttest.Server) {
	e := cmdtest.New(t)
	e.GitHubActions()
	gh := prcommenttest.NewGitHub(t, ghToken)
	gh.GitHubEnv(e.Setenv, e.Dir)
	return e, gh
}

// ours are the comments testctl wrote.
func ours(gh *prcommenttest.Server) []prcommenttest.Comment {
	var out []prcommenttest.Comment
	for _, c := range gh.Comments() {
		if c.User == prcommenttest.GitHubUser {
			out = append(out, c)
		}
	}
	return out
}

func noToken(t *testing.T, r cmdtest.Result) {
	t.Helper()
	if strings.Contains(r.Output(), ghToken) {
		t.Errorf("the token was printed:\n%s", r.Output())
	}
}

// The first run creates the comment, every later one edits it: one comment
// after a failing and a passing run, and it says the last verdict. Other
// people's comments, and a comment of another job, are left alone.
func TestCommentIsCreatedThenEditedInPlace(t *testing.T) {
	e, gh := commentEnv(t)
	gh.Add(prcommenttest.Comment{User: "alice", Body: "LGTM, but see <!-- testctl:comment github CI e2e -->"})
	gh.Add(prcommenttest.Comment{User: prcommenttest.GitHubUser, Body: "<!-- testctl:comment github CI lint -->\nanother job's"})

	r := e.Run("run", "wait", e.StartRun(t, "pln-failing_sandbox"), "--comment").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "pull request comment created: https://github.example/octo/app/pull/7#issuecomment-")
	noToken(t, r)
	mine := ours(gh)
	if len(mine) != 2 {
		t.Fatalf("%d comments of testctl, want the other job's and one new:\n%v", len(mine), gh.Comments())
	}
	first := mine[1]
	for _, want := range []string{"<!-- testctl:comment github CI e2e -->\n## ❌ testctl: failed (exit 1)",
		"<details><summary>", "[Open the run](", "[workflow run](https://github.example/octo/app/actions/runs/9001)"} {
		if !strings.Contains(first.Body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, first.Body)
		}
	}

	r = e.Run("run", "wait", e.StartRun(t, "pln-passing_sandbox"), "--comment").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "pull request comment updated: https://github.example/octo/app/pull/7#issuecomment-")
	all := gh.Comments()
	if len(all) != 3 {
		t.Fatalf("%d comments after two runs, want the same 3:\n%v", len(all), all)
	}
	if all[0].Body != "LGTM, but see <!-- testctl:comment github CI e2e -->" || all[1].Body != "<!-- testctl:comment github CI lint -->\nanother job's" {
		t.Errorf("someone else's comment was changed:\n%v", all[:2])
	}
	if all[2].ID != first.ID || !strings.HasPrefix(all[2].Body, "<!-- testctl:comment github CI e2e -->\n## ✅ testctl: passed (exit 0)") {
		t.Errorf("the comment was not edited to say passed:\n%s", all[2].Body)
	}
	if strings.Contains(all[2].Body, "failed") {
		t.Errorf("the edited comment still tells the old story:\n%s", all[2].Body)
	}
}

// Only a comment of the token's own is edited: one that a person or
// another bot wrote, marker and all, is never taken for testctl's, so its
// author cannot rewrite the verdict reviewers read; testctl keeps its own.
func TestCommentNeverEditsAnotherAuthorsComment(t *testing.T) {
	e, gh := commentEnv(t)
	planted := "<!-- testctl:comment github CI e2e -->\n## ✅ testctl: passed (exit 0)"
	gh.Add(prcommenttest.Comment{User: "mallory", Body: planted})
	gh.Add(prcommenttest.Comment{User: "renovate[bot]", Body: planted})
	for _, code := range []int{1, 1} {
		r := e.Run("run", "wait", e.StartRun(t, "pln-failing_sandbox"), "--comment").Expect(t, code)
		noToken(t, r)
	}
	all := gh.Comments()
	if len(all) != 3 || all[0].Body != planted || all[1].Body != planted {
		t.Fatalf("want the two planted comments untouched and one of testctl's:\n%v", all)
	}
	if all[2].User != prcommenttest.GitHubUser || !strings.Contains(all[2].Body, "## ❌ testctl: failed (exit 1)") {
		t.Errorf("testctl's comment:\n%+v", all[2])
	}
	want := []string{"POST /graphql query", "POST /repos/octo/app/issues/7/comments",
		"POST /graphql query", "POST /graphql mutation updateIssueComment IC_" + strconv.FormatInt(all[2].ID, 10)}
	if got := gh.Requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Where who the token is cannot be read, every comment is left alone (none
// edited, none created) and one notice says so; the exit code is the
// verdict's.
func TestCommentWithAnUnknownIdentityLeavesEveryCommentAlone(t *testing.T) {
	e, gh := commentEnv(t)
	old := "<!-- testctl:comment github CI e2e -->\nold"
	gh.Add(prcommenttest.Comment{User: prcommenttest.GitHubUser, Body: old})
	gh.NoIdentity()
	r := e.Run("run", "wait", e.StartRun(t, "pln-failing_sandbox"), "--comment").Expect(t, 1)
	if n := strings.Count(r.Stderr, "::notice "); n != 1 {
		t.Errorf("%d notices, want 1:\n%s", n, r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "::notice title=testctl --comment::no pull request comment was written: GitHub refused to read "+
		"the pull request's comments and which of them the token wrote (GraphQL FORBIDDEN: Resource not accessible by integration): "+
		"no comment can be told to be testctl's own, so every comment is left alone.", "The exit code is not affected.")
	if all := gh.Comments(); len(all) != 1 || all[0].Body != old {
		t.Errorf("comments: %v", all)
	}
	if got := gh.Requests(); len(got) != 1 || got[0] != "POST /graphql query" {
		t.Errorf("requests: %v", got)
	}

	e = cmdtest.New(t)
	gl := prcommenttest.NewGitLab(t, ghToken)
	gl.GitLabEnv(e.Setenv)
	gl.Add(prcommenttest.Comment{User: prcommenttest.GitLabUser, Body: "<!-- testctl:comment gitlab e2e -->\nold"})
	gl.NoIdentity()
	r = e.Run("run", "wait", e.StartRun(t, "pln-passing_sandbox"), "--comment").Expect(t, 0)
	if n := strings.Count(r.Stderr, "notice: "); n != 1 {
		t.Errorf("%d notices, want 1:\n%s", n, r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "notice: no merge request comment was written: GitLab refused to read who TESTCTL_GITLAB_TOKEN is "+
		"(GET /user) (HTTP 403: insufficient_scope): no comment can be told to be testctl's own, so every comment is left alone.")
	if all := gl.Comments(); len(all) != 1 || !strings.HasSuffix(all[0].Body, "\nold") {
		t.Errorf("notes: %v", all)
	}
	if got := gl.Requests(); len(got) != 1 || got[0] != "GET /api/v4/user" {
		t.Errorf("requests: %v", got)
	}
}

// The comment of this job is found past the first page of comments.
func TestCommentIsFoundPastTheFirstPage(t *testing.T) {
	e, gh := commentEnv(t)
	for range 150 {
		gh.Add(prcommenttest.Comment{User: "bob", Body: "+1"})
	}
	gh.Add(prcommenttest.Comment{User: prcommenttest.GitHubUser, Body: "<!-- testctl:comment github CI e2e -->\nold"})
	for range 120 {
		gh.Add(prcommenttest.Comment{User: "bob", Body: "+1"})
	}
	e.Run("run", "wait", e.StartRun(t, "pln-passing_sandbox"), "--comment").Expect(t, 0)
	if got := ours(gh); len(got) != 1 || !strings.Contains(got[0].Body, "testctl: passed") {
		t.Errorf("want the one comment on page 2 edited, got %d of testctl's:\n%v", len(got), got)
	}
	var pages int
	for _, r := range gh.Requests() {
		if r == "POST /graphql query" {
			pages++
		}
	}
	if pages != 2 {
		t.Errorf("%d pages read, want 2 (it is on the second): %v", pages, gh.Requests())
	}
}

// A pull request from a fork gets a read-only token: one notice says why
// there is no comment and what would fix it, and the exit code is the
// verdict's, not 8.
func TestCommentRefusedIsANoticeAndKeepsTheExitCode(t *testing.T) {
	for _, plan := range []struct {
		id   string
		code int
	}{{"pln-passing_sandbox", 0}, {"pln-failing_sandbox", 1}} {
		t.Run(plan.id, func(t *testing.T) {
			e, gh := commentEnv(t)
			gh.ReadOnly()
			r := e.Run("run", "wait", e.StartRun(t, plan.id), "--comment", "--debug").Expect(t, plan.code)
			notices := strings.Count(r.Stderr, "::notice ")
			if notices != 1 {
				t.Errorf("%d notices, want 1:\n%s", notices, r.Stderr)
			}
			cmdtest.Contains(t, "stderr", r.Stderr, "::notice title=testctl --comment::no pull request comment was written: "+
				"GitHub refused to comment (HTTP 403: Resource not accessible by integration). ",
				"permissions: pull-requests: write", "fork", "The exit code is not affected.")
			noToken(t, r)
			cmdtest.Contains(t, "--debug", r.Stderr, "> POST "+gh.URL+"/repos/octo/app/issues/7/comments", "> Authorization: [REDACTED]")
			if len(gh.Comments()) != 0 {
				t.Errorf("a comment was written: %v", gh.Comments())
			}
		})
	}
}

// Where there is no pull request, no token, or no CI that has them, one
// notice says so and nothing is sent.
func TestCommentWithoutAPullRequestIsANotice(t *testing.T) {
	for name, c := range map[string]struct {
		env  map[string]string
		want string
	}{
		"push event":   {map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": ""}, "this workflow run is for a push event, not a pull request"},
		"no token":     {map[string]string{"GITHUB_TOKEN": ""}, "GITHUB_TOKEN is not set. Give the step `env: GITHUB_TOKEN: ${{ github.token }}`"},
		"not CI":       {map[string]string{"GITHUB_ACTIONS": ""}, "notice: no pull request comment was written: --comment writes to a pull request under GitHub Actions"},
		"gitlab no mr": {map[string]string{"GITHUB_ACTIONS": "", "GITLAB_CI": "true"}, "notice: no merge request comment was written: this pipeline is not a merge request pipeline"},
	} {
		t.Run(name, func(t *testing.T) {
			e, gh := commentEnv(t)
			for k, v := range c.env {
				e.Setenv(k, v)
			}
			r := e.Run("run", "wait", e.StartRun(t, "pln-passing_sandbox"), "--comment").Expect(t, 0)
			cmdtest.Contains(t, "stderr", r.Stderr, c.want, "The exit code is not affected.")
			if n := strings.Count(r.Stderr, "comment was written"); n != 1 {
				t.Errorf("%d notices, want 1:\n%s", n, r.Stderr)
			}
			if len(gh.Requests()) != 0 {
				t.Errorf("requests sent: %v", gh.Requests())
			}
		})
	}
}

// A GitHub that never answers costs the job TESTCTL_COMMENT_TIMEOUT (10s
// by default), then a notice; the exit code is the verdict's.
func TestCommentAgainstAHungAPIIsBounded(t *testing.T) {
	e, gh := commentEnv(t)
	gh.Hang()
	e.Setenv("TESTCTL_COMMENT_TIMEOUT", "200ms")
	r := e.Run("run", "wait", e.StartRun(t, "pln-failing_sandbox"), "--comment").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "::notice title=testctl --comment::no pull request comment was written: GitHub did not answer within 200ms")
	noToken(t, r)
}

// Service text in the comment is inert: no HTML, no end of the marker, no
// @mention that pings anyone, no cross-reference; the marker stays the
// first line, so the next run still finds the comment.
func TestCommentRendersServiceTextInert(t *testing.T) {
	e, gh := commentEnv(t)
	hostile := "--> <script>alert(1)</script> @octo-org/owners #12 [x](javascript:alert(1)) </details>"
	detail, _ := json.Marshal(map[string]any{"id": "x", "shortId": "r1", "status": "COMPLETED", "result": "FAILED",
		"runTestCases": []any{map[string]any{"shortId": "r1-0", "name": hostile, "status": "COMPLETED", "result": "FAILED",
			"resultTitle": hostile, "evaluationThought": "@alice\n" + hostile}}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/run/r1" {
			_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
			return
		}
		_, _ = w.Write(detail)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	e.Setenv("GITHUB_WORKFLOW", "CI --> <b>x</b>")
	for range 2 {
		e.Run("run", "wait", "r1", "--comment", "--evidence", "0").Expect(t, 1)
	}
	all := gh.Comments()
	if len(all) != 1 {
		t.Fatalf("%d comments after two runs, want 1", len(all))
	}
	body := all[0].Body
	first, rest, _ := strings.Cut(body, "\n")
	if first != "<!-- testctl:comment github CI%20--%3E%20%3Cb%3Ex%3C%2Fb%3E e2e -->" {
		t.Errorf("the marker is %q", first)
	}
	for _, bad := range []string{"-->", "<script", "@octo-org", "@alice", "#12"} {
		if strings.Contains(rest, bad) {
			t.Errorf("the comment holds %q:\n%s", bad, body)
		}
	}
	cmdtest.Contains(t, "comment", rest, "&lt;script&gt;", "@\u200bocto-org/owners", "#\u200b12", "@\u200balice")

	// As GitHub renders it (GFM, raw HTML passed through): one <details>,
	// no script, no link but to the web, the marker a comment of its own.
	var out bytes.Buffer
	gfm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gfm.Convert([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var comments []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			count[n.Data]++
			for _, a := range n.Attr {
				if a.Key == "href" && !strings.HasPrefix(a.Val, "https://") {
					t.Errorf("a link to %q", a.Val)
				}
			}
		case html.CommentNode:
			comments = append(comments, n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if count["script"] != 0 || count["details"] != 1 || count["b"] != 1 {
		t.Errorf("service text became markup: %v\n%s", count, out.String())
	}
	if len(comments) != 1 || !strings.HasPrefix(first, "<!--"+comments[0]+"-->") {
		t.Errorf("the marker is not one whole HTML comment: %q", comments)
	}
}

// GitLab: the same as a merge request note, with TESTCTL_GITLAB_TOKEN in
// PRIVATE-TOKEN; GitLab's own system notes are never taken for ours.
func TestCommentOnAGitLabMergeRequest(t *testing.T) {
	e := cmdtest.New(t)
	gl := prcommenttest.NewGitLab(t, ghToken)
	gl.GitLabEnv(e.Setenv)
	gl.Add(prcommenttest.Comment{User: "gitlab", System: true, Body: "<!-- testctl:comment gitlab e2e -->\nadded 1 commit"})
	r := e.Run("run", "wait", e.StartRun(t, "pln-failing_sandbox"), "--comment", "--debug").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "merge request comment created: https://gitlab.example/octo/app/-/merge_requests/7#note_",
		"> PRIVATE-TOKEN: [REDACTED]")
	noToken(t, r)
	e.Run("run", "wait", e.StartRun(t, "pln-passing_sandbox"), "--comment").Expect(t, 0)
	all := gl.Comments()
	if len(all) != 2 || all[0].Body != "<!-- testctl:comment gitlab e2e -->\nadded 1 commit" {
		t.Fatalf("want the system note untouched and one note of testctl's:\n%v", all)
	}
	for _, want := range []string{"<!-- testctl:comment gitlab e2e -->\n## ✅ testctl: passed (exit 0)", "[job](https://gitlab.example/octo/app/-/jobs/77)"} {
		if !strings.Contains(all[1].Body, want) {
			t.Errorf("the note lacks %q:\n%s", want, all[1].Body)
		}
	}
	got := gl.Requests()
	if len(got) != 6 || got[0] != "GET /api/v4/user" || got[3] != "GET /api/v4/user" || !strings.HasPrefix(got[5], "PUT /api/v4/projects/42/merge_requests/7/notes/") {
		t.Errorf("want who the token is, list, create, then again who, list, edit: %v", got)
	}

	gl.ReadOnly()
	r = e.Run("run", "wait", e.StartRun(t, "pln-passing_sandbox"), "--comment").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "notice: no merge request comment was written: GitLab refused to edit its comment (HTTP 403",
		"TESTCTL_GITLAB_TOKEN may not write notes")
}

// Two jobs, or a matrix's legs told apart by TESTCTL_COMMENT_KEY, keep a
// comment each and never edit each other's.
func TestCommentIsScopedToTheJob(t *testing.T) {
	e, gh := commentEnv(t)
	run := func(job, key, plan string, code int) {
		e.Setenv("GITHUB_JOB", job)
		e.Setenv("TESTCTL_COMMENT_KEY", key)
		e.Run("run", "wait", e.StartRun(t, plan), "--comment").Expect(t, code)
	}
	run("e2e", "", "pln-failing_sandbox", 1)
	run("e2e", "chrome", "pln-passing_sandbox", 0)
	run("smoke", "", "pln-passing_sandbox", 0)
	run("e2e", "", "pln-failing_sandbox", 1)
	var markers []string
	for _, c := range gh.Comments() {
		first, _, _ := strings.Cut(c.Body, "\n")
		markers = append(markers, first)
	}
	want := []string{"<!-- testctl:comment github CI e2e -->", "<!-- testctl:comment github CI e2e chrome -->", "<!-- testctl:comment github CI smoke -->"}
	if strings.Join(markers, "\n") != strings.Join(want, "\n") {
		t.Errorf("comments:\n%s\nwant\n%s", strings.Join(markers, "\n"), strings.Join(want, "\n"))
	}
}

// A story longer than GitHub takes is cut at a whole block, with a note,
// and still written; the HTML report's artefact is linked.
func TestCommentIsCutToGitHubsLimit(t *testing.T) {
	e, gh := commentEnv(t)
	var cases []any
	for i := range 200 {
		cases = append(cases, map[string]any{"shortId": "r1-" + strings.Repeat("a", i%7) + string(rune('a'+i%26)), "name": "case " + strings.Repeat("n", 50),
			"status": "COMPLETED", "result": "FAILED", "resultTitle": "title", "evaluationThought": strings.Repeat("a long thought ", 40)})
	}
	detail, _ := json.Marshal(map[string]any{"id": "x", "shortId": "r1", "status": "COMPLETED", "result": "FAILED", "runTestCases": cases})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/run/r1" {
			_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
			return
		}
		_, _ = w.Write(detail)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	html := e.Dir + "/report.html"
	e.Run("run", "wait", "r1", "--comment", "--evidence", "0", "--html", html).Expect(t, 1)
	all := gh.Comments()
	if len(all) != 1 {
		t.Fatalf("%d comments, want 1", len(all))
	}
	body := all[0].Body
	if n := len([]rune(body)); n > 65536 || n < 60000 {
		t.Errorf("the comment is %d characters: want it cut just under GitHub's 65536", n)
	}
	if strings.Count(body, "<details>") != strings.Count(body, "</details>") {
		t.Errorf("a <details> block was cut open")
	}
	cmdtest.Contains(t, "comment", body, "✂️ *Cut here: a comment holds at most",
		"📄 The HTML report `report.html` is among [the workflow run's artefacts](https://github.example/octo/app/actions/runs/9001#artifacts).",
		"<sub>Kept by testctl")
}
