package prcomment_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/prcomment"
	"github.com/testctl/testctl/pkg/prcomment/prcommenttest"
)

const marker = "<!-- testctl:comment github CI e2e -->"

func keep(t *testing.T, vars map[string]string, body string) (prcomment.Kept, error) {
	t.Helper()
	th, err := prcomment.Locate(envOf(vars))
	if err != nil {
		t.Fatal(err)
	}
	return th.Keep(context.Background(), body)
}

func wantRequests(t *testing.T, s *prcommenttest.Server, want ...string) {
	t.Helper()
	if got := s.Requests(); !slices.Equal(got, want) {
		t.Errorf("requests:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func commentID(id int64) string { return strconv.FormatInt(id, 10) }

// Only a comment the token's own identity wrote is edited: a person's or
// another bot's carrying the marker on its first line is left alone. The
// Actions token is "github-actions" to GraphQL and "github-actions[bot]"
// to REST, and an App's bot "app[bot]" while a person may be "app": the
// viewer's viewerDidAuthor decides, never a login.
func TestKeepEditsOnlyTheTokensOwnComment(t *testing.T) {
	for name, self := range map[string]string{
		"the Actions token": prcommenttest.GitHubUser,
		"an App's token":    "testctl-app[bot]",
		"a person's token":  "carol",
	} {
		t.Run(name, func(t *testing.T) {
			gh := prcommenttest.NewGitHub(t, "tok")
			gh.Identity(self)
			others := []prcommenttest.Comment{
				{User: "alice", Body: marker + "\n## ✅ testctl: passed (exit 0)"},
				{User: "renovate[bot]", Body: marker + "\nanother bot's"},
				{User: strings.TrimSuffix(self, "[bot]"), Body: marker + "\nsame name, not a bot"},
				{User: "github-actions", Body: marker + "\nGraphQL's name of the Actions bot, as a login"},
			}
			for _, c := range others {
				if c.User != self {
					gh.Add(c)
				}
			}
			gh.Add(prcommenttest.Comment{User: self, Body: marker + "\nold"})
			all := gh.Comments()
			ours := all[len(all)-1]

			kept, err := keep(t, gitHubVars(t, gh), "new")
			if err != nil {
				t.Fatal(err)
			}
			if kept.Created || !strings.HasSuffix(kept.URL, "#issuecomment-"+commentID(ours.ID)) {
				t.Errorf("kept %+v, want comment %d edited", kept, ours.ID)
			}
			after := gh.Comments()
			for i, c := range after[:len(after)-1] {
				if c.Body != all[i].Body {
					t.Errorf("%s's comment was edited: %q", c.User, c.Body)
				}
			}
			if after[len(after)-1].Body != marker+"\nnew" {
				t.Errorf("ours says %q", after[len(after)-1].Body)
			}
			wantRequests(t, gh, "POST /graphql query", "POST /graphql mutation updateIssueComment IC_"+commentID(ours.ID))
		})
	}
}

// When only others' comments carry the marker, a comment of the token's
// own is created, and the next run edits that one.
func TestKeepCreatesItsOwnBesideAnotherAuthorsMarker(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	planted := marker + "\n## ✅ testctl: passed (exit 0)"
	gh.Add(prcommenttest.Comment{User: "mallory", Body: planted})
	vars := gitHubVars(t, gh)
	if kept, err := keep(t, vars, "## ❌ testctl: failed (exit 1)"); err != nil || !kept.Created {
		t.Fatalf("kept %+v, %v: want a comment created", kept, err)
	}
	if _, err := keep(t, vars, "## ❌ testctl: failed again (exit 1)"); err != nil {
		t.Fatal(err)
	}
	all := gh.Comments()
	if len(all) != 2 || all[0].Body != planted || all[1].User != prcommenttest.GitHubUser || all[1].Body != marker+"\n## ❌ testctl: failed again (exit 1)" {
		t.Fatalf("comments: %+v", all)
	}
	wantRequests(t, gh, "POST /graphql query", "POST /repos/octo/app/issues/7/comments",
		"POST /graphql query", "POST /graphql mutation updateIssueComment IC_"+commentID(all[1].ID))
}

// A changed token (another identity) does not take over the old comment:
// it keeps one of its own, and the old one stays behind (docs/ci.md).
func TestAChangedTokenLeavesTheOldCommentBehind(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	vars := gitHubVars(t, gh)
	if _, err := keep(t, vars, "first"); err != nil {
		t.Fatal(err)
	}
	gh.Identity("testctl-app[bot]")
	for _, body := range []string{"second", "third"} {
		if _, err := keep(t, vars, body); err != nil {
			t.Fatal(err)
		}
	}
	all := gh.Comments()
	if len(all) != 2 || all[0].Body != marker+"\nfirst" || all[1].User != "testctl-app[bot]" || all[1].Body != marker+"\nthird" {
		t.Errorf("comments: %+v", all)
	}
}

// GitLab: the token's user (GET /user) is compared with each note's
// author id, not its username; another job's note of ours is still not
// this job's.
func TestKeepEditsOnlyTheTokensOwnGitLabNote(t *testing.T) {
	gl := prcommenttest.NewGitLab(t, "tok")
	const glMarker = "<!-- testctl:comment gitlab e2e -->"
	gl.Add(prcommenttest.Comment{User: "alice", Body: glMarker + "\nalice's"})
	gl.Add(prcommenttest.Comment{User: prcommenttest.GitLabUser, UserID: 999, Body: glMarker + "\nanother user of that name"})
	gl.Add(prcommenttest.Comment{User: prcommenttest.GitLabUser, Body: "<!-- testctl:comment gitlab lint -->\nanother job's"})
	gl.Add(prcommenttest.Comment{User: prcommenttest.GitLabUser, Body: glMarker + "\nold"})
	before := gl.Comments()
	ours := before[3]
	vars := map[string]string{}
	gl.GitLabEnv(func(k, v string) { vars[k] = v })
	kept, err := keep(t, vars, "new")
	if err != nil || kept.Created || !strings.HasSuffix(kept.URL, "#note_"+commentID(ours.ID)) {
		t.Fatalf("kept %+v, %v: want note %d edited", kept, err, ours.ID)
	}
	after := gl.Comments()
	for i := range 3 {
		if after[i].Body != before[i].Body {
			t.Errorf("note %d was edited: %q", i, after[i].Body)
		}
	}
	if after[3].Body != glMarker+"\nnew" {
		t.Errorf("ours says %q", after[3].Body)
	}
	wantRequests(t, gl, "GET /api/v4/user",
		"GET /api/v4/projects/42/merge_requests/7/notes?order_by=created_at&page=1&per_page=100&sort=asc",
		"PUT /api/v4/projects/42/merge_requests/7/notes/"+commentID(ours.ID))
}

// When who the token is cannot be read, no comment can be told to be
// testctl's: every comment is left alone, none is created, and the one
// error says so.
func TestKeepLeavesEveryCommentAloneWhenTheIdentityIsUnknown(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	gh.Add(prcommenttest.Comment{User: prcommenttest.GitHubUser, Body: marker + "\nold"})
	gh.NoIdentity()
	_, err := keep(t, gitHubVars(t, gh), "new")
	var u *prcomment.Unavailable
	if !errors.As(err, &u) || !strings.Contains(u.Why, "every comment is left alone") || !strings.Contains(u.Why, "Resource not accessible by integration") {
		t.Errorf("GitHub: got %v", err)
	}
	if all := gh.Comments(); len(all) != 1 || all[0].Body != marker+"\nold" {
		t.Errorf("GitHub: comments %+v", all)
	}
	wantRequests(t, gh, "POST /graphql query")

	gl := prcommenttest.NewGitLab(t, "tok")
	gl.Add(prcommenttest.Comment{User: prcommenttest.GitLabUser, Body: "<!-- testctl:comment gitlab e2e -->\nold"})
	gl.NoIdentity()
	vars := map[string]string{}
	gl.GitLabEnv(func(k, v string) { vars[k] = v })
	_, err = keep(t, vars, "new")
	if !errors.As(err, &u) || !strings.Contains(u.Why, "every comment is left alone") || !strings.Contains(u.Why, "insufficient_scope") {
		t.Errorf("GitLab: got %v", err)
	}
	if all := gl.Comments(); len(all) != 1 || all[0].Body != "<!-- testctl:comment gitlab e2e -->\nold" {
		t.Errorf("GitLab: comments %+v", all)
	}
	wantRequests(t, gl, "GET /api/v4/user")
}

// On GitHub Enterprise Server the REST API is {server}/api/v3 and GraphQL
// {server}/api/graphql; on github.com, api.github.com and its /graphql.
func TestGraphQLIsFoundBesideGitHubEnterpriseServersREST(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	target, _ := url.Parse(gh.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var paths []string
	ghes := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.Path)
		switch {
		case r.URL.Path == "/api/graphql":
			r.URL.Path = "/graphql"
		case strings.HasPrefix(r.URL.Path, "/api/v3/"):
			r.URL.Path = strings.TrimPrefix(r.URL.Path, "/api/v3")
		default:
			http.NotFound(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(ghes.Close)
	gh.Add(prcommenttest.Comment{User: prcommenttest.GitHubUser, Body: marker + "\nold"})
	vars := gitHubVars(t, gh)
	vars["GITHUB_API_URL"] = ghes.URL + "/api/v3/"
	if _, err := keep(t, vars, "new"); err != nil {
		t.Fatal(err)
	}
	if _, err := keep(t, vars, "newer"); err != nil { // edited, not created
		t.Fatal(err)
	}
	if !slices.Equal(paths, []string{"POST /api/graphql", "POST /api/graphql", "POST /api/graphql", "POST /api/graphql"}) {
		t.Errorf("paths: %v", paths)
	}
	if all := gh.Comments(); len(all) != 1 || all[0].Body != marker+"\nnewer" {
		t.Errorf("comments: %+v", all)
	}
}

// A read-only token (a fork's) may read which comments are its own but
// not edit one: GraphQL's FORBIDDEN is explained as REST's 403 is.
func TestKeepExplainsAnEditRefusedByGraphQL(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	gh.Add(prcommenttest.Comment{User: prcommenttest.GitHubUser, Body: marker + "\nold"})
	gh.ReadOnly()
	_, err := keep(t, gitHubVars(t, gh), "new")
	if err == nil || !strings.Contains(err.Error(), "GitHub refused to edit its comment (GraphQL FORBIDDEN: Resource not accessible by integration). "+
		"The token may not write to pull requests") {
		t.Errorf("got %v", err)
	}
	if all := gh.Comments(); len(all) != 1 || all[0].Body != marker+"\nold" {
		t.Errorf("comments: %+v", all)
	}
}
