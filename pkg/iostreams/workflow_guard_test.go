package iostreams

import (
	"strings"
	"testing"
)

func TestGuardBlocksOnlyCommandLinesWhateverTheWrites(t *testing.T) {
	ios, _, out, errOut := Test()
	ios.GuardWorkflowCommands()
	g := ios.errGuard
	// A command split over writes, after Unicode white space; a prompt
	// without a newline; plain lines.
	for _, w := range []string{"plain line\n  ", "\u3000:", ":add-mask::x\nKey: "} {
		_, _ = ios.ErrOut.Write([]byte(w))
	}
	if got := errOut.String(); !strings.HasSuffix(got, "Key: ") {
		t.Errorf("a prompt was held back: %q", got)
	}
	_, _ = ios.ErrOut.Write([]byte("\n##[error]x"))
	ios.WorkflowCommands().Write([]byte("::error::mine\n"))
	ios.FlushGuards()
	block := func(line string) string { return "::stop-commands::" + g.token + "\n" + line + "::" + g.token + "::\n" }
	// The annotation comes after everything written before it, outside any block.
	want := "plain line\n" + block("  \u3000::add-mask::x\n") + "Key: \n" + block("##[error]x\n") + "::error::mine\n"
	if got := errOut.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	_, _ = ios.Out.Write([]byte(`{"name":"::x"}` + "\n"))
	if out.String() != `{"name":"::x"}`+"\n" {
		t.Errorf("data that is not a command changed: %q", out.String())
	}
}
