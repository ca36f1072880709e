package termtext

// The skip functions take the index just past a sequence's introducer and
// return the index where ordinary processing resumes. The parsing follows
// the DEC/ECMA-48 state machine closely enough that the text a terminal
// would have shown is kept; whatever they decide, every control character
// is dropped later anyway, so a parsing disagreement can only cost some
// visible text, never let a sequence through.

// skipEscape handles the byte after ESC.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC
		return skipString(s, i+1)
	}
	// nF/Fp/Fe/Fs escape sequences: intermediates 0x20–0x2F, then a final
	// byte 0x30–0x7E (ESC 7, ESC c, ESC ( B, …).
	j := i
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		return j + 1
	}
	// Not a sequence: drop the ESC (and stray intermediates), keep the rest.
	return j
}

// skipC1 handles an 8-bit control written as a UTF-8 encoded code point
// U+0080–U+009F; the introducers among them start the same sequences as
// their ESC forms.
func skipC1(s string, i int, r rune) int {
	switch r {
	case 0x9b: // CSI
		return skipCSI(s, i)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		return skipString(s, i)
	}
	return i
}

// skipCSI skips parameter and intermediate bytes up to and including the
// final byte. Any other byte ends the sequence without being consumed, so
// an unterminated CSI does not swallow the following text.
func skipCSI(s string, i int) int {
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		case c >= 0x20 && c <= 0x3f:
		default:
			return i
		}
	}
	return i
}

// skipString skips the body of an OSC, DCS, SOS, PM or APC string. It ends
// at BEL, ST (ESC \ or U+009C), or is cancelled by CAN/SUB or by an ESC that
// starts another sequence. An unterminated string runs to the end of s, as
// it would on a terminal.
func skipString(s string, i int) int {
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case bel, can, sub:
			return i + 1
		case esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i
		case 0xc2:
			if i+1 < len(s) && s[i+1] == 0x9c {
				return i + 2
			}
		}
	}
	return i
}
