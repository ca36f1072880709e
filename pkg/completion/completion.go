// Package completion holds the shell completions of flag and argument
// values that commands register: fixed lists, profiles, run ids and plans.
// It asks the service with a short deadline and prints nothing: a
// completion must never freeze a prompt or print into it.
package completion

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/startedruns"
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
func CompleteProfiles(f *cmdutil.Factory) cobra.CompletionFunc {
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

// CompleteRunIDs completes run short ids: first the runs this machine
// started on the service (the local record), then the service's recent
// runs, described by plan and status. Without a configured key or base URL,
// or on any error, it offers what it has and prints nothing: completion
// must never print errors into a prompt.
func CompleteRunIDs(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c := newCompletions(args...)
		client, err := f.APIClient()
		if err != nil {
			return c.list, cobra.ShellCompDirectiveNoFileComp
		}
		for _, r := range startedruns.ForEnv(f.Getenv).Runs(client.BaseURL) {
			c.add(r.ShortID, strings.TrimSpace(planOf(r.PlanShortID, r.PlanName)+" started here"))
		}
		client = client.WithRetries(0)
		client.Debug = nil
		ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
		defer cancel()
		list, err := client.ListRuns(ctx, api.ListRunsOptions{Limit: 20})
		if err != nil {
			return c.list, cobra.ShellCompDirectiveNoFileComp
		}
		for _, r := range list.Runs {
			desc := r.Status
			if r.TestPlanShortID != nil {
				desc = *r.TestPlanShortID + " " + desc
			}
			c.add(r.ShortID, desc)
		}
		return c.list, cobra.ShellCompDirectiveNoFileComp
	}
}

// CompletePlans completes test plan short ids: under --sandbox the
// sandbox's plans, otherwise the plans of the runs this machine started on
// the configured service (the local record), newest first. It asks the
// service nothing, and never offers file names.
func CompletePlans(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c := newCompletions()
		if f.Globals != nil && f.Globals.Sandbox {
			for _, p := range f.SandboxPlans() {
				c.add(p.ShortID, p.Name)
			}
			return c.list, cobra.ShellCompDirectiveNoFileComp
		}
		service, _ := f.BaseURL() // "" on an error
		for _, r := range startedruns.ForEnv(f.Getenv).Runs(service) {
			c.add(r.PlanShortID, r.PlanName)
		}
		return c.list, cobra.ShellCompDirectiveNoFileComp
	}
}

// completions collects candidates once each, their text made safe for the
// shell: ids and descriptions may be the service's text.
type completions struct {
	seen map[string]bool
	list []cobra.Completion
}

// newCompletions skips the values already given (a second run id of
// `run wait` is not the first again).
func newCompletions(given ...string) *completions {
	c := &completions{seen: map[string]bool{}}
	for _, g := range given {
		c.seen[g] = true
	}
	return c
}

func (c *completions) add(value, desc string) {
	value = termtext.SanitizeLine(value)
	if value == "" || c.seen[value] {
		return
	}
	c.seen[value] = true
	c.list = append(c.list, cobra.CompletionWithDesc(value, termtext.SanitizeLine(desc)))
}

func planOf(shortID, name string) string {
	if name != "" && shortID != "" {
		return shortID + " (" + name + ")"
	}
	return shortID + name
}
