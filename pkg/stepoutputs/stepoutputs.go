// Package stepoutputs writes what a later CI step or job reads of a command
// that starts runs or gives their verdict: under GitHub Actions the step
// outputs exit-code, verdict, junit and html (through $GITHUB_OUTPUT), and
// for GitLab the dotenv report (--dotenv). A Step gathers the runs and the
// reports written as the command goes; its outputs are written once, at
// the very end, because only then is the exit code final: a report that
// could not be written raises it to 8, a signal to 130 or 143, and a later
// step must see the code the job ends with, not the verdict's.
package stepoutputs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/termtext"
)

// Step is what the outputs of one command say besides its exit code. Its
// methods may be called on a nil Step, which notes nothing: a command run
// outside the command tree (a test of one package) has none.
type Step struct {
	mu   sync.Mutex
	runs []Run
	// reports are the reports written, by output name ("junit", "html").
	reports map[string]string
	// ended: the files of the step's end were written (MarkEnded).
	ended bool
	// failures counts the new and known failures, when they were classed.
	failures *failureCounts
	// ciRetry is what run start did for each plan when the CI job is a
	// retry ("reused r0a1b2, new r0c3d4"); "" for other commands.
	ciRetry string
}

type failureCounts struct{ new, known int }

// Run is one run the outputs name.
type Run struct {
	ShortID string
	URL     string
}

// End is how the command ended: its final exit code and that code in a
// word (verdict.Word).
type End struct {
	Code int
	Word string
}

// SetRuns notes the runs of the command: those it started, then, once a
// verdict is decided, the runs of the verdict, which replace them.
func (s *Step) SetRuns(runs []Run) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append([]Run(nil), runs...)
}

// SetFailures notes how many failures of the verdict's runs are new and
// known (quarantined ones are neither) when classified: a baseline or a
// quarantine file classed them. The dotenv report gives the counts then
// only, as the GitHub outputs new-failures and known-failures do.
func (s *Step) SetFailures(classified bool, newFailures, known int) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = nil
	if classified {
		s.failures = &failureCounts{new: newFailures, known: known}
	}
}

// SetCIRetry notes what run start did for each plan (--ci-retry): the
// output ci-retry and the dotenv variable TESTCTL_CI_RETRY.
func (s *Step) SetCIRetry(what string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ciRetry = what
}

// Wrote notes that the report of output name ("junit", "html") was
// written to path: its output names it, and only then (a later step would
// take a path for a report that is there).
func (s *Step) Wrote(name, path string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reports == nil {
		s.reports = map[string]string{}
	}
	s.reports[name] = path
}

// Reports whose paths are step outputs, in the order they are written.
var reportOutputs = []string{"junit", "html", "ctrf"}

// AppendGitHub appends to the $GITHUB_OUTPUT file at path the outputs
// exit-code and verdict, and junit, html and ctrf for the reports written. The
// runs' own outputs (run_short_id, run_url, runs_json) are the reporters'.
func (s *Step) AppendGitHub(path string, end End) error {
	var b strings.Builder
	b.WriteString(GitHubOutput("exit-code", strconv.Itoa(end.Code)))
	b.WriteString(GitHubOutput("verdict", end.Word))
	if s != nil {
		s.mu.Lock()
		for _, name := range reportOutputs {
			if p := s.reports[name]; p != "" {
				b.WriteString(GitHubOutput(name, p))
			}
		}
		if s.ciRetry != "" {
			b.WriteString(GitHubOutput("ci-retry", s.ciRetry))
		}
		s.mu.Unlock()
	}
	// Appended in one write, never opened to wait: a named pipe there
	// must not hold up the end of the command.
	return atomicfile.Append(path, []byte(b.String()), 0o644)
}

// GitHubOutput is one line of a $GITHUB_OUTPUT file in the heredoc form,
// the only one that can carry any value, with a random delimiter that no
// value, whatever the service sent, can contain to end it early and set
// outputs of its own.
func GitHubOutput(name, value string) string {
	delim := heredocDelimiter(value)
	return fmt.Sprintf("%s<<%s\n%s\n%s\n", name, delim, value, delim)
}

func heredocDelimiter(value string) string {
	for {
		var buf [12]byte
		_, _ = rand.Read(buf[:]) // crypto/rand.Read never fails
		d := "ghadelimiter_" + hex.EncodeToString(buf[:])
		if !strings.Contains(value, d) {
			return d
		}
	}
}

// DotenvFlag is the flag of the dotenv report. The commands that have it
// are those whose end a CI step's outputs describe: cmd/root writes them
// for those alone.
const DotenvFlag = "dotenv"

// The dotenv variables, for a later job of the pipeline.
const (
	DotenvExitCode = "TESTCTL_EXIT_CODE"
	DotenvVerdict  = "TESTCTL_VERDICT"
	DotenvRunCount = "TESTCTL_RUN_COUNT"
	DotenvShortIDs = "TESTCTL_RUN_SHORT_ID"
	DotenvURLs     = "TESTCTL_RUN_URL"
	// With a baseline or a quarantine file only.
	DotenvNewFailures   = "TESTCTL_NEW_FAILURES"
	DotenvKnownFailures = "TESTCTL_KNOWN_FAILURES"
	// run start only: what --ci-retry did for each plan.
	DotenvCIRetry = "TESTCTL_CI_RETRY"
)

// DotenvBudget bounds the dotenv file: GitLab refuses a dotenv report of
// 5 KB or more (and the job's artefacts with it), so the run lists are cut
// to what fits well under it.
const DotenvBudget = 4096

// WriteDotenv writes the dotenv file at path whole (never seen
// half-written, nor a stale line left from an earlier job): the exit code,
// its word, how many runs, the counts of new and known failures when they
// were classed, and the runs' short ids and URLs, space-separated.
// GitLab's rules are kept: one line a variable, no newline in a value,
// nothing quoted, no empty value (an empty list is left out, as a later
// job reads an unset variable as empty anyway). Runs that would take the
// file past DotenvBudget are left out of the lists, and cut says how many;
// TESTCTL_RUN_COUNT still counts them.
func (s *Step) WriteDotenv(path string, end End) (cut int, err error) {
	var runs []Run
	var failures *failureCounts
	var ciRetry string
	if s != nil {
		s.mu.Lock()
		runs = append(runs, s.runs...)
		failures, ciRetry = s.failures, s.ciRetry
		s.mu.Unlock()
	}
	head := fmt.Sprintf("%s=%d\n%s=%s\n%s=%d\n", DotenvExitCode, end.Code, DotenvVerdict, dotenvValue(end.Word),
		DotenvRunCount, len(runs))
	if failures != nil {
		head += fmt.Sprintf("%s=%d\n%s=%d\n", DotenvNewFailures, failures.new, DotenvKnownFailures, failures.known)
	}
	if v := dotenvValue(ciRetry); v != "" {
		head += DotenvCIRetry + "=" + v + "\n"
	}
	var ids, urls []string
	size := len(head) + len(DotenvShortIDs) + len(DotenvURLs) + 4 // "=", "=" and two newlines
	for _, r := range runs {
		id, url := dotenvValue(r.ShortID), dotenvValue(r.URL)
		if id == "" {
			continue
		}
		if url == "" {
			url = "-" // the URLs line up with the ids, one for one
		}
		if size+len(id)+len(url)+2 > DotenvBudget {
			cut++
			continue
		}
		size += len(id) + len(url) + 2
		ids = append(ids, id)
		urls = append(urls, url)
	}
	var b strings.Builder
	b.WriteString(head)
	for _, kv := range [][2]string{{DotenvShortIDs, strings.Join(ids, " ")}, {DotenvURLs, strings.Join(urls, " ")}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "%s=%s\n", kv[0], kv[1])
		}
	}
	return cut, atomicfile.Write(path, []byte(b.String()), 0o644)
}

// dotenvValue is one item of a dotenv value: on one line, without the
// control characters a terminal would act on (the service's text), and
// without blanks, which separate the items of a list (a blank in a URL is
// %20, as it would be sent).
func dotenvValue(s string) string {
	return strings.Join(strings.Fields(termtext.SanitizeLine(s)), "%20")
}
