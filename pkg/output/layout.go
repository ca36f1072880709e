package output

import (
	"bufio"
	"bytes"
	"slices"
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
	// minMiddleWidth is the least of a column cut in the middle: both of
	// its ends must still say something ("https…/api/payments").
	minMiddleWidth = 16
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

// column is what one render knows of a column of the table.
type column struct {
	header int   // the header's width: a header is never cut
	least  int   // how narrow the column may get (see leastWidth)
	drop   uint8 // DropWhenNarrow's rank, 0 for never
	flags  uint8 // whole, primary and middle, of any of its fields
	short  bool  // a field has a short form
	filled bool  // a field is not blank
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
	t.short = append(t.short, make([]bool, max(ncols-len(t.short), 0))...)
	cols := make([]column, ncols)
	for i, h := range t.headers {
		cols[i].header = textWidth(h)
		widths[i] = max(widths[i], cols[i].header)
	}

	var header []cell
	if !t.started && len(t.headers) > 0 {
		header = make([]cell, len(t.headers))
		for i, h := range t.headers {
			header[i] = prepare(field{text: h, color: t.styles.Bold})
		}
	}
	// One backing array for all cells: a page can hold thousands of rows.
	n := 0
	for _, row := range t.rows {
		n += len(row)
	}
	all := make([]cell, n)
	rows := make([][]cell, len(t.rows))
	for r, row := range t.rows {
		rows[r], all = all[:len(row):len(row)], all[len(row):]
		for i, f := range row {
			c := &cols[i]
			c.flags |= f.flags
			c.drop = max(c.drop, f.drop)
			c.short = c.short || f.short != ""
			c.filled = c.filled || !blank(f.text)
			rows[r][i] = prepare(t.shown(f, i))
			widths[i] = max(widths[i], rows[r][i].width)
		}
	}
	if !t.started && len(rows) > 0 {
		t.dropBlank(cols)
	}
	t.shorten(cols, rows, widths)
	for i := range cols {
		cols[i].least = leastWidth(cols[i], widths[i])
	}
	if dropToFit(cols, t.dropped, widths, t.width, &t.cut) {
		fit(cols, t.dropped, widths, t.width-gaps(t.dropped))
	}
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

// dropBlank leaves out the columns empty on every row: they take room and
// say nothing (a BRANCH of runs started without one). The first Render
// decides; one column is always kept.
func (t *Table) dropBlank(cols []column) {
	if !slices.ContainsFunc(cols, func(c column) bool { return c.filled }) {
		return
	}
	for i, c := range cols {
		t.dropped[i] = t.dropped[i] || !c.filled
	}
}

// shown is f as column i shows it: its short form in a column that shows
// short forms (see WithShortForm).
func (t *Table) shown(f field, i int) field {
	if t.short[i] && f.short != "" && f.short != f.text {
		f.text = f.short
		t.cut = true
	}
	return f
}

// shorten switches to their short forms the columns that have them and
// would be cut otherwise, or make another column be dropped, on a trial
// layout, and widths to what those columns then need: a short form shown
// costs less than a column lost.
func (t *Table) shorten(cols []column, rows [][]cell, widths []int) {
	trial, dropped := slices.Clone(widths), slices.Clone(t.dropped)
	var dropping bool
	switched := false
	for i, c := range cols {
		cols[i].least = leastWidth(c, widths[i])
		switched = switched || c.short && !t.short[i]
	}
	if !switched {
		return
	}
	if dropToFit(cols, dropped, trial, t.width, &dropping) {
		fit(cols, dropped, trial, t.width-gaps(dropped))
	}
	for i, c := range cols {
		if !c.short || t.short[i] || dropped[i] || trial[i] >= widths[i] && !dropping {
			continue
		}
		t.short[i] = true
		widths[i] = max(c.header, t.widthBefore(i))
		for _, row := range rows {
			if i < len(row) {
				row[i] = prepare(t.shown(row[i].field, i))
				widths[i] = max(widths[i], row[i].width)
			}
		}
	}
}

// widthBefore is column i's width in the previous Render, 0 before one.
func (t *Table) widthBefore(i int) int {
	if i < len(t.widths) {
		return t.widths[i]
	}
	return 0
}

// blank is a field that says nothing: empty, or the placeholder "-".
func blank(text string) bool { return text == "" || text == "-" }

// leastWidth is how narrow a column whose widest field is w may get: w
// when it is kept whole; else minColumnWidth (minMiddleWidth when it is
// cut in the middle, whose two ends must both say something) or w when
// that is less, and never less than its header.
func leastWidth(c column, w int) int {
	if c.flags&whole != 0 {
		return w
	}
	floor := minColumnWidth
	if c.flags&middle != 0 {
		floor = minMiddleWidth
	}
	return max(min(w, floor), c.header)
}

// gaps is the width the gaps between the columns kept take.
func gaps(dropped []bool) int {
	n := 0
	for _, d := range dropped {
		if !d {
			n++
		}
	}
	return max(n-1, 0) * len(columnGap)
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
			cut := truncate
			if c.flags&middle != 0 {
				cut = truncateMiddle
			}
			c = prepare(field{text: cut(c.text, max(widths[i]-c.extra, 1)), color: c.color})
			t.cut = true
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
// while the columns kept would not fit width with the primary ones whole
// and the others at their least; a primary column, once it is the next to
// go, only while it would not fit at its least either. A column once
// dropped stays dropped in later renders; *cut is set when one is dropped
// here. It reports whether the kept columns need fitting at all: false
// when they fit as they are.
func dropToFit(cols []column, dropped []bool, widths []int, width int, cut *bool) bool {
	for {
		natural, need, next := 0, 0, -1
		for i, w := range widths {
			if dropped[i] {
				continue
			}
			natural += w
			if cols[i].flags&primary == 0 {
				w = cols[i].least
			}
			need += w
			if cols[i].drop > 0 && (next < 0 || cols[i].drop < cols[next].drop) {
				next = i
			}
		}
		g := gaps(dropped)
		if natural+g <= width {
			return false
		}
		if need+g <= width || next < 0 || g == 0 { // one column is always kept
			return true
		}
		if cols[next].flags&primary != 0 && need-widths[next]+cols[next].least+g <= width {
			return true // fit cuts it
		}
		dropped[next] = true
		*cut = true
	}
}

// fit shortens the kept columns until they add up to at most room, one
// character at a time from the widest that may give way, the leftmost of
// equals first: the ordinary columns down to their least, then the primary
// ones. A column kept whole never gives way, nor one at its least: a line
// may then be wider than room, and the terminal wraps it.
func fit(cols []column, dropped []bool, widths []int, room int) {
	excess := -room
	for i, w := range widths {
		if !dropped[i] {
			excess += w
		}
	}
	for ; excess > 0; excess-- {
		i := -1
		for _, tier := range []uint8{0, primary} {
			if i = widest(cols, dropped, widths, tier); i >= 0 {
				break
			}
		}
		if i < 0 {
			return
		}
		widths[i]--
	}
}

// widest is the widest column of a tier (0 for the ordinary columns, or
// primary) that may still give way; -1 when none may.
func widest(cols []column, dropped []bool, widths []int, tier uint8) int {
	best := -1
	for i, w := range widths {
		c := cols[i]
		if dropped[i] || c.flags&whole != 0 || c.flags&primary != tier || w <= c.least {
			continue
		}
		if best < 0 || w > widths[best] {
			best = i
		}
	}
	return best
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

// CutMiddle shortens sanitised text to width w as a column of
// TruncateMiddle does: its start and the longer part of its end are kept
// around "…", a third before the cut and two thirds after it.
func CutMiddle(s string, w int) string { return truncateMiddle(s, w) }

func truncateMiddle(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	keep := w - textWidth(ellipsis)
	if keep < 3 {
		return truncate(s, w)
	}
	headRoom := keep / 3
	head, used := 0, 0
	for i, r := range s {
		rw := textWidth(string(r))
		if used+rw > headRoom {
			head = i
			break
		}
		used += rw
	}
	tailRoom := keep - used
	tail := len(s)
	for tail > head {
		r, size := utf8.DecodeLastRuneInString(s[:tail])
		rw := textWidth(string(r))
		if tailRoom < rw {
			break
		}
		tailRoom -= rw
		tail -= size
	}
	return s[:head] + ellipsis + s[tail:]
}
