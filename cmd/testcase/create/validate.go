package create

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/testctl/testctl/cmd/testcase/shared"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

// maxNameLen is the service's limit, in characters: "Café ✓" is 6, not 9.
const maxNameLen = 80

// request validates the flags and builds the request body. Every check the
// service would make on the body's format is made here first, so a bad flag
// exits 2 without creating anything; existence (of the app, configs,
// dependencies) is left to the service.
func (o *Options) request() (api.CreateTestCaseRequest, error) {
	var req api.CreateTestCaseRequest
	if err := o.checkRequired(); err != nil {
		return req, err
	}
	if err := checkName(o.Name); err != nil {
		return req, err
	}
	if err := shared.CheckPrefixed("app", o.App, "app_"); err != nil {
		return req, err
	}
	configs, err := unique("config", o.Configs, func(v string) error { return shared.CheckPrefixed("config", v, "cfg_") })
	if err != nil {
		return req, err
	}
	if o.Scenario != "" {
		if err := shared.CheckPrefixed("scenario", o.Scenario, "scenario_"); err != nil {
			return req, err
		}
	}
	// UUIDs are case-insensitive; lower case is their canonical form and
	// makes the overlap check below exact.
	resume := strings.ToLower(o.ResumeFrom)
	if resume != "" {
		if err := shared.CheckUUID("resume-from", resume); err != nil {
			return req, err
		}
	}
	waitFor := make([]string, len(o.WaitFor))
	for i, id := range o.WaitFor {
		waitFor[i] = strings.ToLower(id)
	}
	waitFor, err = unique("wait-for", waitFor, func(v string) error { return shared.CheckUUID("wait-for", v) })
	if err != nil {
		return req, err
	}
	// Resume From already orders the test after its dependency and keeps its
	// browser session; Wait For on the same test would also demand a fresh
	// session. The two rules contradict each other, so ask for one.
	if resume != "" && slices.Contains(waitFor, resume) {
		return req, exitcode.FlagErrorf("--resume-from %s is also given to --wait-for: resuming already runs after it "+
			"(keeping its browser session), waiting starts a fresh session; give it to only one of the two", resume)
	}
	return api.CreateTestCaseRequest{
		Name: o.Name, Goal: o.Goal, ApplicationShortID: o.App, ExpectedResult: o.ExpectedResult,
		ConfigShortIDs: configs, ScenarioShortID: o.Scenario,
		ResumeFromDependencyProjectTestCaseID: resume, WaitForDependenciesProjectTestCaseIDs: waitFor,
	}, nil
}

// checkRequired names every required flag that is missing at once, so a
// first try (`testcase create --name X`) is not a round of one error each.
func (o *Options) checkRequired() error {
	var flags, lines []string
	for _, f := range []struct{ flag, value, what string }{
		{"--name", o.Name, fmt.Sprintf("the test case's name, 1 to %d characters", maxNameLen)},
		{"--goal", o.Goal, "the objective the test must reach"},
		{"--app", o.App, "the application to test, app_<id>"},
	} {
		if strings.TrimSpace(f.value) == "" {
			flags = append(flags, f.flag)
			lines = append(lines, fmt.Sprintf("  %-7s %s", f.flag, f.what))
		}
	}
	switch len(flags) {
	case 0:
		return nil
	case 1:
		return exitcode.FlagErrorf("%s is required:\n%s", flags[0], lines[0])
	}
	last := len(flags) - 1
	return exitcode.FlagErrorf("%s and %s are required:\n%s", strings.Join(flags[:last], ", "), flags[last], strings.Join(lines, "\n"))
}

func checkName(name string) error {
	n := utf8.RuneCountInString(name)
	switch { // an empty name was refused by checkRequired
	case !utf8.ValidString(name):
		return exitcode.FlagErrorf("--name is not valid UTF-8")
	case n > maxNameLen:
		return exitcode.FlagErrorf("--name is %d characters long; the service allows 1 to %d", n, maxNameLen)
	case strings.ContainsFunc(name, unicode.IsControl):
		return exitcode.FlagErrorf("--name must be one line without control characters")
	}
	return nil
}

// unique splits a repeatable flag, checks each value and drops repeats,
// keeping the first: giving the same config or dependency twice means it
// once.
func unique(flag string, values []string, check func(string) error) ([]string, error) {
	items, err := shared.SplitList(flag, values)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range items {
		if err := check(v); err != nil {
			return nil, err
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}
