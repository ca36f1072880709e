package htmlreport

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// The page's data: what the page's script (assets/js) reads from the
// embedded JSON. Field names
// are short but readable, since a person may extract the data too; the
// order of runs and test cases is the order the page shows them. Every
// "class" is the verdict's (pageClass): the script colours, filters and
// counts by them and compares no status or result of its own.
type pageData struct {
	Version  int    `json:"version"`
	Verdict  string `json:"verdict"`
	Class    string `json:"class"`
	ExitCode int    `json:"exitCode"`
	// Failing are the classes that count against a run
	// (verdict.Class.DidNotPass): what the page's Failed filter shows.
	Failing       []string  `json:"failing"`
	Partial       bool      `json:"partial,omitempty"`
	PartialReason string    `json:"partialReason,omitempty"`
	Resume        string    `json:"resume,omitempty"`
	GeneratedAt   string    `json:"generatedAt,omitempty"`
	RunsText      string    `json:"runsText"` // "2 runs · 1 plan not started"
	Counts        counts    `json:"counts"`
	Limits        limits    `json:"limits"`
	Runs          []pageRun `json:"runs"`
}

// counts are the test cases per class, over every run.
type counts map[string]int

// pageClass is a verdict class as the page names it, a word fit for a CSS
// class: "not run" is "notrun".
func pageClass(c verdict.Class) string { return clip(strings.ReplaceAll(string(c), " ", ""), 32) }

// limits tells the page whether the report's text budget ran out, so it can
// say that it kept less.
type limits struct {
	Clipped bool `json:"clipped,omitempty"`
}

type pageRun struct {
	Plan        string        `json:"plan"`
	PlanShortID string        `json:"planShortId,omitempty"`
	ShortID     string        `json:"shortId,omitempty"`
	Link        link          `json:"link"`
	Status      string        `json:"status,omitempty"`
	Result      string        `json:"result,omitempty"`
	Class       string        `json:"class"`
	NotStarted  bool          `json:"notStarted,omitempty"`
	Problem     string        `json:"problem,omitempty"`
	Note        string        `json:"note,omitempty"`
	Started     string        `json:"started,omitempty"`
	Ended       string        `json:"ended,omitempty"`
	Attempts    []pageAttempt `json:"attempts,omitempty"`
	History     []pageHistory `json:"history,omitempty"`
	Cases       []pageCase    `json:"cases"`
	sources     []Case        // Cases' inputs, for their texts and evidence
	rank        int           // its place: not started first, then by class
}

// link is a URL as text, and Href only when it is safe to follow: an
// absolute http or https URL. Anything else (javascript:, data:, a relative
// path) stays text.
type link struct {
	Text string `json:"text,omitempty"`
	Href string `json:"href,omitempty"`
}

func newLink(s string) link {
	l := link{Text: clip(s, maxURL)}
	// A URL too long to show whole is not followed either: cut, it would
	// lead somewhere else.
	if len(s) > maxURL {
		return l
	}
	if u, err := url.Parse(s); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		l.Href = u.String()
	}
	return l
}

type pageAttempt struct {
	ShortID string `json:"shortId,omitempty"`
	Link    link   `json:"link"`
	Result  string `json:"result,omitempty"`
	Class   string `json:"class,omitempty"`
}

type pageHistory struct {
	ShortID   string `json:"shortId,omitempty"`
	Link      link   `json:"link"`
	Class     string `json:"class"`
	Label     string `json:"label,omitempty"`
	Duration  string `json:"duration,omitempty"`
	CreatedAt string `json:"createdAt,omitempty"`
}

type pageCase struct {
	Name          string        `json:"name"`
	ShortID       string        `json:"shortId,omitempty"`
	Class         string        `json:"class"`
	Status        string        `json:"status,omitempty"`
	Result        string        `json:"result,omitempty"`
	ResultTitle   string        `json:"resultTitle,omitempty"`
	Evaluation    string        `json:"evaluation,omitempty"`
	Attempt       int           `json:"attempt,omitempty"`
	Evidence      *pageEvidence `json:"evidence,omitempty"`
	FailedAttempt *pageCase     `json:"failedAttempt,omitempty"`
	// Failure is new, known or quarantined (Case.Failure); FailureNote
	// its words.
	Failure     string `json:"failure,omitempty"`
	FailureNote string `json:"failureNote,omitempty"`
}

// classOrder orders runs and test cases failures first; an unknown class,
// in the place of "", goes with the failures, since nobody decided it
// passed.
var classOrder = []verdict.Class{verdict.Failed, verdict.Errored, "", verdict.Flaky, verdict.NotRun, verdict.Skipped, verdict.Passed}

func classRank(c verdict.Class) int {
	if i := slices.Index(classOrder, c); i >= 0 {
		return i
	}
	return slices.Index(classOrder, "")
}

func buildPage(r Report) pageData {
	b := newBudget(textBudget)
	p := pageData{
		Version:       2,
		Verdict:       clip(r.Verdict, maxName),
		Class:         pageClass(r.Class),
		ExitCode:      r.ExitCode,
		Partial:       r.Partial,
		PartialReason: r.PartialReason,
		Resume:        clip(r.Resume, maxEvaluation),
		GeneratedAt:   timeText(r.GeneratedAt),
		RunsText:      runsText(r.Runs),
		Counts:        counts{},
		Runs:          make([]pageRun, 0, len(r.Runs)),
	}
	for _, c := range classOrder {
		if c.DidNotPass() {
			p.Failing = append(p.Failing, pageClass(c))
		}
	}
	for _, run := range r.Runs {
		p.Runs = append(p.Runs, newPageRun(run))
	}
	// The plans that did not start first, as the terminal and the step
	// summary show them: they are why the command failed. Then runs with
	// failures first, then test cases failures first, all stable: the
	// command's order is kept among equals.
	slices.SortStableFunc(p.Runs, func(a, b pageRun) int { return cmp.Compare(a.rank, b.rank) })
	// Evidence is bounded after the ordering, so that the text budget goes
	// to the failures the reader looks at first.
	for i := range p.Runs {
		run := &p.Runs[i]
		for j := range run.Cases {
			c := &run.Cases[j]
			p.Counts[c.Class]++
			src := run.sources[j]
			c.setTexts(src, b)
			if c.FailedAttempt != nil {
				c.FailedAttempt.setTexts(*src.FailedAttempt, b)
			}
			if src.Class != verdict.Passed && src.Evidence != nil {
				c.Evidence = newPageEvidence(src.Evidence, b)
			}
			if c.FailedAttempt != nil && src.FailedAttempt.Evidence != nil {
				c.FailedAttempt.Evidence = newPageEvidence(src.FailedAttempt.Evidence, b)
			}
		}
		run.sources = nil
	}
	p.Limits.Clipped = b.exhausted
	return p
}

// Per-field caps on text outside the evidence: a name or an evaluation is
// short in practice; a megabyte one must not make the page unreadable. A
// test case's texts also spend the report's text budget (setTexts).
const (
	maxName       = 1 << 10
	maxEvaluation = 16 << 10
)

func newPageRun(r Run) pageRun {
	cases := slices.Clone(r.Cases)
	slices.SortStableFunc(cases, func(a, b Case) int { return cmp.Compare(classRank(a.Class), classRank(b.Class)) })
	p := pageRun{
		Plan:        clip(cmp.Or(r.PlanName, r.PlanShortID), maxName),
		PlanShortID: clip(r.PlanShortID, maxName),
		ShortID:     clip(r.ShortID, maxName),
		Link:        newLink(r.URL),
		Status:      clip(r.Status, maxName),
		Result:      clip(r.Result, maxName),
		Class:       pageClass(r.Class),
		NotStarted:  r.NotStarted,
		Problem:     clip(r.Problem, maxEvaluation),
		Note:        clip(r.Note, maxEvaluation),
		Started:     timeText(r.StartedAt),
		Cases:       make([]pageCase, 0, len(cases)),
		sources:     cases,
		rank:        classRank(r.Class) + 1,
	}
	if r.NotStarted {
		p.rank = 0
	}
	p.Ended = clip(r.Ended, maxName)
	if len(r.Attempts) > 1 {
		for _, a := range r.Attempts {
			p.Attempts = append(p.Attempts, pageAttempt{ShortID: clip(a.ShortID, maxName), Link: newLink(a.URL), Result: clip(a.Result, maxName),
				Class: pageClass(a.Class)})
		}
	}
	for _, h := range r.History[:min(len(r.History), maxHistory)] {
		d := durationText(h.Duration)
		if h.ShortID == r.ShortID && p.Ended != "" {
			d = p.Ended // this run, in its plan's history: the one time the page gives it
		}
		p.History = append(p.History, pageHistory{
			ShortID:   clip(h.ShortID, maxName),
			Link:      newLink(h.URL),
			Class:     pageClass(h.Class),
			Label:     clip(cmp.Or(h.Result, h.Status), maxName),
			Duration:  d,
			CreatedAt: timeText(h.CreatedAt),
		})
	}
	for _, c := range cases {
		pc := newPageCase(c)
		if c.Class == verdict.Flaky && c.FailedAttempt != nil {
			fa := newPageCase(*c.FailedAttempt)
			pc.FailedAttempt = &fa
		}
		p.Cases = append(p.Cases, pc)
	}
	return p
}

// runsText counts the runs as the terminal tells them: the runs, and apart
// from them the plans that did not start, which have none.
func runsText(runs []Run) string {
	notStarted, maybe := 0, 0
	for _, r := range runs {
		switch {
		case r.MaybeStarted:
			maybe++
		case r.NotStarted:
			notStarted++
		}
	}
	text := termtext.Plural(len(runs)-notStarted-maybe, "run")
	if notStarted > 0 {
		text += " · " + termtext.Plural(notStarted, "plan") + " not started"
	}
	if maybe > 0 {
		text += " · " + termtext.Plural(maybe, "plan") + " may have started a run"
	}
	return text
}

// maxHistory is how many of the plan's recent runs the strip shows.
const maxHistory = 30

// newPageCase is a test case without its texts: setTexts gives them once
// the page's order is known.
func newPageCase(c Case) pageCase {
	return pageCase{Class: pageClass(c.Class), Attempt: max(c.Attempt, 1)}
}

// setTexts gives a test case its texts from the budget, every one of them:
// a name or a title is service text too, and 400 of 16 KiB would be a
// report of 10 MB.
func (c *pageCase) setTexts(src Case, b *budget) {
	c.Name = b.short(src.Name, maxName)
	c.ShortID = b.short(src.ShortID, maxName)
	c.Status = b.short(src.Status, maxName)
	c.Result = b.short(src.Result, maxName)
	c.ResultTitle = b.short(src.ResultTitle, maxEvaluation)
	c.Evaluation = b.short(src.Evaluation, maxEvaluation)
	c.Failure = clip(strings.ReplaceAll(src.Failure, " ", ""), 32)
	c.FailureNote = b.short(src.FailureNote, maxEvaluation)
}

// timeText is a time as the page shows it: UTC, to the second, the same for
// every reader of a CI artefact whatever their time zone.
func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func durationText(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// clip cuts s to at most n bytes on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	// Drop the bytes of a character cut short (at most three).
	for i := 0; i < utf8.UTFMax-1 && len(s) > 0; i++ {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s + "…"
}
