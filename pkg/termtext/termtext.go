// Package termtext makes text received from the service safe to print on a
// terminal.
//
// Anything the service returns (run names, failure messages, console logs,
// URLs) is untrusted: an escape sequence in it could retitle the window,
// plant a hyperlink, move the cursor over earlier output or, on some
// terminals, write to the clipboard. Sanitize removes every such sequence
// while leaving ordinary text, including non-ASCII text, intact.
package termtext

import "unicode/utf8"

const (
	esc = 0x1b
	bel = 0x07
	can = 0x18 // CAN and SUB abort a sequence in progress (ECMA-48 / DEC parser)
	sub = 0x1a
	del = 0x7f
)

// Sanitize returns s without escape sequences (CSI, OSC, DCS, SOS, PM, APC,
// two-byte ESC sequences and their 8-bit C1 forms), C0 controls other than
// '\n' and '\t', DEL, C1 controls and bidirectional override/isolate
// characters. Invalid UTF-8 becomes U+FFFD. When there is nothing to remove,
// s itself is returned without allocating.
func Sanitize(s string) string {
	if clean(s, false) {
		return s
	}
	return sanitize(s, false)
}

// SanitizeLine is Sanitize for text that must stay on one line, such as a
// table cell: '\n', '\r' and '\t' each become a single space ("\r\n" counts
// as one line break), so a cell can neither break the row nor add a column
// to tab-separated output.
func SanitizeLine(s string) string {
	if clean(s, true) {
		return s
	}
	return sanitize(s, true)
}

// clean reports whether s can be returned unchanged. It is the fast path
// taken by almost every string, so it avoids decoding ASCII runes.
func clean(s string, line bool) bool {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b < 0x20 || b == del {
				if line || (b != '\n' && b != '\t') {
					return false
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || isC1(r) || IsBidiControl(r) {
			return false
		}
		i += size
	}
	return true
}

func sanitize(s string, line bool) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			i++
			switch {
			case b == esc:
				i = skipEscape(s, i)
			case b == '\r' && line:
				if i < len(s) && s[i] == '\n' {
					i++
				}
				out = append(out, ' ')
			case (b == '\n' || b == '\t') && line:
				out = append(out, ' ')
			case b == '\n' || b == '\t':
				out = append(out, b)
			case b < 0x20 || b == del:
				// dropped
			default:
				out = append(out, b)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			out = utf8.AppendRune(out, utf8.RuneError)
		case isC1(r):
			i = skipC1(s, i, r)
		case IsBidiControl(r):
			// dropped
		default:
			out = append(out, s[i-size:i]...)
		}
	}
	return string(out)
}

func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// IsBidiControl reports the embedding, override and isolate characters that
// can make displayed text read differently from its logical order
// ("Trojan Source", CVE-2021-42574).
func IsBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
