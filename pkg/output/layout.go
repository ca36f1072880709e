package output

import (
	"bufio"
	"bytes"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

const (
	columnGap = "  "
	// minColumnWidth is how far a column may be shortened to fit the
	// terminal; below it a value is unreadable, and letting the terminal
	// wrap the line is the better failure.
	minColumnWidth = 8
)

// gap is a borderless rendition whose only symbol is the space between
// columns: no frame, no rule under the header.
var gap = tw.Rendition{
	Borders: tw.BorderNone,
	Symbols: tw.NewSymbolCustom("testctl").WithColumn(columnGap),
	Settings: tw.Settings{
		Separators: tw.Separators{ShowHeader: tw.Off, ShowFooter: tw.Off, BetweenRows: tw.Off, BetweenColumns: tw.On},
		Lines:      tw.LinesNone,
	},
}

// cell is a field prepared for one terminal render.
type cell struct {
	field
	styled string // text with its colour
	width  int    // visible width of styled
	extra  int    // width the colour function added to text, normally 0
}

// renderTTY sizes the columns and shortens cells itself, then hands
// finished strings to tablewriter, which pads and joins them. The sizing is
// ours because tablewriter's own (WithMaxWidth, Widths.Global) first cuts
// every cell to an equal share of the width, shortening narrow columns that
// would fit; and its truncation works on coloured text, leaving the "…"
// uncoloured after an added reset. Here a cell is cut before its colour is
// applied, so tablewriter, told not to wrap, trim or reformat, passes every
// cell through unchanged.
func (t *Table) renderTTY(w *bufio.Writer) error {
	ncols := len(t.headers)
	for _, r := range t.rows {
		ncols = max(ncols, len(r))
	}
	widths := make([]int, ncols)
	copy(widths, t.widths)
	t.dropped = append(t.dropped, make([]bool, max(ncols-len(t.dropped), 0))...)

	var header []cell
	if !t.started && len(t.headers) > 0 {
		header = make([]cell, len(t.headers))
		for i, h := range t.headers {
			header[i] = prepare(field{text: h, color: t.styles.Bold})
			widths[i] = max(widths[i], header[i].width)
		}
	}
	// One backing array for all cells: a page can hold thousands of rows.
	n := 0
	for _, row := range t.rows {
		n += len(row)
	}
	all := make([]cell, n)
	rows := make([][]cell, len(t.rows))
	whole := make([]bool, ncols)
	drop := make([]uint8, ncols)
	for r, row := range t.rows {
		rows[r], all = all[:len(row):len(row)], all[len(row):]
		for i, f := range row {
			whole[i] = whole[i] || f.whole
			drop[i] = max(drop[i], f.drop)
			rows[r][i] = prepare(f)
			widths[i] = max(widths[i], rows[r][i].width)
		}
	}
	fit(widths, whole, t.dropped, dropToFit(t.dropped, widths, whole, drop, t.width))
	t.widths = widths

	// Fixed widths keep a later Render aligned with this one. A column
	// tablewriter is told is 0 wide disappears, gap and all, so 1 is the least.
	fixed := tw.NewMapper[int, int]()
	for i, cw := range widths {
		if !t.dropped[i] {
			fixed.Set(fixed.Len(), max(cw, 1))
		}
	}
	var out bytes.Buffer
	tbl := tablewriter.NewTable(&out,
		tablewriter.WithRenderer(renderer.NewBlueprint(gap)),
		tablewriter.WithColumnWidths(fixed),
		tablewriter.WithPadding(tw.PaddingNone),
		tablewriter.WithTrimSpace(tw.Off),
		tablewriter.WithTrimTab(tw.Off),
		tablewriter.WithHeaderAutoFormat(tw.Off), // it would title-case and split words
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	if header != nil {
		tbl.Header(t.fitted(header, widths))
	}
	for _, row := range rows {
		if err := tbl.Append(t.fitted(row, widths)); err != nil {
			return err
		}
	}
	if err := tbl.Render(); err != nil {
		return err
	}
	// tablewriter pads the last column too; lines never end in blanks.
	for line := range bytes.Lines(out.Bytes()) {
		w.Write(bytes.TrimRight(line, " \n"))
		w.WriteByte('\n')
	}
	return nil
}

// fitted returns a row's styled cells, each shortened to its column width,
// without the dropped columns.
func (t *Table) fitted(row []cell, widths []int) []string {
	out := make([]string, 0, len(row))
	for i, c := range row {
		if t.dropped[i] {
			continue
		}
		if c.width > widths[i] {
			text := truncate(c.text, max(widths[i]-c.extra, 1))
			c = prepare(field{text: text, color: c.color})
		}
		out = append(out, c.styled)
	}
	return out
}

func prepare(f field) cell {
	c := cell{field: f, styled: f.text, width: textWidth(f.text)}
	if f.color != nil {
		c.styled = f.color(f.text)
		if c.styled != f.text {
			plain := c.width
			c.width = styledWidth(c.styled)
			c.extra = max(c.width-plain, 0)
		}
	}
	return c
}

// dropToFit leaves out columns (see DropWhenNarrow), lowest rank first,
// while the columns kept would not fit room even shortened to their least:
// minColumnWidth, or their whole width when that is less or they are kept
// whole. A column once dropped stays dropped in later renders. It returns
// the room left for the kept columns' text, the gaps between them taken.
func dropToFit(dropped []bool, widths []int, whole []bool, drop []uint8, width int) int {
	for {
		least, gaps, next := 0, -len(columnGap), -1
		for i, w := range widths {
			if dropped[i] {
				continue
			}
			if !whole[i] {
				w = min(w, minColumnWidth)
			}
			least, gaps = least+w, gaps+len(columnGap)
			if drop[i] > 0 && (next < 0 || drop[i] < drop[next]) {
				next = i
			}
		}
		if least+gaps <= width || next < 0 || gaps == 0 { // one column is always kept
			return width - gaps
		}
		dropped[next] = true
	}
}

// fit shortens the widest columns that are neither kept whole nor dropped,
// evenly, until all the kept ones add up to at most room, never taking a
// column below minColumnWidth: one character at a time from the widest,
// the leftmost of equals first.
func fit(widths []int, whole, dropped []bool, room int) {
	excess := -room
	for i, w := range widths {
		if !dropped[i] {
			excess += w
		}
	}
	for ; excess > 0; excess-- {
		widest := -1
		for i, w := range widths {
			if !whole[i] && !dropped[i] && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 || widths[widest] <= minColumnWidth {
			return
		}
		widths[widest]--
	}
}

// Widths are measured the way tablewriter measures them (twwidth), so a
// cell we size to a column is never cut again by tablewriter, which would
// do so without "…" and with an added reset. twwidth follows the locale
// for East Asian ambiguous characters; in a CJK locale "…" counts two.

// textWidth is the display width of sanitised text; ASCII, the common case,
// is measured without decoding.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return twwidth.Width(s)
		}
	}
	return len(s)
}

// styledWidth is the display width of text with SGR sequences. Colour
// functions normally wrap ASCII in "ESC[…m" pairs; those are skipped here
// without the cost of a full parse, anything else goes to twwidth.
func styledWidth(s string) int {
	w := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return twwidth.Width(s)
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j == len(s) || s[j] != 'm' {
				return twwidth.Width(s)
			}
			i = j
		case c < 0x20 || c == 0x7f:
			return twwidth.Width(s)
		default:
			w++
		}
	}
	return w
}

const ellipsis = "…"

// truncate shortens sanitised text to width w, marking the cut with "…".
func truncate(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return twwidth.Truncate(s, w, ellipsis) // s has no escapes, so no reset is added
		}
	}
	keep := w - textWidth(ellipsis) // 1, or 2 in a CJK locale
	if keep < 0 {
		return s[:max(w, 0)]
	}
	return s[:keep] + ellipsis
}
