package iostreams

import (
	"io"
	"os"
	"time"
	"unicode/utf8"

	"github.com/briandowns/spinner"
	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/termtext"
)

// StartSpinner shows msg beside a spinner on stderr. Off a terminal it does
// nothing; a second call only changes the message.
func (s *IOStreams) StartSpinner(msg string) {
	// The contract allows spinners on a terminal; NO_COLOR (and its flag
	// form, --no-color) removes colour, nothing else.
	if !s.IsStderrTTY() {
		return
	}
	s.spinMu.Lock()
	defer s.spinMu.Unlock()
	if s.spinner != nil {
		s.spinner.Lock()
		s.spinner.Suffix = s.suffix(msg)
		s.spinner.Unlock()
		return
	}
	opts := []spinner.Option{spinner.WithWriter(s.ErrOut), spinner.WithSuffix(s.suffix(msg))}
	// The spinner library checks os.Stdout for a terminal unless it is given
	// the file it writes to; stdout is often a pipe while stderr is not.
	if f, ok := fileOf(s.ErrOut); ok {
		opts = append(opts, spinner.WithWriterFile(f))
	}
	sp := spinner.New(spinner.CharSets[11], 120*time.Millisecond, opts...)
	sp.Start()
	s.spinner = sp
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

// suffix sanitises msg because messages often quote service text, keeps
// it on one line and cuts it to the terminal's width: a line that wrapped
// could not be erased by the redraw, which would leave fragments behind or,
// moving up to erase them, eat the lines above (the prompt, finished test
// cases).
func (s *IOStreams) suffix(msg string) string {
	return " " + fitLine(termtext.SanitizeLine(msg), s.ErrTerminalWidth()-len(spinnerFrameCells))
}

// spinnerFrameCells are the columns the spinner takes before its suffix (a
// frame and a space), plus one kept free so the cursor never reaches the
// last column, where terminals wrap on the next character.
const spinnerFrameCells = "f  "

// fitLine cuts s to at most width columns, with an ellipsis when cut. The
// spinner library counts runes where the terminal counts columns, so both
// are kept within width.
func fitLine(s string, width int) string {
	width = max(width, 1)
	if ansi.StringWidth(s) <= width && utf8.RuneCountInString(s) <= width {
		return s
	}
	cut := ansi.Truncate(s, width, "…")
	for utf8.RuneCountInString(cut) > width {
		r := []rune(cut)
		cut = string(r[:width-1]) + "…"
	}
	return cut
}

// SpinnerFrame is frame i of the spinner's animation, for views that draw
// their own lines (Block) and should look like the spinner.
func SpinnerFrame(i int) string {
	frames := spinner.CharSets[11]
	return frames[i%len(frames)]
}

// fileOf is the file a stream writes to, seen through the streams' lock.
func fileOf(w io.Writer) (*os.File, bool) {
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	return f, ok
}
