package root

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/testctl/testctl/pkg/exitcode"
)

// helpTopics are pages of `testctl help TOPIC` that are not commands.
var helpTopics = []struct{ name, short, long string }{
	{"environment", "Environment variables that testctl reads", `Settings resolve, highest first: flag > environment > the active profile of
the config file > default. The API key comes last from the OS keyring, where
'testctl auth login' keeps it; with TESTCTL_API_KEY or --api-key set, the
keyring is never asked.

TESTCTL_API_KEY          API key, sent as "Authorization: Bearer …" (--api-key).
                         Prefer this or 'testctl auth login' over the flag: flags
                         end up in shell history and process lists.
TESTCTL_BASE_URL         service base URL without /v1 (--base-url)
TESTCTL_LEGACY_BASE_URL  base URL of the deprecated legacy address (--legacy-base-url)
TESTCTL_PROJECT          project short id, proj_<id> or proj-<slug>_<id>
                         (--project, -p); required with organization-scoped
                         keys
TESTCTL_PROFILE          profile of the config file to use (--profile)
TESTCTL_CONFIG           config file (--config-file); default
                         $XDG_CONFIG_HOME/testctl/config.yaml, else
                         ~/.config/testctl/config.yaml
TESTCTL_OUTPUT           output format: table, json or yaml (--output, -o)
TESTCTL_DEBUG=1          log every HTTP attempt to stderr, key redacted (--debug)
NO_COLOR                 any value turns colour off (--no-color)
COLUMNS                  the terminal's width when it does not say; it narrows,
                         never widens, a terminal that does
TERM=dumb                no live line on a terminal: a wait prints a line per
                         change of state, as off a terminal
TESTCTL_AGENT=0|1        1: behave as off a terminal (no colour, no live line,
                         tables not cut, never a prompt); 0: as the streams are
CLAUDECODE, CURSOR_AGENT, GEMINI_CLI, OPENCODE, AGENT
                         set (not 0 or false) by a coding agent: as
                         TESTCTL_AGENT=1, unless TESTCTL_AGENT is set
XDG_CONFIG_HOME          base directory of the default config file
DBUS_SESSION_BUS_ADDRESS on Linux, the D-Bus session where the keyring (the
                         Secret Service) answers; unset, the keyring is not
                         used and 'auth login' stores the key in the config file
TESTCTL_EXIT_CODE_FILE   a file that gets the exit code when testctl ends, for
                         a CI step that execs testctl
TESTCTL_VERDICT_FILE     a file that gets what the exit code means in a word
                         (passed, failed, timeout, …; started without a wait)

With --codehost, 'run start' reads the commit's metadata from the variables of
GitHub Actions, GitLab CI, Bitbucket Pipelines, CircleCI, Azure Pipelines,
Jenkins and Buildkite, and falls back to the local git repository. In GitHub
Actions (GITHUB_ACTIONS=true), 'run wait' also writes GITHUB_STEP_SUMMARY and
GITHUB_OUTPUT (with exit-code and verdict, as run start, report and rerun do).

With --comment, the pull request comment is written with GITHUB_TOKEN (to
GITHUB_API_URL, for the pull request of GITHUB_EVENT_PATH) under GitHub
Actions, and with TESTCTL_GITLAB_TOKEN (to CI_API_V4_URL, for
CI_MERGE_REQUEST_IID) under GitLab CI. TESTCTL_COMMENT_KEY tells apart the
comments of a matrix's legs, which share a job; TESTCTL_COMMENT_TIMEOUT
bounds the writing of the comment (10s).`},
	{"waiting", "How a wait shows progress, retries, and writes its reports", `Progress goes to stderr: on a terminal a live line with the elapsed time and
the test cases by status (a line per run when there are several, each
showing its verdict once it ends), each test case printed as it finishes;
elsewhere one line per change of state (a run status, a test case
finishing), never one per poll, and after --heartbeat (default 5m; 0 off)
without any output a progress line ("run r0a1b2 still RUNNING after 15:00: 3
of 7 done"), so a CI watchdog that kills a silent step (CircleCI's ten
minutes) never kills a long run. At the end stderr gets a summary of every
test case that did not pass, with the reason the evaluation gave.

Stdout carries only data: with -o json, -o yaml or --jq the final run detail
(one object for one run, an array for several), otherwise a table of the
test cases; when stdout is the terminal that shows the summary, the table
would repeat it and is left out unless -o table asks for it. On a timeout or
Ctrl-C the last state seen is printed the same way.

Brief failures of the service or the network (5xx, 429, timeouts, dropped
connections, unreadable answers) never end a wait before --timeout: requests
are retried with backoff, honouring Retry-After, and a run is given up (exit
6) only after 10 failures in a row. A 404 for a run that run start created
on this machine less than 30 seconds ago is taken as a run that is not
visible yet; for any other id it means the run does not exist (exit 5). A
key refused for one run (401, 403) ends the wait on that run only; the
others keep their verdicts.

Exit codes: 0 every run PASSED (or SKIPPED, with a warning, unless
--fail-on-skipped); 1 a run FAILED (or SKIPPED with --fail-on-skipped), or
ran no test case at all (an empty plan, every test case disabled) unless
--pass-with-no-tests; 3 a run ended ERROR or CANCELLED; 4 the key was
rejected; 5 a run does not exist; 6 the service kept failing; 7 --timeout
passed; 8 a report (--junit, the GitHub Actions files; never --comment)
could not be written; 130 interrupted by Ctrl-C; 143 terminated (SIGTERM, as
CI runners send on cancel). With several runs, or a verdict and a report
failure, the largest code wins. After a timeout, Ctrl-C or SIGTERM the runs
go on and the command to resume waiting is printed, with the flags that
chose the service (--profile, --base-url, …; never the key); under --sandbox
the runs end with the embedded sandbox instead.

--retry-failed N reruns the test cases of a run that ended COMPLETED with
FAILED that did not pass, together with those skipped (a test case that
waits for a failed one is skipped), by their project test case ids when the
test case list names each once, else with failedOnly (POST
/v1/run/{shortId}); it waits for the rerun, up to N times; ERROR and
CANCELLED runs are not retried. The verdict is over every test case, each
with its last result across the attempts: one that never ran again keeps its
first (a skip fails the run with --fail-on-skipped). Every attempt's short
id and URL is printed and kept in the reports, and JUnit reports each test
case from the run it last ran in. A test case that failed and then passed is
flaky: it gets a section of its own in the summary ("passed on retry 1 of
2"), a ::warning annotation in GitHub Actions and, in the JUnit report, a
passing testcase carrying a <flakyFailure> with its first failure (the
Surefire convention). A flaky run passes unless --fail-on-flaky (then exit
1).

--junit FILE writes a JUnit XML report: one testsuite per run, named after
its plan (its name, else its short id; "test cases" for a run of test case
ids) so that CI test history matches test cases across builds, one testcase
per test case (failure, error or skipped), and a "(run verdict)" testcase
when the run's own outcome is not a pass and no test case says why (timed
out, interrupted, FAILED with no failed test case, no test case at all,
never read). The run's short id, URL and attempt are in the suite's
properties. The report is also written, partial, after a timeout or an
interruption.

In GitHub Actions (GITHUB_ACTIONS=true) a Markdown summary is appended to
$GITHUB_STEP_SUMMARY, each test case that did not pass becomes an annotation
(::error when it failed, errored or was cancelled; ::warning when it was
skipped, ::error if that fails the run through --fail-on-skipped) — at most
ten, as GitHub shows no more: failed first, then errored, then skipped, the
tenth saying how many more are in the step summary. Any line of service text
that the runner would read as a workflow command (::…, ##[…]) is printed
inside a ::stop-commands:: block, so only testctl's own annotations take
effect. $GITHUB_OUTPUT gets runs_json, every run as a JSON array in the
order given, and, for a single run, run_short_id, run_url, run_status and
run_result; when testctl ends, exit-code and verdict, with the code it ends
with (a report that could not be written makes it 8), and junit and html for
the reports written. --dotenv writes the same for GitLab's dotenv report:
TESTCTL_EXIT_CODE, TESTCTL_VERDICT, TESTCTL_RUN_COUNT, TESTCTL_RUN_SHORT_ID
and TESTCTL_RUN_URL (space-separated), and with a baseline or a quarantine
file TESTCTL_NEW_FAILURES and TESTCTL_KNOWN_FAILURES.

--comment keeps one pull request (GitHub) or merge request (GitLab) comment:
the verdict, each test case that did not pass with its story collapsed, the
run links and, with --html, the workflow run's artefacts. The first run
creates it and every later run of the same workflow job edits it, found by a
hidden marker (TESTCTL_COMMENT_KEY tells a matrix's legs apart) among the
comments the token's own identity wrote: nobody else's is ever edited. GitHub
needs a pull request event and GITHUB_TOKEN with pull-requests: write;
GitLab a merge request pipeline and TESTCTL_GITLAB_TOKEN. Where it cannot be
written (no pull request, no token, a fork's read-only token, the API
failing or silent for 10s, who the token is unreadable) one notice says why
and the exit code is unchanged.

--baseline BRANCH classes each test case that did not pass: new (it passed
in the last COMPLETED run of the same plan on BRANCH, or was not in it) or
known (it did not pass there either), matched by name within the plan; the
search runs while the wait goes on. --fail-on new fails the gate only on new
failures. --quarantine FILE (.testctl/quarantine.yaml when it exists) names
test cases, each with an owner and an until date, whose failures do not fail
the gate until that date:

  testctl run wait r0a1b2 --baseline main --fail-on new`},
	// The table is the one README.md and docs/ are generated from.
	{"exit-codes", "Exit codes and what they mean", exitCodesText(76)},
}

func addHelpTopics(root *cobra.Command) {
	for _, topic := range helpTopics {
		// Without a Run function cobra lists these under "Additional help
		// topics" and `testctl help TOPIC` prints the text.
		root.AddCommand(&cobra.Command{Use: topic.name, Short: topic.short, Long: topic.long})
	}
}

// exitCodesText is the exit code table for a terminal: the code, then its
// meaning wrapped to width columns, without Markdown's code spans.
func exitCodesText(width int) string {
	const indent = 5
	plain := func(s string) string { return strings.ReplaceAll(s, "`", "") }
	// Wordwrap breaks at hyphens: a flag cut as "--fail-" at a line's end
	// is copied wrong, so hyphens are held as non-breaking ones meanwhile.
	wrap := func(s string, w int) string {
		return strings.ReplaceAll(ansi.Wordwrap(strings.ReplaceAll(s, "-", "\u2011"), w, ""), "\u2011", "-")
	}
	var b strings.Builder
	for _, c := range exitcode.Table {
		meaning := wrap(plain(c.Meaning), width-indent)
		fmt.Fprintf(&b, "%-*d%s\n", indent, c.Code, strings.ReplaceAll(meaning, "\n", "\n"+strings.Repeat(" ", indent)))
	}
	b.WriteString("\n" + wrap(exitcode.TableNote, width))
	return b.String()
}
