package iostreams

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadKeystrokes(t *testing.T) {
	tests := []struct {
		name, in, want string
		interrupted    bool
	}{
		{"enter ends the line", "sk-1\rrest", "sk-1", false},
		{"backspace and delete edit", "sk-12\x7f3\b4\r", "sk-14", false},
		{"backspace removes a whole rune", "ké\x7fe\r", "ke", false},
		{"ctrl-u clears", "wrong\x15sk-2\r", "sk-2", false},
		{"ctrl-d ends early", "sk-3\x04more", "sk-3", false},
		{"ctrl-c interrupts", "sk-\x03", "", true},
		{"ctrl-c on an empty line interrupts", "\x03\r", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readKeystrokes(strings.NewReader(tt.in))
			if tt.interrupted != errors.Is(err, ErrInterrupted) || got != tt.want {
				t.Errorf("readKeystrokes(%q) = %q, %v", tt.in, got, err)
			}
		})
	}
	if !errors.Is(ErrInterrupted, context.Canceled) {
		t.Error("Ctrl-C must end the command as an interruption (exit 130)")
	}
}

func TestReadSecretEndsWithItsContext(t *testing.T) {
	for _, tty := range []bool{false, true} {
		ios, _, _, _ := Test()
		ios.SetStdinTTY(tty)
		never, _ := io.Pipe() // a stdin nobody writes to
		ios.In = never
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := ios.ReadSecret(ctx, ""); !errors.Is(err, context.Canceled) {
			t.Errorf("tty=%v: %v, want context.Canceled", tty, err)
		}
	}
}
