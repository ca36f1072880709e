package exitcode

import (
	"fmt"
	"strings"
)

// Info says what one exit code means: the contract's words, and the
// usual causes behind it. Every table of exit codes (the README, docs/,
// `testctl help exit-codes`) is made from Table, so none can forget a
// code.
type Info struct {
	Code int
	// Meaning is the contract's definition, in Markdown (`code` spans).
	Meaning string
	// Causes are what usually leads there, for the detailed table.
	Causes string
}

// Table are the contract's exit codes, in order.
var Table = []Info{
	{OK, "success; a run that ended COMPLETED with PASSED (SKIPPED too, with a warning, unless `--fail-on-skipped`)",
		"the command did what it was asked"},
	{Failed, "a run ended COMPLETED with FAILED (or SKIPPED with `--fail-on-skipped`); a run that ran no test case, unless `--pass-with-no-tests`; with `--fail-on new`, only a new failure (not a known one, nor one quarantined until a later date); a tunnel did not reach `--wait-until`",
		"a test case failed (a test case quarantined until today or later does not count; with `--fail-on new` nor does one that failed in the `--baseline` run too); a run whose last attempt ended FAILED, or with a result testctl does not know, whatever its test cases say; " +
			"with `--retry-failed` and `--fail-on-flaky`, a test case that passed only on a retry (a rerun the service refused is a warning and leaves this code); " +
			"an empty plan, or one whose test cases are all disabled: its run ended PASSED or SKIPPED having run no test case; " +
			"`tunnel status --wait-until` did not see the wanted health before `--timeout`"},
	{Usage, "usage or invalid input: bad flags, client-side validation, or the service's 400; nothing was started (a `--jq` expression that fails on the document after runs were started gives the larger of the verdict's code and 2, and the reports still state the runs' verdict)",
		"a bad flag or value, an unknown command, no base URL configured, the service's HTTP 400; " +
			"also a `--jq` expression that fails on the document (`error()`, `halt_error`, a type error)"},
	{RunError, "a run ended ERROR or CANCELLED",
		"the run broke, or someone cancelled it"},
	{Auth, "authentication or authorization failed (401, 403)",
		"no API key configured, the service refused it, or the OS keyring holding the key failed or did not answer in time (nothing is sent then)"},
	{NotFound, "not found (404)",
		"an unknown run, plan, test case, application or runner"},
	{Service, "the service or the network failed: 5xx or 429 after retries, 402, connection errors, an unreadable response",
		"also a wait whose `--timeout` passed before the service gave a single status of a run it was not known to exist; " +
			"a lost answer to a start with several candidates, or with a candidate the run list shows without an id or without a field the request set; " +
			"a rerun of `--retry-failed` whose answer was lost"},
	{Timeout, "`--timeout` passed while a run was still in progress (the run goes on; the message says how to resume); an application or preview never became ready within `--wait-for-app` (nothing started)",
		"`run wait --timeout` or `run start --wait --timeout`; `run start --wait-for-app` or `--preview` whose application did not answer 2xx, or whose deployment failed or did not succeed, in time"},
	{Local, "a local failure: a file could not be read or written (config, `--junit`, the CI files), or the sandbox could not listen",
		"an unreadable or invalid config file, a report that could not be written (never the pull request comment of `--comment`, which only prints a notice), a port in use; never 1, which a CI gate reads as \"tests failed\""},
	{Interrupted, "interrupted by Ctrl-C (SIGINT) (the run goes on; the message says how to resume; reports already asked for are written)",
		"Ctrl-C in a terminal; GitHub Actions sends SIGINT first when a job is cancelled"},
	{Terminated, "terminated by SIGTERM, as CI runners do when a job is cancelled (same as 130)",
		"a cancelled CI job (GitLab CI and others send SIGTERM)"},
}

// TableNote is what the tables do not say.
const TableNote = "Waiting on several runs exits with the largest of their codes; so does a verdict whose report could not be written (8). " +
	"The code is settled before any report states it: the summary, the step summary, annotations, outputs, the dotenv report, the exit code file, the pull request comment and the MCP result state the code the process exits with; JUnit and HTML state the runs' verdict. A closed stdout or stderr never changes it."

// Markdown is the exit code table in Markdown; with causes it has a
// third column, "typical cause".
func Markdown(causes bool) string {
	var b strings.Builder
	if causes {
		b.WriteString("| code | meaning | typical cause |\n|---|---|---|\n")
	} else {
		b.WriteString("| code | meaning |\n|---|---|\n")
	}
	for _, c := range Table {
		fmt.Fprintf(&b, "| %d | %s |", c.Code, c.Meaning)
		if causes {
			fmt.Fprintf(&b, " %s |", c.Causes)
		}
		b.WriteString("\n")
	}
	return b.String()
}
