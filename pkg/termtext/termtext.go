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
func Sanitize(s string) string { return sanitize(s, false) }

// SanitizeLine is Sanitize for text that must stay on one line, such as a
// table cell: '\n', '\r' and '\t' each become a single space ("\r\n" counts
// as one line break), so a cell can neither break the row nor add a column
// to tab-separated output.
func SanitizeLine(s string) string { return sanitize(s, true) }

// sanitize copies s only from its first change on: almost every string has
// none and is returned as it is, and printable ASCII, the common case, is
// passed over without decoding.
func sanitize(s string, line bool) string {
	var out []byte // nil while s[:i] is unchanged
	for i := 0; i < len(s); {
		start := i
		for i < len(s) && s[i] >= 0x20 && s[i] < del {
			i++
		}
		if out != nil {
			out = append(out, s[start:i]...)
		}
		if i == len(s) {
			break
		}
		start, r, size := i, rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		// Kept: '\n' and '\t' off a line, and runes above C1 but bidi
		// controls and a byte that is not UTF-8 (decoded as U+FFFD).
		if !line && (r == '\n' || r == '\t') || r > 0x9f && !IsBidiControl(r) && (r != utf8.RuneError || size > 1) {
			if out != nil {
				out = append(out, s[start:i]...)
			}
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(s)), s[:start]...)
		}
		switch {
		case r == esc:
			i = skipEscape(s, i)
		case r == '\r' && line:
			if i < len(s) && s[i] == '\n' {
				i++
			}
			out = append(out, ' ')
		case r == '\n' || r == '\t':
			out = append(out, ' ') // on one line
		case r == utf8.RuneError:
			out = utf8.AppendRune(out, utf8.RuneError)
		case isC1(r):
			i = skipC1(s, i, r)
		}
		// Other C0 controls, DEL and bidi controls are dropped.
	}
	if out == nil {
		return s
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
