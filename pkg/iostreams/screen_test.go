package iostreams

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// screen is a small model of a vt100-like terminal, enough to see what a
// byte stream leaves on screen: printable text with autowrap at the last
// column, CR, LF, backspace, and the CSI sequences a redraw uses (erase in
// line K, erase in display J (to its end), cursor up A, previous line F,
// column G). Other sequences are skipped.
type screen struct {
	width      int
	rows       [][]rune
	row, col   int
	wrapNext   bool // the cursor sits past the last column
	esc, csi   bool
	osc        bool
	params     strings.Builder
	prevEscOSC bool
}

func newScreen(width int) *screen { return &screen{width: width} }

func (s *screen) line() []rune {
	for len(s.rows) <= s.row {
		s.rows = append(s.rows, nil)
	}
	r := s.rows[s.row]
	for len(r) < s.width {
		r = append(r, ' ')
	}
	s.rows[s.row] = r
	return r
}

func (s *screen) Write(p []byte) (int, error) {
	for _, r := range string(p) {
		s.put(r)
	}
	return len(p), nil
}

func (s *screen) put(r rune) {
	switch {
	case s.osc: // until BEL or ESC \
		if r == '\a' || (s.prevEscOSC && r == '\\') {
			s.osc = false
		}
		s.prevEscOSC = r == 0x1b
		return
	case s.csi:
		if r >= 0x40 && r <= 0x7e {
			s.csi = false
			s.control(r, s.params.String())
			s.params.Reset()
			return
		}
		s.params.WriteRune(r)
		return
	case s.esc:
		s.esc = false
		switch r {
		case '[':
			s.csi = true
		case ']':
			s.osc = true
		}
		return
	}
	switch r {
	case 0x1b:
		s.esc = true
	case '\r':
		s.col, s.wrapNext = 0, false
	case '\n':
		s.row++
		s.wrapNext = false
	case '\b':
		s.col, s.wrapNext = max(s.col-1, 0), false
	default:
		if r < 0x20 || r == 0x7f {
			return
		}
		w := max(ansi.StringWidth(string(r)), 1)
		if s.wrapNext || s.col+w > s.width {
			s.row, s.col, s.wrapNext = s.row+1, 0, false
		}
		l := s.line()
		l[s.col] = r
		for i := 1; i < w; i++ {
			l[s.col+i] = 0 // the right half of a wide character
		}
		if s.col+w == s.width {
			s.col, s.wrapNext = s.width-1, true
		} else {
			s.col += w
		}
	}
}

func (s *screen) control(final rune, params string) {
	n, err := strconv.Atoi(strings.TrimPrefix(params, "?"))
	if err != nil || n == 0 {
		n = 1
	}
	switch final {
	case 'K':
		l := s.line()
		from, to := s.col, s.width
		switch params {
		case "1":
			from, to = 0, s.col+1
		case "2":
			from = 0
		}
		for i := from; i < to && i < s.width; i++ {
			l[i] = ' '
		}
	case 'J': // from the cursor to the end of the screen
		l := s.line()
		for i := s.col; i < s.width; i++ {
			l[i] = ' '
		}
		if s.row+1 < len(s.rows) {
			s.rows = s.rows[:s.row+1]
		}
	case 'A':
		s.row = max(s.row-n, 0)
	case 'F':
		s.row, s.col = max(s.row-n, 0), 0
	case 'G':
		s.col = min(n-1, s.width-1)
	default:
		return
	}
	s.wrapNext = false
}

// text is the screen's rows with trailing blanks removed, and trailing
// blank rows dropped.
func (s *screen) text() string {
	var out []string
	for _, r := range s.rows {
		out = append(out, strings.TrimRight(strings.ReplaceAll(string(r), "\x00", ""), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}
