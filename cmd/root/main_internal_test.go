package root

import (
	"context"
	"strings"
	"testing"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/pkg/iostreams"
)

// Every --sandbox process gives the runs it starts ids of its own: the runs
// of two commands never look like one.
func TestEachSandboxProcessHasItsOwnRunIDs(t *testing.T) {
	dir := t.TempDir()
	start := func() string {
		ios, _, out, _ := iostreams.Test()
		opts := factory.ProcessOptions()
		opts.IOStreams = ios
		opts.LookupEnv = func(k string) (string, bool) {
			if k == "HOME" {
				return dir, true
			}
			return "", false
		}
		f, cleanup := factory.New("test", opts)
		defer cleanup()
		if code := Run(context.Background(), f, []string{"--sandbox", "run", "start", "--plan", "pln-passing_sandbox", "-q"}); code != 0 {
			t.Fatalf("exit %d", code)
		}
		return strings.TrimSpace(out.String())
	}
	a, b := start(), start()
	if a == "" || a == b {
		t.Errorf("two --sandbox commands started runs %q and %q, want ids of their own", a, b)
	}
}

// Only commands that print and end go without signal handling; anything
// that may talk to the service or wait keeps it, whatever comes first.
func TestInstantCommandsSkipSignalHandling(t *testing.T) {
	for args, want := range map[string]bool{
		"version": true, "--version": true, "help run": true, "--help": true, "-h": true,
		"completion bash": true, "__complete run wait ": true, "__completeNoDesc run ": true,
		"": false, "run wait r1a2b3": false, "run start --plan p --wait": false, "--no-color version": false,
		"versions": false, "logs r1-1 --help": false, "sandbox": false, "api /v1/run": false,
	} {
		if got := instant(strings.Fields(args)); got != want {
			t.Errorf("instant(%q) = %v, want %v", args, got, want)
		}
	}
}
