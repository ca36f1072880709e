package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSanitize checks Sanitize and SanitizeLine on the same terms: each
// case is a name, what goes in and what must come out.
func TestSanitize(t *testing.T) {
	type cases []struct{ name, in, want string }
	for _, fn := range []struct {
		name  string
		f     func(string) string
		tests cases
	}{
		{"Sanitize", Sanitize, cases{
			{"plain ascii", "hello, world", "hello, world"},
			{"keeps newline and tab", "a\tb\nc", "a\tb\nc"},
			{"keeps unicode", "héllo 世界 ✓ 👍", "héllo 世界 ✓ 👍"},
			{"sgr colour", "\x1b[31mred\x1b[0m", "red"},
			{"csi with params and intermediates", "a\x1b[?1049hb\x1b[1 qc", "abc"},
			{"cursor movement", "ok\x1b[2A\x1b[Kfake", "okfake"},
			{"osc title with bel", "\x1b]0;pwned\x07after", "after"},
			{"osc title with st", "\x1b]2;pwned\x1b\\after", "after"},
			{"hyperlink keeps text", "\x1b]8;;http://evil\x1b\\text\x1b]8;;\x1b\\", "text"},
			{"osc 52 clipboard", "x\x1b]52;c;cm0gLXJmIH4=\x07y", "xy"},
			{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
			{"apc pm sos", "a\x1b_apc\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d", "abcd"},
			{"two-byte escapes", "a\x1b7b\x1b8c\x1bcd\x1b(Be\x1b#8f", "abcdef"},
			{"lone esc at end", "abc\x1b", "abc"},
			{"esc before non-ascii", "a\x1bé", "aé"},
			{"esc esc", "a\x1b\x1b[1mb", "ab"},
			{"unterminated csi at end", "abc\x1b[12;3", "abc"},
			{"csi aborted by control keeps text", "a\x1b[12\nb", "a\nb"},
			{"unterminated osc swallows rest", "abc\x1b]0;title and more", "abc"},
			{"osc cancelled by can", "a\x1b]0;t\x18b", "ab"},
			{"osc interrupted by new csi", "a\x1b]0;t\x1b[1mb", "ab"},
			{"c0 controls", "a\x00b\x07c\x08d\re\x0bf\x0cg\x1fh", "abcdefgh"},
			{"del", "a\x7fb", "ab"},
			{"c1 csi u+009b", "a\u009b31mb", "ab"},
			{"c1 osc u+009d with c1 st", "a\u009d0;title\u009cb", "ab"},
			{"c1 osc u+009d with bel", "a\u009d0;title\x07b", "ab"},
			{"c1 dcs u+0090", "a\u0090data\x1b\\b", "ab"},
			{"other c1 dropped", "a\u0085b\u009cc\u0080d", "abcd"},
			{"bidi overrides", "a\u202eevil\u202cb\u2066c\u2069", "aevilbc"},
			{"invalid utf-8", "a\xffb\xc3", "a\ufffdb\ufffd"},
			{"raw 8-bit csi byte is invalid utf-8", "a\x9b31m", "a\ufffd31m"},
			{"replacement char kept", "a\ufffdb", "a\ufffdb"},
			{"empty", "", ""},
		}},
		{"SanitizeLine", SanitizeLine, cases{
			{"plain", "name", "name"},
			{"newline", "a\nb", "a b"},
			{"crlf is one break", "a\r\nb", "a b"},
			{"lone cr", "a\rb", "a b"},
			{"tab", "a\tb", "a b"},
			{"each break is a space", "a\n\nb\t\tc", "a  b  c"},
			{"escapes removed too", "\x1b[1ma\nb\x1b]0;x\x07", "a b"},
		}},
	} {
		for _, tt := range fn.tests {
			t.Run(fn.name+"/"+tt.name, func(t *testing.T) {
				if got := fn.f(tt.in); got != tt.want {
					t.Errorf("%s(%q) = %q, want %q", fn.name, tt.in, got, tt.want)
				}
			})
		}
	}
}

func TestCleanInputIsNotCopied(t *testing.T) {
	for _, s := range []string{"plain", "tab\tand\nnewline", "ünïcödé ✓"} {
		if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
			t.Errorf("Sanitize(%q) allocated %v times", s, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = SanitizeLine("a cell") }); n != 0 {
		t.Errorf("SanitizeLine allocated %v times", n)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"plain", "\x1b[31mred\x1b[0m", "\x1b]0;pwned\x07", "\x1b]8;;http://evil\x1b\\text\x1b]8;;\x1b\\",
		"\u009b1m\u009d0;x\u009c", "a\xffb", "\u202eabc", "x\x1b", "\r\n\t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		checkSafe(t, in, out, false)
		if again := Sanitize(out); again != out {
			t.Fatalf("Sanitize not idempotent: %q -> %q -> %q", in, out, again)
		}
		line := SanitizeLine(in)
		checkSafe(t, in, line, true)
		if again := SanitizeLine(line); again != line {
			t.Fatalf("SanitizeLine not idempotent: %q -> %q -> %q", in, line, again)
		}
	})
}

func checkSafe(t *testing.T, in, out string, line bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output of %q is not valid UTF-8: %q", in, out)
	}
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
			if line {
				t.Fatalf("line output of %q contains %q: %q", in, r, out)
			}
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, IsBidiControl(r):
			t.Fatalf("output of %q contains control %U: %q", in, r, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Fatalf("output of %q contains ESC", in)
	}
}

func BenchmarkSanitizeClean(b *testing.B) {
	s := strings.Repeat("a clean run name ✓ ", 8)
	for b.Loop() {
		_ = Sanitize(s)
	}
}

func BenchmarkSanitizeDirty(b *testing.B) {
	s := strings.Repeat("\x1b[31mred\x1b[0m and \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ ", 8)
	for b.Loop() {
		_ = Sanitize(s)
	}
}
