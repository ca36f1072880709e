package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/build"
	"github.com/testctl/testctl/pkg/codehost"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// ctrfSpecVersion is the CTRF specification the report follows: the one
// of the reference implementation it is tested with (npm ctrf@0.3.0).
const ctrfSpecVersion = "0.0.0"

// The CTRF document (Common Test Report Format), the fields testctl fills
// as the format's schema names them.
type ctrfReport struct {
	ReportFormat string      `json:"reportFormat"`
	SpecVersion  string      `json:"specVersion"`
	Timestamp    string      `json:"timestamp,omitempty"`
	GeneratedBy  string      `json:"generatedBy"`
	Results      ctrfResults `json:"results"`
}

type ctrfResults struct {
	Tool        ctrfTool         `json:"tool"`
	Summary     ctrfSummary      `json:"summary"`
	Tests       []ctrfTest       `json:"tests"`
	Environment *ctrfEnvironment `json:"environment,omitempty"`
	Extra       map[string]any   `json:"extra,omitempty"`
}

type ctrfTool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type ctrfSummary struct {
	Tests    int   `json:"tests"`
	Passed   int   `json:"passed"`
	Failed   int   `json:"failed"`
	Skipped  int   `json:"skipped"`
	Pending  int   `json:"pending"`
	Other    int   `json:"other"`
	Flaky    int   `json:"flaky"`
	Suites   int   `json:"suites"`
	Start    int64 `json:"start"`
	Stop     int64 `json:"stop"`
	Duration int64 `json:"duration"`
}

type ctrfEnvironment struct {
	BuildURL       string `json:"buildUrl,omitempty"`
	RepositoryName string `json:"repositoryName,omitempty"`
	Commit         string `json:"commit,omitempty"`
	BranchName     string `json:"branchName,omitempty"`
}

type ctrfTest struct {
	Name      string         `json:"name"`
	Status    string         `json:"status"`
	Duration  int64          `json:"duration"`
	Start     int64          `json:"start,omitempty"`
	Stop      int64          `json:"stop,omitempty"`
	Suite     []string       `json:"suite"`
	Message   string         `json:"message,omitempty"`
	Trace     string         `json:"trace,omitempty"`
	AI        string         `json:"ai,omitempty"`
	RawStatus string         `json:"rawStatus,omitempty"`
	Retries   int            `json:"retries,omitempty"`
	Flaky     bool           `json:"flaky,omitempty"`
	Extra     map[string]any `json:"extra,omitempty"`
}

// CTRF statuses.
const (
	ctrfPassed  = "passed"
	ctrfFailed  = "failed"
	ctrfSkipped = "skipped"
)

// WriteCTRFFile writes a CTRF report of v to path, atomically.
func WriteCTRFFile(path string, v verdict.Verdict, ev Evidence, getenv func(string) string, now time.Time) error {
	var b bytes.Buffer
	if err := WriteCTRF(&b, v, ev, getenv, now); err != nil {
		return err
	}
	return atomicfile.Write(path, b.Bytes(), 0o644) // read by the CI's other steps
}

// WriteCTRF writes one CTRF document of every run of v: one test per test
// case, each from the attempt it last ran in, and a run's own verdict as a
// test where JUnit's report has one.
func WriteCTRF(w io.Writer, v verdict.Verdict, ev Evidence, getenv func(string) string, now time.Time) error {
	doc := ctrfReport{ReportFormat: "CTRF", SpecVersion: ctrfSpecVersion, Timestamp: now.UTC().Format(time.RFC3339), GeneratedBy: "testctl",
		Results: ctrfResults{Tool: ctrfTool{Name: "testctl", Version: build.Current().Version}, Tests: []ctrfTest{},
			Environment: ctrfEnv(getenv)}}
	var start, stop time.Time
	runs := []map[string]any{}
	for _, r := range v.Runs {
		suite := []string{cmp.Or(ctrfText(r.Plan.Title()), "testctl")}
		for _, c := range r.Cases {
			doc.Results.Tests = append(doc.Results.Tests, ctrfCase(r, suite, c, v.Classified, ev))
		}
		if jc := runCase(r, suite[0]); jc != nil {
			t := ctrfTest{Name: jc.Name, Status: ctrfFailed, Suite: suite, Extra: ctrfRun(r)}
			for _, o := range []*JUnitOutcome{jc.Failure, jc.Error} {
				if o != nil {
					t.Message, t.RawStatus = o.Message, o.Type
				}
			}
			doc.Results.Tests = append(doc.Results.Tests, t)
		}
		if !r.StartedAt.IsZero() && (start.IsZero() || r.StartedAt.Before(start)) {
			start = r.StartedAt
		}
		stop = later(stop, r.FinishedAt)
		run := ctrfRun(r)
		run["plan"] = suite[0]
		run["verdict"] = verdict.Word(r.Code, false)
		runs = append(runs, run)
	}
	doc.Results.Extra = map[string]any{"runs": runs, "verdict": verdict.Word(v.Code, false)}
	s := &doc.Results.Summary
	s.Suites = len(v.Runs)
	for _, t := range doc.Results.Tests {
		s.Tests++
		switch t.Status {
		case ctrfPassed:
			s.Passed++
		case ctrfFailed:
			s.Failed++
		case ctrfSkipped:
			s.Skipped++
		}
		if t.Flaky {
			s.Flaky++
		}
	}
	// A run the service gave no times for spans the report's own time.
	stop = cmp.Or(later(stop, start), now)
	start = cmp.Or(start, stop)
	s.Start, s.Stop, s.Duration = start.UnixMilli(), stop.UnixMilli(), stop.Sub(start).Milliseconds()
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

func ctrfCase(r verdict.Run, suite []string, c verdict.Case, classified bool, ev Evidence) ctrfTest {
	t := ctrfTest{Name: cmp.Or(ctrfText(c.Name), ctrfText(c.ShortID), "(unnamed)"), Suite: suite,
		Message: ctrfText(c.ResultTitle), AI: ctrfText(c.EvaluationThought), RawStatus: ctrfText(verdict.CaseWord(c.RunTestCase))}
	if d, ok := caseDuration(c.RunTestCase); ok {
		t.Duration = d.Milliseconds()
		t.Start, t.Stop = api.Time(c.StartedAt).UnixMilli(), api.Time(c.FinishedAt).UnixMilli()
	}
	switch c.Class {
	case verdict.Failed, verdict.Errored:
		t.Status = ctrfFailed
	case verdict.Skipped, verdict.NotRun:
		t.Status = ctrfSkipped
	default: // passed, and flaky: passed on a retry
		t.Status = ctrfPassed
	}
	if c.Class == verdict.NotRun {
		t.Message = cmp.Or(t.Message, "still "+ctrfText(c.Status)+" when "+cmp.Or(r.Stop.Why(), "the wait ended"))
	}
	// Its earlier failures are the reruns before its last (--retry-failed).
	t.Flaky, t.Retries = c.Class == verdict.Flaky, len(c.Failures)
	extra := ctrfRun(r)
	extra["attempt"] = c.Attempt
	put := func(k, v string) {
		if v != "" {
			extra[k] = ctrfText(v)
		}
	}
	put("runShortId", c.RunShortID)
	put("runUrl", c.RunURL)
	put("runTestCaseShortId", c.ShortID)
	if c.Failure != "" && classified {
		put("failureClass", FailureWord(c))
	}
	if b := r.Baseline; b != nil {
		put("baselineBranch", b.Branch)
		put("baselineRunShortId", b.RunShortID)
	}
	if c.Class.DidNotPass() || c.Class == verdict.Flaky {
		put("evidence", ev.text(c.ShortID, evidence.Text))
	}
	if c.Class.DidNotPass() && t.Message == "" {
		t.Message = "test case ended " + ctrfText(verdict.CaseWord(c.RunTestCase))
	}
	t.Extra = extra
	return t
}

// ctrfRun is what a test's extra says of the run it belongs to.
func ctrfRun(r verdict.Run) map[string]any {
	m := map[string]any{}
	if r.ShortID != "" {
		m["runShortId"] = ctrfText(r.ShortID)
	}
	if r.URL != "" {
		m["runUrl"] = ctrfText(r.URL)
	}
	if r.CIRetry != nil {
		m["ciRetry"] = r.CIRetry.Action
		m["ciRetryNote"] = ctrfText(CIRetryText(r))
	}
	return m
}

// ctrfEnv is the build the report comes from, as the CI's variables
// name it; nil outside a CI that says.
func ctrfEnv(getenv func(string) string) *ctrfEnvironment {
	if getenv == nil {
		return nil
	}
	lookup := func(k string) (string, bool) { v := getenv(k); return v, v != "" }
	_, meta := codehost.DetectCI(lookup)
	env := ctrfEnvironment{BuildURL: buildURL(getenv), RepositoryName: meta.Repository, Commit: meta.Commit, BranchName: meta.Branch}
	if env == (ctrfEnvironment{}) {
		return nil
	}
	return &env
}

// buildURL is the CI's page of the build, where its variables give one.
func buildURL(getenv func(string) string) string {
	if id, repo := getenv("GITHUB_RUN_ID"), getenv("GITHUB_REPOSITORY"); getenv("GITHUB_ACTIONS") == "true" && id != "" && repo != "" {
		return strings.TrimRight(cmp.Or(getenv("GITHUB_SERVER_URL"), "https://github.com"), "/") + "/" + repo + "/actions/runs/" + id
	}
	// GitLab, Jenkins, CircleCI, Buildkite.
	return cmp.Or(getenv("CI_JOB_URL"), getenv("BUILD_URL"), getenv("CIRCLE_BUILD_URL"), getenv("BUILDKITE_BUILD_URL"))
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// ctrfText strips escape sequences and control characters, as every
// other report does.
func ctrfText(s string) string { return termtext.Sanitize(s) }
