package shared

import (
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// verdictCode maps a finished run to the contract's exit code.
func verdictCode(d *api.RunDetail, failOnSkipped bool) int {
	switch d.Status {
	case api.StatusError, api.StatusCancelled:
		return cmdutil.ExitRunError
	case api.StatusCompleted:
	default:
		return cmdutil.ExitTimeout // not final: only reached when the wait ended first
	}
	switch d.ResultOrEmpty() {
	case api.ResultPassed:
		return cmdutil.ExitOK
	case api.ResultSkipped:
		if failOnSkipped {
			return cmdutil.ExitFailed
		}
		return cmdutil.ExitOK
	}
	// FAILED, or a result this client does not know: a CI gate must not
	// let through what it cannot tell passed.
	return cmdutil.ExitFailed
}

// ResumeCommand is the command line that resumes waiting on runs.
func ResumeCommand(ids []string) string {
	return "testctl run wait " + strings.Join(ids, " ")
}

// isTestCaseFailure reports whether a finished test case counts against
// the run: it failed, errored or was cancelled.
func isTestCaseFailure(tc api.RunTestCase) bool {
	switch {
	case tc.Status == api.StatusError, tc.Status == api.StatusCancelled:
		return true
	case tc.Status != api.StatusCompleted:
		return false
	}
	return tc.Result != api.ResultPassed && tc.Result != api.ResultSkipped
}

// caseOutcome is the word that says how a test case ended: its result, or
// its status when it has none (ERROR, CANCELLED, still RUNNING).
func caseOutcome(tc api.RunTestCase) string {
	if tc.Status == api.StatusCompleted && tc.Result != "" {
		return tc.Result
	}
	return tc.Status
}
