package mcp

import (
	"path/filepath"
	"slices"
	"time"

	"github.com/testctl/testctl/pkg/runwait"
)

// The arguments of the calls that create, normalised so that a call
// re-issued with its defaults spelled out, or its lists in another order,
// is the same call.

func sorted(values []string) []string {
	out := slices.Clone(values)
	slices.Sort(out)
	return out
}

// waitIdentity is what a wait's arguments mean: its timeout as a duration
// (10m and 600s are one timeout; none is the default), its report paths
// cleaned.
type waitIdentity struct {
	Wait            bool   `json:"wait"`
	Timeout         string `json:"timeout,omitempty"`
	JUnit           string `json:"junit,omitempty"`
	HTML            string `json:"html,omitempty"`
	CTRF            string `json:"ctrf,omitempty"`
	PassWithNoTests bool   `json:"passWithNoTests,omitempty"`
}

func waitOf(wait *bool, timeout, junit, html, ctrf string, pass bool) waitIdentity {
	w := waitIdentity{Wait: wait == nil || *wait, PassWithNoTests: pass}
	w.Timeout = timeout
	if timeout == "" {
		w.Timeout = runwait.DefaultTimeout.String()
	} else if d, err := time.ParseDuration(timeout); err == nil {
		w.Timeout = d.String()
	}
	for _, f := range []struct {
		to   *string
		path string
	}{{&w.JUnit, junit}, {&w.HTML, html}, {&w.CTRF, ctrf}} {
		if f.path != "" {
			*f.to = filepath.Clean(f.path)
		}
	}
	return w
}

func (in StartRunInput) identity() (what, all any) {
	type start struct {
		Plans     []string `json:"plans,omitempty"`
		TestCases []string `json:"testCases,omitempty"`
		Apps      []string `json:"apps,omitempty"`
		Codehost  bool     `json:"codehost,omitempty"`
	}
	w := start{sorted(in.Plans), sorted(in.TestCases), sorted(in.Apps), in.Codehost}
	return w, []any{w, waitOf(in.Wait, in.Timeout, in.JUnit, in.HTML, in.CTRF, in.PassWithNoTests)}
}

func (in RerunFailedInput) identity() (what, all any) {
	type rerun struct {
		RunID     string   `json:"runId"`
		TestCases []string `json:"testCases,omitempty"`
	}
	w := rerun{in.RunID, sorted(in.TestCases)}
	return w, []any{w, waitOf(in.Wait, in.Timeout, in.JUnit, in.HTML, in.CTRF, in.PassWithNoTests)}
}

func (in CreateTestCaseInput) identity() (what, all any) {
	in.IdempotencyKey = ""
	in.Configs, in.WaitFor = sorted(in.Configs), sorted(in.WaitFor)
	return in, in
}
