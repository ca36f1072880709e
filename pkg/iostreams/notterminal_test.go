package iostreams

import (
	"context"
	"errors"
	"testing"
)

func TestNotTerminalTakesEveryStreamForAPipe(t *testing.T) {
	ios, in, _, errOut := Test()
	in.WriteString("k-typed\n")
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	ios.SetStderrTTY(true)
	ios.SetNotTerminal(true)
	if ios.IsStdinTTY() || ios.IsStdoutTTY() || ios.IsStderrTTY() || ios.CanRedrawStderr() || ios.ColorEnabled() || ios.ErrColorEnabled() {
		t.Error("a stream is still taken for a terminal")
	}
	if _, err := ios.ReadSecret(context.Background(), "Key: "); !errors.Is(err, ErrNoPrompt) {
		t.Errorf("ReadSecret on a terminal: %v, want ErrNoPrompt", err)
	}
	if errOut.Len() != 0 || in.Len() == 0 {
		t.Errorf("prompted (%q) or read stdin", errOut.String())
	}

	ios.SetStdinTTY(false) // a pipe is read as ever
	if key, err := ios.ReadSecret(context.Background(), "Key: "); err != nil || key != "k-typed" {
		t.Errorf("ReadSecret on a pipe: %q, %v", key, err)
	}
	ios.SetNotTerminal(false)
	if !ios.IsStdoutTTY() || !ios.ColorEnabled() {
		t.Error("the terminal is not back")
	}
}
