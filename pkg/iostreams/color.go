package iostreams

import "io"

// SetColorDisabled records --no-color.
func (s *IOStreams) SetColorDisabled(v bool) { set(s, &s.colorDisabled, v) }

// SetNoColorEnv records whether NO_COLOR is set; System reads it from the
// environment, tests set it here.
func (s *IOStreams) SetNoColorEnv(v bool) { set(s, &s.noColorEnv, v) }

// ColorEnabled reports whether stdout may carry colour.
func (s *IOStreams) ColorEnabled() bool {
	return s.IsStdoutTTY() && s.colorAllowed()
}

// ErrColorEnabled reports whether stderr may carry colour.
func (s *IOStreams) ErrColorEnabled() bool {
	return s.IsStderrTTY() && s.colorAllowed()
}

func (s *IOStreams) colorAllowed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.colorDisabled && !s.noColorEnv
}

// Styles returns the styles for text written to Out. They are rebuilt only
// when a setter changed whether colour is on, so calling Styles per row is
// cheap.
func (s *IOStreams) Styles() *Styles { return s.cachedStyles(&s.styles, s.Out, s.ColorEnabled()) }

// ErrStyles returns the styles for text written to ErrOut.
func (s *IOStreams) ErrStyles() *Styles {
	return s.cachedStyles(&s.errStyles, s.ErrOut, s.ErrColorEnabled())
}

func (s *IOStreams) cachedStyles(cache **Styles, w io.Writer, on bool) *Styles {
	s.mu.Lock()
	defer s.mu.Unlock()
	if *cache == nil || (*cache).enabled != on {
		*cache = newStyles(w, on)
	}
	return *cache
}
