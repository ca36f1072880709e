package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/verdict"
)

// Every report renders the one verdict: for any mix of statuses, attempts,
// timeouts, start failures and flags, the exit code, the JUnit counts and
// run-level elements, the step summary's headline and the outputs agree.
func TestReportsAgreeWithTheVerdict(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		recs := make([]verdict.Record, 1+rng.IntN(3))
		for j := range recs {
			recs[j] = randomRecord(rng, fmt.Sprintf("r%d", j))
		}
		o := verdict.Options{FailOnSkipped: rng.IntN(2) == 0, FailOnFlaky: rng.IntN(2) == 0}
		v := verdict.Decide(recs, o)
		if err := checkAgreement(v); err != nil {
			t.Fatalf("case %d (%+v): %v\nrecords: %s", i, o, err, describe(recs))
		}
	}
}

func checkAgreement(v verdict.Verdict) error {
	code := 0
	for _, r := range v.Runs {
		code = max(code, r.Code)
	}
	if code != v.Code {
		return fmt.Errorf("exit %d, runs' largest %d", v.Code, code)
	}
	var b bytes.Buffer
	if err := WriteJUnit(&b, v, nil); err != nil {
		return err
	}
	var doc JUnitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		return err
	}
	for i, r := range v.Runs {
		s := doc.Suites[i]
		// JUnit keeps every failure, those the gate lets through (known,
		// quarantined) too; a run the gate fails has at least one.
		bad := s.Failures+s.Errors > 0
		if r.Code != 0 && !bad || r.Code == 0 && s.Failures+s.Errors != r.Counts.Failed+r.Counts.Errored {
			return fmt.Errorf("run %d: exit %d but JUnit failures=%d errors=%d", i, r.Code, s.Failures, s.Errors)
		}
		runLevel := 0
		if len(s.Cases) > 0 && s.Cases[len(s.Cases)-1].Name == runCaseName {
			runLevel = 1
		}
		if s.Tests != len(r.Cases)+runLevel || len(s.Cases) != s.Tests {
			return fmt.Errorf("run %d: %d tests for %d test cases (+%d run-level)", i, s.Tests, len(r.Cases), runLevel)
		}
		failed := 0
		for _, c := range s.Cases[:len(r.Cases)] {
			if c.Failure != nil || c.Error != nil {
				failed++
			}
		}
		if failed != r.Counts.Failed+r.Counts.Errored {
			return fmt.Errorf("run %d: %d failing testcases, verdict counts %+v", i, failed, r.Counts)
		}
	}
	var md strings.Builder
	if err := WriteStepSummary(&md, v, v.Code, nil, Resume{}); err != nil {
		return err
	}
	head := fmt.Sprintf("## ✅ testctl: passed (exit %d)", v.Code)
	if v.Code != 0 {
		head = fmt.Sprintf("## ❌ testctl: failed (exit %d)", v.Code)
	}
	if !strings.HasPrefix(md.String(), head) {
		return fmt.Errorf("step summary starts %q, want %q", firstLineOf(md.String()), head)
	}
	var out strings.Builder
	if err := WriteOutputs(&out, v); err != nil {
		return err
	}
	var runs []struct {
		ShortID  string
		ExitCode int
	}
	js := out.String()[strings.Index(out.String(), "runs_json<<"):]
	js = strings.SplitN(js, "\n", 3)[1]
	if err := json.Unmarshal([]byte(js), &runs); err != nil {
		return err
	}
	k := 0
	for _, r := range v.Runs {
		if r.NotStarted {
			continue
		}
		if runs[k].ShortID != r.ShortID || runs[k].ExitCode != r.Code {
			return fmt.Errorf("runs_json %+v, run %s exit %d", runs[k], r.ShortID, r.Code)
		}
		k++
	}
	return nil
}

var (
	runStatuses  = []string{api.StatusCompleted, api.StatusCompleted, api.StatusCompleted, api.StatusError, api.StatusCancelled, api.StatusRunning}
	runResults   = []string{api.ResultPassed, api.ResultFailed, api.ResultSkipped, ""}
	caseStatuses = []string{api.StatusCompleted, api.StatusCompleted, api.StatusCompleted, api.StatusError, api.StatusCancelled, api.StatusRunning, api.StatusInitiated}
	caseResults  = []string{api.ResultPassed, api.ResultPassed, api.ResultFailed, api.ResultSkipped}
)

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func randomDetail(rng *rand.Rand, id string, names []string) *api.RunDetail {
	d := &api.RunDetail{ShortID: id, Status: pick(rng, runStatuses)}
	if res := pick(rng, runResults); res != "" && d.Status == api.StatusCompleted {
		d.Result = &res
	}
	for k, n := range names {
		c := api.RunTestCase{ShortID: fmt.Sprintf("%s-%d", id, k), Name: n, Status: pick(rng, caseStatuses)}
		if c.Status == api.StatusCompleted {
			c.Result = pick(rng, caseResults)
		}
		d.RunTestCases = append(d.RunTestCases, c)
	}
	return d
}

func randomRecord(rng *rand.Rand, id string) verdict.Record {
	switch rng.IntN(8) {
	case 0:
		return verdict.NotStartedRecord(verdict.Plan{ShortID: "pln-" + id}, &api.HTTPError{StatusCode: 404})
	case 1:
		return verdict.Record{ShortID: id, Err: errors.New("giving up")}
	case 2:
		return verdict.Record{ShortID: id, Stop: pick(rng, []verdict.Stop{verdict.TimedOut, verdict.Interrupted, verdict.Terminated})}
	}
	names := []string{"a", "b", "c", "d"}[:rng.IntN(5)]
	r := verdict.Record{ShortID: id, Plan: verdict.Plan{Name: "plan " + id}, RetryLimit: 2}
	for k := rng.IntN(3); k > 0; k-- {
		a := fmt.Sprintf("%s-a%d", id, k)
		d := randomDetail(rng, a, names)
		d.Status = api.StatusCompleted
		r.Earlier = append(r.Earlier, verdict.Attempt{ShortID: a, Detail: d})
	}
	sub := names
	if len(r.Earlier) > 0 && len(names) > 0 {
		sub = names[:rng.IntN(len(names)+1)] // a rerun runs some of them
	}
	r.Detail = randomDetail(rng, id, sub)
	if !api.IsTerminalStatus(r.Detail.Status) {
		r.Stop = verdict.TimedOut
	}
	return r
}

func describe(recs []verdict.Record) string {
	b, _ := json.Marshal(recs)
	return string(b)
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func strp(s string) *string { return &s }

func decide(recs []verdict.Record) verdict.Verdict { return verdict.Decide(recs, verdict.Options{}) }
