package iostreams

import (
	"os"
	"time"

	"github.com/briandowns/spinner"

	"github.com/testctl/testctl/pkg/termtext"
)

// SetSpinnerDisabled turns the spinner off even on a terminal, e.g. when
// --debug logs to stderr and the two would garble each other.
func (s *IOStreams) SetSpinnerDisabled(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spinnerOff = v
}

func (s *IOStreams) spinnerAllowed() bool {
	s.mu.Lock()
	off := s.spinnerOff
	s.mu.Unlock()
	// Animation follows the colour setting: the contract allows spinners
	// only on a terminal and without NO_COLOR, and --no-color is the flag
	// form of NO_COLOR.
	return !off && s.ErrColorEnabled()
}

// StartSpinner shows msg beside a spinner on stderr. Off a terminal it does
// nothing; a second call only changes the message.
func (s *IOStreams) StartSpinner(msg string) {
	if !s.spinnerAllowed() {
		return
	}
	s.spinMu.Lock()
	defer s.spinMu.Unlock()
	if s.spinner != nil {
		s.setSuffix(msg)
		return
	}
	opts := []spinner.Option{spinner.WithWriter(s.ErrOut), spinner.WithSuffix(suffix(msg))}
	// The spinner library checks os.Stdout for a terminal unless it is given
	// the file it writes to; stdout is often a pipe while stderr is not.
	if f, ok := s.ErrOut.(*os.File); ok {
		opts = append(opts, spinner.WithWriterFile(f))
	}
	sp := spinner.New(spinner.CharSets[11], 120*time.Millisecond, opts...)
	sp.Start()
	s.spinner = sp
}

// UpdateSpinner changes the message of a running spinner.
func (s *IOStreams) UpdateSpinner(msg string) {
	s.spinMu.Lock()
	defer s.spinMu.Unlock()
	if s.spinner != nil {
		s.setSuffix(msg)
	}
}

// StopSpinner erases the spinner; it is safe to call when none is running.
func (s *IOStreams) StopSpinner() {
	s.spinMu.Lock()
	defer s.spinMu.Unlock()
	if s.spinner != nil {
		s.spinner.Stop()
		s.spinner = nil
	}
}

// setSuffix must be called with spinMu held.
func (s *IOStreams) setSuffix(msg string) {
	s.spinner.Lock()
	s.spinner.Suffix = suffix(msg)
	s.spinner.Unlock()
}

// suffix sanitises msg because messages often quote service text, and keeps
// it on one line so the spinner can erase it.
func suffix(msg string) string {
	return " " + termtext.SanitizeLine(msg)
}
