package cmdutil

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/exitcode"
)

// FlagError is a flag that could not be parsed, as a usage error (exit 2).
// A duration without a unit (`--timeout 5`) is the usual mistake, and Go's
// own messages ("time: missing unit in duration", "strconv.ParseInt:
// parsing") name no fix: they are replaced by what a value looks like.
func FlagError(err error) error {
	if ive, ok := errors.AsType[*pflag.InvalidValueError](err); ok && ive.GetFlag() != nil {
		if like, ok := valueShapes[ive.GetFlag().Value.Type()]; ok {
			err = fmt.Errorf("invalid --%s %q: %s", ive.GetFlag().Name, ive.GetValue(), like)
		}
	}
	return &exitcode.FlagError{Err: err}
}

// valueShapes says what a value of each flag type looks like.
var valueShapes = map[string]string{
	"duration": "a duration with its unit, like 30s, 10m or 1h30m",
	"int":      "a whole number, like 20",
	"bool":     "true or false",
}
