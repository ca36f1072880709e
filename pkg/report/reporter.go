package report

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Reporter renders the outcome of a wait in one place: a file, a CI
// runner's files, stderr or stdout. It decides nothing: the verdict says
// what every report shows. End is called once, whatever ended the wait.
type Reporter interface {
	// Name says what the reporter writes, for the error of one that failed:
	// "the JUnit report".
	Name() string
	// End renders the verdict. An error without an exit code of its own is
	// a report that could not be written (8).
	End(v verdict.Verdict) error
}

// Multiplexer delivers the end to each of its reporters in order, exactly
// once, and isolates them from one another, as Playwright's does: a
// reporter that fails or panics is named on stderr and raises the code (to
// 8, or its error's own code), never lowers it, and never stops the others.
type Multiplexer struct {
	Reporters []Reporter
	ErrOut    io.Writer
	once      sync.Once
	code      int
	// returned is the error a reporter ended with that carries the
	// command's code itself (a --jq that failed): handleError prints it.
	returned error
}

// End delivers v to every reporter and returns the command's error: nil,
// or one carrying the largest of v.Code and the reporters' failures. A
// second call delivers nothing and returns the first call's error.
func (m *Multiplexer) End(v verdict.Verdict) error {
	m.once.Do(func() {
		m.code = v.Code
		for _, r := range m.Reporters {
			err := endSafely(r, v)
			if err == nil {
				continue
			}
			code := exitcode.Local // a CI gate must not pass without its report
			var coded interface{ ExitCode() int }
			if errors.As(err, &coded) {
				code = coded.ExitCode()
			}
			if coded != nil && code > m.code {
				// It carries the command's code: the command's error
				// handler prints it, once.
				if m.returned != nil {
					m.print(m.returned)
				}
				m.code, m.returned = code, err
				continue
			}
			m.code = max(m.code, code)
			m.print(err)
		}
		if m.returned != nil && exitcode.Of(m.returned) != m.code {
			m.print(m.returned)
			m.returned = nil
		}
	})
	switch {
	case m.returned != nil:
		return m.returned
	case m.code == 0:
		return nil
	}
	return &exitcode.Error{Code: m.code}
}

func (m *Multiplexer) print(err error) {
	fmt.Fprintf(m.ErrOut, "error: %s\n", termtext.Sanitize(err.Error()))
}

// endSafely is r.End with a panic turned into its error.
func endSafely(r Reporter, v verdict.Verdict) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s failed: internal error: %v", r.Name(), p)
		}
	}()
	return r.End(v)
}

// reporter is a Reporter made of a name and a function.
type reporter struct {
	name string
	end  func(verdict.Verdict) error
}

func (r reporter) Name() string                { return r.name }
func (r reporter) End(v verdict.Verdict) error { return r.end(v) }
