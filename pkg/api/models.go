package api

import "time"

// Wire models for every resource of service-api.md section 2. Field names are
// the service's own, so JSON output of testctl carries them unchanged.
// Nullable fields are pointers; enum values are plain strings so that values
// this client does not know yet are kept rather than rejected.

// Run statuses and results (service-api.md section 3).
const (
	StatusInitiated = "INITIATED"
	StatusRunning   = "RUNNING"
	StatusCompleted = "COMPLETED"
	StatusError     = "ERROR"
	StatusCancelled = "CANCELLED"

	ResultPassed  = "PASSED"
	ResultFailed  = "FAILED"
	ResultSkipped = "SKIPPED"

	TriggerAPI      = "API"
	TriggerCodehost = "CODEHOST"
)

// IsTerminalStatus reports whether a run in this status will not change again.
func IsTerminalStatus(status string) bool {
	return status == StatusCompleted || status == StatusError || status == StatusCancelled
}

// StartRunRequest is the body of POST /v1/run (2.2).
type StartRunRequest struct {
	Trigger         string           `json:"trigger,omitempty"`
	Actor           string           `json:"actor,omitempty"`
	Branch          string           `json:"branch,omitempty"`
	CommitHash      string           `json:"commitHash,omitempty"`
	CommitMessage   string           `json:"commitMessage,omitempty"`
	Repository      string           `json:"repository,omitempty"`
	TestPlanShortID string           `json:"testPlanShortId,omitempty"`
	TestCaseIDs     []string         `json:"testCaseIds,omitempty"`
	Applications    []RunApplication `json:"applications,omitempty"`
	Notifications   []Notification   `json:"notifications,omitempty"`
	Parameters      *RunParameters   `json:"parameters,omitempty"`
	ProjectShortID  string           `json:"projectShortId,omitempty"`
}

// RunApplication is one entry of StartRunRequest.Applications.
type RunApplication struct {
	ApplicationShortID  string          `json:"applicationShortId,omitempty"`
	DevicePresetShortID string          `json:"devicePresetShortId,omitempty"`
	Environment         *RunEnvironment `json:"environment,omitempty"`
}

// RunEnvironment overrides the environment of one application for a run.
type RunEnvironment struct {
	ShortID                 string `json:"shortId,omitempty"`
	URL                     string `json:"url,omitempty"`
	Name                    string `json:"name,omitempty"`
	ApplicationBuildShortID string `json:"applicationBuildShortId,omitempty"`
}

// Notification is one per-run notification override. Type "none" suppresses
// all notifications, project defaults included.
type Notification struct {
	Type     string `json:"type"`
	Channel  string `json:"channel,omitempty"`
	Enabled  *bool  `json:"enabled,omitempty"`
	NotifyOn string `json:"notifyOn,omitempty"`
}

// RunParameters are run-time overrides; their inner shapes are not published,
// so they travel as opaque JSON.
type RunParameters struct {
	Configs              map[string]any `json:"configs,omitempty"`
	ConfigsByEnvironment map[string]any `json:"configsByEnvironment,omitempty"`
}

// RerunRequest is the body of POST /v1/run/{shortId} (service-notes.md):
// at most one of FailedOnly and ProjectTestCaseIDs; neither reruns all the
// run's test cases.
type RerunRequest struct {
	FailedOnly         bool     `json:"failedOnly,omitempty"`
	ProjectTestCaseIDs []string `json:"projectTestCaseIds,omitempty"`
	ProjectShortID     string   `json:"projectShortId,omitempty"`
}

// StartRunResponse is the response of POST /v1/run (2.3).
type StartRunResponse struct {
	Raw     `json:"-"`
	Success bool       `json:"success"`
	Run     StartedRun `json:"run"`
}

// StartedRun describes the run that POST /v1/run created.
type StartedRun struct {
	ID        string    `json:"id"`
	ShortID   string    `json:"shortId"`
	URL       string    `json:"url"`
	TestCount int       `json:"testCount"`
	TestPlan  *TestPlan `json:"testPlan,omitempty"`
}

// TestPlan names the plan a run was started from.
type TestPlan struct {
	Name    string `json:"name"`
	ShortID string `json:"shortId"`
}

// RunDetail is the response of GET /v1/run/{shortId} (2.4).
type RunDetail struct {
	Raw          `json:"-"`
	ID           string        `json:"id"`
	ShortID      string        `json:"shortId"`
	Status       string        `json:"status"`
	Result       *string       `json:"result"`
	RunTestCases []RunTestCase `json:"runTestCases"`
	Issues       []Issue       `json:"issues,omitempty"`
	// TestPlan and URL are not in the published run detail: read when the
	// service sends them, to name a run's reports after its plan.
	TestPlan *TestPlan `json:"testPlan,omitempty"`
	URL      string    `json:"url,omitempty"`
}

// ResultOrEmpty returns the run's result, or "" while it has none.
func (r *RunDetail) ResultOrEmpty() string {
	if r.Result == nil {
		return ""
	}
	return *r.Result
}

// RunTestCase is one test case within one run.
type RunTestCase struct {
	ID                string  `json:"id"`
	ShortID           string  `json:"shortId"`
	Name              string  `json:"name"`
	Status            string  `json:"status"`
	Result            string  `json:"result"`
	ResultTitle       string  `json:"resultTitle"`
	EvaluationThought string  `json:"evaluationThought"`
	PromptGoal        string  `json:"promptGoal"`
	PromptExamples    *string `json:"promptExamples"`
	// StartedAt and FinishedAt are not in the published run detail: read
	// when the service sends them, for the JUnit report's times.
	StartedAt  *string `json:"startedAt,omitempty"`
	FinishedAt *string `json:"finishedAt,omitempty"`
}

// Issue is a problem detected during a run.
type Issue struct {
	ID          string          `json:"id"`
	ShortID     string          `json:"shortId"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Severity    string          `json:"severity"`
	IssueType   string          `json:"issueType"`
	HelpURL     string          `json:"helpUrl"`
	Status      string          `json:"status"`
	Tags        []string        `json:"tags"`
	TestCases   []IssueTestCase `json:"testCases"`
}

// IssueTestCase names a test case an issue was seen in.
type IssueTestCase struct {
	ShortID string `json:"shortId"`
	Name    string `json:"name"`
}

// LegacyRunDetail is the older run detail served by the deprecated legacy
// address: failed test cases only, and a UUID id.
type LegacyRunDetail struct {
	Raw             `json:"-"`
	ID              string        `json:"id"`
	ShortID         string        `json:"shortId"`
	Status          string        `json:"status"`
	Result          *string       `json:"result"`
	FailedTestCases []RunTestCase `json:"failedTestCases"`
}

// RunSummary is one item of GET /v1/run (2.5).
type RunSummary struct {
	Raw                 `json:"-"`
	ShortID             string   `json:"shortId"`
	Status              string   `json:"status"`
	Result              *string  `json:"result"`
	Trigger             string   `json:"trigger"`
	Branch              *string  `json:"branch"`
	CommitHash          *string  `json:"commitHash"`
	TestPlanShortID     *string  `json:"testPlanShortId"`
	StartedAt           *string  `json:"startedAt"`
	FinishedAt          *string  `json:"finishedAt"`
	CreatedAt           string   `json:"createdAt"`
	URL                 string   `json:"url"`
	ApplicationShortIDs []string `json:"applicationShortIds"`
	PassedCount         int      `json:"passedCount"`
	FailedCount         int      `json:"failedCount"`
	ErroredCount        int      `json:"erroredCount"`
	SkippedCount        int      `json:"skippedCount"`
	CancelledCount      int      `json:"cancelledCount"`
	TotalCount          int      `json:"totalCount"`
}

// RunList is the response of GET /v1/run.
type RunList struct {
	Raw    `json:"-"`
	Runs   []RunSummary `json:"runs"`
	Total  int32        `json:"total"`
	Limit  int32        `json:"limit"`
	Offset int32        `json:"offset"`
}

// TestCase is one item of GET /v1/test-cases (2.6).
type TestCase struct {
	Raw                `json:"-"`
	ID                 string       `json:"id"`
	Name               string       `json:"name"`
	IsEnabled          bool         `json:"isEnabled"`
	Labels             []string     `json:"labels"`
	Classification     string       `json:"classification"`
	ApplicationShortID string       `json:"applicationShortId"`
	ApplicationName    string       `json:"applicationName"`
	Goal               string       `json:"goal"`
	CreatedAt          string       `json:"createdAt"`
	LastRun            *TestCaseRun `json:"lastRun"`
	// GenerationStatus is not in the published list shape, but the service
	// reports it for test cases created through the API; kept when present.
	GenerationStatus string `json:"generationStatus,omitempty"`
}

// TestCaseRun is the last run of a test case.
type TestCaseRun struct {
	ShortID     string `json:"shortId"`
	Status      string `json:"status"`
	Result      string `json:"result"`
	CompletedAt string `json:"completedAt"`
}

// TestCaseList is the response of GET /v1/test-cases.
type TestCaseList struct {
	Raw       `json:"-"`
	TestCases []TestCase `json:"testCases"`
	Total     int32      `json:"total"`
	Limit     int32      `json:"limit"`
	Offset    int32      `json:"offset"`
}

// CreateTestCaseRequest is the body of POST /v1/test-cases (2.7).
type CreateTestCaseRequest struct {
	Name                                  string   `json:"name"`
	Goal                                  string   `json:"goal"`
	ApplicationShortID                    string   `json:"applicationShortId"`
	ExpectedResult                        string   `json:"expectedResult,omitempty"`
	ConfigShortIDs                        []string `json:"configShortIds,omitempty"`
	ScenarioShortID                       string   `json:"scenarioShortId,omitempty"`
	ResumeFromDependencyProjectTestCaseID string   `json:"resumeFromDependencyProjectTestCaseId,omitempty"`
	WaitForDependenciesProjectTestCaseIDs []string `json:"waitForDependenciesProjectTestCaseIds,omitempty"`
}

// CreateTestCaseResponse is the success body of POST /v1/test-cases. Only the
// generation status is published; the other fields are kept as they come.
type CreateTestCaseResponse struct {
	Raw              `json:"-"`
	ID               string `json:"id,omitempty"`
	Name             string `json:"name,omitempty"`
	IsEnabled        bool   `json:"isEnabled"`
	GenerationStatus string `json:"generationStatus"`
}

// Generation statuses of a created test case.
const (
	GenerationGenerating = "GENERATING"
	GenerationCompleted  = "COMPLETED"
)

// TunnelStatus is the response of GET /v1/remote-tunnels/{runnerId}/status (2.8).
type TunnelStatus struct {
	Raw         `json:"-"`
	Status      string           `json:"status"`
	Connections int              `json:"connections"`
	Hostnames   []TunnelHostname `json:"hostnames"`
}

// Tunnel health states.
const (
	TunnelInactive = "inactive"
	TunnelDegraded = "degraded"
	TunnelHealthy  = "healthy"
)

// TunnelHealthFor derives a tunnel's health from its connection count, as the
// service does: none inactive, 1 to 3 degraded, 4 or more healthy.
func TunnelHealthFor(connections int) string {
	switch {
	case connections <= 0:
		return TunnelInactive
	case connections <= 3:
		return TunnelDegraded
	default:
		return TunnelHealthy
	}
}

// TunnelHostname is one public hostname of a tunnel.
type TunnelHostname struct {
	LocalPort int    `json:"localPort"`
	URL       string `json:"url"`
}

// Log kinds as the service spells them.
const (
	LogKindNetwork  = "network"
	LogKindConsole  = "console"
	LogKindAPICalls = "apiCalls"
)

// LogsQuery holds the filters of GET /v1/run-test-case/{shortId}/logs (2.9).
type LogsQuery struct {
	Kind            string
	URLPattern      string
	StatusFilter    string
	IncludeWarnings bool
	IncludeInfo     bool
}

// LogsResponse is the response of the logs operation.
type LogsResponse struct {
	Raw                `json:"-"`
	RunTestCaseShortID string         `json:"runTestCaseShortId"`
	Kind               string         `json:"kind"`
	TotalMatched       int32          `json:"totalMatched"`
	Returned           int32          `json:"returned"`
	HasMore            bool           `json:"hasMore"`
	Message            string         `json:"message,omitempty"`
	Network            []NetworkEntry `json:"network,omitempty"`
	Console            []ConsoleEntry `json:"console,omitempty"`
	APICalls           []APICallEntry `json:"apiCalls,omitempty"`
}

// NetworkEntry is one browser network request. StatusCode 0 means the request
// never completed.
type NetworkEntry struct {
	URL                string   `json:"url"`
	Method             string   `json:"method"`
	StatusCode         int32    `json:"statusCode"`
	DurationMs         *int32   `json:"durationMs"`
	IsError            bool     `json:"isError"`
	ErrorText          string   `json:"errorText,omitempty"`
	CrossOriginInfo    string   `json:"crossOriginInfo,omitempty"`
	CustomExtraHeaders []string `json:"customExtraHeaders,omitempty"`
	// RelativeTimestampMs is when the request started, in milliseconds
	// since the test case's first captured entry. The published API gives
	// network entries no time; read it when the service sends it, and
	// expect it absent.
	RelativeTimestampMs *int64 `json:"relativeTimestampMs,omitempty"`
}

// ConsoleEntry is one browser console message.
type ConsoleEntry struct {
	Level                    string  `json:"level"`
	Message                  string  `json:"message"`
	Source                   *string `json:"source,omitempty"`
	Line                     *int32  `json:"line,omitempty"`
	Column                   *int32  `json:"column,omitempty"`
	RelativeTimestampSeconds int32   `json:"relativeTimestampSeconds"`
}

// APICallEntry is one server-side call made by the agent in an API test.
type APICallEntry struct {
	URL                   string            `json:"url"`
	Method                string            `json:"method"`
	StatusCode            *int32            `json:"statusCode"`
	Success               bool              `json:"success"`
	DurationMs            *int32            `json:"durationMs"`
	TextResult            *string           `json:"textResult,omitempty"`
	RequestHeaders        map[string]string `json:"requestHeaders,omitempty"`
	RequestBody           string            `json:"requestBody,omitempty"`
	RequestBodyTruncated  bool              `json:"requestBodyTruncated,omitempty"`
	ResponseBody          string            `json:"responseBody,omitempty"`
	ResponseBodyTruncated bool              `json:"responseBodyTruncated,omitempty"`
	ErrorMessage          string            `json:"errorMessage,omitempty"`
	// RelativeTimestampMs: as NetworkEntry's, optional.
	RelativeTimestampMs *int64 `json:"relativeTimestampMs,omitempty"`
}

// ErrorBody is the service's error shape; the legacy address used statusText.
type ErrorBody struct {
	Message    string `json:"message,omitempty"`
	StatusText string `json:"statusText,omitempty"`
}

// Time reads one of the service's optional timestamps; zero when absent or
// unreadable (a report then has no time rather than a wrong one).
func Time(s *string) time.Time {
	if s == nil {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return time.Time{}
	}
	return t
}
