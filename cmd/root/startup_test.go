package root_test

import (
	"context"
	"strings"
	"testing"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// Help, version and completion scripts must work, and start fast, on a
// machine where nothing is set up: they read no config file, resolve no
// output format and build no client (issue 8; docs/benchmarks.md measures
// what the start costs).
func TestHelpVersionAndCompletionLoadNothing(t *testing.T) {
	for _, args := range [][]string{
		{"version"}, {"version", "-o", "json"}, {"--version"},
		{"--help"}, {"help"}, {"help", "exit-codes"}, {"run", "--help"}, {"run", "start", "--help"},
		{"completion", "bash"}, {"completion", "zsh"}, {"completion", "fish"}, {"completion", "powershell"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ios, _, out, errOut := iostreams.Test()
			f, cleanup := factory.New("test", factory.Options{IOStreams: ios,
				LookupEnv: func(string) (string, bool) { return "", false }})
			defer cleanup()
			var loaded []string
			load := func(what string) error { loaded = append(loaded, what); return context.Canceled }
			f.Config = func() (*config.Config, error) { return nil, load("config") }
			f.APIClient = func() (*api.Client, error) { return nil, load("client") }
			f.PublicAPIClient = func() (*api.Client, error) { return nil, load("public client") }
			f.Output = func() (output.Options, error) { return output.Options{}, load("output") }

			if code := root.Run(context.Background(), f, args); code != 0 {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			if len(loaded) > 0 {
				t.Errorf("loaded %v", loaded)
			}
			if out.Len() == 0 {
				t.Error("nothing on stdout")
			}
		})
	}
}
