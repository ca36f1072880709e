package evidence

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/termtext"
)

// Bounds of a gathering. Evidence is read after the verdict is known and
// only adds to it, so it must never hold a CI job up for long: a few
// requests at a time, each cut short, the whole cut short too.
const (
	DefaultConcurrency    = 8
	DefaultRequestTimeout = 5 * time.Second
	DefaultTimeout        = 8 * time.Second
	// DefaultMax is how many test cases --evidence reads by default.
	DefaultMax = 10
)

// Options bound a gathering; zero values take the defaults above.
type Options struct {
	Concurrency    int           // requests in flight at once
	RequestTimeout time.Duration // one request
	Timeout        time.Duration // the whole gathering
	// Issues holds the issues of runs already read with them, by run short
	// id: they are not asked for again.
	Issues map[string][]api.Issue
}

func (o Options) withDefaults() Options {
	o.Concurrency = cmp.Or(max(o.Concurrency, 0), DefaultConcurrency)
	o.RequestTimeout = cmp.Or(max(o.RequestTimeout, 0), DefaultRequestTimeout)
	o.Timeout = cmp.Or(max(o.Timeout, 0), DefaultTimeout)
	return o
}

// Limit keeps the first n targets (--evidence N; 0 or less keeps none) and
// says how many were left out, for a report to mention.
func Limit(targets []Target, n int) (kept []Target, left int) {
	n = min(max(n, 0), len(targets))
	return targets[:n], len(targets) - n
}

// Gather reads the evidence of each target: its failed network requests,
// its console errors and warnings, its failed API calls, and the issues of
// its run that name it (one request per run, not per test case). It never
// fails: a part that could not be read says why in Unavailable. The result
// is in the order of targets; no targets, no requests.
//
// client's own retries are turned off: a request that fails is named
// unavailable rather than repeated, so that the whole stays within
// opts.Timeout.
func Gather(ctx context.Context, client *api.Client, targets []Target, opts Options) []Case {
	if len(targets) == 0 {
		return nil
	}
	opts = opts.withDefaults()
	client = client.WithRetries(0)
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()

	cases := make([]Case, len(targets))
	var jobs []func(context.Context)
	for i, t := range targets {
		c := &cases[i]
		c.Target = t
		if err := api.CheckID("run test case short id", t.CaseShortID); err != nil {
			c.skip(err)
			continue
		}
		jobs = append(jobs,
			func(ctx context.Context) {
				resp, err := client.GetRunTestCaseLogs(ctx, c.CaseShortID, api.LogsQuery{Kind: api.LogKindNetwork, StatusFilter: "errors"})
				c.Network = part(resp, err, func(r *api.LogsResponse) []api.NetworkEntry { return r.Network })
				switch {
				case err != nil:
					// Whether it is an API test is not known: its calls
					// are not read, and say why.
					c.APICalls = Part[api.APICallEntry]{Unavailable: c.Network.Unavailable}
					return
				case resp.TotalMatched > 0:
					return // a browser test: it made no API calls of its own
				}
				// No failed request: an API test (the service says "read
				// kind apiCalls"), or a browser test whose failure is
				// elsewhere. Only then are its API calls read, which saves
				// a third of the requests of a browser test's evidence.
				resp, err = client.GetRunTestCaseLogs(ctx, c.CaseShortID, api.LogsQuery{Kind: api.LogKindAPICalls, StatusFilter: "errors"})
				c.APICalls = part(resp, err, func(r *api.LogsResponse) []api.APICallEntry { return r.APICalls })
			},
			func(ctx context.Context) {
				resp, err := client.GetRunTestCaseLogs(ctx, c.CaseShortID, api.LogsQuery{Kind: api.LogKindConsole, IncludeWarnings: true})
				c.Console = errorsAndWarnings(part(resp, err, func(r *api.LogsResponse) []api.ConsoleEntry { return r.Console }))
			})
	}
	for _, run := range runsOf(targets) {
		// setIssues gives each test case of the run the issues that name
		// it, or why they could not be read.
		setIssues := func(detail *api.RunDetail, err error) {
			for i := range cases {
				switch c := &cases[i]; {
				case c.RunShortID != run:
				case err != nil:
					c.Issues = Part[api.Issue]{Unavailable: reason(err)}
				default:
					c.Issues = issuesNaming(detail.Issues, c.Target)
				}
			}
		}
		if known, ok := opts.Issues[run]; ok {
			setIssues(&api.RunDetail{Issues: known}, nil)
			continue
		}
		jobs = append(jobs, func(ctx context.Context) {
			setIssues(client.GetRun(ctx, run, api.GetRunOptions{Issues: true}))
		})
	}
	runBounded(ctx, jobs, opts)
	return cases
}

// skip marks c's logs as not asked for, and why: its id as the service
// gave it (err, an *api.InvalidIDError) would make a request for another
// path than its logs', with the key.
func (c *Case) skip(err error) {
	c.Skipped = reason(err)
	c.Network.Unavailable, c.Console.Unavailable, c.APICalls.Unavailable = c.Skipped, c.Skipped, c.Skipped
}

// runsOf lists the distinct runs of targets, in order.
func runsOf(targets []Target) []string {
	var runs []string
	seen := map[string]bool{}
	for _, t := range targets {
		if !seen[t.RunShortID] {
			seen[t.RunShortID] = true
			runs = append(runs, t.RunShortID)
		}
	}
	return runs
}

// runBounded runs the jobs at most opts.Concurrency at a time, each with
// its own timeout. A job whose turn comes after ctx is done still runs: it
// fails at once, and its part says so.
func runBounded(ctx context.Context, jobs []func(context.Context), opts Options) {
	// A fixed set of workers rather than a goroutine per job: each grows
	// its stack through the HTTP client and the JSON decoder once, not once
	// per request.
	queue := make(chan func(context.Context))
	var wg sync.WaitGroup
	for range min(opts.Concurrency, len(jobs)) {
		wg.Go(func() {
			for job := range queue {
				jctx, cancel := context.WithTimeout(ctx, opts.RequestTimeout)
				job(jctx)
				cancel()
			}
		})
	}
	for _, job := range jobs {
		queue <- job
	}
	close(queue)
	wg.Wait()
}

func part[T any](resp *api.LogsResponse, err error, entries func(*api.LogsResponse) []T) Part[T] {
	if err != nil {
		return Part[T]{Unavailable: reason(err)}
	}
	got := entries(resp)
	total := max(int(resp.TotalMatched), len(got))
	return Part[T]{Entries: got, Total: total, More: resp.HasMore || total > len(got)}
}

// errorsAndWarnings drops the console's other levels, which the service
// sends along with warnings ("log"); the count drops them too, except
// beyond the service's cap, which is not known by level.
func errorsAndWarnings(p Part[api.ConsoleEntry]) Part[api.ConsoleEntry] {
	if p.Unavailable != "" {
		return p
	}
	kept := slices.DeleteFunc(slices.Clone(p.Entries), func(e api.ConsoleEntry) bool { return ConsoleRank(e.Level) > 1 })
	p.Total -= len(p.Entries) - len(kept)
	p.Entries = kept
	return p
}

// issuesNaming keeps the issues that name the target's test case, by its
// run test case short id or, when the issue gives none that matches, by
// its name.
func issuesNaming(issues []api.Issue, t Target) Part[api.Issue] {
	var out []api.Issue
	for _, is := range issues {
		if slices.ContainsFunc(is.TestCases, func(tc api.IssueTestCase) bool {
			return (tc.ShortID != "" && tc.ShortID == t.CaseShortID) || (tc.Name != "" && tc.Name == t.Name)
		}) {
			out = append(out, is)
		}
	}
	return Part[api.Issue]{Entries: out, Total: len(out)}
}

// reason names why a part could not be read, in a few words and without
// the service's text (which the verdict does not need).
func reason(err error) string {
	var he *api.HTTPError
	var de *api.DecodeError
	var ne net.Error
	var ie *api.InvalidIDError
	switch {
	case errors.As(err, &ie):
		return fmt.Sprintf("skipped: the service gave the id %q, which cannot be sent", clip(termtext.SanitizeLine(ie.ID), 40))
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timed out"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.As(err, &he):
		return fmt.Sprintf("HTTP %d", he.StatusCode)
	case errors.As(err, &de):
		return "unreadable answer"
	}
	return "no answer"
}
