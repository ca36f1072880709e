package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/shellwords"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// MaxAnnotations is how many annotations of a kind GitHub shows for one
// step (10 errors and 10 warnings); more are dropped unseen.
const MaxAnnotations = 10

// annotation is one test case that did not pass, ranked by how much a
// reader needs it: failed, then errored or cancelled, then skipped.
type annotation struct {
	rank       int
	level      string // error, or warning for a skip that does not fail the run
	title, msg string
}

// WriteAnnotations prints an annotation per test case that did not pass,
// so they show on the workflow run's page: ::error for failed, errored and
// cancelled ones, ::warning for skipped ones and flaky ones (passed only on
// a retry; ::error for skipped ones when a SKIPPED run
// fails because of --fail-on-skipped), and an ::error for a plan that was
// not started. GitHub shows only ten of a kind, so at most ten errors and ten
// warnings are printed, the most useful first, the last of a kind saying how
// many more are in the step summary: warnings never crowd out errors. A
// run the wait timed out on gets an ::error with the command that resumes
// the wait; a run the gate fails for a reason none of its test cases gives
// (FAILED with none failed, a result testctl does not know, ERROR, a flag)
// gets an ::error that says it.
func WriteAnnotations(w io.Writer, v verdict.Verdict, code int, ev Evidence, res Resume) {
	var all []annotation
	if code != v.Code {
		// The code the job ends with is not the runs': say it first.
		all = append(all, annotation{level: "error", title: fmt.Sprintf("testctl: exit %d (%s)", code, verdict.Word(code, false)),
			msg: fmt.Sprintf("%s; the runs' verdict: %s (exit %d)", RaisedWhy(code), verdict.Word(v.Code, false), v.Code)})
	}
	for _, r := range v.Runs {
		if r.NotStarted {
			title, msg := "testctl: "+r.Plan.What()+" was not started", FirstLine(r.Err.Error())
			if r.MaybeStarted {
				title = "testctl: " + r.Plan.What() + " may have started a run"
				if r.Look != "" {
					msg += ". Look for it with: " + r.Look
				}
			}
			all = append(all, annotation{level: "error", title: title, msg: msg})
			continue
		}
		if r.Stop == verdict.TimedOut {
			status := "not seen"
			if r.Detail != nil {
				status = cmp.Or(r.Detail.Status, status)
			}
			msg := "still " + status + " when the wait timed out; the run goes on"
			if !res.Sandbox {
				msg += ". Resume waiting with: " + shellwords.WaitCommand(res.Args, []string{r.ShortID})
			}
			all = append(all, annotation{level: "error", title: "testctl: " + runName(r) + " timed out", msg: msg})
		}
		if why := whyFailed(r); why != "" && r.Stop != verdict.TimedOut {
			// The gate fails and no test case says why: the run does.
			title := "testctl: " + runName(r) + " " + StatusText(r)
			if r.Class == verdict.RunNoVerdict {
				title = "testctl: " + runName(r) + ": no verdict"
			}
			all = append(all, annotation{level: "error", title: title, msg: why})
		}
		for _, c := range r.Cases {
			a := annotation{level: annotationLevel(r, c), title: fmt.Sprintf("testctl %s: %s", runName(r), c.Name)}
			if v.Classified && c.Failure != "" {
				// ::error only for what fails the gate; the class says why
				// a failure is a warning.
				a.title += " (" + FailureWord(c) + ")"
			}
			switch c.Class {
			case verdict.Errored:
				a.rank = 1
			case verdict.Failed:
			case verdict.Skipped, verdict.NotRun:
				a.rank = 2
			default:
				continue // flaky ones have their own, below
			}
			if c.Failure == verdict.Known || c.Failure == verdict.Quarantined {
				a.rank = max(a.rank, 1) // new failures first: what the change broke
			}
			a.msg = verdict.CaseWord(c.RunTestCase) + prefixed(": ", c.ResultTitle) + prefixed("\n", quarantineNote(c)) + prefixed("\n", ev.text(c.ShortID, evidence.FirstLine)) +
				prefixed("\n\n", c.EvaluationThought) + prefixed("\n", c.RunURL)
			all = append(all, a)
		}
		// A ::warning per test case that passed only on a retry: the step
		// may pass, but the flakiness shows on the run's page.
		for _, c := range r.Flaky() {
			all = append(all, annotation{rank: 2, level: annotationLevel(r, c), title: fmt.Sprintf("testctl %s: %s is flaky", runName(r), c.Name),
				msg: retryWords(r, c) + " after failing" +
					prefixed(": ", c.FirstFailure.ResultTitle) + prefixed("\n\n", c.FirstFailure.EvaluationThought)})
		}
	}
	slices.SortStableFunc(all, func(a, b annotation) int { return cmp.Compare(a.rank, b.rank) })
	total, shown := map[string]int{}, map[string]int{}
	for _, a := range all {
		total[a.level]++
	}
	for _, a := range all {
		n := shown[a.level]
		if n == MaxAnnotations {
			continue
		}
		shown[a.level] = n + 1
		if more := total[a.level] - MaxAnnotations; n == MaxAnnotations-1 && more > 0 {
			a.msg += fmt.Sprintf("\n\n(%d more %s: see the step summary)", more, moreOf[a.level])
		}
		fmt.Fprintf(w, "::%s title=%s::%s\n", a.level, escapeProperty(a.title), escapeData(a.msg))
	}
}

// annotationLevel is the annotation a test case of the run gets: "error"
// for one that fails the gate ("warning" for a known failure under
// --fail-on new and a quarantined one), and for a skipped or unrun one when
// --fail-on-skipped failed the run; "warning" for one skipped or unrun that
// did not, and for a flaky one; "" for one that passed.
func annotationLevel(r verdict.Run, c verdict.Case) string {
	switch c.Class {
	case verdict.Failed, verdict.Errored:
		if !c.FailsGate {
			return "warning"
		}
		return "error"
	case verdict.Skipped, verdict.NotRun:
		if r.Because == "--fail-on-skipped" {
			return "error"
		}
		return "warning"
	case verdict.Flaky:
		return "warning"
	}
	return ""
}

// runName names a run in annotations: its plan too, when it had one, so
// that with several plans each failure says which one it belongs to.
func runName(r verdict.Run) string {
	if t := r.Plan.Title(); t != "" && !r.Plan.TestCases {
		return "run " + r.ShortID + " (" + t + ")"
	}
	return "run " + r.ShortID
}

// moreOf names what the annotations of a level left out are.
var moreOf = map[string]string{"error": "test cases did not pass", "warning": "warnings (skipped, flaky, known or quarantined test cases)"}

// escapeData escapes a workflow command's message as the runner unescapes
// it; service text is sanitised first so no escape sequence reaches the log.
func escapeData(s string) string {
	s = termtext.Sanitize(s)
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty also escapes the separators of a command's properties.
func escapeProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(escapeData(s))
}
