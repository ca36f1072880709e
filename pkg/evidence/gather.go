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

// Bounds of a gathering. Evidence only adds to a verdict, so it must never
// hold a CI job up for long: each request cut short, the whole cut short
// too. DefaultConcurrency bounds the requests in flight: enough that the
// evidence of the default --evidence (10 test cases, two logs each, and the
// runs' issues) goes out in one wave, one round trip to the service; past
// it, waves of that many. Over HTTP/2 (where the service offers it) they
// share one connection; over HTTP/1.1 the client keeps that many
// connections alive (cmd/factory).
const (
	DefaultConcurrency    = 32
	DefaultRequestTimeout = 5 * time.Second
	DefaultTimeout        = 8 * time.Second
	// DefaultMax is how many test cases --evidence reads by default.
	DefaultMax = 10
)

// readRetry paces the tries of a read that failed for a passing reason (a
// 5xx, a 429, a dropped connection), which polls survive too: short pauses,
// so that a few tries fit in one request's bound (RequestTimeout), which
// ends them.
var readRetry = api.RetryPolicy{MaxRetries: 3, BaseDelay: 200 * time.Millisecond, MaxDelay: time.Second}

// Options bound a gathering; zero values take the defaults above.
type Options struct {
	Concurrency    int           // requests in flight at once
	RequestTimeout time.Duration // one request
	Timeout        time.Duration // the whole gathering (and one test case read early)
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

// Reader reads evidence with at most Options.Concurrency requests in flight
// across all it is asked: the logs of a test case as soon as it ends
// (Prefetch), while its run goes on, then whatever is still missing and the
// runs' issues, all at once (Gather). A test case's telemetry is final once
// it has ended, so what was read early is what would be read at the end.
type Reader struct {
	client *api.Client
	opts   Options
	slots  chan struct{} // a request in flight holds one
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	early map[string]*early // by run test case short id
}

// early is the logs of one test case read as it ended.
type early struct {
	result string // the target's Result when it was read
	done   chan struct{}
	cancel context.CancelFunc
	logs   Case // its log parts, once done is closed
}

// NewReader is a Reader whose early reads end with ctx; Close it.
func NewReader(ctx context.Context, client *api.Client, opts Options) *Reader {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	reads := client.WithRetries(readRetry.MaxRetries)
	reads.Retry = readRetry
	return &Reader{client: reads, opts: opts, slots: make(chan struct{}, opts.Concurrency),
		ctx: ctx, cancel: cancel, early: map[string]*early{}}
}

// Close stops the early reads still going and waits for them.
func (r *Reader) Close() {
	r.cancel()
	r.wg.Wait()
}

// Prefetch starts reading the logs of t, a test case that has just ended
// without passing, in the background, within opts.Timeout. Asked again for
// the same test case (the service now reports it otherwise, a retry within
// the run), it reads them again, the earlier read called off.
func (r *Reader) Prefetch(t Target) {
	if api.CheckID("run test case short id", t.CaseShortID) != nil {
		return // Gather says why it is skipped
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.opts.Timeout)
	e := &early{result: t.Result, done: make(chan struct{}), cancel: cancel}
	r.mu.Lock()
	if old := r.early[t.CaseShortID]; old != nil {
		old.cancel()
	}
	r.early[t.CaseShortID] = e
	r.mu.Unlock()
	e.logs.Target = t
	jobs := r.logJobs(&e.logs)
	r.wg.Go(func() {
		defer cancel()
		var wg sync.WaitGroup
		for _, job := range jobs {
			wg.Go(func() { r.withTimeout(ctx, job) })
		}
		wg.Wait()
		close(e.done)
	})
}

// earlyFor is the early read of t, if one was made of it as it is now.
func (r *Reader) earlyFor(t Target) *early {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.early[t.CaseShortID]; e != nil && e.result == t.Result {
		return e
	}
	return nil
}

// Gather reads the evidence of each target: its failed network requests,
// its console errors and warnings, its failed API calls, and the issues of
// its run that name it (one request per run, not per test case; none for a
// run in known, whose issues were read with it). The logs read early are
// taken as they are (waited for when still in flight), and every other
// request is sent at once, up to the bound on requests in flight. It never
// fails: a part that could not be read says why in Unavailable, within
// Options.Timeout. The result is in the order of targets; no targets, no
// requests.
func (r *Reader) Gather(ctx context.Context, targets []Target, known map[string][]api.Issue) []Case {
	if len(targets) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()

	cases := make([]Case, len(targets))
	var jobs []func(context.Context)
	read := map[*Case]*early{}
	for i, t := range targets {
		c := &cases[i]
		c.Target = t
		if err := api.CheckID("run test case short id", t.CaseShortID); err != nil {
			c.skip(err)
			continue
		}
		if e := r.earlyFor(t); e != nil {
			read[c] = e
			continue
		}
		jobs = append(jobs, r.logJobs(c)...)
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
		if issues, ok := known[run]; ok {
			setIssues(&api.RunDetail{Issues: issues}, nil)
			continue
		}
		jobs = append(jobs, func(ctx context.Context) {
			if err := r.acquire(ctx); err != nil {
				setIssues(nil, err)
				return
			}
			defer r.release()
			setIssues(r.client.GetRun(ctx, run, api.GetRunOptions{Issues: true}))
		})
	}
	r.runBounded(ctx, jobs)
	for c, e := range read {
		select {
		case <-e.done:
			c.Network, c.Console, c.APICalls = e.logs.Network, e.logs.Console, e.logs.APICalls
		case <-ctx.Done():
			why := reason(ctx.Err())
			c.Network.Unavailable, c.Console.Unavailable, c.APICalls.Unavailable = why, why, why
		}
	}
	return cases
}

// logJobs are the requests of c's logs: two, sent together, the first
// followed by a third for an API test.
func (r *Reader) logJobs(c *Case) []func(context.Context) {
	return []func(context.Context){
		func(ctx context.Context) {
			resp, err := r.logs(ctx, c.CaseShortID, api.LogsQuery{Kind: api.LogKindNetwork, StatusFilter: "errors"})
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
			resp, err = r.logs(ctx, c.CaseShortID, api.LogsQuery{Kind: api.LogKindAPICalls, StatusFilter: "errors"})
			c.APICalls = part(resp, err, func(r *api.LogsResponse) []api.APICallEntry { return r.APICalls })
		},
		func(ctx context.Context) {
			resp, err := r.logs(ctx, c.CaseShortID, api.LogsQuery{Kind: api.LogKindConsole, IncludeWarnings: true})
			c.Console = errorsAndWarnings(part(resp, err, func(r *api.LogsResponse) []api.ConsoleEntry { return r.Console }))
		},
	}
}

// logs is one log request, within the bound on requests in flight.
func (r *Reader) logs(ctx context.Context, id string, q api.LogsQuery) (*api.LogsResponse, error) {
	if err := r.acquire(ctx); err != nil {
		return nil, err
	}
	defer r.release()
	return r.client.GetRunTestCaseLogs(ctx, id, q)
}

func (r *Reader) acquire(ctx context.Context) error {
	select {
	case r.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Reader) release() { <-r.slots }

// withTimeout runs job with the timeout of one request.
func (r *Reader) withTimeout(ctx context.Context, job func(context.Context)) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.RequestTimeout)
	defer cancel()
	job(ctx)
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

// runBounded runs the jobs, as many at once as requests may be in flight,
// each with its own timeout. A job whose turn comes after ctx is done still
// runs: it fails at once, and its part says so.
func (r *Reader) runBounded(ctx context.Context, jobs []func(context.Context)) {
	// A fixed set of workers rather than a goroutine per job: each grows
	// its stack through the HTTP client and the JSON decoder once, not once
	// per request, and fifty test cases' evidence costs no more memory
	// than ten's.
	queue := make(chan func(context.Context))
	var wg sync.WaitGroup
	for range min(r.opts.Concurrency, len(jobs)) {
		wg.Go(func() {
			for job := range queue {
				r.withTimeout(ctx, job)
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
