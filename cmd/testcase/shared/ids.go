// Package shared holds what the testcase verbs have in common: checks of the
// identifiers the service accepts, so bad input fails before any request.
package shared

import (
	"strings"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/idcheck"
)

// CheckPrefixed returns a usage error naming flag unless value is prefix
// followed by at least one character (app_…, cfg_…, scenario_…). The service
// answers 400 for these anyway; checking here keeps a typo from costing a
// round trip, and from half-creating anything.
func CheckPrefixed(flag, value, prefix string) error {
	if len(value) <= len(prefix) || !strings.HasPrefix(value, prefix) {
		return exitcode.FlagErrorf("--%s %q is not a valid id: it must look like %s<id>", flag, value, prefix)
	}
	if strings.ContainsFunc(value, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return exitcode.FlagErrorf("--%s %q is not a valid id: it contains spaces or control characters", flag, value)
	}
	return nil
}

// CheckUUID returns a usage error naming flag unless value is a UUID.
func CheckUUID(flag, value string) error {
	if !idcheck.IsUUID(value) {
		return exitcode.FlagErrorf("--%s %q is not a UUID (like 5a4db001-0000-4000-8000-000000000001): "+
			"dependencies are the internal ids of project test cases, see `testctl testcase list -o json`", flag, value)
	}
	return nil
}

// SplitList reads a repeatable flag that also takes comma-separated values
// ("--label a --label b,c"). An empty item is an error rather than skipped:
// `--label "$LABEL"` with an unset variable must not widen a filter.
func SplitList(flag string, values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item == "" {
				return nil, exitcode.FlagErrorf("--%s must not be empty", flag)
			}
			out = append(out, item)
		}
	}
	return out, nil
}
