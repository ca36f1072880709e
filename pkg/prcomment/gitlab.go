package prcomment

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// gitLabMaxBody is the longest note GitLab accepts, in characters.
const gitLabMaxBody = 1_000_000

// gitLab is the notes API of one merge request. A note is the token's own
// when its author's id is the token's user's (GET /user).
type gitLab struct {
	api     *restAPI
	project string // the merge request's project id, escaped
	iid     string
	webURL  string // the merge request's page, for the note's link
	selfID  int64  // the token's user, read with the first page of each listing
}

// locateGitLab reads the merge request of a merge request pipeline. The
// job token (CI_JOB_TOKEN) may not write notes, hence a token of its own.
func locateGitLab(env Env) (*Thread, error) {
	getenv := env.Getenv
	iid := getenv("CI_MERGE_REQUEST_IID")
	if iid == "" {
		return nil, &Unavailable{
			Why: "this pipeline is not a merge request pipeline (CI_MERGE_REQUEST_IID is not set): there is no merge request to comment on",
			Fix: "The note is written by jobs of merge request pipelines (rules: - if: $CI_PIPELINE_SOURCE == \"merge_request_event\")"}
	}
	// A merge request from a fork is the target project's: its notes are there.
	project := cmp.Or(getenv("CI_MERGE_REQUEST_PROJECT_ID"), getenv("CI_PROJECT_ID"))
	apiURL := getenv("CI_API_V4_URL")
	if !digits(iid) || !digits(project) || apiURL == "" {
		return nil, &Unavailable{Why: "CI_MERGE_REQUEST_IID, CI_PROJECT_ID and CI_API_V4_URL do not name a merge request"}
	}
	if err := checkBase("CI_API_V4_URL", apiURL); err != nil {
		return nil, err
	}
	token := getenv("TESTCTL_GITLAB_TOKEN")
	if token == "" {
		return nil, &Unavailable{Why: "TESTCTL_GITLAB_TOKEN is not set",
			Fix: "Set it (a masked CI/CD variable) to a project access token with the api scope and at least the Reporter role"}
	}
	marker := markerFor("gitlab", getenv("CI_JOB_NAME"), getenv("TESTCTL_COMMENT_KEY"))
	web := cmp.Or(getenv("CI_MERGE_REQUEST_PROJECT_URL"), getenv("CI_PROJECT_URL"))
	if web != "" {
		web = strings.TrimRight(web, "/") + "/-/merge_requests/" + iid
	}
	t := &Thread{Kind: "merge request", RunName: "job", MaxBody: gitLabMaxBody - len(marker) - 1, marker: marker,
		host: &gitLab{api: newRESTAPI(env, apiURL, "PRIVATE-TOKEN", token, token, nil), project: project, iid: iid, webURL: web}}
	if job := getenv("CI_JOB_URL"); job != "" {
		t.RunURL = job
		t.ArtifactsURL = strings.TrimRight(job, "/") + "/artifacts/browse"
	}
	return t, nil
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func (g *gitLab) name() string { return "GitLab" }

type gitLabNote struct {
	ID     int64  `json:"id"`
	Body   string `json:"body"`
	System bool   `json:"system"`
	Author struct {
		ID int64 `json:"id"`
	} `json:"author"`
}

func (g *gitLab) path() string {
	return "/projects/" + g.project + "/merge_requests/" + g.iid + "/notes"
}

// self is the id of the token's user: a project access token's is its
// bot user's.
func (g *gitLab) self(ctx context.Context) (int64, error) {
	const doing = "read who TESTCTL_GITLAB_TOKEN is (GET /user)"
	var me struct {
		ID int64 `json:"id"`
	}
	if err := g.api.do(ctx, http.MethodGet, "/user", nil, nil, &me); err != nil {
		return 0, &identityError{doing: doing, err: err}
	}
	if me.ID == 0 {
		return 0, &identityError{doing: doing, err: errors.New("the answer names no user id")}
	}
	return me.ID, nil
}

// list reads who the token is with the first page, so each listing asks
// afresh.
func (g *gitLab) list(ctx context.Context, cursor string) ([]comment, string, error) {
	page := 1
	if cursor != "" {
		page, _ = strconv.Atoi(cursor)
	} else {
		id, err := g.self(ctx)
		if err != nil {
			return nil, "", err
		}
		g.selfID = id
	}
	var got []gitLabNote
	q := url.Values{"per_page": {strconv.Itoa(perPage)}, "page": {strconv.Itoa(page)}, "sort": {"asc"}, "order_by": {"created_at"}}
	if err := g.api.do(ctx, http.MethodGet, g.path(), q, nil, &got); err != nil {
		return nil, "", err
	}
	out := make([]comment, 0, len(got))
	for _, n := range got {
		// A system note ("added 1 commit") is GitLab's, never ours, even
		// where its author is the token's user.
		out = append(out, comment{id: strconv.FormatInt(n.ID, 10), body: n.Body, mine: !n.System && n.Author.ID == g.selfID})
	}
	if len(got) < perPage {
		return out, "", nil
	}
	return out, strconv.Itoa(page + 1), nil
}

func (g *gitLab) noteURL(id int64) string {
	if g.webURL == "" {
		return ""
	}
	return g.webURL + "#note_" + strconv.FormatInt(id, 10)
}

func (g *gitLab) edit(ctx context.Context, c comment, body string) (string, error) {
	var got gitLabNote
	if err := g.api.do(ctx, http.MethodPut, g.path()+"/"+c.id, nil, map[string]string{"body": body}, &got); err != nil {
		return "", err
	}
	return g.noteURL(got.ID), nil
}

func (g *gitLab) create(ctx context.Context, body string) (string, error) {
	var got gitLabNote
	if err := g.api.do(ctx, http.MethodPost, g.path(), nil, map[string]string{"body": body}, &got); err != nil {
		return "", err
	}
	return g.noteURL(got.ID), nil
}

func (g *gitLab) refused(status int) string {
	if status == http.StatusUnauthorized {
		return "TESTCTL_GITLAB_TOKEN was not accepted: check that it has not expired or been revoked"
	}
	return "TESTCTL_GITLAB_TOKEN may not write notes on this merge request: it needs the api scope and at least the Reporter role in its project"
}
