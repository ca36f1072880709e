package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/verdict"
)

// oracleCode is the exit code docs/exit-codes.md gives a run, written from
// the table alone, without pkg/verdict: the reference the verdict and every
// report are checked against.
//
//	0  COMPLETED with PASSED (SKIPPED too, unless --fail-on-skipped)
//	1  COMPLETED with FAILED (or SKIPPED with --fail-on-skipped), a test case
//	   that did not pass in the attempt it last ran in, a result testctl does
//	   not know, a flaky test case with --fail-on-flaky, a run that ran no
//	   test case unless --pass-with-no-tests
//	3  ERROR or CANCELLED
//	7  still in progress when the wait ended (--timeout, or a report of a run
//	   going on)
//	130, 143  the wait was interrupted or terminated
//	the error's own code: a start that failed, polling that failed for good
//	6  a rerun of --retry-failed lost in a service failure (a refusal is a
//	   warning: the run's own code stands)
//
// and, from docs/ci.md, a test case that did not pass is quarantined when
// an entry names it until today or later (it fails the gate no more), else
// known when the baseline run of its plan had it and it did not pass
// there, else new; with --fail-on new only new failures (and those whose
// quarantine expired) fail the gate, with --fail-on any known ones too.
func oracleCode(r verdict.Record, o oracleOptions) int {
	failOnSkipped, failOnFlaky := o.failOnSkipped, o.failOnFlaky
	switch {
	case r.NotStarted, r.Err != nil:
		return exitcode.Of(r.Err)
	case r.Stop == verdict.Interrupted:
		return 130
	case r.Stop == verdict.Terminated:
		return 143
	case r.Stop != "":
		return 7
	case r.Detail == nil:
		return 6
	}
	code := 0
	switch status, result := r.Detail.Status, r.Detail.ResultOrEmpty(); {
	case status == "ERROR" || status == "CANCELLED":
		code = 3
	case status != "COMPLETED" && status != "ERROR" && status != "CANCELLED":
		code = 7 // not an end testctl knows: nothing says the run ended
	default:
		passed, skipped, failedNames, flaky := oracleCases(r)
		gating := 0
		for _, name := range failedNames {
			until, quarantined := o.quarantine[name]
			switch {
			case quarantined && !until.Before(o.today):
			case quarantined, !o.failOnNew:
				gating++ // expired, or any failure fails under --fail-on any
			case !o.baselineFailing[name]:
				gating++ // new
			}
		}
		excused := len(failedNames) > 0 && result == "FAILED"
		switch {
		case gating > 0 || (result != "PASSED" && result != "SKIPPED" && !excused):
			code = 1
		case !o.passWithNoTests && passed+skipped+len(failedNames)+flaky == 0:
			code = 1
		case failOnSkipped && (result == "SKIPPED" || skipped > 0):
			code = 1
		case failOnFlaky && flaky > 0:
			code = 1
		}
	}
	if code != 7 && r.RerunErr != nil && exitcode.Of(r.RerunErr) == 6 {
		code = max(code, 6)
	}
	return code
}

// oracleCases classes each test case by the attempt it last ran in: a test
// case that did not pass there counts against the run; one that passed
// there after failing before is flaky; skipped and unfinished ones are
// skipped for --fail-on-skipped.
func oracleCases(r verdict.Record) (passed, skipped int, failed []string, flaky int) {
	type last struct {
		tc        api.RunTestCase
		runEnded  bool
		failedYet bool
	}
	byName := map[string]*last{}
	var order []string
	for _, a := range r.Attempts() {
		if a.Detail == nil {
			continue
		}
		ended := a.Detail.Status == "COMPLETED" || a.Detail.Status == "ERROR" || a.Detail.Status == "CANCELLED"
		for _, tc := range a.Detail.RunTestCases {
			l, ok := byName[tc.Name]
			if !ok {
				l = &last{}
				byName[tc.Name] = l
				order = append(order, tc.Name)
			} else if !oraclePassed(l.tc) && oracleDidNotPass(l.tc, l.runEnded) {
				l.failedYet = true
			}
			l.tc, l.runEnded = tc, ended
		}
	}
	for _, n := range order {
		l := byName[n]
		switch {
		case oraclePassed(l.tc) && l.failedYet:
			flaky++
		case oraclePassed(l.tc):
			passed++
		case oracleDidNotPass(l.tc, l.runEnded):
			failed = append(failed, n)
		default:
			skipped++
		}
	}
	return
}

func oraclePassed(tc api.RunTestCase) bool { return tc.Status == "COMPLETED" && tc.Result == "PASSED" }

// oracleDidNotPass: failed (COMPLETED with anything but PASSED or SKIPPED),
// errored (ERROR, CANCELLED, a status testctl does not know), or unfinished
// in a run that ended.
func oracleDidNotPass(tc api.RunTestCase, runEnded bool) bool {
	switch tc.Status {
	case "COMPLETED":
		return tc.Result != "PASSED" && tc.Result != "SKIPPED"
	case "RUNNING", "INITIATED":
		return runEnded
	}
	return true
}

var (
	oracleRunStatuses  = []string{"COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED", "ERROR", "CANCELLED", "RUNNING", "INITIATED", "PAUSED"}
	oracleRunResults   = []string{"PASSED", "PASSED", "FAILED", "SKIPPED", "", "BLOCKED", "FLAKY"}
	oracleCaseStatuses = []string{"COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED", "ERROR", "CANCELLED", "RUNNING", "INITIATED", "QUARANTINED"}
	oracleCaseResults  = []string{"PASSED", "PASSED", "PASSED", "FAILED", "SKIPPED", "", "BLOCKED"}
	oracleErrors       = []error{&api.HTTPError{StatusCode: 404}, &api.HTTPError{StatusCode: 400}, &api.HTTPError{StatusCode: 403},
		&api.HTTPError{StatusCode: 502}, &api.TransportError{Err: errors.New("dial tcp: no such host")}}
)

// oracleRecord is any record a wait, a report or a start can leave: every
// status and result, values testctl does not know, attempts whose run
// result and test case results disagree, timeouts, signals, start and
// polling failures, refused and lost reruns.
func oracleRecord(rng *rand.Rand, id string) verdict.Record {
	switch rng.IntN(10) {
	case 0:
		return verdict.NotStartedRecord(verdict.Plan{ShortID: "pln-" + id}, pick(rng, oracleErrors))
	case 1:
		return verdict.Record{ShortID: id, Err: pick(rng, oracleErrors)}
	case 2:
		return verdict.Record{ShortID: id, Stop: pick(rng, []verdict.Stop{verdict.TimedOut, verdict.Interrupted, verdict.Terminated})}
	}
	names := []string{"Login", "Checkout", "Search", "Pay"}[:rng.IntN(5)]
	detail := func(aid string, names []string, final bool) *api.RunDetail {
		d := &api.RunDetail{ShortID: aid, Status: pick(rng, oracleRunStatuses)}
		if final {
			d.Status = "COMPLETED"
		}
		if res := pick(rng, oracleRunResults); res != "" {
			d.Result = &res
		}
		for k, n := range names {
			c := api.RunTestCase{ShortID: fmt.Sprintf("%s-%d", aid, k), Name: n, Status: pick(rng, oracleCaseStatuses)}
			if c.Status == "COMPLETED" {
				c.Result = pick(rng, oracleCaseResults)
			}
			d.RunTestCases = append(d.RunTestCases, c)
		}
		return d
	}
	r := verdict.Record{ShortID: id, Plan: verdict.Plan{Name: "plan " + id, ShortID: "pln-" + id}, RetryLimit: 2}
	for k := rng.IntN(3); k > 0; k-- {
		aid := fmt.Sprintf("%s-a%d", id, k)
		r.Earlier = append(r.Earlier, verdict.Attempt{ShortID: aid, Detail: detail(aid, names, true)})
	}
	sub := names
	if len(r.Earlier) > 0 && len(names) > 0 {
		sub = names[:rng.IntN(len(names)+1)] // a rerun runs some of them
	}
	r.Detail = detail(id, sub, false)
	switch s := r.Detail.Status; {
	case (s == "RUNNING" || s == "INITIATED" || s == "PAUSED") && rng.IntN(4) > 0:
		r.Stop = pick(rng, []verdict.Stop{verdict.TimedOut, verdict.Interrupted, verdict.Terminated, verdict.Unfinished})
	case rng.IntN(6) == 0:
		r.RerunErr = pick(rng, oracleErrors)
	}
	if len(r.Earlier) > 0 && rng.IntN(3) == 0 {
		// A retried CI job took up its earlier attempt's runs: reused or
		// waited on (the last attempt its), or its failures rerun (some of
		// Earlier its, the rest this job's own --retry-failed reruns). The
		// verdict merges the attempts as --retry-failed's: the reference
		// knows nothing of it.
		ci := &verdict.CIRetry{Action: pick(rng, []string{verdict.CIReused, verdict.CIWaited, verdict.CIRerunFailed}), Run: "e-" + id, Attempt: 1}
		ci.Inherited = len(r.Earlier) + 1
		if ci.Action == verdict.CIRerunFailed {
			ci.Inherited = 1 + rng.IntN(len(r.Earlier))
		}
		r.CIRetry = ci
		r.RetryLimit = max(0, len(r.Earlier)-ci.Inherited) // the reruns this job made, no more
	}
	return r
}

// The verdict and every report against the reference: the command's exit
// code, each run's, JUnit's failures and errors, the step summary's
// headline, the annotations, the outputs and the terminal summary, and the
// code the reports' multiplexer returns, also when stdout's reader has gone.
func TestReportsAgreeWithTheReference(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("TESTCTL_ORACLE_SEED"); s != "" {
		_, _ = fmt.Sscan(s, &seed)
	}
	rng := rand.New(rand.NewPCG(seed, 29))
	dir := t.TempDir()
	// stdout is a pipe whose reader has gone, as in `testctl … | head`.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Close()
	defer w.Close()
	gone := iostreams.Stdout(w)
	for i := 0; i < 1000; i++ {
		recs := make([]verdict.Record, 1+rng.IntN(3))
		for j := range recs {
			recs[j] = oracleRecord(rng, fmt.Sprintf("r%d", j))
		}
		o, ref := oracleClasses(rng, recs)
		if err := checkOracle(dir, gone, recs, o, ref); err != nil {
			t.Fatalf("seed %d, case %d (%+v): %v\nrecords: %s", seed, i, o, err, describe(recs))
		}
	}
}

// oracleOptions are the flags as the reference reads them: the baseline
// as the names that did not pass there, the quarantine as each name's
// last day.
type oracleOptions struct {
	failOnSkipped, failOnFlaky, failOnNew bool
	passWithNoTests                       bool
	baselineFailing                       map[string]bool
	quarantine                            map[string]time.Time
	today                                 time.Time
}

// oracleClasses draws the flags of a verdict, with a baseline run (of every
// plan, the same test cases) and a quarantine file half the time, and the
// same in the reference's terms.
func oracleClasses(rng *rand.Rand, recs []verdict.Record) (verdict.Options, oracleOptions) {
	o := verdict.Options{FailOnSkipped: rng.IntN(2) == 0, FailOnFlaky: rng.IntN(2) == 0, PassWithNoTests: rng.IntN(2) == 0,
		Now: time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)}
	ref := oracleOptions{failOnSkipped: o.FailOnSkipped, failOnFlaky: o.FailOnFlaky, passWithNoTests: o.PassWithNoTests, baselineFailing: map[string]bool{},
		quarantine: map[string]time.Time{}, today: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)}
	if rng.IntN(2) == 0 {
		o.FailOn, ref.failOnNew = verdict.FailOnNew, true
	}
	names := []string{"Login", "Checkout", "Search", "Pay"}
	if rng.IntN(2) == 0 {
		o.BaselineBranch, o.Baselines = "main", map[string]*verdict.Baseline{}
		var base []api.RunTestCase
		for _, n := range names {
			switch rng.IntN(4) {
			case 0: // not in the baseline run
			case 1:
				base = append(base, api.RunTestCase{Name: n, Status: "COMPLETED", Result: "PASSED"})
			default:
				base = append(base, api.RunTestCase{Name: n, Status: "COMPLETED", Result: pick(rng, []string{"FAILED", "SKIPPED"})})
				ref.baselineFailing[n] = true
			}
		}
		found := rng.IntN(4) > 0
		if !found {
			ref.baselineFailing = map[string]bool{} // no baseline run: every failure new
		}
		for _, r := range recs {
			b := &verdict.Baseline{Branch: "main"}
			if found {
				b.RunShortID, b.Cases = "b-"+r.ShortID, base
			}
			o.Baselines[r.Plan.ShortID] = b
		}
	}
	if rng.IntN(2) == 0 {
		for _, n := range names {
			if rng.IntN(3) == 0 {
				until := ref.today.AddDate(0, 0, rng.IntN(5)-2) // expired, today, or later
				o.Quarantine = append(o.Quarantine, verdict.Quarantine{Name: n, Until: until})
				ref.quarantine[n] = until
			}
		}
	}
	return o, ref
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func checkOracle(dir string, stdout io.Writer, recs []verdict.Record, o verdict.Options, ref oracleOptions) error {
	want := 0
	for _, r := range recs {
		want = max(want, oracleCode(r, ref))
	}
	v := verdict.Decide(recs, o)
	for i, r := range v.Runs {
		if w := oracleCode(recs[i], ref); r.Code != w {
			return fmt.Errorf("run %d: exit %d, the reference says %d", i, r.Code, w)
		}
	}
	if v.Code != want {
		return fmt.Errorf("exit %d, the reference says %d", v.Code, want)
	}
	if err := checkAgreement(v); err != nil {
		return err
	}
	// Annotations: a run the gate fails has an ::error naming it, one it
	// passes has none.
	var ann bytes.Buffer
	WriteAnnotations(&ann, v, v.Code, nil, Resume{})
	if strings.Count(ann.String(), "::error ") < MaxAnnotations {
		for _, r := range v.Runs {
			name := r.ShortID
			if r.NotStarted {
				name = r.Plan.What()
			}
			has := regexp.MustCompile(`(?m)^::error title=testctl[^:]*` + regexp.QuoteMeta(strings.ReplaceAll(name, ":", "%3A"))).MatchString(ann.String())
			if has != (r.Code != 0) {
				return fmt.Errorf("run %s exit %d, its ::error: %v\n%s", name, r.Code, has, ann.String())
			}
		}
	}
	// The terminal summary: ✓ for a run the gate passes, never for one it fails.
	var sum bytes.Buffer
	testIOS, _, _, _ := iostreams.Test()
	WriteSummary(&sum, testIOS.ErrStyles(), 0, v, nil, Resume{})
	for _, r := range v.Runs {
		if r.NotStarted {
			continue
		}
		green := strings.Contains(sum.String(), "✓ Run "+r.ShortID+":")
		if green != (r.Code == 0) {
			return fmt.Errorf("run %s exit %d, summary marks it passed: %v\n%s", r.ShortID, r.Code, green, sum.String())
		}
		if r.CIRetry != nil && !strings.Contains(sum.String(), "  "+CIRetryText(r)+"\n") {
			return fmt.Errorf("run %s was taken up by a retried CI job (%s), the summary does not say so:\n%s", r.ShortID, r.CIRetry.Action, sum.String())
		}
	}
	// A retry is counted against --retry-failed only when this job made it.
	for _, m := range regexp.MustCompile(`passed on retry (-?\d+) of (\d+)`).FindAllStringSubmatch(sum.String(), -1) {
		if n, limit := atoi(m[1]), atoi(m[2]); n < 1 || n > limit {
			return fmt.Errorf("%q: not a retry of this job's --retry-failed\n%s", m[0], sum.String())
		}
	}
	// Every report of the end: the files first, the code the verdict's, a reader of
	// stdout that went away lowers nothing.
	for _, f := range []string{"summary.md", "out", "j.xml"} {
		_ = os.Remove(filepath.Join(dir, f))
	}
	ios, _, _, _ := iostreams.Test()
	ios.Out = stdout
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"), "GITHUB_OUTPUT": filepath.Join(dir, "out")}
	err := writeAll(Input{IO: ios, Getenv: func(k string) string { return env[k] }, Output: output.Options{Format: output.FormatJSON},
		JUnitFile: filepath.Join(dir, "j.xml"), Now: time.Now}, Outcome{Verdict: v})
	if got := exitcode.Of(err); got != want {
		return fmt.Errorf("the reports with stdout's reader gone: exit %d, the reference says %d (%v)", got, want, err)
	}
	return nil
}
