package factory

import "github.com/testctl/testctl/pkg/exitcode"

// noBaseURL is the usage error of a command that has no base URL: the ways
// to set one, and in CI first the one the CI integration takes, its
// base-url input (a workflow pasted without it fails here).
func (w *wiring) noBaseURL(profile string) error {
	switch {
	case w.f.Getenv("GITHUB_ACTIONS") == "true":
		return exitcode.UsageErrorf("no base URL configured. In GitHub Actions, set one of:\n" +
			"  base-url: ${{ vars.TESTCTL_BASE_URL }}          (the testctl action's input, under with:)\n" +
			"  TESTCTL_BASE_URL: ${{ vars.TESTCTL_BASE_URL }}  (the env: of a step that runs testctl itself)\n" +
			"with the URL in the repository's variables (Settings → Secrets and variables → Actions → Variables)")
	case w.f.Getenv("GITLAB_CI") == "true":
		return exitcode.UsageErrorf("no base URL configured. In GitLab CI, set one of:\n" +
			"  base-url: https://…          (the testctl component's input, under inputs:)\n" +
			"  TESTCTL_BASE_URL: https://…  (a CI/CD variable, or the job's variables:)")
	}
	return exitcode.UsageErrorf("no base URL configured. Set one of:\n"+
		"  --base-url https://…                  (this command only)\n"+
		"  TESTCTL_BASE_URL=https://…            (environment)\n"+
		"  %s (saved in profile %q)\n"+
		"or try everything against the embedded emulator with --sandbox", w.f.Globals.ConfigSetCommand("base_url", "https://…"), profile)
}
