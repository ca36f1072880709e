package preview

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/termtext"
)

// maxAnswer bounds what is read of one answer (a page of 100 deployments).
const maxAnswer = 8 << 20

// gitHub is GitHub's REST API for one repository, read with the job's
// token (never the service's key).
type gitHub struct {
	base   string // no trailing slash
	repo   string // owner/name
	token  string
	client *http.Client
	now    func() time.Time
}

// apiError is an answer that is not a success.
type apiError struct {
	status  int
	message string
	// wait is how long a rate limit asks to wait; rateLimited says it is one.
	rateLimited bool
	wait        time.Duration
}

func (e *apiError) Error() string {
	if e.message == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, e.message)
}

func newGitHub(getenv func(string) string, repo string, rt http.RoundTripper, now func() time.Time) (*gitHub, error) {
	base := strings.TrimRight(cmp.Or(getenv("GITHUB_API_URL"), "https://api.github.com"), "/")
	u, err := url.Parse(base)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return nil, fmt.Errorf("GITHUB_API_URL (%q) is not an http(s) address", termtext.SanitizeLine(base))
	case u.User != nil || u.RawQuery != "":
		return nil, errors.New("GITHUB_API_URL carries credentials or a query: set it to the API's address alone")
	case u.Scheme == "http" && !api.IsLoopback(u.Hostname()):
		return nil, fmt.Errorf("GITHUB_API_URL (%s) is plain http: the token would travel in clear; use its https address", u.Redacted())
	}
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || !repoPart(owner) || !repoPart(name) {
		return nil, fmt.Errorf("the repository (%q, from GITHUB_REPOSITORY or --repository) is not owner/name", termtext.SanitizeLine(repo))
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	client := &http.Client{Transport: rt, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if !api.SameOrigin(via[0], req) {
			return errors.New("redirected to another origin: not followed with the token")
		}
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		return nil
	}}
	return &gitHub{base: base, repo: repo, token: getenv("GITHUB_TOKEN"), client: client, now: now}, nil
}

// repoPart is a part of owner/name as GitHub allows it: nothing that
// could change the API path.
func repoPart(s string) bool {
	return s != "" && s != "." && s != ".." && strings.IndexFunc(s, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.')
	}) < 0
}

// get reads path (under /repos/owner/name) into out.
func (g *gitHub) get(ctx context.Context, path string, query url.Values, out any) error {
	u := g.base + "/repos/" + g.repo + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if g.token != "" {
		req.Header.Set("Authorization", "Bearer "+g.token)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "testctl")
	resp, err := g.client.Do(req)
	if err != nil {
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err
		}
		return errors.New(g.redact(err.Error()))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return errors.New(g.redact(err.Error()))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return g.failure(resp, data)
	}
	if len(data) > maxAnswer {
		return fmt.Errorf("GitHub's answer to GET %s is larger than %d bytes", path, maxAnswer)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("GitHub's answer to GET %s is unreadable: %v", path, err)
	}
	return nil
}

// failure reads an error answer: GitHub's rate limits are a 429, or a 403
// with x-ratelimit-remaining 0 (the primary limit, until
// x-ratelimit-reset) or a Retry-After (a secondary limit).
func (g *gitHub) failure(resp *http.Response, data []byte) *apiError {
	var doc struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(data, &doc)
	msg := termtext.SanitizeLine(g.redact(doc.Message))
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	e := &apiError{status: resp.StatusCode, message: msg}
	h := resp.Header
	retryAfter := h.Get("Retry-After")
	if resp.StatusCode == http.StatusTooManyRequests || (resp.StatusCode == http.StatusForbidden &&
		(h.Get("X-Ratelimit-Remaining") == "0" || retryAfter != "" || strings.Contains(strings.ToLower(msg), "rate limit"))) {
		e.rateLimited = true
		switch {
		case retryAfter != "":
			e.wait = api.ParseRetryAfter(retryAfter, g.now())
		case h.Get("X-Ratelimit-Reset") != "":
			if secs, err := strconv.ParseInt(h.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
				e.wait = max(time.Unix(secs, 0).Sub(g.now()), 0)
			}
		}
		if e.wait <= 0 {
			e.wait = time.Minute // GitHub's advice when it names no time
		}
	}
	return e
}

func (g *gitHub) redact(s string) string {
	if g.token == "" {
		return s
	}
	return strings.ReplaceAll(s, g.token, "[REDACTED]")
}

// deployment is one of GET /repos/{repo}/deployments.
type deployment struct {
	ID                    int64     `json:"id"`
	SHA                   string    `json:"sha"`
	Ref                   string    `json:"ref"`
	Environment           string    `json:"environment"`
	ProductionEnvironment bool      `json:"production_environment"`
	CreatedAt             time.Time `json:"created_at"`
}

// status is one of a deployment's statuses.
type status struct {
	State          string `json:"state"`
	EnvironmentURL string `json:"environment_url"`
	Description    string `json:"description"`
	LogURL         string `json:"log_url"`
}

func (g *gitHub) deployments(ctx context.Context, sha, environment string) ([]deployment, error) {
	q := url.Values{"sha": {sha}, "per_page": {"100"}}
	if environment != "" {
		q.Set("environment", environment)
	}
	var out []deployment
	return out, g.get(ctx, "/deployments", q, &out)
}

func (g *gitHub) statuses(ctx context.Context, id int64) ([]status, error) {
	var out []status
	return out, g.get(ctx, fmt.Sprintf("/deployments/%d/statuses", id), url.Values{"per_page": {"100"}}, &out)
}
