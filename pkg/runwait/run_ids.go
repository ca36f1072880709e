package runwait

import (
	"slices"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/idcheck"
)

// ValidateRunIDs rejects what cannot be a run short id before anything is
// sent: an empty argument from an unset CI variable, or one with spaces or
// slashes that would change the request path; and a run given twice, which
// would be waited for and reported twice.
func ValidateRunIDs(ids []string) error {
	for i, id := range ids {
		if err := idcheck.ValidateRunID(id); err != nil {
			return err
		}
		if slices.Contains(ids[:i], id) {
			return exitcode.FlagErrorf("run %s is given twice", id)
		}
	}
	return nil
}

// ValidateDryRun refuses what a dry run cannot do: it starts no run, so
// there is nothing to wait for and no short id to print.
func ValidateDryRun(dryRun, quiet, wait bool) error {
	switch {
	case dryRun && wait:
		return exitcode.FlagErrorf("--dry-run sends nothing, so there is no run to --wait for")
	case dryRun && quiet:
		return exitcode.FlagErrorf("--dry-run starts no run, so -q has no short id to print")
	}
	return nil
}
