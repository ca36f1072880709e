package evidence

import (
	"cmp"
	"fmt"
	"math"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

// The formatting here is pure: the reports (terminal summary, JUnit, the
// GitHub step summary and annotations) call it and choose where the text
// goes. Every string from the service passes through termtext first.

// MaxPerKind is how many lines one kind of evidence gets; the rest is
// counted ("…and 12 more") and the commands show it.
const MaxPerKind = 5

// Widths of the pieces of a line, in characters, so that one entry stays
// on one readable line of a CI log.
const (
	maxURL     = 90
	maxMessage = 140
)

// Lines is the evidence of c as lines for a terminal or a log, without
// indentation: failed network requests, console errors and warnings,
// failed API calls, then issues, at most MaxPerKind of each, each entry
// with its time when the service gave one (+4.9s, relative to the test
// case's first captured entry, as console times are). Within a kind, the
// entries the evaluation names come first (Named), then the application's
// own failures (5xx, no answer: on its host or under /api/), then the rest,
// static assets (images, fonts, style sheets) last, each group in time
// order. A part that could not be read is one line saying why; logs
// skipped, one line for the three.
func Lines(c Case) []string {
	groups := lineGroups(c)
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.line
	}
	return out
}

// Fit is Lines for a terminal width columns wide: a line too long is cut,
// and a request's line in its URL's middle, so that what tells it apart
// (the end of its path) and its status stay: "+5.9s POST …/api/payments
// 502"; what follows the status (the error, the duration) gives way too.
// A width of 0 or less is no width: the lines are whole.
func Fit(c Case, width int) []string {
	groups := lineGroups(c)
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.fit(width)
	}
	return out
}

func lineGroups(c Case) []group {
	var out []group
	if c.Skipped != "" {
		out = append(out, group{line: "logs " + termtext.SanitizeLine(c.Skipped)})
	} else {
		named := NamedBy(c.Target)
		out = append(out, pick(c.Network, named.networkGroups, "network")...)
		out = append(out, pick(c.Console, named.consoleGroups, "console")...)
		out = append(out, pick(c.APICalls, named.apiCallGroups, "API calls")...)
	}
	out = append(out, pick(c.Issues, issueGroups, "issues")...)
	if len(out) == 0 {
		out = append(out, group{line: "nothing captured: no failed requests, console errors or warnings, failed API calls or issues"})
	}
	return out
}

// minFitURL is the least a URL is cut to before what follows its status
// gives way: "/api/rec…?sku=TR2-42" still says which request it was.
const minFitURL = 24

// fit is the group's line cut to width (see Fit).
func (g group) fit(width int) string {
	if width <= 0 || ansi.StringWidth(g.line) <= width {
		return g.line
	}
	if g.urlEnd == 0 {
		return ansi.Truncate(g.line, width, "…")
	}
	head, url, status, tail := g.line[:g.urlStart], g.line[g.urlStart:g.urlEnd], g.line[g.urlEnd:g.statusEnd], g.line[g.statusEnd:]
	room := width - ansi.StringWidth(head) - ansi.StringWidth(status)
	if room < len("…/x") {
		return ansi.Truncate(g.line, width, "…")
	}
	urlWidth := min(ansi.StringWidth(url), max(room-ansi.StringWidth(tail), min(minFitURL, room)))
	if tail != "" && room-urlWidth < min(ansi.StringWidth(tail), 2) {
		urlWidth = max(room-2, 1) // room for " …": a tail cut away whole would not say it was there
	}
	url = output.CutMiddle(url, urlWidth)
	return head + url + status + ansi.Truncate(tail, room-ansi.StringWidth(url), "…")
}

// FirstLine is the one line that says most, for a GitHub annotation: the
// most severe issue that names the test case, else the application's last
// request answered 5xx or never answered (a failure usually ends a test
// case), else the last console error, else the failed API call that says
// most, else the failed request that does; "" when there is no evidence.
func FirstLine(c Case) string {
	if issues := sortedIssues(c.Issues.Entries); len(issues) > 0 {
		return issueLine(issues[0])
	}
	named := NamedBy(c.Target)
	if g, ok := best(named.networkGroups(c.Network.Entries)); ok && g.rank <= 1 {
		return g.line
	}
	if g, ok := best(named.consoleGroups(c.Console.Entries)); ok && g.rank <= 0 {
		return g.line
	}
	if g, ok := best(named.apiCallGroups(c.APICalls.Entries)); ok {
		return g.line
	}
	if g, ok := best(named.networkGroups(c.Network.Entries)); ok {
		return g.line
	}
	return ""
}

// Commands are the exact commands that show all of c's evidence: the
// network and console logs of a browser test, the API calls of an API
// test (one that made API calls; when they could not be read and nothing
// came from a browser either, both), and the run's issues when it has
// any for this test case. An id the service gave that cannot be sent
// (api.CheckID) gets no command, which would be refused; so there may be
// none.
func Commands(c Case) []string { return nextstep.Steps(nextstep.Shell{}, Steps(c)) }

// Steps are the steps of Commands, for a renderer to word.
func Steps(c Case) []nextstep.Step {
	madeCalls := len(c.APICalls.Entries) > 0 || c.APICalls.Total > 0
	unsure := c.APICalls.Unavailable != "" && len(c.Network.Entries)+len(c.Console.Entries) == 0
	logs := api.CheckID("", c.CaseShortID) == nil
	var out []nextstep.Step
	if logs && !madeCalls {
		out = append(out, nextstep.Command("logs", c.CaseShortID, "--kind", "network", "--status", "errors"),
			nextstep.Command("logs", c.CaseShortID, "--kind", "console"))
	}
	if logs && (madeCalls || unsure) {
		out = append(out, nextstep.Command("logs", c.CaseShortID, "--kind", "api-calls", "--status", "errors"))
	}
	if (len(c.Issues.Entries) > 0 || c.Issues.Unavailable != "") && api.CheckID("", c.RunShortID) == nil {
		out = append(out, nextstep.Command("run", "get", c.RunShortID, "--issues"))
	}
	return out
}

// Text is the evidence and the commands for more as plain text, for a
// JUnit <system-out>: no control characters, nor the two characters XML
// forbids that termtext keeps (U+FFFE, U+FFFF), one entry a line.
func Text(c Case) string {
	// Lines are never empty; Commands may be.
	text := "Evidence:\n  " + strings.Join(Lines(c), "\n  ") + "\n"
	if cmds := Commands(c); len(cmds) > 0 {
		text += "More:\n  " + strings.Join(cmds, "\n  ") + "\n"
	}
	return strings.Map(func(r rune) rune {
		if r == 0xfffe || r == 0xffff {
			return -1
		}
		return r
	}, text)
}

// group is one line of evidence standing for one or more entries that say
// the same thing (the same request failing the same way).
type group struct {
	line  string
	rank  int   // 0 says most; what the evaluation names, -1
	tier  int   // its place when shown: named, the application's failures, the rest, static assets
	at    int64 // when its first entry happened, ms; unknownTime when the service did not say
	first int   // index of the first entry
	n     int
	// A request's line has a URL, line[urlStart:urlEnd], followed by its
	// status, which ends at statusEnd; other lines have urlEnd 0.
	urlStart, urlEnd, statusEnd int
}

// The tiers of the lines shown, within each the time order.
const (
	tierNamed = iota
	tierApp   // the application's own failures: 5xx, no answer
	tierRest
	tierStatic // images, fonts, style sheets
)

// unknownTime places an entry without a time after those with one.
const unknownTime = math.MaxInt64

// timeOf is an entry's time in ms, unknownTime when it has none.
func timeOf(ms *int64) int64 {
	if ms == nil || *ms < 0 {
		return unknownTime
	}
	return *ms
}

// placed sets a group's rank and tier: what the evaluation names comes
// first and says most.
func placed(g group, named bool, tier int) group {
	g.tier = tier
	if named {
		g.rank, g.tier = -1, tierNamed
	}
	return g
}

// pick is one kind of evidence as lines: the MaxPerKind groups of the
// first tiers, those that say most within a tier, shown by their tier and
// within it in the order they happened; and how many entries of its total
// the rest stand for.
func pick[T any](p Part[T], groupsOf func([]T) []group, kind string) []group {
	if p.Unavailable != "" {
		return []group{{line: kind + ": not available: " + termtext.SanitizeLine(p.Unavailable)}}
	}
	total := max(p.Total, len(p.Entries))
	kept := groupsOf(p.Entries)
	slices.SortFunc(kept, func(a, b group) int { return cmp.Or(cmp.Compare(a.tier, b.tier), saysMore(a, b)) })
	kept = kept[:min(len(kept), MaxPerKind)]
	slices.SortFunc(kept, func(a, b group) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.at, b.at), cmp.Compare(a.first, b.first))
	})
	shown := 0
	for _, g := range kept {
		shown += g.n
	}
	if more := total - shown; more > 0 {
		kept = append(kept, group{line: fmt.Sprintf("…and %d more", more)})
	}
	return kept
}

// saysMore orders groups by what they say: the best rank first and, among
// equals, the latest, as a failure usually ends a test case, after the
// noise.
func saysMore(a, b group) int {
	return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(b.at, a.at), cmp.Compare(b.first, a.first))
}

// best is the group that says most.
func best(groups []group) (group, bool) {
	if len(groups) == 0 {
		return group{}, false
	}
	return slices.MinFunc(groups, saysMore), true
}

// grouped makes a group of each entry, folding the entries with the same
// key into the group of the first, counted (" ×3").
func grouped[T any](entries []T, groupOf func(T) (key string, g group)) []group {
	var groups []group
	keys := map[string]int{}
	for i, e := range entries {
		key, g := groupOf(e)
		if j, ok := keys[key]; ok {
			groups[j].n++
			continue
		}
		keys[key] = len(groups)
		g.first, g.n = i, 1
		groups = append(groups, g)
	}
	for i := range groups {
		if groups[i].n > 1 {
			groups[i].line += fmt.Sprintf(" ×%d", groups[i].n)
		}
	}
	return groups
}

func (n Named) networkGroups(entries []api.NetworkEntry) []group {
	site := NetworkSite(entries)
	return grouped(entries, func(e api.NetworkEntry) (string, group) {
		detail := e.ErrorText
		if detail == "" && e.CrossOriginInfo != "" {
			detail = "blocked by CORS"
		}
		host, rest := splitURL(e.URL)
		at := request{time: relTime(e.RelativeTimestampMs), method: clip(termtext.SanitizeLine(e.Method), 10) + " ", url: shortURL(host, rest, site), status: " " + statusWord(e.StatusCode)}
		what := at.what()
		if detail != "" {
			what += " " + clip(termtext.SanitizeLine(detail), maxMessage)
		}
		line := relTime(e.RelativeTimestampMs) + what + durationOf(e.DurationMs)
		w := where{ours: site == "" || host == site, path: rest}
		g := at.group(line, w.rank(e.StatusCode), timeOf(e.RelativeTimestampMs))
		return what, placed(g, n.Network(e), w.tier(e.StatusCode))
	})
}

// where is what places a failed request: whether it is the application's
// (its host, or a path under /api/) and its path, which says whether it
// is a static asset.
type where struct {
	ours bool // the application's host
	path string
}

func (w where) app() bool { return w.ours || strings.HasPrefix(w.path, "/api/") }

// tier places a request that the evaluation does not name: the
// application's own failures (5xx, no answer) first, static assets last.
func (w where) tier(code int32) int {
	switch {
	case isStatic(w.path):
		return tierStatic
	case w.app() && (code >= 500 || code == 0):
		return tierApp
	}
	return tierRest
}

// rank: the application's answers 5xx say most, then its requests that
// got no answer, then its 4xx; third parties' failures (a blocked tracker,
// their 5xx) less, and static assets (a missing image, a font) least.
func (w where) rank(code int32) int {
	switch {
	case isStatic(w.path):
		return 4
	case !w.app():
		return 3
	case code >= 500:
		return 0
	case code == 0:
		return 1
	}
	return 2
}

// staticExtensions are those of the files a page loads beside the
// application: images, fonts and style sheets.
var staticExtensions = []string{".png", ".jpg", ".gif", ".svg", ".webp", ".ico", ".woff", ".woff2", ".ttf", ".css"}

// isStatic reports whether a URL's path (and query) names a static asset.
func isStatic(pathAndQuery string) bool {
	p, _, _ := strings.Cut(pathAndQuery, "?")
	p, _, _ = strings.Cut(p, "#")
	ext := strings.ToLower(path.Ext(p))
	return ext != "" && slices.Contains(staticExtensions, ext)
}

func (n Named) consoleGroups(entries []api.ConsoleEntry) []group {
	return grouped(entries, func(e api.ConsoleEntry) (string, group) {
		level := strings.ToLower(termtext.SanitizeLine(e.Level))
		what := "console " + clip(level, 10) + " " + clip(strings.TrimSpace(termtext.SanitizeLine(e.Message)), maxMessage)
		ms := int64(e.RelativeTimestampSeconds) * 1000
		line := relTime(&ms) + what
		return what, placed(group{line: line, rank: ConsoleRank(level), at: timeOf(&ms)}, n.Console(e), tierRest)
	})
}

// ConsoleRank ranks a console level by what it says: errors 0, warnings 1,
// the other levels (log, info, debug) 2.
func ConsoleRank(level string) int {
	switch strings.ToLower(level) {
	case "error":
		return 0
	case "warning", "warn":
		return 1
	}
	return 2
}

func (n Named) apiCallGroups(entries []api.APICallEntry) []group {
	site := APICallSite(entries)
	return grouped(entries, func(e api.APICallEntry) (string, group) {
		code := int32(0)
		if e.StatusCode != nil {
			code = *e.StatusCode
		}
		host, rest := splitURL(e.URL)
		at := request{time: relTime(e.RelativeTimestampMs), method: "API " + clip(termtext.SanitizeLine(e.Method), 10) + " ", url: shortURL(host, rest, site), status: " " + statusWord(code)}
		what := at.what()
		errText := ""
		if e.ErrorMessage != "" {
			errText = " " + clip(termtext.SanitizeLine(e.ErrorMessage), maxMessage)
		}
		line := relTime(e.RelativeTimestampMs) + what + durationOf(e.DurationMs) + errText
		// An API test's calls are all its own: none ranks as a third party's.
		w := where{ours: true, path: rest}
		return what + errText, placed(at.group(line, w.rank(code), timeOf(e.RelativeTimestampMs)), n.APICall(e), w.tier(code))
	})
}

// request is the start of a request's line: its time, its method (with
// the words before it), its URL and its status.
type request struct{ time, method, url, status string }

// what is the request without its time, which grouping ignores.
func (r request) what() string { return r.method + r.url + r.status }

// group is a group of line, which starts with the request made at ms.
func (r request) group(line string, rank int, ms int64) group {
	start := len(r.time) + len(r.method)
	end := start + len(r.url)
	return group{line: line, rank: rank, at: ms, urlStart: start, urlEnd: end, statusEnd: end + len(r.status)}
}

func issueGroups(entries []api.Issue) []group {
	issues := sortedIssues(entries)
	groups := make([]group, len(issues))
	for i, is := range issues {
		groups[i] = group{line: issueLine(is), rank: i, first: i, n: 1} // the most severe say most
	}
	return groups
}

func issueLine(is api.Issue) string {
	sev := cmp.Or(strings.ToUpper(clip(termtext.SanitizeLine(is.Severity), 16)), "UNRATED")
	return "issue " + sev + ": " + clip(termtext.SanitizeLine(is.Title), maxMessage)
}

// severityOrder ranks the service's severities, most severe first; others
// come after them in the order given.
var severityOrder = []string{"CRITICAL", "HIGH", "MEDIUM", "LOW"}

func sortedIssues(issues []api.Issue) []api.Issue {
	rank := func(is api.Issue) int {
		if i := slices.Index(severityOrder, strings.ToUpper(is.Severity)); i >= 0 {
			return i
		}
		return len(severityOrder)
	}
	out := slices.Clone(issues)
	slices.SortStableFunc(out, func(a, b api.Issue) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

// statusWord is a status code, or "failed" for a request never answered.
func statusWord(code int32) string {
	if code == 0 {
		return "failed"
	}
	return strconv.Itoa(int(code))
}

// Since is when an entry happened, from the test case's first captured
// entry (a network request's or API call's relativeTimestampMs): "+4.9s"
// under ten seconds, "+23s" after, cut rather than rounded as the console
// counts whole seconds; "" when the service gave no time. One format
// whatever the entry's kind: a console entry's whole second is "+4.0s"
// beside a request's "+4.3s", never "+4s". `testctl logs` shows the same.
func Since(ms *int64) string {
	switch {
	case ms == nil || *ms < 0: // a time before the first entry is no time
		return ""
	case *ms >= 10_000:
		return "+" + strconv.FormatInt(*ms/1000, 10) + "s"
	}
	return fmt.Sprintf("+%d.%ds", *ms/1000, *ms%1000/100)
}

// relTime is Since followed by a space, or "".
func relTime(ms *int64) string {
	if s := Since(ms); s != "" {
		return s + " "
	}
	return ""
}

// durationOf is " (120 ms)", " (4.9 s)", or "" when the request never ended.
func durationOf(ms *int32) string {
	switch {
	case ms == nil:
		return ""
	case *ms < 1000:
		return fmt.Sprintf(" (%d ms)", *ms)
	}
	return fmt.Sprintf(" (%.1f s)", float64(*ms)/1000)
}

// siteHost is the application's host, whose URLs are shown by their path
// alone: the one that answered most of the entries (third parties that
// failed, a blocked tracker say, never answered at all).
func siteHost[T any](entries []T, urlOf func(T) string, answered func(T) bool) string {
	counts := map[string]int{}
	best := ""
	for _, e := range entries {
		host, _ := splitURL(urlOf(e))
		if host == "" || !answered(e) {
			continue
		}
		counts[host]++
		if counts[host] > counts[best] || (counts[host] == counts[best] && host < best) {
			best = host
		}
	}
	return best
}

// NetworkSite is the application's host among network requests (see
// siteHost): the host whose URLs the evidence and `testctl logs` show by
// their path alone.
func NetworkSite(entries []api.NetworkEntry) string {
	return siteHost(entries, func(e api.NetworkEntry) string { return e.URL }, func(e api.NetworkEntry) bool { return e.StatusCode != 0 })
}

// APICallSite is NetworkSite for the calls of an API test.
func APICallSite(entries []api.APICallEntry) string {
	return siteHost(entries, func(e api.APICallEntry) string { return e.URL }, func(e api.APICallEntry) bool { return e.StatusCode != nil })
}

// ConsoleSite is the host most console messages were logged from: the
// application's scripts.
func ConsoleSite(entries []api.ConsoleEntry) string {
	return siteHost(entries, Source, func(api.ConsoleEntry) bool { return true })
}

// ShortURL is a URL as the evidence shows it, neither sanitised nor
// clipped: without its scheme, and without its host when that is site's
// ("/api/payments", "tracker.invalid/collect"); as given when it is not an
// absolute URL.
func ShortURL(raw, site string) string {
	host, rest := splitURL(raw)
	if host != "" && host != site {
		rest = host + rest
	}
	return rest
}

// splitURL is a URL's host and what follows it, parsed once per entry:
// "" and the URL as given when it has no host.
func splitURL(raw string) (host, rest string) {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host, u.RequestURI()
	}
	return "", raw
}

// shortURL is a URL without its scheme, and without its host when that is
// site's, clipped to maxURL.
func shortURL(host, rest, site string) string {
	if host != "" && host != site {
		rest = host + rest
	}
	return clip(termtext.SanitizeLine(rest), maxURL)
}

// clip cuts s to n characters, marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n { // no more bytes than n: no more characters
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Source is where a console message was logged, file:line:column; "" when
// the service did not say.
func Source(e api.ConsoleEntry) string {
	if e.Source == nil || *e.Source == "" {
		return ""
	}
	s := *e.Source
	if e.Line != nil {
		s += ":" + strconv.Itoa(int(*e.Line))
		if e.Column != nil {
			s += ":" + strconv.Itoa(int(*e.Column))
		}
	}
	return s
}
