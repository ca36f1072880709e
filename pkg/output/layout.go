package output

import (
	"bufio"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

const (
	columnGap = "  "
	// minColumnWidth is how far a column may be shortened to fit the
	// terminal; below it a value is unreadable, and letting the terminal
	// wrap the line is the better failure.
	minColumnWidth = 8
)

// cell is a field prepared for one terminal render.
type cell struct {
	field
	styled string // text with its colour
	width  int    // visible width of styled
	extra  int    // width the colour function added to text, normally 0
}

func (t *Table) renderTTY(w *bufio.Writer) {
	ncols := len(t.headers)
	for _, r := range t.rows {
		ncols = max(ncols, len(r))
	}
	widths := make([]int, ncols)
	copy(widths, t.widths)

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
	for r, row := range t.rows {
		rows[r], all = all[:len(row):len(row)], all[len(row):]
		for i, f := range row {
			if f.maxWidth > 0 && textWidth(f.text) > f.maxWidth {
				f.text = truncate(f.text, f.maxWidth)
			}
			rows[r][i] = prepare(f)
			widths[i] = max(widths[i], rows[r][i].width)
		}
	}
	fit(widths, t.width-len(columnGap)*(ncols-1))
	t.widths = widths

	var line []byte
	if header != nil {
		line = appendLine(line[:0], header, widths)
		w.Write(line)
	}
	for _, row := range rows {
		line = appendLine(line[:0], row, widths)
		w.Write(line)
	}
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

// appendLine lays out one row; the last column is not padded and trailing
// blanks are dropped, so lines never end in white space.
func appendLine(line []byte, row []cell, widths []int) []byte {
	for i, c := range row {
		if i > 0 {
			line = append(line, columnGap...)
		}
		if c.width > widths[i] {
			text := truncate(c.text, max(widths[i]-c.extra, 1))
			c = prepare(field{text: text, color: c.color})
		}
		line = append(line, c.styled...)
		if i < len(row)-1 {
			for n := c.width; n < widths[i]; n++ {
				line = append(line, ' ')
			}
		}
	}
	for len(line) > 0 && line[len(line)-1] == ' ' {
		line = line[:len(line)-1]
	}
	return append(line, '\n')
}

// fit shortens the widest columns, evenly, until they add up to at most
// room, never taking a column below minColumnWidth.
func fit(widths []int, room int) {
	excess := -room
	for _, w := range widths {
		excess += w
	}
	for excess > 0 {
		top, second, count := 0, 0, 0
		for _, w := range widths {
			switch {
			case w > top:
				top, second, count = w, top, 1
			case w == top:
				count++
			case w > second:
				second = w
			}
		}
		if top <= minColumnWidth {
			return
		}
		target := max(second, minColumnWidth)
		if count*(top-target) < excess {
			for i := range widths {
				if widths[i] == top {
					widths[i] = target
				}
			}
			excess -= count * (top - target)
			continue
		}
		cut, rest := excess/count, excess%count
		for i := range widths {
			if widths[i] == top {
				widths[i] -= cut
				if rest > 0 {
					widths[i]--
					rest--
				}
			}
		}
		return
	}
}

// textWidth is the display width of sanitised text; ASCII, the common case,
// is measured without decoding.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// styledWidth is the display width of text with SGR sequences. Colour
// functions normally wrap ASCII in "ESC[…m" pairs; those are skipped here
// without the cost of a full parse, anything else goes to ansi.StringWidth.
func styledWidth(s string) int {
	w := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return ansi.StringWidth(s)
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j == len(s) || s[j] != 'm' {
				return ansi.StringWidth(s)
			}
			i = j
		case c < 0x20 || c == 0x7f:
			return ansi.StringWidth(s)
		default:
			w++
		}
	}
	return w
}

// truncate shortens sanitised text to width w, marking the cut with "…".
func truncate(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	if w <= 1 {
		return "…"
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return ansi.Truncate(s, w, "…")
		}
	}
	return s[:w-1] + "…"
}
