package output

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
)

// Table prints rows for people on a terminal and for `cut -f` elsewhere.
//
// On a terminal the rows are laid out by tablewriter (the library the CLI
// contract names): an upper-case bold header, columns two spaces apart, and
// the widest columns shortened with "…" until a line fits the terminal,
// and a column empty (or "-") on every row left out. Off a terminal: the
// same header, then cells separated by a tab, without colour or
// truncation, every column there, so scripts see every byte of every value. That is a
// plain text format, not a layout job, so it is written here directly:
// tablewriter takes over ten times the time and memory of this path (about
// half a second for 10,000 rows, see BenchmarkTableRender10k), which a
// person waiting for a screenful can bear and a pipeline need not.
//
// Every cell is sanitised with termtext.SanitizeLine before its colour is
// applied: service text can neither inject escape sequences nor break the
// row or column structure, while our own colours survive.
//
// Render may be called more than once: each call prints the rows added
// since the previous one, the header only the first time. On a terminal
// column widths never shrink between calls, so successive batches stay
// aligned (ListWriter nevertheless renders a terminal table once, at Close).
type Table struct {
	out     io.Writer
	tty     bool
	width   int // the terminal's, on a TTY
	styles  *iostreams.Styles
	headers []string
	rows    [][]field
	row     []field
	widths  []int  // the column widths of the previous Render on a TTY
	dropped []bool // the columns a terminal left out (too narrow, or empty), on a TTY
	short   []bool // the columns shown in their fields' short forms, on a TTY
	cut     bool   // a render on a TTY left part of a value out
	started bool   // the header has been written
	buf     *bufio.Writer
}

type field struct {
	text  string // sanitised
	short string // sanitised; WithShortForm's, "" for none
	color func(string) string
	drop  uint8 // DropWhenNarrow's rank
	flags uint8 // the options below that apply
}

const (
	whole   uint8 = 1 << iota // WithoutTruncation
	primary                   // Primary
	middle                    // TruncateMiddle
)

// FieldOption changes how one field is shown on a terminal.
type FieldOption func(*field)

// WithColor styles a field on a terminal, typically with a method of
// iostreams.Styles. fn receives the sanitised (and possibly truncated) text
// and should only add SGR sequences; its visible width is measured anyway.
func WithColor(fn func(string) string) FieldOption {
	return func(f *field) { f.color = fn }
}

// WithoutTruncation keeps a field whole on a terminal: an id people copy
// into another command is useless cut. Its column is never shortened to fit
// the terminal; the others give way, and a line may wrap if they cannot.
func WithoutTruncation() FieldOption {
	return func(f *field) { f.flags |= whole }
}

// Primary marks the column a reader opens the table for (a test case's
// name, a request's URL, a console message): on a terminal too narrow for
// every column, the columns that are not primary are dropped (those marked
// DropWhenNarrow) and shortened first, and a primary column is cut only
// when they can give no more.
func Primary() FieldOption {
	return func(f *field) { f.flags |= primary }
}

// TruncateMiddle cuts a field in its middle rather than at its end when
// its column is too narrow, keeping its start and the longer part of its
// end: of a URL or a source file the end tells entries apart
// ("…/api/payments", "…app.js:2210:9"), which an end cut would remove.
func TruncateMiddle() FieldOption {
	return func(f *field) { f.flags |= middle }
}

// WithShortForm gives a field a shorter form, such as a URL without the
// host most of its neighbours share: on a terminal, a column that would
// otherwise be cut shows the short form of every field that has one (every
// row alike, so they read the same), and cuts only what is still too long.
// Off a terminal the field is printed whole.
func WithShortForm(short string) FieldOption {
	return func(f *field) { f.short = termtext.SanitizeLine(short) }
}

// DropWhenNarrow lets a terminal too narrow for every column leave this
// field's column out: columns are dropped, rank 1 first, while the others
// would not fit even shortened as far as they go. A Primary column is
// dropped only when, cut as far as it goes, it still does not fit. Dropped
// columns are printed off a terminal, where nothing is cut.
func DropWhenNarrow(rank int) FieldOption {
	return func(f *field) { f.drop = uint8(min(max(rank, 0), 255)) }
}

// NewTable starts a table for ios.Out; headers may be given in any case.
func NewTable(ios *iostreams.IOStreams, headers ...string) *Table {
	t := &Table{out: ios.Out, tty: ios.IsStdoutTTY()}
	if t.tty {
		t.width = ios.TerminalWidth()
		t.styles = ios.Styles()
	}
	for _, h := range headers {
		t.headers = append(t.headers, strings.ToUpper(termtext.SanitizeLine(h)))
	}
	return t
}

// Shortened reports whether a render on a terminal left part of a value
// out: a field cut or shown in its short form, or a column dropped for
// want of width. A command says then where the whole text is (a pipe,
// -o json); a column dropped because it was empty hid nothing.
func (t *Table) Shortened() bool { return t.cut }

// ShortenedNote is what a command says on stderr after a table that was
// Shortened: where the whole text is. It fits 60 columns.
const ShortenedNote = "Shortened to fit the terminal; piped or -o json shows all."

// NoteShortened says ShortenedNote on stderr when t was shortened; only a
// terminal's table ever is.
func NoteShortened(ios *iostreams.IOStreams, t *Table) {
	if t != nil && t.Shortened() {
		fmt.Fprintln(ios.ErrOut, ios.ErrStyles().Muted(ShortenedNote))
	}
}

// AddField appends a cell to the current row. text is treated as untrusted.
func (t *Table) AddField(text string, opts ...FieldOption) {
	f := field{text: termtext.SanitizeLine(text)}
	for _, o := range opts {
		o(&f)
	}
	if t.row == nil {
		t.row = make([]field, 0, max(len(t.headers), 1))
	}
	t.row = append(t.row, f)
}

// EndRow finishes the current row; it does nothing when the row is empty,
// so a row function may call it or leave it to the caller.
func (t *Table) EndRow() {
	if len(t.row) == 0 {
		return
	}
	t.rows = append(t.rows, t.row)
	t.row = nil
}

// Render writes the rows added since the last call (ending an unfinished
// row first) and forgets them.
//
// A table without rows prints nothing, not even its header: the caller
// says on stderr that nothing matched, and stdout stays empty, as a
// script expects of no data.
func (t *Table) Render() error {
	t.EndRow()
	if len(t.rows) == 0 && !t.started {
		return nil
	}
	if t.buf == nil {
		t.buf = bufio.NewWriterSize(t.out, 64<<10)
	}
	w := t.buf
	var err error
	if t.tty {
		err = t.renderTTY(w)
	} else {
		t.renderPlain(w)
	}
	t.started = true
	t.rows = t.rows[:0]
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

func (t *Table) renderPlain(w *bufio.Writer) {
	if !t.started && len(t.headers) > 0 {
		w.WriteString(strings.Join(t.headers, "\t"))
		w.WriteByte('\n')
	}
	for _, row := range t.rows {
		for i, f := range row {
			if i > 0 {
				w.WriteByte('\t')
			}
			w.WriteString(f.text)
		}
		w.WriteByte('\n')
	}
}
