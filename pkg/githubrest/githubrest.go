// Package githubrest reads GitHub's REST API for one repository, with the
// job's token (never the service's key): the address from GITHUB_API_URL
// (plain http only to this machine), redirects followed within its origin,
// answers bounded, the token redacted from every error, and GitHub's rate
// limits read as how long they ask to wait.
package githubrest

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

// Repo is GitHub's REST API for one repository.
type Repo struct {
	base   string // no trailing slash
	repo   string // owner/name
	token  string
	client *http.Client
	now    func() time.Time
}

// Error is an answer that is not a success.
type Error struct {
	Status  int
	Message string // GitHub's, sanitised and short
	// Wait is how long a rate limit asks to wait; RateLimited says it is one.
	RateLimited bool
	Wait        time.Duration
}

func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

// New is the API of repo (owner/name) at GITHUB_API_URL (GitHub's own by
// default), read with GITHUB_TOKEN when it is set; rt nil is the default
// transport, now the clock rate limits are measured with.
func New(getenv func(string) string, repo string, rt http.RoundTripper, now func() time.Time) (*Repo, error) {
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
	if !ok || !RepoPart(owner) || !RepoPart(name) {
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
	return &Repo{base: base, repo: repo, token: getenv("GITHUB_TOKEN"), client: client, now: now}, nil
}

// RepoPart is a part of owner/name as GitHub allows it: nothing that
// could change the API path.
func RepoPart(s string) bool {
	return s != "" && s != "." && s != ".." && strings.IndexFunc(s, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.')
	}) < 0
}

// Get reads path (under /repos/owner/name) into out.
func (g *Repo) Get(ctx context.Context, path string, query url.Values, out any) error {
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
		return errors.New(g.Redact(err.Error()))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return errors.New(g.Redact(err.Error()))
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
func (g *Repo) failure(resp *http.Response, data []byte) *Error {
	var doc struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(data, &doc)
	msg := termtext.SanitizeLine(g.Redact(doc.Message))
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	e := &Error{Status: resp.StatusCode, Message: msg}
	h := resp.Header
	retryAfter := h.Get("Retry-After")
	if resp.StatusCode == http.StatusTooManyRequests || (resp.StatusCode == http.StatusForbidden &&
		(h.Get("X-Ratelimit-Remaining") == "0" || retryAfter != "" || strings.Contains(strings.ToLower(msg), "rate limit"))) {
		e.RateLimited = true
		switch {
		case retryAfter != "":
			e.Wait = api.ParseRetryAfter(retryAfter, g.now())
		case h.Get("X-Ratelimit-Reset") != "":
			if secs, err := strconv.ParseInt(h.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
				e.Wait = max(time.Unix(secs, 0).Sub(g.now()), 0)
			}
		}
		if e.Wait <= 0 {
			e.Wait = time.Minute // GitHub's advice when it names no time
		}
	}
	return e
}

// Repository is owner/name; HasToken says whether a token is sent.
func (g *Repo) Repository() string { return g.repo }
func (g *Repo) HasToken() bool     { return g.token != "" }

// Redact hides the token in s.
func (g *Repo) Redact(s string) string {
	if g.token == "" {
		return s
	}
	return strings.ReplaceAll(s, g.token, "[REDACTED]")
}
