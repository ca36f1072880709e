package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/verdict"
)

// A reporter that fails or panics is named, raises the code to 8 and stops
// none of the others; a code above 8 stays; the end is delivered once.
func TestMultiplexerIsolatesReporters(t *testing.T) {
	var calls []string
	ok := func(name string) Reporter {
		return reporter{name: name, end: func(Outcome) error { calls = append(calls, name); return nil }}
	}
	for _, c := range []struct {
		verdictCode, want int
		broken            Reporter
		says              string
	}{
		{0, exitcode.Local, reporter{name: "the JUnit report", end: func(Outcome) error { return errors.New("disk full") }}, "error: disk full"},
		{exitcode.Failed, exitcode.Local, reporter{name: "the HTML report", end: func(Outcome) error { panic("nil map") }},
			"error: the HTML report failed: internal error: nil map"},
		{exitcode.Interrupted, exitcode.Interrupted, reporter{name: "GitHub Actions", end: func(Outcome) error { return errors.New("gone") }}, "error: gone"},
		{0, exitcode.Usage, reporter{name: "the data on stdout", end: func(Outcome) error { return exitcode.FlagErrorf("jq: halted") }}, ""},
	} {
		calls = nil
		var stderr bytes.Buffer
		m := &Multiplexer{ErrOut: &stderr, Reporters: []Reporter{ok("first"), c.broken, ok("last")}}
		out := Outcome{Verdict: verdict.Verdict{Code: c.verdictCode}}
		err := m.End(out)
		if got := exitcode.Of(err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.broken.Name(), got, c.want)
		}
		if strings.Join(calls, ",") != "first,last" {
			t.Errorf("%s: reporters called %v", c.broken.Name(), calls)
		}
		if c.says != "" && !strings.Contains(stderr.String(), c.says) {
			t.Errorf("%s: stderr %q", c.broken.Name(), stderr.String())
		}
		if again := m.End(out); exitcode.Of(again) != c.want || len(calls) != 2 {
			t.Errorf("%s: a second End delivered again (%v) or changed the code (%v)", c.broken.Name(), calls, again)
		}
	}
}

// eventLog records every event it is given, by name.
type eventLog struct {
	name   string
	events *[]string
	panics string // the event it panics on
}

func (l eventLog) note(event string) {
	*l.events = append(*l.events, l.name+":"+event)
	if event == l.panics {
		panic("view broke on " + event)
	}
}
func (l eventLog) Name() string                             { return l.name }
func (l eventLog) RunChanged(*Progress, time.Duration)      { l.note("runChanged") }
func (l eventLog) CaseEnded(*Progress, api.RunTestCase)     { l.note("caseEnded") }
func (l eventLog) RunEnded(*Progress, time.Duration)        { l.note("runEnded") }
func (l eventLog) Notice(string)                            { l.note("notice") }
func (l eventLog) Retrying(*Progress, time.Duration, error) { l.note("retrying") }
func (l eventLog) Tick([]*Progress, time.Duration)          { l.note("tick") }
func (l eventLog) End(Outcome) error                        { l.note("end"); return nil }

// Every event reaches every reporter in order, the views and the reports
// alike; a reporter that panics on an event is named once, gets no more
// events but still its end, raises a passing verdict's code to 8 and
// stops none of the others.
func TestMultiplexerDeliversEveryEventAndIsolatesAViewThatPanics(t *testing.T) {
	var events []string
	var stderr bytes.Buffer
	m := &Multiplexer{ErrOut: &stderr}
	m.Add(eventLog{name: "live", events: &events, panics: "caseEnded"}, eventLog{name: "junit", events: &events})
	p := &Progress{ShortID: "r1"}
	m.RunChanged(p, time.Second)
	m.CaseEnded(p, api.RunTestCase{Name: "Checkout"})
	m.Tick([]*Progress{p}, 2*time.Second)
	m.RunEnded(p, 3*time.Second)
	err := m.End(Outcome{Verdict: verdict.Verdict{Code: exitcode.OK}})
	m.Notice("a late retry note") // nothing follows the end
	want := "live:runChanged junit:runChanged live:caseEnded junit:caseEnded junit:tick junit:runEnded live:end junit:end"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	if exitcode.Of(err) != exitcode.Local {
		t.Errorf("exit %d, want 8: a view that broke must not let a green pass unnoticed", exitcode.Of(err))
	}
	if got := strings.Count(stderr.String(), "error: live failed: internal error: view broke on caseEnded"); got != 1 {
		t.Errorf("the broken view is named %d times:\n%s", got, stderr.String())
	}
	// A red verdict gets the larger code: 8 before 1, never 0.
	events = nil
	m = &Multiplexer{ErrOut: &stderr, Reporters: []Reporter{eventLog{name: "live", events: &events, panics: "notice"}}}
	m.Notice("rerun started")
	if err := m.End(Outcome{Verdict: verdict.Verdict{Code: exitcode.Failed}}); exitcode.Of(err) != exitcode.Local {
		t.Errorf("exit %d, want 8 (8 > 1)", exitcode.Of(err))
	}
}

// writeAll renders out in every report in asks for, as a wait's end does.
func writeAll(in Input, out Outcome) error {
	return (&Multiplexer{ErrOut: in.IO.ErrOut, Reporters: Reporters(in)}).End(out)
}
