// Package flagtest runs one command's flag parsing and validation alone:
// a command line in, the Options its run function would have received out.
// It imports no command, so a command's own (in-package) tests can use it.
package flagtest

import (
	"context"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
)

// Parse builds a command with NewCmdX(f, runF), feeds it args (and stdin),
// and returns the Options that reached runF — nil when validation stopped
// the command first — together with the command's error. The factory has
// non-terminal streams, an empty environment and a fake clock; it builds no
// client, so nothing can be sent.
func Parse[O any](newCmd func(*cmdutil.Factory, func(*O) error) *cobra.Command, stdin string, args ...string) (*O, error) {
	ios, in, _, _ := iostreams.Test()
	in.WriteString(stdin)
	f := &cmdutil.Factory{
		IOStreams: ios,
		Clock:     clock.NewFake(time.Unix(0, 0)),
		LookupEnv: func(string) (string, bool) { return "", false },
		Globals:   &cmdutil.GlobalFlags{},
	}
	var got *O
	cmd := newCmd(f, func(o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetIn(in)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	return got, err
}

// Parser binds Parse to one command with nothing on stdin, so a command's
// tests declare `var parse = flagtest.Parser(NewCmdX)` and call
// parse(t, args...).
func Parser[O any](newCmd func(*cmdutil.Factory, func(*O) error) *cobra.Command) func(testing.TB, ...string) (*O, error) {
	return func(t testing.TB, args ...string) (*O, error) {
		t.Helper()
		return Parse(newCmd, "", args...)
	}
}

// Want parses args and fails the test unless the Options equal want.
func Want[O any](t testing.TB, parse func(testing.TB, ...string) (*O, error), want O, args ...string) {
	t.Helper()
	got, err := parse(t, args...)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("%q: %+v, want %+v", args, *got, want)
	}
}
