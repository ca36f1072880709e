package reconcile

import (
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// RunLike is what a run created by a start or a rerun shows in the run
// list: its plan ("" for a run of test case ids), trigger, branch and
// commit, the applications the request named, and for a run of test case
// ids its test count. A run that shows other values is not the request's
// (but see Tests and AppsGuessed); one that leaves a value out may be (see
// unlisted).
type RunLike struct {
	Plan, Trigger, Branch, Commit string
	// Unknown names those of the four above whose value is not known
	// ("test plan", "trigger", "branch", "commit"): a rerun's, when the run
	// list left them out for the original. They filter nothing and rule
	// nothing out (see unlisted).
	Unknown []string
	// Apps are the applications the request named, in any order; none
	// leaves them to the service (the plan's), and any will do.
	Apps []string
	// Tests is how many distinct test case ids the request names; 0 for a
	// plan, whose size the request does not tell. The service adds the
	// dependencies not named, so a run with more tests may still be the
	// request's: it is named, not adopted.
	Tests int
	// AppsGuessed says Apps are not named by the request but guessed (a
	// rerun's: the original's): a run listed with others is named, not
	// skipped, as the service may not have kept them.
	AppsGuessed bool
	// Unshown is what the request asks that the list cannot show (its
	// environment, parameters, …), "" if nothing: a match is then named,
	// not adopted, as another job's run with other overrides looks the same.
	Unshown string
}

// RunLikeStart is what the run that req starts will show.
func RunLikeStart(req api.StartRunRequest) RunLike {
	like := RunLike{Plan: req.TestPlanShortID, Trigger: req.Trigger, Branch: req.Branch, Commit: req.CommitHash,
		Tests: distinct(req.TestCaseIDs), Unshown: unshown(req)}
	for _, a := range req.Applications {
		if a.ApplicationShortID != "" && !slices.Contains(like.Apps, a.ApplicationShortID) {
			like.Apps = append(like.Apps, a.ApplicationShortID)
		}
	}
	return like
}

// unshown names the overrides of req that the run list does not show.
func unshown(req api.StartRunRequest) string {
	var what []string
	add := func(w string) {
		if !slices.Contains(what, w) {
			what = append(what, w)
		}
	}
	for _, a := range req.Applications {
		if a.DevicePresetShortID != "" {
			add("its device")
		}
		if env := a.Environment; env != nil {
			switch {
			case env.ShortID != "":
				add("its environment")
			case env.URL != "", env.Name != "":
				add("its environment's URL")
			}
			if env.ApplicationBuildShortID != "" {
				add("its build")
			}
		}
	}
	if req.Parameters != nil {
		add("its parameters")
	}
	if len(req.Notifications) > 0 {
		add("its notifications")
	}
	return either(what)
}

// either joins what ("its device", "its build") for a message: "its device
// or its build"; "" for none.
func either(what []string) string {
	if len(what) < 2 {
		return strings.Join(what, "") // "", or the one
	}
	return strings.Join(what[:len(what)-1], ", ") + " or " + what[len(what)-1]
}

// distinct counts ids as the service does: once each, whatever the case.
func distinct(ids []string) int {
	seen := map[string]bool{}
	for _, id := range ids {
		seen[strings.ToLower(strings.TrimSpace(id))] = true
	}
	return len(seen)
}

// sameApps reports whether a run listed with the applications got is one
// started naming want (any, when want is empty).
func sameApps(want, got []string) bool {
	notIn := func(set []string) func(string) bool {
		return func(s string) bool { return !slices.Contains(set, s) }
	}
	return len(want) == 0 || !slices.ContainsFunc(got, notIn(want)) && !slices.ContainsFunc(want, notIn(got))
}
