package api

import (
	"cmp"
	"context"
	"net/url"
	"strconv"
	"strings"
)

// Query objects go on the wire as flat, exploded keys (service-notes.md).
//
// Every operation checks the ids it puts in its path (CheckID) before
// anything is sent, whoever gave them: the user, or the service (a run test
// case's short id, read from a run, is put in the path of its logs).

// StartRun starts a run (POST /v1/run). It is never repeated after the
// service may have seen it: a second POST could start a second run.
// pkg/reconcile decides what follows a lost answer.
func (c *Client) StartRun(ctx context.Context, req StartRunRequest) (*StartRunResponse, error) {
	req.ProjectShortID = cmp.Or(req.ProjectShortID, c.ProjectShortID)
	return c.start(ctx, "/v1/run", req)
}

// RerunRun starts a new run of a finished one (POST /v1/run/{shortId}):
// all its test cases, its failed ones (FailedOnly) or the given ones. It
// answers like StartRun and, like it, is never repeated after the service
// may have seen it.
func (c *Client) RerunRun(ctx context.Context, shortID string, req RerunRequest) (*StartRunResponse, error) {
	if err := CheckID(nounRun, shortID); err != nil {
		return nil, err
	}
	req.ProjectShortID = cmp.Or(req.ProjectShortID, c.ProjectShortID)
	return c.start(ctx, RerunPath(shortID), req)
}

// start sends a start or a rerun and refuses an answer that names no run.
func (c *Client) start(ctx context.Context, path string, req any) (*StartRunResponse, error) {
	out, err := postJSON[StartRunResponse](ctx, c, path, req)
	if err != nil {
		return nil, err
	}
	if err := checkStarted(path, out); err != nil {
		return nil, err
	}
	return out, nil
}

// RerunPath is the address of a rerun of the run shortID, which RerunRun
// checks before it is sent.
func RerunPath(shortID string) string { return "/v1/run/" + url.PathEscape(shortID) }

// GetRunOptions are the query members of get run.
type GetRunOptions struct {
	TestCases string // "all" or "failed"; empty sends nothing and the service returns no test cases
	Issues    bool
}

// GetRun reads one run (GET /v1/run/{shortId}).
func (c *Client) GetRun(ctx context.Context, shortID string, opts GetRunOptions) (*RunDetail, error) {
	q := c.projectQuery()
	setIf(q, "testCases", opts.TestCases)
	if opts.Issues {
		q.Set("issues", "true")
	}
	id, err := segment(nounRun, shortID)
	if err != nil {
		return nil, err
	}
	return getJSON[RunDetail](ctx, c, c.BaseURL, "/v1/run/"+id, q)
}

// GetLegacyRun reads a run from the deprecated legacy address.
func (c *Client) GetLegacyRun(ctx context.Context, projectUUID, shortID string) (*LegacyRunDetail, error) {
	project, err := segment(nounProject, projectUUID)
	if err != nil {
		return nil, err
	}
	id, err := segment(nounRun, shortID)
	if err != nil {
		return nil, err
	}
	return getJSON[LegacyRunDetail](ctx, c, c.LegacyBaseURL, "/projects/"+project+"/runs/"+id, nil)
}

// ListRunsOptions filter and page GET /v1/run. Filter names are the service
// notes' best guess; zero values are not sent.
type ListRunsOptions struct {
	Status, Result, Trigger, Branch, TestPlanShortID, CommitHash string
	Limit, Offset                                                int
}

// ListRuns reads one page of runs, newest first.
func (c *Client) ListRuns(ctx context.Context, opts ListRunsOptions) (*RunList, error) {
	return getJSON[RunList](ctx, c, c.BaseURL, "/v1/run", opts.query(c))
}

func (opts ListRunsOptions) query(c *Client) url.Values {
	q := c.projectQuery()
	setIf(q, "status", opts.Status)
	setIf(q, "result", opts.Result)
	setIf(q, "trigger", opts.Trigger)
	setIf(q, "branch", opts.Branch)
	setIf(q, "testPlanShortId", opts.TestPlanShortID)
	setIf(q, "commitHash", opts.CommitHash)
	setPaging(q, opts.Limit, opts.Offset)
	return q
}

// ListTestCasesOptions filter and page GET /v1/test-cases.
type ListTestCasesOptions struct {
	ApplicationShortID string
	Labels             []string
	IsEnabled          *bool
	Limit, Offset      int
}

// ListTestCases reads one page of the project's test cases.
func (c *Client) ListTestCases(ctx context.Context, opts ListTestCasesOptions) (*TestCaseList, error) {
	return getJSON[TestCaseList](ctx, c, c.BaseURL, "/v1/test-cases", opts.query(c))
}

func (opts ListTestCasesOptions) query(c *Client) url.Values {
	q := c.projectQuery()
	setIf(q, "applicationShortId", opts.ApplicationShortID)
	if len(opts.Labels) > 0 {
		q.Set("labels", strings.Join(opts.Labels, ","))
	}
	if opts.IsEnabled != nil {
		q.Set("isEnabled", strconv.FormatBool(*opts.IsEnabled))
	}
	setPaging(q, opts.Limit, opts.Offset)
	return q
}

// CreateTestCase creates a test case (POST /v1/test-cases). The project comes
// from the key, so no projectShortId is sent.
func (c *Client) CreateTestCase(ctx context.Context, req CreateTestCaseRequest) (*CreateTestCaseResponse, error) {
	return postJSON[CreateTestCaseResponse](ctx, c, "/v1/test-cases", req)
}

// GetRunTestCaseLogs reads the telemetry of one run test case.
func (c *Client) GetRunTestCaseLogs(ctx context.Context, shortID string, lq LogsQuery) (*LogsResponse, error) {
	q := c.projectQuery()
	q.Set("kind", lq.Kind)
	setIf(q, "urlPattern", lq.URLPattern)
	setIf(q, "statusFilter", lq.StatusFilter)
	if lq.IncludeWarnings {
		q.Set("includeWarnings", "true")
	}
	if lq.IncludeInfo {
		q.Set("includeInfo", "true")
	}
	id, err := segment(nounCase, shortID)
	if err != nil {
		return nil, err
	}
	return getJSON[LogsResponse](ctx, c, c.BaseURL, "/v1/run-test-case/"+id+"/logs", q)
}

// GetTunnelStatus reads a remote tunnel's health. When the service omits the
// status field it is derived from the connection count.
func (c *Client) GetTunnelStatus(ctx context.Context, runnerID string) (*TunnelStatus, error) {
	id, err := segment(nounRunner, runnerID)
	if err != nil {
		return nil, err
	}
	out, err := getJSON[TunnelStatus](ctx, c, c.BaseURL, "/v1/remote-tunnels/"+id+"/status", c.projectQuery())
	if err != nil {
		return nil, err
	}
	out.Status = cmp.Or(out.Status, TunnelHealthFor(out.Connections))
	return out, nil
}

func (c *Client) projectQuery() url.Values {
	q := url.Values{}
	setIf(q, "projectShortId", c.ProjectShortID)
	return q
}

func setIf(q url.Values, key, value string) {
	if value != "" {
		q.Set(key, value)
	}
}

func setPaging(q url.Values, limit, offset int) {
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if offset > 0 {
		q.Set("offset", strconv.Itoa(offset))
	}
}
