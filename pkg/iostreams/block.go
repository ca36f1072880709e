package iostreams

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/termtext"
)

// Block is a group of lines redrawn in place on a terminal's stderr: the
// live view of a wait on several runs, a line per run. Each draw erases the
// one before (cursor up to the block's first line, erase to the end of the
// screen), and every line is cut to the width, so none wraps: a wrapped
// line would leave fragments the next draw cannot reach, or make it erase
// the lines above. Lines are sanitised: they quote the service.
type Block struct {
	w     io.Writer
	width func() int
	mu    sync.Mutex
	lines []string // as last drawn
}

// NewBlock starts an empty block at the cursor, on stderr.
func (s *IOStreams) NewBlock() *Block {
	return &Block{w: s.ErrOut, width: s.ErrTerminalWidth}
}

// Draw replaces the block's lines.
func (b *Block) Draw(lines []string) {
	// One column stays free: at the last one, terminals wrap on the next
	// character.
	width := b.width() - 1
	fitted := make([]string, len(lines)) // not nil, even for no lines
	for i, l := range lines {
		fitted[i] = fitLine(termtext.SanitizeLine(l), width)
	}
	b.redraw("", fitted)
}

// Println prints line above the block, which is drawn again below it.
func (b *Block) Println(line string) { b.redraw(line+"\n", nil) }

// Clear erases the block and leaves the cursor where it began.
func (b *Block) Clear() { b.Draw(nil) }

// redraw moves to the block's first line, erases to the end of the screen,
// writes above, then draws lines (nil: the block's lines again), in one
// write.
func (b *Block) redraw(above string, lines []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out strings.Builder
	if n := len(b.lines); n > 0 {
		fmt.Fprintf(&out, "\x1b[%dF\x1b[J", n)
	}
	out.WriteString(above)
	if lines != nil {
		b.lines = lines
	}
	for _, l := range b.lines {
		out.WriteString(l + "\n")
	}
	_, _ = io.WriteString(b.w, out.String())
}
