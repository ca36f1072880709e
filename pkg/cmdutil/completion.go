package cmdutil

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/termtext"
)

// completionTimeout keeps a slow or unreachable service from freezing the
// user's shell while it completes.
const completionTimeout = 2 * time.Second

// CompleteEnum completes a flag from a fixed list of values.
func CompleteEnum(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// CompleteProfiles completes profile names from the config file.
func CompleteProfiles(f *Factory) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, err := f.Config()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names := cfg.ProfileNames()
		if len(names) == 0 {
			names = []string{config.DefaultProfile}
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}

// CompleteRunIDs completes recent run short ids, described by plan and
// status. Without a configured key or base URL, or on any error, it quietly
// offers nothing: completion must never print errors into a prompt.
func CompleteRunIDs(f *Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		client, err := f.APIClient()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		client = client.WithRetries(0)
		client.Debug = nil
		ctx, cancel := context.WithTimeout(contextOf(cmd), completionTimeout)
		defer cancel()
		list, err := client.ListRuns(ctx, api.ListRunsOptions{Limit: 20})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(list.Runs))
		for _, r := range list.Runs {
			desc := r.Status
			if r.TestPlanShortID != nil {
				desc = *r.TestPlanShortID + " " + desc
			}
			// Descriptions are the service's text and end up in the shell.
			out = append(out, cobra.CompletionWithDesc(termtext.SanitizeLine(r.ShortID), termtext.SanitizeLine(desc)))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

func contextOf(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}
