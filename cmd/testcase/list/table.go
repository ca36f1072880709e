package list

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/report"
)

var headers = []string{"id", "name", "enabled", "labels", "application", "last result", "last run"}

// newRowFunc returns the table row of one test case. Terminals get colours
// and relative times; pipes get RFC 3339, which sorts and parses. The id is
// whole at every width: run start --test-case, --resume-from and
// --wait-for take only a full UUID.
func newRowFunc(f *cmdutil.Factory) func(*output.Table, api.TestCase) {
	ios := f.IOStreams
	tty := ios.IsStdoutTTY()
	st := ios.Styles()
	status := func(word string) string { return report.ColorStatus(st, word) }
	now := f.Clock.Now()
	return func(t *output.Table, tc api.TestCase) {
		// A terminal too narrow for every column drops the others, rank 1
		// first, then cuts the name, which it drops last, where not even a
		// few of its characters fit beside the id.
		t.AddField(tc.ID, output.WithoutTruncation())
		t.AddField(tc.Name, output.Primary(), output.DropWhenNarrow(6))
		if tc.IsEnabled {
			t.AddField("yes", output.DropWhenNarrow(1))
		} else {
			t.AddField("no", output.WithColor(st.Muted), output.DropWhenNarrow(1))
		}
		t.AddField(strings.Join(tc.Labels, ","), output.DropWhenNarrow(3))
		t.AddField(tc.ApplicationShortID, output.DropWhenNarrow(2))
		verdict, when := lastRun(tc.LastRun)
		t.AddField(verdict, output.WithColor(status), output.DropWhenNarrow(5))
		if tty {
			when = relative(now, when)
		}
		t.AddField(when, output.DropWhenNarrow(4))
	}
}

// lastRun is the last run's verdict (its status while it has none) and when
// it completed, "-" for what is not known.
func lastRun(r *api.TestCaseRun) (verdict, when string) {
	if r == nil {
		return "-", "-"
	}
	return cmp.Or(r.Result, r.Status, "-"), cmp.Or(r.CompletedAt, "-")
}

// relative turns an RFC 3339 time into "5m ago"; anything else is returned
// as is, so a value the service formats differently is still shown.
func relative(now time.Time, stamp string) string {
	t, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return stamp
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute: // also a clock running behind the service's
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 60*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
	return t.In(now.Location()).Format("2006-01-02")
}
