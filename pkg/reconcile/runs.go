package reconcile

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/termtext"
)

// listedRuns is how many of the newest matching runs are read: the run a
// request created is among the newest, so one page holds it.
const listedRuns = 100

// StartRun starts a run (POST /v1/run) that is never doubled and never
// lost (see Do). An adopted run's answer holds what the run list told of
// it: its short id, URL, test count and plan.
func StartRun(ctx context.Context, r Reconciler, c *api.Client, req api.StartRunRequest) (*api.StartRunResponse, error) {
	like := RunLikeStart(req)
	return Do(ctx, r, Write[*api.StartRunResponse]{Noun: "run", Request: "POST /v1/run",
		Send:   func(ctx context.Context) (*api.StartRunResponse, error) { return c.StartRun(ctx, req) },
		Find:   func(ctx context.Context) ([]Found[*api.StartRunResponse], error) { return findRuns(ctx, c, like) },
		Where:  func() []string { return listRuns(like) },
		TakeUp: waitRun})
}

// waitRun is the run wait that takes up the run id.
func waitRun(service []string, id string) nextstep.Step {
	return nextstep.Wait(service, []string{id})
}

// listRuns is the run list command that shows the runs like: where to look
// for one listed without a short id.
func listRuns(like RunLike) []string {
	args := []string{"run", "list"}
	if like.Plan != "" {
		args = append(args, "--plan", like.Plan)
	}
	if like.Branch != "" {
		args = append(args, "--branch", like.Branch)
	}
	if like.Commit != "" {
		args = append(args, "--commit", like.Commit)
	}
	return args
}

func findRuns(ctx context.Context, c *api.Client, like RunLike) ([]Found[*api.StartRunResponse], error) {
	trigger := cmp.Or(like.Trigger, api.TriggerAPI) // the service's default
	if slices.Contains(like.Unknown, "trigger") {
		trigger = ""
	}
	list, err := c.ListRuns(ctx, api.ListRunsOptions{TestPlanShortID: like.Plan, Trigger: trigger, Branch: like.Branch, Limit: listedRuns})
	if err != nil {
		return nil, err
	}
	var found []Found[*api.StartRunResponse]
	for _, s := range list.Runs {
		// The filters' names are a guess: every field is checked here,
		// whatever the service did with them. A list that does not show a
		// run's applications, test count or one of the fields below (yet)
		// cannot tell it from another job's, nor rule it out: it is named.
		noApps := len(like.Apps) > 0 && len(s.ApplicationShortIDs) == 0
		unknown, differs := unlisted(like, trigger, s)
		if differs ||
			(!noApps && !like.AppsGuessed && !sameApps(like.Apps, s.ApplicationShortIDs)) ||
			(like.Tests > 0 && s.TotalCount > 0 && s.TotalCount < like.Tests) {
			continue
		}
		f := Found[*api.StartRunResponse]{ID: s.ShortID, CreatedAt: api.Time(&s.CreatedAt), Value: startedFrom(s), Unsure: like.Unshown}
		switch {
		case f.Unsure != "":
		case unknown != "":
			f.Unsure = unknown
		case noApps:
			f.Unsure = "its applications"
		case !sameApps(like.Apps, s.ApplicationShortIDs):
			f.Unsure = fmt.Sprintf("whether it is this rerun: it runs %s, the original ran %s",
				termtext.SanitizeLine(strings.Join(s.ApplicationShortIDs, ", ")), termtext.SanitizeLine(strings.Join(like.Apps, ", ")))
		case like.Tests == 0 || s.TotalCount == like.Tests:
		case s.TotalCount == 0:
			f.Unsure = "its test count"
		default:
			f.Unsure = fmt.Sprintf("whether its %d tests are the %s asked for and their dependencies", s.TotalCount, termtext.Plural(like.Tests, "test case"))
		}
		found = append(found, f)
	}
	return found, nil
}

// unlisted compares the plan, trigger, branch and commit the list shows of
// s with like's (trigger: the one the request asks, or the service's
// default). Only a field shown with another value differs: a field the list
// leaves out (null or absent) is unknown, not a mismatch, and taking it for
// one would send the request again beside the run it created. unknown names
// those the request set and the list left out ("its branch"), "" if none.
// The trigger is a plain string, so "" stands for absent and null too: as
// the request always has one, an empty trigger is unknown as well. The
// others are pointers: nil is left out, "" is shown (and differs from a
// value the request set).
//
// A rerun's expected values are the original's, as the list showed it: one
// it left out (like.Unknown) rules nothing out. The original may have had
// none (null is also how the list shows that), and a run listed without it
// agrees; or a value, and a run that shows one may be the rerun or
// another's: unknown ("the original's branch"). A trigger, which every run
// has, is unknown whatever the run shows.
func unlisted(like RunLike, trigger string, s api.RunSummary) (unknown string, differs bool) {
	var what []string
	check := func(name string, got *string, want string) {
		switch {
		case slices.Contains(like.Unknown, name) && (got != nil || name == "trigger"):
			what = append(what, "the original's "+name)
		case got == nil && want != "":
			what = append(what, "its "+name)
		case got != nil && *got != want:
			differs = true
		}
	}
	shownTrigger := &s.Trigger
	if s.Trigger == "" {
		shownTrigger = nil
	}
	check("test plan", s.TestPlanShortID, like.Plan)
	check("trigger", shownTrigger, trigger)
	check("branch", s.Branch, like.Branch)
	check("commit", s.CommitHash, like.Commit)
	return either(what), differs
}

// startedFrom is the start answer for an adopted run, holding only what the
// service said of it: -o json invents nothing.
func startedFrom(s api.RunSummary) *api.StartRunResponse {
	run := api.StartedRun{ShortID: s.ShortID, URL: s.URL, TestCount: s.TotalCount}
	doc := map[string]any{"shortId": s.ShortID, "url": s.URL, "testCount": s.TotalCount}
	if s.TestPlanShortID != nil {
		run.TestPlan = &api.TestPlan{ShortID: *s.TestPlanShortID}
		doc["testPlan"] = map[string]string{"shortId": *s.TestPlanShortID}
	}
	resp := &api.StartRunResponse{Run: run}
	raw, _ := json.Marshal(map[string]any{"run": doc}) // strings and numbers always encode
	resp.SetRawJSON(raw)
	return resp
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// pagesToOriginal bounds the search of the run list for the run a rerun
// repeats.
const pagesToOriginal = 10

// Rerun reruns the run shortID (POST /v1/run/{shortId}) through Do. The
// new run has the original's plan, trigger, branch and commit, which only
// the run list tells: the original is looked up there, once, before the
// request, and what the list leaves out of it is unknown of the new run
// too (see unlisted). Not finding it leaves a lost answer unreconciled
// (exit 6). A rerun of given test cases has their count, as a start of
// test case ids; a new run of other applications than the original's is
// named, not adopted: likely another job's rerun.
func Rerun(ctx context.Context, r Reconciler, c *api.Client, shortID string, req api.RerunRequest) (*api.StartRunResponse, error) {
	var like *RunLike
	return Do(ctx, r, Write[*api.StartRunResponse]{Noun: "run", Request: "POST " + api.RerunPath(shortID),
		Send: func(ctx context.Context) (*api.StartRunResponse, error) { return c.RerunRun(ctx, shortID, req) },
		Find: func(ctx context.Context) ([]Found[*api.StartRunResponse], error) {
			if like == nil {
				l, err := likeRun(ctx, c, shortID)
				if err != nil {
					return nil, err
				}
				l.Tests = distinct(req.ProjectTestCaseIDs)
				like = &l
			}
			return findRuns(ctx, c, *like)
		},
		Where: func() []string {
			if like == nil {
				return nil // the original was never found: nothing to list by
			}
			return listRuns(*like)
		},
		TakeUp: waitRun})
}

// likeRun is what a rerun of the run shortID will show in the run list.
func likeRun(ctx context.Context, c *api.Client, shortID string) (RunLike, error) {
	for page, offset := 0, 0; page < pagesToOriginal; page++ {
		list, err := c.ListRuns(ctx, api.ListRunsOptions{Limit: listedRuns, Offset: offset})
		if err != nil {
			return RunLike{}, err
		}
		for _, s := range list.Runs {
			if s.ShortID == shortID {
				like := RunLike{Plan: deref(s.TestPlanShortID), Trigger: s.Trigger, Branch: deref(s.Branch), Commit: deref(s.CommitHash),
					Apps: s.ApplicationShortIDs, AppsGuessed: true}
				// What the list left out of the original is unknown of the
				// rerun, not "": see unlisted.
				for _, f := range []struct {
					name string
					left bool
				}{{"test plan", s.TestPlanShortID == nil}, {"trigger", s.Trigger == ""}, {"branch", s.Branch == nil}, {"commit", s.CommitHash == nil}} {
					if f.left {
						like.Unknown = append(like.Unknown, f.name)
					}
				}
				return like, nil
			}
		}
		offset += len(list.Runs)
		if len(list.Runs) == 0 || offset >= int(list.Total) {
			break
		}
	}
	return RunLike{}, fmt.Errorf("run %s is not among the newest %d runs", shortID, pagesToOriginal*listedRuns)
}
