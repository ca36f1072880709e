package iostreams_test

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/iostreams"
)

// tokenIn finds the guard's token in what it wrote.
var tokenIn = regexp.MustCompile(`testctl-[A-Z0-9]+`)

// Whatever the text and however it is cut into writes, the runner obeys
// no command in it; the guard only adds its block lines (and, when a line
// whose start was written turns out to hold a command, the end of that
// line), and text without a command passes byte for byte.
func TestGuardLetsNoCommandThroughWhateverTheWrites(t *testing.T) {
	pieces := []string{"a", "b ", " ", "\u3000", "\u200b", "#", "##", "[", "]", ":", "::", "\r", "\n", "\r\n",
		"##[error]x", "::add-mask::y", "::stop-commands::z", "{\"n\":\"::\"}", "Key: "}
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 20000 {
		var in strings.Builder
		for range 1 + r.IntN(12) {
			in.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := in.String()
		ios, _, _, errOut := iostreams.Test()
		ios.GuardWorkflowCommands()
		for rest := text; rest != ""; {
			n := 1 + r.IntN(len(rest))
			_, _ = ios.ErrOut.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		ios.FlushGuards()
		got := errOut.String()
		if ran := cmdtest.RunnerCommands(unicode.IsSpace, got); len(ran) > 0 {
			t.Fatalf("case %d: %q written as %q: the runner obeys %q", i, text, got, ran)
		}
		token := tokenIn.FindString(got)
		bare := got
		if token != "" {
			bare = strings.NewReplacer("::stop-commands::"+token+"\n", "", "::"+token+"::\n", "").Replace(got)
		}
		if strings.ReplaceAll(bare, "\n", "") != strings.ReplaceAll(text, "\n", "") {
			t.Fatalf("case %d: %q written as %q: text lost or changed", i, text, got)
		}
		// The guard also trims invisible format characters, to be safe.
		invisibleToo := func(r rune) bool { return unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Cc) }
		if len(cmdtest.RunnerCommands(invisibleToo, text)) == 0 && !strings.Contains(text, "::stop-commands::") && got != text {
			t.Fatalf("case %d: %q holds no command but was written as %q", i, text, got)
		}
	}
}
