package iostreams

import (
	"context"
	"strings"
	"testing"
)

func TestTestStreamsAreNotTTY(t *testing.T) {
	ios, _, _, _ := Test()
	if ios.IsStdinTTY() || ios.IsStdoutTTY() || ios.IsStderrTTY() {
		t.Fatal("Test() streams must not be terminals")
	}
	if ios.ColorEnabled() || ios.ErrColorEnabled() {
		t.Fatal("colour must be off off a terminal")
	}
	if got, gotErr := ios.TerminalWidth(), ios.ErrTerminalWidth(); got != 80 || gotErr != 80 {
		t.Fatalf("TerminalWidth() = %d, ErrTerminalWidth() = %d, want the 80 fallback", got, gotErr)
	}
	ios.SetTerminalWidth(120)
	if got, gotErr := ios.TerminalWidth(), ios.ErrTerminalWidth(); got != 120 || gotErr != 120 {
		t.Fatalf("TerminalWidth() = %d, ErrTerminalWidth() = %d, want 120", got, gotErr)
	}
}

func TestBufferIsNeverDetectedAsTTY(t *testing.T) {
	ios, _, _, _ := Test()
	ios.stdoutTTY = ttyUnknown // force lazy detection on a non-file writer
	if ios.IsStdoutTTY() {
		t.Fatal("a bytes.Buffer is not a terminal")
	}
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		name             string
		tty, flag, env   bool
		wantOut, wantErr bool
	}{
		{"tty", true, false, false, true, true},
		{"not a tty", false, false, false, false, false},
		{"--no-color", true, true, false, false, false},
		{"NO_COLOR", true, false, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := Test()
			ios.SetStdoutTTY(tt.tty)
			ios.SetStderrTTY(tt.tty)
			ios.SetColorDisabled(tt.flag)
			ios.SetNoColorEnv(tt.env)
			if got := ios.ColorEnabled(); got != tt.wantOut {
				t.Errorf("ColorEnabled() = %v, want %v", got, tt.wantOut)
			}
			if got := ios.ErrColorEnabled(); got != tt.wantErr {
				t.Errorf("ErrColorEnabled() = %v, want %v", got, tt.wantErr)
			}
		})
	}
}

func TestStderrColourIsIndependentOfStdout(t *testing.T) {
	ios, _, _, _ := Test()
	ios.SetStderrTTY(true) // `testctl run list | jq`: stdout piped, stderr on the terminal
	if ios.ColorEnabled() || !ios.ErrColorEnabled() {
		t.Fatalf("ColorEnabled=%v ErrColorEnabled=%v", ios.ColorEnabled(), ios.ErrColorEnabled())
	}
	if !strings.Contains(ios.ErrStyles().Failure("x"), "\x1b[") || strings.Contains(ios.Styles().Failure("x"), "\x1b[") {
		t.Fatal("each stream's styles must follow that stream")
	}
}

func TestReadSecretFromPipe(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"first line trimmed", "  sk-123 \r\nrest\n", "sk-123"},
		{"no newline", "sk-456", "sk-456"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, in, out, errOut := Test()
			in.WriteString(tt.in)
			got, err := ios.ReadSecret(context.Background(), "API key: ")
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ReadSecret() = %q, want %q", got, tt.want)
			}
			if out.Len() != 0 || errOut.Len() != 0 {
				t.Errorf("nothing may be written off a terminal: out=%q err=%q", out, errOut)
			}
		})
	}
}

func TestReadSecretLeavesTheRestOfStdin(t *testing.T) {
	ios, in, _, _ := Test()
	in.WriteString("key\nnext\n")
	if _, err := ios.ReadSecret(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if in.String() != "next\n" {
		t.Fatalf("remaining stdin = %q", in.String())
	}
}

func TestReadSecretPromptsOnStderrWhenStdinIsTTY(t *testing.T) {
	ios, in, out, errOut := Test()
	ios.SetStdinTTY(true) // a buffer cannot turn echo off; the line is read as from a pipe
	in.WriteString("sk-789\n")
	got, err := ios.ReadSecret(context.Background(), "API key: ")
	if err != nil || got != "sk-789" {
		t.Fatalf("ReadSecret() = %q, %v", got, err)
	}
	if errOut.String() != "API key: " || out.Len() != 0 {
		t.Fatalf("prompt must go to stderr only, without the secret: out=%q err=%q", out, errOut)
	}
}

func TestReadSecretRejectsHugeLine(t *testing.T) {
	ios, in, _, _ := Test()
	in.WriteString(strings.Repeat("x", maxSecretLen+10))
	if _, err := ios.ReadSecret(context.Background(), ""); err == nil {
		t.Fatal("want an error for an oversized line")
	}
}
