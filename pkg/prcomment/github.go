package prcomment

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/testctl/testctl/pkg/userfile"
)

// gitHubMaxBody is the longest comment GitHub accepts, in characters.
const gitHubMaxBody = 65536

// maxEvent bounds the read of the event payload (a push of many commits
// is the largest).
const maxEvent = 64 << 20

// gitHub is the comments of one pull request: read through GraphQL, which
// says which the token wrote (viewerDidAuthor, where REST has only logins,
// and GET /user refuses the Actions token), edited through GraphQL by
// their node id, created through REST.
type gitHub struct {
	api         *restAPI
	graphQL     *restAPI
	owner, repo string // checked by repoPart
	number      int
}

// locateGitHub reads the pull request from the event that started the
// workflow: pull_request and pull_request_target (and their review
// events) carry it, an issue_comment carries it when the issue is a pull
// request.
func locateGitHub(env Env) (*Thread, error) {
	getenv := env.Getenv
	event := getenv("GITHUB_EVENT_NAME")
	number, err := pullRequestNumber(getenv("GITHUB_EVENT_PATH"))
	if err != nil {
		return nil, &Unavailable{Why: "could not read the pull request from the event (GITHUB_EVENT_PATH): " + err.Error()}
	}
	if number == 0 {
		why := "this workflow run is not for a pull request: there is none to comment on"
		if event != "" {
			why = fmt.Sprintf("this workflow run is for a %s event, not a pull request: there is none to comment on", event)
		}
		return nil, &Unavailable{Why: why,
			Fix: "The comment is written by the runs of pull_request (or pull_request_target) events"}
	}
	repo := getenv("GITHUB_REPOSITORY")
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || !repoPart(owner) || !repoPart(name) {
		return nil, &Unavailable{Why: fmt.Sprintf("GITHUB_REPOSITORY (%q) is not owner/name", repo)}
	}
	token := getenv("GITHUB_TOKEN")
	if token == "" {
		return nil, &Unavailable{Why: "GITHUB_TOKEN is not set",
			Fix: "Give the step `env: GITHUB_TOKEN: ${{ github.token }}` and the job `permissions: pull-requests: write`"}
	}
	base := cmp.Or(getenv("GITHUB_API_URL"), "https://api.github.com")
	if err := checkBase("GITHUB_API_URL", base); err != nil {
		return nil, err
	}
	rest := newRESTAPI(env, base, "Authorization", "Bearer "+token, token,
		map[string]string{"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"})
	graphQL := newRESTAPI(env, graphQLBase(base), "Authorization", "Bearer "+token, token, nil)
	// A matrix's legs share the job id: TESTCTL_COMMENT_KEY tells them apart.
	marker := markerFor("github", getenv("GITHUB_WORKFLOW"), getenv("GITHUB_JOB"), getenv("TESTCTL_COMMENT_KEY"))
	t := &Thread{Kind: "pull request", RunName: "workflow run", MaxBody: gitHubMaxBody - len(marker) - 1, marker: marker,
		host: &gitHub{api: rest, graphQL: graphQL, owner: owner, repo: name, number: number}}
	if id := getenv("GITHUB_RUN_ID"); id != "" && repoPart(id) {
		t.RunURL = strings.TrimRight(cmp.Or(getenv("GITHUB_SERVER_URL"), "https://github.com"), "/") + "/" + repo + "/actions/runs/" + id
		t.ArtifactsURL = t.RunURL + "#artifacts"
	}
	return t, nil
}

// repoPart is a part of owner/name as GitHub allows it: nothing that
// could change the API path.
func repoPart(s string) bool {
	return s != "" && s != "." && s != ".." && strings.IndexFunc(s, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.')
	}) < 0
}

// pullRequestNumber is the number of the pull request of the event
// payload at path; 0 when the event is not about one.
func pullRequestNumber(path string) (int, error) {
	if path == "" {
		return 0, nil
	}
	// A regular file the runner writes: a FIFO or device is refused, not
	// waited on.
	data, err := userfile.Read(context.Background(), path, userfile.Rule{Max: maxEvent, Regular: true})
	if err != nil {
		return 0, err
	}
	var ev struct {
		PullRequest *struct {
			Number int `json:"number"`
		} `json:"pull_request"`
		Issue *struct {
			Number      int             `json:"number"`
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"issue"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return 0, err
	}
	switch {
	case ev.PullRequest != nil && ev.PullRequest.Number > 0:
		return ev.PullRequest.Number, nil
	case ev.Issue != nil && len(ev.Issue.PullRequest) > 0 && string(ev.Issue.PullRequest) != "null":
		return ev.Issue.Number, nil
	}
	return 0, nil
}

func (g *gitHub) name() string { return "GitHub" }

// commentsQuery reads a page of the pull request's comments, oldest first,
// and who the token is (GraphQL's viewer: "github-actions" for the Actions
// token, whose comments REST says "github-actions[bot]" wrote).
const commentsQuery = `query($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String) {
  viewer { login }
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      comments(first: $first, after: $after) {
        nodes { id body url viewerDidAuthor }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`

func (g *gitHub) list(ctx context.Context, cursor string) ([]comment, string, error) {
	vars := map[string]any{"owner": g.owner, "name": g.repo, "number": g.number, "first": perPage}
	if cursor != "" {
		vars["after"] = cursor
	}
	var got struct {
		Viewer *struct {
			Login string `json:"login"`
		} `json:"viewer"`
		Repository *struct {
			PullRequest *struct {
				Comments struct {
					Nodes []*struct {
						ID              string `json:"id"`
						Body            string `json:"body"`
						URL             string `json:"url"`
						ViewerDidAuthor *bool  `json:"viewerDidAuthor"`
					} `json:"nodes"`
					PageInfo struct {
						HasNextPage bool   `json:"hasNextPage"`
						EndCursor   string `json:"endCursor"`
					} `json:"pageInfo"`
				} `json:"comments"`
			} `json:"pullRequest"`
		} `json:"repository"`
	}
	const doing = "read the pull request's comments and which of them the token wrote"
	if err := g.graphQL.query(ctx, commentsQuery, vars, &got); err != nil {
		return nil, "", &identityError{doing: doing, err: err}
	}
	if got.Viewer == nil || got.Viewer.Login == "" {
		return nil, "", &identityError{doing: doing, err: errors.New("GraphQL named no viewer")}
	}
	if got.Repository == nil || got.Repository.PullRequest == nil {
		return nil, "", fmt.Errorf("GraphQL found no pull request %d in %s/%s", g.number, g.owner, g.repo)
	}
	page := got.Repository.PullRequest.Comments
	out := make([]comment, 0, len(page.Nodes))
	for _, c := range page.Nodes {
		if c == nil {
			continue
		}
		if c.ViewerDidAuthor == nil {
			return nil, "", &identityError{doing: doing, err: errors.New("GraphQL did not say whether the token wrote a comment")}
		}
		out = append(out, comment{id: c.ID, body: c.Body, url: c.URL, mine: *c.ViewerDidAuthor})
	}
	if !page.PageInfo.HasNextPage {
		return out, "", nil
	}
	if page.PageInfo.EndCursor == "" {
		return nil, "", errors.New("GraphQL gave no cursor to the next page of comments")
	}
	return out, page.PageInfo.EndCursor, nil
}

// updateMutation edits a comment by its node id, as gh's --edit-last does.
const updateMutation = `mutation($id: ID!, $body: String!) {
  updateIssueComment(input: {id: $id, body: $body}) { issueComment { url } }
}`

func (g *gitHub) edit(ctx context.Context, c comment, body string) (string, error) {
	var got struct {
		UpdateIssueComment *struct {
			IssueComment *struct {
				URL string `json:"url"`
			} `json:"issueComment"`
		} `json:"updateIssueComment"`
	}
	if err := g.graphQL.query(ctx, updateMutation, map[string]any{"id": c.id, "body": body}, &got); err != nil {
		return "", err
	}
	if u := got.UpdateIssueComment; u != nil && u.IssueComment != nil && u.IssueComment.URL != "" {
		return u.IssueComment.URL, nil
	}
	return c.url, nil
}

func (g *gitHub) create(ctx context.Context, body string) (string, error) {
	var got struct {
		HTMLURL string `json:"html_url"`
	}
	if err := g.api.do(ctx, http.MethodPost, fmt.Sprintf("/repos/%s/%s/issues/%d/comments", g.owner, g.repo, g.number), nil, map[string]string{"body": body}, &got); err != nil {
		return "", err
	}
	return got.HTMLURL, nil
}

func (g *gitHub) refused(status int) string {
	if status == http.StatusUnauthorized {
		return "GITHUB_TOKEN was not accepted: give the step `env: GITHUB_TOKEN: ${{ github.token }}`"
	}
	return "The token may not write to pull requests: give the job `permissions: pull-requests: write`. " +
		"A pull request from a fork gets a read-only token, so its runs cannot comment"
}
