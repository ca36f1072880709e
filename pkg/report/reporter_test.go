package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/verdict"
)

// A reporter that fails or panics is named, raises the code to 8 and stops
// none of the others; a code above 8 stays; the end is delivered once.
func TestMultiplexerIsolatesReporters(t *testing.T) {
	var calls []string
	ok := func(name string) Reporter {
		return reporter{name, func(verdict.Verdict) error { calls = append(calls, name); return nil }}
	}
	for _, c := range []struct {
		verdictCode, want int
		broken            Reporter
		says              string
	}{
		{0, exitcode.Local, reporter{"the JUnit report", func(verdict.Verdict) error { return errors.New("disk full") }}, "error: disk full"},
		{exitcode.Failed, exitcode.Local, reporter{"the HTML report", func(verdict.Verdict) error { panic("nil map") }},
			"error: the HTML report failed: internal error: nil map"},
		{exitcode.Interrupted, exitcode.Interrupted, reporter{"GitHub Actions", func(verdict.Verdict) error { return errors.New("gone") }}, "error: gone"},
		{0, exitcode.Usage, reporter{"the data on stdout", func(verdict.Verdict) error { return exitcode.FlagErrorf("jq: halted") }}, ""},
	} {
		calls = nil
		var stderr bytes.Buffer
		m := &Multiplexer{ErrOut: &stderr, Reporters: []Reporter{ok("first"), c.broken, ok("last")}}
		v := verdict.Verdict{Code: c.verdictCode}
		err := m.End(v)
		if got := exitcode.Of(err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.broken.Name(), got, c.want)
		}
		if strings.Join(calls, ",") != "first,last" {
			t.Errorf("%s: reporters called %v", c.broken.Name(), calls)
		}
		if c.says != "" && !strings.Contains(stderr.String(), c.says) {
			t.Errorf("%s: stderr %q", c.broken.Name(), stderr.String())
		}
		if again := m.End(v); exitcode.Of(again) != c.want || len(calls) != 2 {
			t.Errorf("%s: a second End delivered again (%v) or changed the code (%v)", c.broken.Name(), calls, again)
		}
	}
}
