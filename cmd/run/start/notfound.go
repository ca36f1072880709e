package start

import (
	"errors"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/nextstep"
)

// withPlanHint completes the service's 404 for a plan it does not know
// with where plan ids are found: a newcomer's first guess at an id (from
// the help's pln_… or a plan's name) is usually wrong. The exit code stays
// the 404's.
func withPlanHint(f *cmdutil.Factory, steps nextstep.Renderer, req api.StartRunRequest, err error) error {
	var he *api.HTTPError
	if req.TestPlanShortID == "" || !errors.As(err, &he) || !api.IsNotFound(err) || he.Hint != "" {
		return err
	}
	if f.Globals != nil && f.Globals.Sandbox {
		plans := f.SandboxPlans()
		ids := make([]string, len(plans))
		for i, p := range plans {
			ids[i] = p.ShortID
		}
		he.Hint = "The sandbox's plans: " + strings.Join(ids, ", ") + "."
		return err
	}
	he.Hint = "Plan ids look like pln_<id> or pln-<slug>_<id>; " + steps.Inline(nextstep.Command("run", "list")) +
		" shows the plans of recent runs (the PLAN column)."
	return err
}
