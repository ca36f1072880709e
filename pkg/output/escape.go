package output

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/testctl/testctl/pkg/termtext"
)

// escapeUnsafeJSON rewrites DEL, C1 controls (U+0080–U+009F, which include
// the 8-bit CSI and OSC introducers), bidi overrides and the line and
// paragraph separators as \u escapes, and bytes that are not UTF-8 as
// \ufffd. encoding/json escapes only C0 controls and U+2028/U+2029 when it
// encodes, and the service's own document (printed as sent) may hold any of
// these; some terminals act on them, and a lone byte such as 0x9b is an
// 8-bit CSI to some. The JSON structure is ASCII, so these can only occur
// inside strings, where \uXXXX means the same value. b is returned as is,
// without copying, when it holds none of them.
func escapeUnsafeJSON(b []byte) []byte {
	if bytes.IndexByte(b, 0x7f) < 0 && bytes.IndexByte(b, 0xc2) < 0 && bytes.IndexByte(b, 0xe2) < 0 && utf8.Valid(b) {
		return b
	}
	return escapeRunes(b, `\u%04x`, func(r rune) bool {
		return r == 0x7f || (r >= 0x80 && r <= 0x9f) || termtext.IsBidiControl(r) || r == 0x2028 || r == 0x2029
	})
}

// escapeRunes copies b with the runes unsafe reports written as \u escapes
// in format, and bytes that are not UTF-8 as \ufffd.
func escapeRunes(b []byte, format string, unsafe func(rune) bool) []byte {
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case unsafe(r):
			out = fmt.Appendf(out, format, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
