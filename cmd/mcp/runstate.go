package mcp

import (
	"encoding/json"
	"fmt"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// runState is get_run's headline: `run get` prints the run and exits 0
// whatever its state, so the state is said in words, by the outcome model
// as every report says it: the verdict of a run that ended (and the code
// `run wait` would end with, decided with vo, the wait's options), the
// tally so far of one that goes on.
func runState(stdout string, vo verdict.Options) string {
	var d api.RunDetail
	if err := json.Unmarshal([]byte(stdout), &d); err != nil || d.Status == "" {
		return ""
	}
	id := termtext.SanitizeLine(d.ShortID)
	if !verdict.Final(d.Status) {
		return fmt.Sprintf("Run %s: %s — %s. It goes on: call wait_run with run_ids [%q] for its verdict.",
			id, termtext.SanitizeLine(report.DetailStatusText(&d)), verdict.Live(d.RunTestCases), d.ShortID)
	}
	v := verdict.Decide([]verdict.Record{{ShortID: d.ShortID, Detail: &d}}, vo)
	r := v.Runs[0]
	return fmt.Sprintf("Run %s: %s — %s. Its verdict: %s (run wait would exit %d); run_report tells the story of what did not pass.",
		id, termtext.SanitizeLine(report.StatusText(r)), r.Counts, verdict.Word(r.Code, false), r.Code)
}
