package iostreams

import (
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles colours text for one stream. When colour is off every method
// returns its input unchanged, so call sites never branch on colour.
// The methods do not sanitise: pass service text through termtext first.
type Styles struct {
	enabled bool

	bold, muted, success, failure, warning, info lipgloss.Style
}

func newStyles(w io.Writer, enabled bool) *Styles {
	st := &Styles{enabled: enabled}
	if !enabled {
		return st
	}
	// The profile and background are set explicitly: left to itself
	// lipgloss derives the profile from w (a test buffer would get no
	// colour) and asks the terminal for its background with an OSC query,
	// which blocks on terminals that never answer. Basic ANSI colours are
	// all we use, and they follow the user's palette.
	r := lipgloss.NewRenderer(w, termenv.WithProfile(termenv.ANSI))
	r.SetColorProfile(termenv.ANSI)
	r.SetHasDarkBackground(true)
	base := r.NewStyle().TabWidth(lipgloss.NoTabConversion)
	st.bold = base.Bold(true)
	st.muted = base.Foreground(lipgloss.Color("8"))
	st.success = base.Foreground(lipgloss.Color("2"))
	st.failure = base.Foreground(lipgloss.Color("1"))
	st.warning = base.Foreground(lipgloss.Color("3"))
	st.info = base.Foreground(lipgloss.Color("6"))
	return st
}

// render styles each line on its own: lipgloss pads the lines of a
// multi-line block to one width, which would change the text.
func (st *Styles) render(style lipgloss.Style, s string) string {
	if !st.enabled || s == "" {
		return s
	}
	if !strings.Contains(s, "\n") {
		return style.Render(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = style.Render(l)
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

// Status colours a run status or result, or a tunnel's health, by what it
// means for the user: green done well, red failed, yellow pending or
// doubtful. Unknown values are returned unchanged.
func (st *Styles) Status(value string) string {
	switch strings.ToUpper(value) {
	case "PASSED", "COMPLETED", "HEALTHY":
		return st.Success(value)
	case "FAILED", "ERROR", "CANCELLED", "INACTIVE":
		return st.Failure(value)
	case "SKIPPED", "DEGRADED", "RUNNING", "INITIATED":
		return st.Warning(value)
	}
	return value
}

func (st *Styles) SuccessIcon() string { return st.Success("✓") }
func (st *Styles) FailureIcon() string { return st.Failure("✗") }
func (st *Styles) WarningIcon() string { return st.Warning("!") }
