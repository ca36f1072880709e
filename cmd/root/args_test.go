package root_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
)

// Every command that takes positional arguments says, when one is missing,
// what it needs and a command line that works, as a usage error (exit 2),
// instead of cobra's "accepts 1 arg(s), received 0". The walk finds every
// such command, so a new one built with cobra.ExactArgs fails here.
func TestMissingArgumentsAreNamed(t *testing.T) {
	want := []string{"api", "completion", "config get", "config set", "config unset", "logs", "run get", "run report", "run rerun", "run wait", "tunnel status"}
	var found []string
	for _, c := range allCommands(newRoot(t)) {
		err := c.ValidateArgs(nil)
		if err == nil {
			continue
		}
		path := strings.TrimPrefix(c.CommandPath(), "testctl ")
		found = append(found, path)
		var flagErr *exitcode.FlagError
		if !errors.As(err, &flagErr) || !strings.HasPrefix(err.Error(), path+" needs ") || !strings.Contains(err.Error(), ", e.g. testctl "+path) {
			t.Errorf("%s without arguments: %q (%T), want %q", path, err, err, path+" needs …, e.g. testctl "+path+" …")
		}

		// And through the real command line: exit 2, the message, nothing on stdout.
		ios, _, out, errOut := iostreams.Test()
		f, cleanup := factory.New("test", factory.Options{IOStreams: ios, LookupEnv: func(string) (string, bool) { return "", false }})
		code := root.Run(context.Background(), f, strings.Fields(path))
		cleanup()
		if code != exitcode.Usage || out.Len() > 0 || !strings.Contains(errOut.String(), "error: "+err.Error()) {
			t.Errorf("testctl %s: exit %d, stdout %q, stderr %q", path, code, out, errOut)
		}
	}
	if !slices.Equal(found, want) {
		t.Errorf("commands needing arguments: %q, want %q", found, want)
	}
}

func TestExtraArgumentsAreNamed(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	f, cleanup := factory.New("test", factory.Options{IOStreams: ios, LookupEnv: func(string) (string, bool) { return "", false }})
	defer cleanup()
	code := root.Run(context.Background(), f, []string{"config", "get", "base_url", "project"})
	if code != exitcode.Usage || out.Len() > 0 {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	const msg = `config get takes a key, not 2 arguments ("base_url" "project"), e.g. testctl config get base_url`
	if !strings.Contains(errOut.String(), msg) {
		t.Errorf("stderr %q, want %q", errOut, msg)
	}
}

func newRoot(t *testing.T) *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	f, cleanup := factory.New("test", factory.Options{IOStreams: ios, LookupEnv: func(string) (string, bool) { return "", false }})
	t.Cleanup(cleanup)
	return root.NewCmdRoot(f)
}

// allCommands lists the runnable commands under c, depth first, in the
// order help lists them.
func allCommands(c *cobra.Command) []*cobra.Command {
	var all []*cobra.Command
	if c.Runnable() && c.HasParent() && !c.HasSubCommands() {
		all = append(all, c)
	}
	for _, sub := range c.Commands() {
		all = append(all, allCommands(sub)...)
	}
	return all
}
