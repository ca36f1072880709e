package iostreams

import (
	"io"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles colours text for one stream. When colour is off every method
// returns its input unchanged, so call sites never branch on colour. Which
// colour a word of the outcome takes is the views' to say, not this
// package's: it knows nothing of the domain.
// The methods do not sanitise: pass service text through termtext first.
type Styles struct {
	enabled bool

	bold, muted, success, failure, warning, info sgr
}

// sgr is a style reduced to the sequences lipgloss writes around a line.
// lipgloss.Style.Render costs microseconds a call, which a 10,000-row
// table with three coloured columns cannot afford; wrapping a line in two
// precomputed strings is what Render does for these plain styles anyway.
type sgr struct{ open, close string }

// marker must not be touched by Render; it never reaches the output.
const marker = "\x00"

func newSGR(style lipgloss.Style) sgr {
	open, close, _ := strings.Cut(style.Render(marker), marker)
	return sgr{open, close}
}

// stylesFor returns the styles with colour on or off. They do not depend on
// the stream: its terminal only decides whether colour is on.
func stylesFor(on bool) *Styles {
	if on {
		return colorStyles()
	}
	return &plainStyles
}

var (
	plainStyles Styles
	colorStyles = sync.OnceValue(newColorStyles)
)

func newColorStyles() *Styles {
	st := &Styles{enabled: true}
	// The profile and background are set explicitly: left to itself
	// lipgloss derives the profile from the writer (a test buffer would get
	// no colour) and asks the terminal for its background with an OSC
	// query, which blocks on terminals that never answer. Basic ANSI
	// colours are all we use, and they follow the user's palette.
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.ANSI))
	r.SetColorProfile(termenv.ANSI)
	r.SetHasDarkBackground(true)
	base := r.NewStyle()
	st.bold = newSGR(base.Bold(true))
	st.muted = newSGR(base.Foreground(lipgloss.Color("8")))
	st.success = newSGR(base.Foreground(lipgloss.Color("2")))
	st.failure = newSGR(base.Foreground(lipgloss.Color("1")))
	st.warning = newSGR(base.Foreground(lipgloss.Color("3")))
	st.info = newSGR(base.Foreground(lipgloss.Color("6")))
	return st
}

// render styles each line on its own, so a terminal that resets
// attributes at a line break, or a pager, still shows every line styled.
func (st *Styles) render(style sgr, s string) string {
	if !st.enabled || s == "" {
		return s
	}
	if !strings.Contains(s, "\n") {
		return style.open + s + style.close
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = style.open + l + style.close
		}
	}
	return strings.Join(lines, "\n")
}

func (st *Styles) Bold(s string) string    { return st.render(st.bold, s) }
func (st *Styles) Muted(s string) string   { return st.render(st.muted, s) }
func (st *Styles) Success(s string) string { return st.render(st.success, s) }
func (st *Styles) Failure(s string) string { return st.render(st.failure, s) }
func (st *Styles) Warning(s string) string { return st.render(st.warning, s) }
func (st *Styles) Info(s string) string    { return st.render(st.info, s) }

func (st *Styles) SuccessIcon() string { return st.Success("✓") }
func (st *Styles) FailureIcon() string { return st.Failure("✗") }
func (st *Styles) WarningIcon() string { return st.Warning("!") }
