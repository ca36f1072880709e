package list

import (
	"cmp"
	"fmt"
	"strconv"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

func headers() []string {
	return []string{"short id", "status", "branch", "commit", "plan", "pass", "fail", "other", "created"}
}

// rowFormat lays out one run summary as a table row.
type rowFormat struct {
	styles   *iostreams.Styles
	relative bool // "3m ago" on a terminal; RFC 3339 for scripts
	now      time.Time
}

func (f rowFormat) add(t *output.Table, r api.RunSummary) {
	result := deref(r.Result)
	state := r.Status
	switch {
	case result != "" && f.relative:
		// A result implies COMPLETED; on a terminal the room goes to the
		// other columns and colour says the rest.
		state = result
	case result != "":
		state += "/" + result
	}
	// A terminal too narrow for every column (rank 1 goes first) keeps
	// what tells runs apart and how they went: the id, state, failures
	// and age.
	t.AddField(r.ShortID, output.WithoutTruncation())
	t.AddField(state, output.WithColor(f.stateColor(r.Status, result)), output.WithoutTruncation())
	t.AddField(cmp.Or(deref(r.Branch), "-"), output.DropWhenNarrow(5))
	t.AddField(cmp.Or(shortCommit(deref(r.CommitHash)), "-"), output.DropWhenNarrow(1))
	t.AddField(cmp.Or(deref(r.TestPlanShortID), "-"), output.DropWhenNarrow(2))
	t.AddField(strconv.Itoa(r.PassedCount), output.WithColor(f.styles.Success), output.DropWhenNarrow(4))
	t.AddField(strconv.Itoa(r.FailedCount), output.WithColor(f.failedColor(r.FailedCount)))
	t.AddField(strconv.Itoa(r.ErroredCount+r.SkippedCount+r.CancelledCount), output.DropWhenNarrow(3))
	t.AddField(f.created(r.CreatedAt))
	t.EndRow()
}

// stateColor colours "STATUS/RESULT" by what matters most: the result once
// there is one, the status before; the same colours as report.ColorStatus.
func (f rowFormat) stateColor(status, result string) func(string) string {
	return report.ClassStyle(f.styles, verdict.WordClass(cmp.Or(result, status)))
}

func (f rowFormat) failedColor(n int) func(string) string {
	if n > 0 {
		return f.styles.Failure
	}
	return func(s string) string { return s }
}

func (f rowFormat) created(at string) string {
	if !f.relative {
		return at
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return at
	}
	return relativeTime(f.now, t)
}

// relativeTime says how long ago t was, at the precision a person scanning
// a list needs; beyond a month the date is more useful.
func relativeTime(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
	return t.Local().Format("2006-01-02")
}

func shortCommit(hash string) string {
	if len(hash) > 7 {
		return hash[:7]
	}
	return hash
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
