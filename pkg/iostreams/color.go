package iostreams

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

// Styles returns the styles for text written to Out. Coloured styles are
// built once, so calling Styles per row is cheap.
func (s *IOStreams) Styles() *Styles { return stylesFor(s.ColorEnabled()) }

// ErrStyles returns the styles for text written to ErrOut.
func (s *IOStreams) ErrStyles() *Styles { return stylesFor(s.ErrColorEnabled()) }
