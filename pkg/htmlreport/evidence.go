package htmlreport

import (
	"cmp"
	"net/url"
	"slices"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
)

// The report stays small enough to open fast and to keep as an artefact: a
// test case's evidence is capped per kind (the entries that show the failure
// kept first, the others counted, not embedded), each text is clipped, and
// all the texts of the test cases (their names, titles and evaluations as
// well as their evidence) share one budget, spent on the failures shown
// first; past it, texts are clipped short.
const (
	maxNetwork  = 200
	maxConsole  = 200
	maxAPICalls = 30
	maxIssues   = 30

	maxURL     = 1 << 10
	maxMessage = 2 << 10
	maxBody    = 8 << 10

	textBudget = 3 << 20
	// Once the budget is spent, a text keeps clippedText bytes and a kind
	// of evidence spentLimit entries: the report stays a few megabytes
	// however many test cases fail.
	clippedText = 120
	spentLimit  = 20
)

type budget struct {
	left      int
	exhausted bool
}

func newBudget(n int) *budget { return &budget{left: n} }

// text clips s to n bytes, or to clippedText once the budget is spent, and
// reports whether it was cut.
func (b *budget) text(s string, n int) (string, bool) {
	if b.left <= 0 {
		n = min(n, clippedText)
	}
	out := clip(s, n)
	b.left -= len(out)
	if b.left <= 0 && len(s) > 0 {
		b.exhausted = true
	}
	return out, len(out) != len(s)
}

func (b *budget) short(s string, n int) string {
	out, _ := b.text(s, n)
	return out
}

type pageEvidence struct {
	Unavailable string              `json:"unavailable,omitempty"`
	Network     pagePart[pageNet]   `json:"network"`
	Console     pagePart[pageLog]   `json:"console"`
	APICalls    pagePart[pageAPI]   `json:"apiCalls"`
	Issues      pagePart[pageIssue] `json:"issues"`
}

// pagePart is one kind of evidence: Total is what the service matched
// (0: as many as it sent), More that its cap cut the list, LeftOut how many
// of the entries it sent this report did not embed, under which Limit.
type pagePart[T any] struct {
	Entries     []T    `json:"entries"`
	Total       int    `json:"total,omitempty"`
	More        bool   `json:"more,omitempty"`
	LeftOut     int    `json:"leftOut,omitempty"`
	Limit       int    `json:"limit,omitempty"` // the cap that left them out
	Unavailable string `json:"unavailable,omitempty"`
	// Origin ("https://shop.example") completes the path of an entry
	// that carries no URL of its own (requestURL).
	Origin string `json:"origin,omitempty"`
}

type pageNet struct {
	Method string `json:"method,omitempty"`
	// URL and Path as requestURL gives them.
	URL        string `json:"url,omitempty"`
	Path       string `json:"path"`
	Status     int32  `json:"status"`
	DurationMs *int32 `json:"durationMs,omitempty"`
	StartMs    *int64 `json:"startMs,omitempty"`
	Failed     bool   `json:"failed,omitempty"`
	Error      string `json:"error,omitempty"`
	// Named: the evaluation names it (evidence.Named); marked on the page.
	Named bool `json:"named,omitempty"`
}

type pageLog struct {
	Level   string `json:"level"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
	AtS     int32  `json:"atS"`
	Named   bool   `json:"named,omitempty"`
}

type pageAPI struct {
	Method          string `json:"method,omitempty"`
	URL             string `json:"url,omitempty"`
	Path            string `json:"path"`
	Status          *int32 `json:"status,omitempty"`
	Failed          bool   `json:"failed,omitempty"`
	DurationMs      *int32 `json:"durationMs,omitempty"`
	StartMs         *int64 `json:"startMs,omitempty"`
	Error           string `json:"error,omitempty"`
	Result          string `json:"result,omitempty"`
	RequestBody     string `json:"requestBody,omitempty"`
	RequestCut      bool   `json:"requestTruncated,omitempty"` // by the service
	RequestClipped  bool   `json:"requestClipped,omitempty"`   // by this report
	ResponseBody    string `json:"responseBody,omitempty"`
	ResponseCut     bool   `json:"responseTruncated,omitempty"`
	ResponseClipped bool   `json:"responseClipped,omitempty"`
	Named           bool   `json:"named,omitempty"`
}

type pageIssue struct {
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	Severity    string   `json:"severity,omitempty"`
	Type        string   `json:"type,omitempty"`
	Help        link     `json:"help"`
	Tags        []string `json:"tags,omitempty"`
}

func newPageEvidence(e *evidence.Case, b *budget) *pageEvidence {
	p := &pageEvidence{}
	limit := func(n int) int {
		if b.left <= 0 {
			return min(n, spentLimit)
		}
		return n
	}
	// The entries the evaluation names are kept first and marked.
	named := evidence.NamedBy(e.Target)
	netSite, apiSite := evidence.NetworkSite(e.Network.Entries), evidence.APICallSite(e.APICalls.Entries)
	netOrigin := originOf(e.Network.Entries, func(n api.NetworkEntry) string { return n.URL }, netSite)
	apiOrigin := originOf(e.APICalls.Entries, func(a api.APICallEntry) string { return a.URL }, apiSite)
	p.Network = newPart(e.Network, limit(maxNetwork), func(n api.NetworkEntry) int { return namedFirst(named.Network(n), failedFirst(netFailed(n))) }, func(n api.NetworkEntry) pageNet {
		full, path := b.requestURL(n.URL, netSite, netOrigin)
		return pageNet{
			Method: b.short(n.Method, 32), URL: full, Path: path, Status: n.StatusCode,
			DurationMs: n.DurationMs, StartMs: n.RelativeTimestampMs, Failed: netFailed(n),
			Error: b.short(n.ErrorText, maxMessage), Named: named.Network(n),
		}
	})
	p.Console = newPart(e.Console, limit(maxConsole), func(c api.ConsoleEntry) int { return namedFirst(named.Console(c), evidence.ConsoleRank(c.Level)) },
		func(c api.ConsoleEntry) pageLog {
			return pageLog{Level: b.short(c.Level, 32), Message: b.short(c.Message, maxMessage), Source: b.short(evidence.Source(c), maxURL),
				AtS: c.RelativeTimestampSeconds, Named: named.Console(c)}
		})
	p.APICalls = newPart(e.APICalls, limit(maxAPICalls), func(a api.APICallEntry) int { return namedFirst(named.APICall(a), failedFirst(!a.Success)) }, func(a api.APICallEntry) pageAPI {
		full, path := b.requestURL(a.URL, apiSite, apiOrigin)
		out := pageAPI{
			Method: b.short(a.Method, 32), URL: full, Path: path, Status: a.StatusCode, Failed: !a.Success,
			DurationMs: a.DurationMs, StartMs: a.RelativeTimestampMs, Error: b.short(a.ErrorMessage, maxMessage),
			RequestCut: a.RequestBodyTruncated, ResponseCut: a.ResponseBodyTruncated, Named: named.APICall(a),
		}
		if a.TextResult != nil {
			out.Result = b.short(*a.TextResult, maxMessage)
		}
		out.RequestBody, out.RequestClipped = b.text(a.RequestBody, maxBody)
		out.ResponseBody, out.ResponseClipped = b.text(a.ResponseBody, maxBody)
		return out
	})
	p.Network.Origin, p.APICalls.Origin = netOrigin, apiOrigin
	p.Issues = newPart(e.Issues, limit(maxIssues), func(api.Issue) int { return 0 }, func(i api.Issue) pageIssue {
		out := pageIssue{
			Title: b.short(i.Title, maxMessage), Description: b.short(i.Description, maxMessage),
			Severity: b.short(i.Severity, 32), Type: b.short(i.IssueType, 64), Help: newLink(i.HelpURL),
		}
		for _, t := range i.Tags[:min(len(i.Tags), 10)] {
			out.Tags = append(out.Tags, b.short(t, 64))
		}
		return out
	})
	return p
}

// requestURL is a request's URL for the page: path, what its column shows
// (evidence.ShortURL: the application's own host left out, so a narrow
// column keeps the path, not the host), and the whole URL, left out when
// it is origin followed by path, as most are: the page puts them together.
func (b *budget) requestURL(raw, site, origin string) (full, path string) {
	path = b.short(evidence.ShortURL(raw, site), maxURL)
	if origin != "" && origin+path == raw {
		return "", path
	}
	return b.short(raw, maxURL), path
}

// originOf is the scheme and host of the first URL on site's host.
func originOf[T any](entries []T, urlOf func(T) string, site string) string {
	for _, e := range entries {
		if u, err := url.Parse(urlOf(e)); err == nil && site != "" && u.Host == site {
			return u.Scheme + "://" + u.Host
		}
	}
	return ""
}

// newPart keeps at most limit entries, those of the lowest rank first, in
// their original order, and counts the others.
func newPart[T, P any](part evidence.Part[T], limit int, rank func(T) int, conv func(T) P) pagePart[P] {
	out := pagePart[P]{Total: part.Total, More: part.More, Unavailable: clip(part.Unavailable, maxMessage)}
	entries := part.Entries
	idx := make([]int, len(entries)) // the entries kept, by index
	for i := range idx {
		idx[i] = i
	}
	if len(entries) > limit {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(rank(entries[a]), rank(entries[b])) })
		idx = idx[:limit]
		slices.Sort(idx)
		out.LeftOut, out.Limit = len(entries)-limit, limit
	}
	out.Entries = make([]P, len(idx))
	for i, j := range idx {
		out.Entries[i] = conv(entries[j])
	}
	return out
}

// namedFirst ranks what the evaluation names before any other rank.
func namedFirst(named bool, rank int) int {
	if named {
		return -1
	}
	return rank
}

// failedFirst ranks the entries that show a failure before the others.
func failedFirst(failed bool) int {
	if failed {
		return 0
	}
	return 1
}

// netFailed: the service's flag, an HTTP error status, or a request that
// never completed (status 0).
func netFailed(n api.NetworkEntry) bool {
	return n.IsError || n.StatusCode >= 400 || n.StatusCode == 0
}
