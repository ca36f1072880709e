package iostreams

import (
	"io"
	"sync"
	"time"

	"github.com/briandowns/spinner"
	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/termtext"
)

// StartSpinner shows msg beside a spinner on stderr. Off a terminal, or on
// one that cannot redraw (TERM=dumb), it does nothing; a second call only
// changes the message.
func (s *IOStreams) StartSpinner(msg string) {
	// The contract allows spinners on a terminal; NO_COLOR (and its flag
	// form, --no-color) removes colour, nothing else.
	if !s.CanRedrawStderr() {
		return
	}
	s.spinMu.Lock()
	defer s.spinMu.Unlock()
	if s.spinner != nil {
		s.spinner.set(msg)
		return
	}
	sp := &spinnerLine{w: s.ErrOut, width: s.ErrTerminalWidth, msg: msg, stop: make(chan struct{}), done: make(chan struct{})}
	sp.start()
	s.spinner = sp
}

// StopSpinner erases the spinner; it is safe to call when none is running.
func (s *IOStreams) StopSpinner() {
	s.spinMu.Lock()
	defer s.spinMu.Unlock()
	if s.spinner != nil {
		s.spinner.end()
		s.spinner = nil
	}
}

// spinnerLine is the spinner's line, drawn by testctl: only the frames
// are briandowns/spinner's. That library measured its line in bytes and
// the width of descriptor 0, so a line fitted to the terminal counted as
// two and each frame erased the line above it. Here every frame is the
// one line, fitted in cells to stderr's width as it is now, and the cursor
// never moves up: it waits at the line's first column, where a terminal
// that rewraps its lines when narrowed keeps it, so that the next frame
// erases the whole old line, however many rows it has come to take.
type spinnerLine struct {
	w     io.Writer
	width func() int

	mu    sync.Mutex
	msg   string
	frame int

	stop, done chan struct{}
}

// spinnerDelay is the time between two frames, the library's own.
const spinnerDelay = 120 * time.Millisecond

func (sp *spinnerLine) start() {
	sp.mu.Lock()
	sp.write(hideCursor + sp.line())
	sp.mu.Unlock()
	go func() {
		defer close(sp.done)
		tick := time.NewTicker(spinnerDelay)
		defer tick.Stop()
		for {
			select {
			case <-sp.stop:
				return
			case <-tick.C:
				sp.mu.Lock()
				sp.frame++
				sp.write(sp.line())
				sp.mu.Unlock()
			}
		}
	}()
}

func (sp *spinnerLine) set(msg string) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.msg = msg
}

// end stops the frames and erases the line, leaving the cursor at its
// start.
func (sp *spinnerLine) end() {
	close(sp.stop)
	<-sp.done
	sp.write("\r" + eraseDown + showCursor)
}

const (
	hideCursor = "\x1b[?25l"
	showCursor = "\x1b[?25h"
	eraseDown  = "\x1b[J" // from the cursor to the end of the screen
)

// line is the current frame: the line before erased, the frame and the
// message, and the cursor back at the line's start. The message is
// sanitised because it often quotes service text.
func (sp *spinnerLine) line() string {
	msg := fitLine(termtext.SanitizeLine(sp.msg), sp.width()-spinnerFrameCells)
	return "\r" + eraseDown + SpinnerFrame(sp.frame) + " " + msg + "\r"
}

// write sends one frame in one write: stderr keeps writes whole.
func (sp *spinnerLine) write(s string) { _, _ = io.WriteString(sp.w, s) }

// spinnerFrameCells are the columns the spinner takes before its message
// (a frame and a space), plus one kept free so the cursor never reaches the
// last column, where terminals wrap on the next character.
const spinnerFrameCells = 3

// fitLine cuts s to at most width columns, with an ellipsis when cut.
func fitLine(s string, width int) string {
	width = max(width, 1)
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// SpinnerFrame is frame i of the spinner's animation, for views that draw
// their own lines (Block) and should look like the spinner.
func SpinnerFrame(i int) string {
	frames := spinner.CharSets[11]
	return frames[i%len(frames)]
}
