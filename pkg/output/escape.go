package output

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// escapeUnsafeJSON rewrites DEL, C1 controls (U+0080–U+009F, which include
// the 8-bit CSI and OSC introducers) and bidi overrides as \u escapes.
// encoding/json escapes only C0 controls, and some terminals act on the
// others. The JSON structure is ASCII, so these runes can only occur inside
// strings, where \uXXXX means the same value. b is returned as is, without
// copying, when it holds none of them.
func escapeUnsafeJSON(b []byte) []byte {
	if bytes.IndexByte(b, 0x7f) < 0 && bytes.IndexByte(b, 0xc2) < 0 && bytes.IndexByte(b, 0xe2) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
