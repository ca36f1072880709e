// Package completion holds the shell completions of flag and argument
// values that commands register: fixed lists, profiles, run ids, plans and
// a run's test cases. What it asks the service it asks within Timeout, with
// a key that needs no keyring, and it prints nothing: a completion must
// never freeze a prompt, open a dialog or print into it.
package completion

import (
	"cmp"
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

// Timeout bounds everything one completion asks the service: the user's
// shell waits on it.
const Timeout = time.Second

const noFiles = cobra.ShellCompDirectiveNoFileComp

// CompleteEnum completes a flag from a fixed list of values.
func CompleteEnum(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values, noFiles
	}
}

// CompleteProfiles completes profile names from the config file.
func CompleteProfiles(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, err := f.Config()
		if err != nil {
			return nil, noFiles
		}
		names := cfg.ProfileNames()
		if len(names) == 0 {
			names = []string{config.DefaultProfile}
		}
		return names, noFiles
	}
}

// service is a client for completing from the service and the context
// that bounds it; nil without a key. The key is the flag's, the
// environment's or the config file's, never the OS keyring's, which may
// show a dialog or wait seconds: PublicAPIClient never asks it.
func service(f *cmdutil.Factory, cmd *cobra.Command) (*api.Client, context.Context, context.CancelFunc) {
	client, err := f.PublicAPIClient()
	if err != nil || client.APIKey == "" {
		return nil, nil, func() {}
	}
	client = client.WithRetries(0)
	client.Debug = nil
	ctx, cancel := context.WithTimeout(cmp.Or(cmd.Context(), context.Background()), Timeout)
	return client, ctx, cancel
}

// CompleteRunIDs completes run short ids: first the runs this machine
// started on the service (the local record), then the service's recent
// runs, described by plan and status. Without a key it offers nothing.
func CompleteRunIDs(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		client, ctx, cancel := service(f, cmd)
		defer cancel()
		if client == nil {
			return nil, noFiles
		}
		c := newCompletions(args...)
		c.addRuns(ctx, f, client, "")
		return c.list, noFiles
	}
}

// CompleteRunTestCases completes a run test case short id (RUN-N): before
// the dash, the runs as CompleteRunIDs offers them, each with its dash and
// no space after it, so that the next Tab lists that run's test cases,
// described by name and outcome.
func CompleteRunTestCases(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		client, ctx, cancel := service(f, cmd)
		defer cancel()
		if client == nil || len(args) > 0 {
			return nil, noFiles
		}
		c := newCompletions()
		i := strings.LastIndex(toComplete, "-")
		if i < 0 {
			c.addRuns(ctx, f, client, "-")
			return c.list, noFiles | cobra.ShellCompDirectiveNoSpace
		}
		run, err := client.GetRun(ctx, toComplete[:i], api.GetRunOptions{TestCases: "all"})
		if err != nil {
			return nil, noFiles
		}
		for _, rtc := range run.RunTestCases {
			c.add(rtc.ShortID, strings.TrimSpace(rtc.Name+" "+cmp.Or(rtc.Result, rtc.Status)))
		}
		return c.list, noFiles
	}
}

// addRuns adds the runs started here, then the service's recent ones,
// each id followed by suffix.
func (c *completions) addRuns(ctx context.Context, f *cmdutil.Factory, client *api.Client, suffix string) {
	for _, r := range startedruns.ForEnv(f.Getenv).Runs(client.BaseURL) {
		c.add(r.ShortID+suffix, strings.TrimSpace(planOf(r.PlanShortID, r.PlanName)+" started here"))
	}
	list, err := client.ListRuns(ctx, api.ListRunsOptions{Limit: 20})
	if err != nil {
		return
	}
	for _, r := range list.Runs {
		desc := r.Status
		if r.TestPlanShortID != nil {
			desc = *r.TestPlanShortID + " " + desc
		}
		c.add(r.ShortID+suffix, desc)
	}
}

// CompletePlans completes test plan short ids: under --sandbox the
// sandbox's plans; otherwise the plans of the runs this machine started on
// the service (the local record, which knows their names), then those of
// the project's recent runs (the run list, newest first), which any
// machine started. Without a key it offers nothing; never file names.
func CompletePlans(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c := newCompletions()
		if f.Globals != nil && f.Globals.Sandbox {
			for _, p := range f.SandboxPlans() {
				c.add(p.ShortID, p.Name)
			}
			return c.list, noFiles
		}
		client, ctx, cancel := service(f, cmd)
		defer cancel()
		if client == nil {
			return nil, noFiles
		}
		for _, r := range startedruns.ForEnv(f.Getenv).Runs(client.BaseURL) {
			c.add(r.PlanShortID, r.PlanName)
		}
		list, err := client.ListRuns(ctx, api.ListRunsOptions{Limit: 100})
		if err != nil {
			return c.list, noFiles
		}
		for _, r := range list.Runs {
			if r.TestPlanShortID != nil {
				c.add(*r.TestPlanShortID, "last run "+cmp.Or(deref(r.Result), r.Status)+onBranch(deref(r.Branch)))
			}
		}
		return c.list, noFiles
	}
}

func onBranch(branch string) string {
	if branch == "" {
		return ""
	}
	return " on " + branch
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
