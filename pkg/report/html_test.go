package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/htmlreport"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// htmlData is the part of the HTML report's embedded data the page draws
// the verdict from.
type htmlData struct {
	Verdict  string         `json:"verdict"`
	Class    string         `json:"class"`
	ExitCode int            `json:"exitCode"`
	Failing  []string       `json:"failing"`
	RunsText string         `json:"runsText"`
	Counts   map[string]int `json:"counts"`
	Runs     []pageRunData  `json:"runs"`
}

type pageRunData struct {
	PlanShortID string `json:"planShortId"`
	ShortID     string `json:"shortId"`
	Class       string `json:"class"`
	NotStarted  bool   `json:"notStarted"`
	Attempts    []struct {
		Class string `json:"class"`
	} `json:"attempts"`
	History []struct {
		Class string `json:"class"`
	} `json:"history"`
	Cases []struct {
		Class   string `json:"class"`
		Name    string `json:"name"`
		Failure string `json:"failure"`
	} `json:"cases"`
}

func readHTMLData(t *testing.T, path string) htmlData {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), `id="`+htmlreport.DataElementID+`">`)
	js, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatal("the page has no data element")
	}
	var d htmlData
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// pageClass is a verdict class as the page spells it.
func pageClass(c verdict.Class) string { return strings.ReplaceAll(string(c), " ", "") }

// countsByClass are the non-zero counts under the page's class names.
func countsByClass(n verdict.Counts) map[string]int {
	m := map[string]int{}
	for c, k := range map[verdict.Class]int{verdict.Passed: n.Passed, verdict.Failed: n.Failed, verdict.Errored: n.Errored,
		verdict.Skipped: n.Skipped, verdict.Flaky: n.Flaky, verdict.NotRun: n.NotRun} {
		if k > 0 {
			m[pageClass(c)] = k
		}
	}
	return m
}

var (
	historyStatuses = []string{api.StatusCompleted, api.StatusCompleted, api.StatusError, api.StatusCancelled, api.StatusRunning, api.StatusInitiated, "PAUSED"}
	historyResults  = []string{api.ResultPassed, api.ResultFailed, api.ResultSkipped, "BLOCKED", ""}
)

// The HTML report draws the verdict and nothing else: for any mix of
// results (one testctl does not know among them), attempts, timeouts,
// runs without a verdict and plans that did not start, every run's class
// on the page is the verdict's (never passed for a run that fails the
// command), its test cases are counted as the verdict counts them, the
// plan's recent runs and the attempts are classed by the verdict, the
// plans that did not start come first and are not counted as runs, and
// the page is headlined by a run that gives the command its code.
func TestHTMLAgreesWithTheVerdict(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for i := range 300 {
		recs := make([]verdict.Record, 1+rng.IntN(3))
		history := map[string][]api.RunSummary{}
		for j := range recs {
			id := fmt.Sprintf("r%d", j)
			r := randomRecord(rng, id)
			if d := r.Detail; d != nil && d.Status == api.StatusCompleted && rng.IntN(4) == 0 {
				d.Result = strp("BLOCKED")
			}
			if r.Plan.ShortID == "" {
				r.Plan.ShortID = "pln-" + id
			}
			for k := rng.IntN(6); k > 0; k-- {
				h := api.RunSummary{ShortID: fmt.Sprintf("%s-h%d", id, k), Status: pick(rng, historyStatuses)}
				if res := pick(rng, historyResults); res != "" {
					h.Result = strp(res)
				}
				history[r.Plan.ShortID] = append(history[r.Plan.ShortID], h)
			}
			recs[j] = r
		}
		o := verdict.Options{FailOnSkipped: rng.IntN(2) == 0, FailOnFlaky: rng.IntN(2) == 0}
		v := verdict.Decide(recs, o)
		path := filepath.Join(dir, fmt.Sprintf("%d.html", i))
		if err := WriteHTMLFile(path, v, nil, history, nil, Resume{}); err != nil {
			t.Fatal(err)
		}
		if err := checkHTML(v, history, readHTMLData(t, path)); err != nil {
			t.Fatalf("case %d (%+v): %v\nrecords: %s", i, o, err, describe(recs))
		}
	}
}

// A run's mark on the page is never a pass's when its code is not 0.
func TestRunMark(t *testing.T) {
	retried := verdict.Record{ShortID: "r2", RetryLimit: 1,
		Detail:  endedWith(api.ResultPassed, testCase("r2-1", "B", api.StatusCompleted, api.ResultPassed)),
		Earlier: []verdict.Attempt{{ShortID: "r1", Detail: endedWith(api.ResultFailed, testCase("r1-1", "B", api.StatusCompleted, api.ResultFailed))}}}
	running := func() *api.RunDetail { return &api.RunDetail{Status: api.StatusRunning} }
	for _, c := range []struct {
		name string
		rec  verdict.Record
		o    verdict.Options
		want verdict.Class
	}{
		{"passed", verdict.Record{Detail: endedWith(api.ResultPassed)}, verdict.Options{PassWithNoTests: true}, verdict.Passed},
		{"skipped", verdict.Record{Detail: endedWith(api.ResultSkipped)}, verdict.Options{PassWithNoTests: true}, verdict.Skipped},
		{"passed with no test case", verdict.Record{Detail: endedWith(api.ResultPassed)}, verdict.Options{}, verdict.Failed},
		{"skipped, --fail-on-skipped", verdict.Record{Detail: endedWith(api.ResultSkipped)}, verdict.Options{FailOnSkipped: true}, verdict.Failed},
		{"flaky", retried, verdict.Options{}, verdict.Flaky},
		{"flaky, --fail-on-flaky", retried, verdict.Options{FailOnFlaky: true}, verdict.Failed},
		{"failed", verdict.Record{Detail: endedWith(api.ResultFailed)}, verdict.Options{}, verdict.Failed},
		{"a result testctl does not know", verdict.Record{Detail: endedWith("BLOCKED", testCase("1", "a", api.StatusCompleted, api.ResultPassed))}, verdict.Options{}, verdict.Failed},
		{"no result", verdict.Record{Detail: &api.RunDetail{Status: api.StatusCompleted}}, verdict.Options{}, verdict.Failed},
		{"passed with a failed test case", verdict.Record{Detail: endedWith(api.ResultPassed, testCase("1", "a", api.StatusCompleted, api.ResultFailed))}, verdict.Options{}, verdict.Failed},
		{"error", verdict.Record{Detail: &api.RunDetail{Status: api.StatusError}}, verdict.Options{}, verdict.Errored},
		{"cancelled", verdict.Record{Detail: &api.RunDetail{Status: api.StatusCancelled}}, verdict.Options{}, verdict.Errored},
		{"timed out", verdict.Record{Detail: running(), Stop: verdict.TimedOut}, verdict.Options{}, verdict.NotRun},
		{"terminated before an answer", verdict.Record{Stop: verdict.Terminated}, verdict.Options{}, verdict.NotRun},
		{"not final, no stop", verdict.Record{Detail: running()}, verdict.Options{}, verdict.NotRun},
		{"polling stopped", verdict.Record{Detail: running(), Err: &api.HTTPError{StatusCode: 404}}, verdict.Options{}, verdict.Errored},
		{"never read", verdict.Record{}, verdict.Options{}, verdict.Errored},
		{"not started", verdict.NotStartedRecord(verdict.Plan{ShortID: "p"}, &api.HTTPError{StatusCode: 404}), verdict.Options{}, verdict.Errored},
		{"rerun refused", verdict.Record{Detail: endedWith(api.ResultFailed), RerunErr: errors.New("x")}, verdict.Options{}, verdict.Failed},
	} {
		r := verdict.Decide([]verdict.Record{c.rec}, c.o).Runs[0]
		if got := runMark(r); got != c.want {
			t.Errorf("%s: class %q, want %q", c.name, got, c.want)
		}
		if r.Code != 0 && slices.Contains([]verdict.Class{verdict.Passed, verdict.Flaky, verdict.Skipped}, runMark(r)) {
			t.Errorf("%s: exit %d but class %q", c.name, r.Code, runMark(r))
		}
	}
	// A run the list shows ended is drawn as Decide would decide it alone.
	for _, status := range []string{api.StatusCompleted, api.StatusError, api.StatusCancelled} {
		for _, res := range []string{api.ResultPassed, api.ResultFailed, api.ResultSkipped, "BLOCKED", ""} {
			d := &api.RunDetail{Status: status}
			if res != "" {
				d.Result = strp(res)
			}
			// The run list shows no test case: it classes a run by its words alone.
			if got, want := verdict.SummaryClass(status, res), runMark(verdict.Decide([]verdict.Record{{Detail: d}}, verdict.Options{PassWithNoTests: true}).Runs[0]); got != want {
				t.Errorf("%s %s: the run list's class %q, the page's %q", status, res, got, want)
			}
		}
	}
}

func checkHTML(v verdict.Verdict, history map[string][]api.RunSummary, d htmlData) error {
	if d.ExitCode != v.Code {
		return fmt.Errorf("the page says exit %d, the verdict %d", d.ExitCode, v.Code)
	}
	if !slices.ContainsFunc(v.Runs, func(r verdict.Run) bool {
		return r.Code == v.Code && pageClass(runMark(r)) == d.Class && strings.ReplaceAll(r.Result, "_", " ") == d.Verdict
	}) {
		return fmt.Errorf("headline %q (%s): no run with the command's exit %d ended so", d.Verdict, d.Class, v.Code)
	}
	if got, want := d.Counts, countsByClass(v.Counts); fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("the page counts %v, the verdict %v", got, want)
	}
	if strings.Join(d.Failing, " ") != "failed errored" {
		return fmt.Errorf("the Failed filter shows %q", d.Failing)
	}
	if len(d.Runs) != len(v.Runs) {
		return fmt.Errorf("%d runs on the page, %d in the verdict", len(d.Runs), len(v.Runs))
	}
	notStarted := 0
	for i, p := range d.Runs {
		if p.NotStarted && i > 0 && !d.Runs[i-1].NotStarted {
			return fmt.Errorf("plan %s, not started, comes after a run", p.PlanShortID)
		}
	}
	for _, r := range v.Runs {
		i := slices.IndexFunc(d.Runs, func(p pageRunData) bool {
			return p.ShortID == r.ShortID && p.PlanShortID == r.Plan.ShortID
		})
		if i < 0 {
			return fmt.Errorf("run %s (plan %s) is not on the page", r.ShortID, r.Plan.ShortID)
		}
		p := d.Runs[i]
		if p.Class != pageClass(runMark(r)) {
			return fmt.Errorf("run %s: class %q on the page, %q in the verdict (%s, exit %d)", r.ShortID, p.Class, runMark(r), r.Result, r.Code)
		}
		if r.Code != 0 && slices.Contains([]string{"passed", "flaky", "skipped"}, p.Class) {
			return fmt.Errorf("run %s: exit %d drawn %s", r.ShortID, r.Code, p.Class)
		}
		if p.NotStarted != r.NotStarted {
			return fmt.Errorf("run %s: not started %v on the page, %v in the verdict", r.ShortID, p.NotStarted, r.NotStarted)
		}
		if r.NotStarted {
			notStarted++
		}
		byClass := map[string]int{}
		for _, c := range p.Cases {
			byClass[c.Class]++
		}
		if len(p.Cases) != len(r.Cases) || fmt.Sprint(byClass) != fmt.Sprint(countsByClass(r.Counts)) {
			return fmt.Errorf("run %s: test cases %v on the page, %v in the verdict", r.ShortID, byClass, r.Counts)
		}
		for k, a := range r.Attempts() {
			if len(p.Attempts) == 0 || a.Detail == nil {
				break
			}
			if want := pageClass(verdict.SummaryClass(a.Detail.Status, a.Detail.ResultOrEmpty())); p.Attempts[k].Class != want {
				return fmt.Errorf("run %s, attempt %d: class %q, want %q", r.ShortID, k+1, p.Attempts[k].Class, want)
			}
		}
		hs := history[r.Plan.ShortID]
		if len(p.History) != len(hs) {
			return fmt.Errorf("run %s: %d recent runs on the page, %d listed", r.ShortID, len(p.History), len(hs))
		}
		for k, h := range hs {
			res := ""
			if h.Result != nil {
				res = *h.Result
			}
			if want := pageClass(verdict.SummaryClass(h.Status, res)); p.History[k].Class != want {
				return fmt.Errorf("run %s, recent run %s (%s %s): class %q, want %q", r.ShortID, h.ShortID, h.Status, res, p.History[k].Class, want)
			}
		}
	}
	want := termtext.Plural(len(v.Runs)-notStarted, "run")
	if notStarted > 0 {
		want += " · " + termtext.Plural(notStarted, "plan") + " not started"
	}
	if d.RunsText != want {
		return fmt.Errorf("the page counts %q, want %q", d.RunsText, want)
	}
	return nil
}

// The HTML report's writer takes every word and class from the verdict: it
// names no status or result of its own.
func TestHTMLWriterDoesNotClassify(t *testing.T) {
	src, err := os.ReadFile("html.go")
	if err != nil {
		t.Fatal(err)
	}
	if m := statusWords.FindAllString(string(src), -1); len(m) > 0 {
		t.Errorf("html.go names statuses or results itself: %q; take them from pkg/verdict", m)
	}
}

// statusWords are the service's statuses and results, quoted, and the
// api package's names for them.
var statusWords = regexp.MustCompile(`["'](PASSED|FAILED|SKIPPED|COMPLETED|ERROR|CANCELLED|RUNNING|INITIATED)["']|api\.(Result|Status)[A-Z]`)
