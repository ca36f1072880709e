package iostreams

import (
	"strings"
	"testing"
)

func styleFuncs(st *Styles) map[string]func(string) string {
	return map[string]func(string) string{
		"Bold": st.Bold, "Muted": st.Muted, "Success": st.Success, "Failure": st.Failure,
		"Warning": st.Warning, "Info": st.Info,
	}
}

func TestStylesOffAreIdentity(t *testing.T) {
	ios, _, _, _ := Test()
	st := ios.Styles()
	for name, fn := range styleFuncs(st) {
		for _, in := range []string{"", "PASSED", "a\tb\nc  ", "\x1b[31mraw"} {
			if got := fn(in); got != in {
				t.Errorf("%s(%q) = %q with colour off", name, in, got)
			}
		}
	}
	if st.SuccessIcon() != "✓" || st.FailureIcon() != "✗" || st.WarningIcon() != "!" {
		t.Errorf("icons without colour: %q %q %q", st.SuccessIcon(), st.FailureIcon(), st.WarningIcon())
	}
}

func TestStylesOffWithNoColorOnTTY(t *testing.T) {
	ios, _, _, _ := Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColorEnv(true)
	if got := ios.Styles().Failure("x"); got != "x" {
		t.Fatalf("NO_COLOR must turn colour off, got %q", got)
	}
}

func TestStylesOnEmitANSI(t *testing.T) {
	ios, _, _, _ := Test()
	ios.SetStdoutTTY(true)
	st := ios.Styles()
	for name, fn := range styleFuncs(st) {
		in := "PASSED"
		got := fn(in)
		if !strings.Contains(got, "\x1b[") || !strings.Contains(got, in) {
			t.Errorf("%s(%q) = %q, want ANSI around the text", name, in, got)
		}
	}
	if got := st.Success("a\tb"); !strings.Contains(got, "a\tb") {
		t.Errorf("tabs must survive styling: %q", got)
	}
	if got := st.Bold("long line\nx"); strings.Contains(got, "x  ") || !strings.Contains(got, "\n") {
		t.Errorf("multi-line text must not be padded: %q", got)
	}
}

func TestStylesFollowLaterSettings(t *testing.T) {
	ios, _, _, _ := Test()
	ios.SetStdoutTTY(true)
	_ = ios.Styles()
	ios.SetColorDisabled(true) // flags are parsed after the streams exist
	if got := ios.Styles().Bold("x"); got != "x" {
		t.Fatalf("--no-color after Styles() was built: %q", got)
	}
}

func TestSGRMatchesLipgloss(t *testing.T) {
	ios, _, _, _ := Test()
	ios.SetStdoutTTY(true)
	st := ios.Styles()
	if got, want := st.Failure("boom"), "\x1b[31mboom\x1b[0m"; got != want {
		t.Fatalf("Failure = %q, want %q", got, want)
	}
	if got, want := st.Bold("x"), "\x1b[1mx\x1b[0m"; got != want {
		t.Fatalf("Bold = %q, want %q", got, want)
	}
}
