package runwait

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/baseline"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/flagcheck"
	"github.com/testctl/testctl/pkg/quarantine"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Defaults of the contract for run wait and run start --wait.
const (
	DefaultInterval = 5 * time.Second
	DefaultTimeout  = 60 * time.Minute
)

// Options are the flags of a wait on runs, which `run wait` and `run start
// --wait` share.
type Options struct {
	Interval      time.Duration
	Timeout       time.Duration
	FailOnSkipped bool
	// PassWithNoTests lets a run that ran no test case pass
	// (--pass-with-no-tests).
	PassWithNoTests bool
	JUnitFile       string
	// Heartbeat is how long the line-per-change view stays silent before
	// it prints a progress line; 0 never.
	Heartbeat time.Duration
	// RetryFailed is how many times the test cases of a FAILED run that
	// did not pass are rerun; FailOnFlaky fails a run with a test case
	// that passed only on a retry.
	RetryFailed int
	FailOnFlaky bool
	// Evidence is how many test cases that did not pass get their
	// evidence gathered (--evidence); HTMLFile is --html.
	Evidence int
	HTMLFile string
	// CTRFFile is --ctrf: the runs in the Common Test Report Format.
	CTRFFile string
	// DotenvFile is --dotenv: the outputs of the CI step as KEY=value
	// lines, for GitLab's dotenv report. cmd/root writes it at the
	// command's end (pkg/stepoutputs), when the exit code is final; it
	// needs no --wait.
	DotenvFile string
	// Comment keeps one pull request (merge request) comment (--comment).
	Comment bool
	// Baseline is --baseline, the branch failures are compared with;
	// FailOn is --fail-on (new or any); QuarantineFile is --quarantine,
	// whose entries ValidateReport reads into Quarantine before anything
	// is sent.
	Baseline       string
	FailOn         string
	QuarantineFile string
	Quarantine     []verdict.Quarantine
	// quarantinePath is the file read ("" none); warned: its expired
	// entries were warned about. lookup is the baseline search Runs
	// started when the wait began.
	quarantinePath string
	warned         bool
	lookup         *baseline.Lookup
}

// verdictOptions are the verdict's options from the flags, assembled here
// for every command and tool that decides; the caller sets the day (Now)
// and the baseline search's result.
func (o Options) verdictOptions() verdict.Options {
	return verdict.Options{FailOnSkipped: o.FailOnSkipped, FailOnFlaky: o.FailOnFlaky, PassWithNoTests: o.PassWithNoTests,
		FailOn: verdict.FailOn(o.FailOn), BaselineBranch: o.Baseline, Quarantine: o.Quarantine}
}

// DefaultVerdictOptions are the verdict options of a `run wait` given no
// verdict flag, on the day now: the default quarantine file when it is
// there. A verdict said outside a wait (MCP get_run's "run wait would
// exit N") is decided with them, so that it is the wait's.
func DefaultVerdictOptions(ctx context.Context, now time.Time) (verdict.Options, error) {
	var o Options
	if err := o.loadQuarantine(ctx); err != nil {
		return verdict.Options{}, err
	}
	vo := o.verdictOptions()
	vo.Now = now
	return vo, nil
}

// FailOnValues are the values of --fail-on, for completion.
var FailOnValues = []string{string(verdict.FailOnAny), string(verdict.FailOnNew)}

// flagNames are the flags AddFlags registers.
var flagNames = []string{"interval", "timeout", "fail-on-skipped", "junit", "heartbeat", "retry-failed", "fail-on-flaky", "evidence", "html", "ctrf", "comment",
	"baseline", "fail-on", "quarantine", "pass-with-no-tests"}

// AddFlags registers the wait flags on fs, bound to o, with the
// contract's defaults.
func AddFlags(fs *pflag.FlagSet, o *Options) {
	fs.DurationVar(&o.Interval, "interval", DefaultInterval, "time between two polls of a run (at least 1s unless the service is on loopback)")
	fs.DurationVar(&o.Timeout, "timeout", DefaultTimeout, "give up waiting after this long (exit 7; the run goes on)")
	fs.IntVar(&o.RetryFailed, "retry-failed", 0, "rerun the test cases of a FAILED run that did not pass up to `N` times; the verdict is over every test case's last result")
	AddReportFlags(fs, o)
	fs.DurationVar(&o.Heartbeat, "heartbeat", DefaultHeartbeat, "off a terminal, print a progress line after this long without output, for CI watchdogs (0 off)")
}

// AddReportFlags registers the flags of the verdict and its reports, which
// `run report` shares with the wait.
func AddReportFlags(fs *pflag.FlagSet, o *Options) {
	fs.BoolVar(&o.FailOnSkipped, "fail-on-skipped", false, "exit 1 when a run or a test case was SKIPPED (else a warning)")
	fs.BoolVar(&o.FailOnFlaky, "fail-on-flaky", false, "exit 1 when a test case passed only on a retry (--retry-failed)")
	fs.BoolVar(&o.PassWithNoTests, "pass-with-no-tests", false, "pass a run that ran no test case instead of exiting 1")
	fs.StringVar(&o.JUnitFile, "junit", "", "write a JUnit XML report of the run(s) to `FILE`")
	fs.StringVar(&o.HTMLFile, "html", "", "write one self-contained HTML report of the run(s) to `FILE`")
	fs.StringVar(&o.CTRFFile, "ctrf", "", "write one CTRF JSON report of the run(s) to `FILE`")
	fs.BoolVar(&o.Comment, "comment", false, "keep one pull request (GitHub) or merge request (GitLab) comment with the verdict and the failure story, edited in place by every later run")
	fs.IntVar(&o.Evidence, "evidence", evidence.DefaultMax, "gather the evidence (failed requests, console errors, failed API calls, issues) of at most `N` test cases that did not pass (0 off)")
	fs.StringVar(&o.Baseline, "baseline", "", "class failures new or known against the plan's last COMPLETED run on `BRANCH`")
	fs.StringVar(&o.FailOn, "fail-on", string(verdict.FailOnAny), "fail the gate on `new|any` failures (new: known and quarantined ones pass)")
	fs.StringVar(&o.QuarantineFile, "quarantine", "", "`FILE` of test cases whose failures pass the gate until a date (default "+quarantine.DefaultFile+")")
	// Not a flag of the wait alone: run start and rerun take it without
	// --wait, as their outputs say what they started.
	fs.StringVar(&o.DotenvFile, stepoutputs.DotenvFlag, "", "write the outputs (exit code, verdict, runs' short ids and URLs) as KEY=value lines to `FILE`, for GitLab's dotenv report")
}

// ValidateReport checks the flags AddReportFlags registers.
func (o *Options) ValidateReport(ctx context.Context) error {
	if o.Evidence < 0 {
		return exitcode.FlagErrorf("--evidence must not be negative (0 gathers none)")
	}
	switch verdict.FailOn(o.FailOn) {
	case "", verdict.FailOnAny, verdict.FailOnNew: // "" is any, as verdict reads it
	default:
		return exitcode.FlagErrorf("--fail-on %q: use new (only new failures fail the gate) or any", o.FailOn)
	}
	if o.Baseline != "" && strings.TrimSpace(o.Baseline) == "" || strings.ContainsAny(o.Baseline, "\n\r") {
		return exitcode.FlagErrorf("--baseline %q is not a branch name: give the branch to compare with, such as main", o.Baseline)
	}
	if err := o.loadQuarantine(ctx); err != nil {
		return err
	}
	if err := flagcheck.ValidateReportPath("junit", o.JUnitFile); err != nil {
		return err
	}
	if err := flagcheck.ValidateReportPath(stepoutputs.DotenvFlag, o.DotenvFile); err != nil {
		return err
	}
	if err := flagcheck.ValidateReportPath("ctrf", o.CTRFFile); err != nil {
		return err
	}
	return flagcheck.ValidateReportPath("html", o.HTMLFile)
}

// Validate checks the flag values before anything is sent, so a typo in a CI
// step fails at once instead of after a run has been started.
func (o *Options) Validate(ctx context.Context, baseURL string) error {
	if err := flagcheck.ValidatePositiveDuration("interval", o.Interval); err != nil {
		return err
	}
	if err := flagcheck.ValidatePositiveDuration("timeout", o.Timeout); err != nil {
		return err
	}
	if o.RetryFailed < 0 {
		return exitcode.FlagErrorf("--retry-failed must not be negative (0 reruns nothing)")
	}
	if o.Heartbeat < 0 {
		return exitcode.FlagErrorf("--heartbeat must not be negative (0 turns it off)")
	}
	if err := flagcheck.ValidateInterval("interval", o.Interval, baseURL); err != nil {
		return err
	}
	return o.ValidateReport(ctx)
}

// ValidateWith checks the wait flags of a command where waiting is
// optional (`run start`, `run rerun`): with --wait they are validated, and
// without it any of them given is a mistake worth saying before a run
// starts. changed reports whether a flag was given.
func (o *Options) ValidateWith(ctx context.Context, baseURL func() (string, error), wait bool, changed func(string) bool) error {
	if wait {
		url, err := baseURL()
		if err != nil {
			return err
		}
		return o.Validate(ctx, url)
	}
	for _, name := range flagNames {
		if changed(name) {
			return exitcode.FlagErrorf("--%s applies to --wait; add --wait or drop it", name)
		}
	}
	return flagcheck.ValidateReportPath(stepoutputs.DotenvFlag, o.DotenvFile)
}

// loadQuarantine reads --quarantine, or the default file when it exists,
// once: the checks run before anything is sent, and their result is kept.
func (o *Options) loadQuarantine(ctx context.Context) error {
	if o.quarantinePath != "" {
		return nil
	}
	path := cmp.Or(o.QuarantineFile, quarantine.DefaultFile)
	qs, err := quarantine.Load(ctx, path, o.QuarantineFile != "")
	if err != nil {
		return err
	}
	if qs != nil {
		o.Quarantine, o.quarantinePath = qs, path
	}
	return nil
}

// warnExpired warns, once, as the wait begins, of the quarantine entries
// whose date has passed (their failures fail the gate again), and of
// --fail-on new with nothing to tell a new failure from a known one.
func (o *Options) warnExpired(d Deps) {
	if o.warned {
		return
	}
	o.warned = true
	for _, w := range quarantine.Expired(o.quarantinePath, o.Quarantine, d.Clock.Now()) {
		fmt.Fprintf(d.IO.ErrOut, "warning: %s\n", termtext.SanitizeLine(w))
	}
	if verdict.FailOn(o.FailOn) == verdict.FailOnNew && o.Baseline == "" && o.quarantinePath == "" {
		fmt.Fprintln(d.IO.ErrOut, "warning: --fail-on new without --baseline (and no quarantine file): "+
			"every failure is new without a baseline, so every failure fails the gate; add --baseline BRANCH to compare with that branch's runs")
	}
}
