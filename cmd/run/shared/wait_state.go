package shared

import (
	"fmt"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// runState is what a wait knows about one run between two polls. Each run
// keeps its own schedule and failure streak, so one run's outage does not
// slow down or end the wait on another.
type runState struct {
	target WaitTarget
	// visibleBy is when a 404 stops meaning "created but not visible yet".
	visibleBy time.Time

	detail   *api.RunDetail  // the latest answer, nil until the first one
	status   string          // the run status last reported to the user
	finished map[string]bool // test cases already reported as finished

	failures int       // transient failures in a row
	nextAt   time.Time // when to poll next

	done bool  // no more polling: a final status, or an error below
	code int   // exit code once done
	err  error // why polling stopped without a verdict (404, outage)
}

func newRunState(t WaitTarget, waitStart time.Time) *runState {
	created := t.CreatedAt
	if created.IsZero() {
		created = waitStart
	}
	return &runState{target: t, visibleBy: created.Add(NotYetVisibleGrace),
		finished: map[string]bool{}, nextAt: waitStart}
}

// NotYetVisibleGrace is how long after a run's creation a 404 is taken as
// "not visible yet": the service may answer a fresh run's id with 404 for
// a moment.
const NotYetVisibleGrace = 30 * time.Second

// observe records a new answer and returns what changed since the previous
// one: whether the run status changed, and the test cases that finished.
func (s *runState) observe(d *api.RunDetail) (statusChanged bool, finished []api.RunTestCase) {
	s.detail = d
	if d.Status != s.status {
		s.status = d.Status
		statusChanged = true
	}
	for i, tc := range d.RunTestCases {
		if !api.IsTerminalStatus(tc.Status) {
			continue
		}
		key := caseKey(tc, i)
		if !s.finished[key] {
			s.finished[key] = true
			finished = append(finished, tc)
		}
	}
	return statusChanged, finished
}

// caseKey identifies a run test case across polls; the index is a last
// resort for a service that sends neither id.
func caseKey(tc api.RunTestCase, i int) string {
	switch {
	case tc.ShortID != "":
		return tc.ShortID
	case tc.ID != "":
		return tc.ID
	}
	return fmt.Sprintf("#%d", i)
}

// terminal reports whether the run has reached a final status.
func (s *runState) terminal() bool {
	return s.detail != nil && api.IsTerminalStatus(s.detail.Status)
}

// statusText is "COMPLETED · FAILED", or the bare status while there is no
// result.
func statusText(d *api.RunDetail) string {
	if r := d.ResultOrEmpty(); r != "" {
		return d.Status + " · " + r
	}
	return d.Status
}

// caseCounts tallies a run's test cases by what they mean for the user.
type caseCounts struct {
	passed, failed, skipped, errored, cancelled, running, queued int
}

func countCases(tcs []api.RunTestCase) caseCounts {
	var c caseCounts
	for _, tc := range tcs {
		switch {
		case tc.Status == api.StatusError:
			c.errored++
		case tc.Status == api.StatusCancelled:
			c.cancelled++
		case tc.Status == api.StatusRunning:
			c.running++
		case tc.Status != api.StatusCompleted:
			c.queued++
		case tc.Result == api.ResultPassed:
			c.passed++
		case tc.Result == api.ResultSkipped:
			c.skipped++
		default:
			// A COMPLETED case with FAILED or a result this client does
			// not know is counted as failed: it did not pass.
			c.failed++
		}
	}
	return c
}

// String lists the non-zero counts: "3 passed · 1 failed · 2 running".
func (c caseCounts) String() string {
	var parts []string
	add := func(n int, word string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, word))
		}
	}
	add(c.passed, "passed")
	add(c.failed, "failed")
	add(c.skipped, "skipped")
	add(c.errored, "errored")
	add(c.cancelled, "cancelled")
	add(c.running, "running")
	add(c.queued, "queued")
	if len(parts) == 0 {
		return "no test cases yet"
	}
	return strings.Join(parts, " · ")
}

// formatElapsed is mm:ss, or h:mm:ss from an hour on.
func formatElapsed(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%02d:%02d", m, s)
}
