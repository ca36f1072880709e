package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// issue #19: a start whose answer is lost never adopts another job's run of
// the same plan and commit that the run list shows with another
// application: it is not this request's, and with nothing else new within
// the delay the start is sent once more.
func TestLostStartNeverAdoptsARunOfAnotherApplication(t *testing.T) {
	e := cmdtest.New(t)
	job := e.OtherJob(postRun, cmdtest.LoseRequest, []string{"app_other"}, func(body map[string]any) { delete(body, "applications") })
	r := e.Run("run", "start", "--plan", "pln-failing_sandbox", "--app", "app_sandbox-web",
		"--branch", "main", "--commit", "abc123", "--wait").Expect(t, 1)
	sibling := job.ShortID()
	if sibling == "" || runsStarted(e) != 2 || e.Requests(postRun) != 2 {
		t.Fatalf("sibling %q; %d runs started by %d POSTs, want 2 by 2\n%s", sibling, runsStarted(e), e.Requests(postRun), r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "no run appeared within 30s: sending POST /v1/run once more")
	if strings.Contains(r.Output(), sibling) {
		t.Errorf("reports the other job's run %s as its own:\n%s%s", sibling, r.Stdout, r.Stderr)
	}
}

// The same, when this request was carried out too: its own run is the one
// whose applications agree, and it is adopted.
func TestLostStartAdoptsItsRunBesideAnotherApplications(t *testing.T) {
	e := cmdtest.New(t)
	job := e.OtherJob(postRun, cmdtest.LoseAnswer, []string{"app_other"}, func(body map[string]any) { delete(body, "applications") })
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", "app_sandbox-web",
		"--branch", "main", "--commit", "abc123", "-q").Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	// The sandbox saw the other job's POST and this one's: nothing was sent again.
	if id == "" || id == job.ShortID() || runsStarted(e) != 2 || e.Requests(postRun) != 2 {
		t.Fatalf("adopted %q (the other job's is %q); %d runs, %d POSTs\n%s", id, job.ShortID(), runsStarted(e), e.Requests(postRun), r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but run "+id+" was created: using it")
}

// Everything the list shows agrees (plan, trigger, branch, commit, the
// application named): the run is adopted.
func TestLostStartAdoptsTheRunWhenAllItShowsAgrees(t *testing.T) {
	e := cmdtest.New(t)
	e.FaultWrites(postRun, cmdtest.LoseAnswer)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", "app_sandbox-web", "--trigger", "CODEHOST",
		"--actor", "me", "--branch", "main", "--commit", "abc123", "--commit-message", "m", "--repository", "o/r", "-q").Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but run "+id+" was created: using it")
	if runsStarted(e) != 1 || e.Requests(postRun) != 1 {
		t.Errorf("%d runs started by %d POSTs, want 1 by 1", runsStarted(e), e.Requests(postRun))
	}
}

// issue #19: a start of test case ids whose answer is lost never adopts
// another job's run of test cases on the same commit: one with fewer tests
// than the ids asked for is not it (the start is sent once more), one with
// more may be it with dependencies the service added, so it is named, not
// adopted (exit 6), and nothing is sent again.
func TestLostStartOfTestCasesNeverAdoptsAnotherCount(t *testing.T) {
	t.Run("fewer", func(t *testing.T) {
		e := cmdtest.New(t)
		job := e.OtherJob(postRun, cmdtest.LoseRequest, nil, func(body map[string]any) { body["testCaseIds"] = []string{testCase(1)} })
		r := e.Run("run", "start", "--test-case", testCase(1), "--test-case", testCase(7), "--test-case", testCase(8),
			"--commit", "abc123", "-q").Expect(t, 0)
		if id := strings.TrimSpace(r.Stdout); id == job.ShortID() || runsStarted(e) != 2 {
			t.Errorf("started %q (the other job's is %q); %d runs\n%s", id, job.ShortID(), runsStarted(e), r.Stderr)
		}
		cmdtest.Contains(t, "stderr", r.Stderr, "sending POST /v1/run once more")
	})
	t.Run("more", func(t *testing.T) {
		e := cmdtest.New(t)
		job := e.OtherJob(postRun, cmdtest.LoseRequest, nil, func(body map[string]any) {
			body["testCaseIds"] = []string{testCase(1), testCase(7), testCase(8)}
		})
		r := e.Run("run", "start", "--test-case", testCase(1), "--commit", "abc123", "-q").Expect(t, 6)
		cmdtest.Contains(t, "stderr", r.Stderr, "run "+job.ShortID()+" was created since; it was not adopted",
			"its 3 tests are the 1 test case asked for and their dependencies", "testctl run wait "+job.ShortID())
		if r.Stdout != "" || runsStarted(e) != 1 || e.Requests(postRun) != 1 {
			t.Errorf("stdout %q; %d runs started by %d POSTs, want the other job's 1 by 1", r.Stdout, runsStarted(e), e.Requests(postRun))
		}
	})
}

// A run of test case ids whose test count is the number of ids is adopted.
func TestLostStartOfTestCasesAdoptsTheSameCount(t *testing.T) {
	e := cmdtest.New(t)
	e.FaultWrites(postRun, cmdtest.LoseAnswer)
	r := e.Run("run", "start", "--test-case", testCase(1), "--test-case", testCase(7), "--commit", "abc123", "-q").Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but run "+id+" was created: using it", "Started run "+id+" (2 tests)")
	if runsStarted(e) != 1 || e.Requests(postRun) != 1 {
		t.Errorf("%d runs started by %d POSTs, want 1 by 1", runsStarted(e), e.Requests(postRun))
	}
}

// An override the run list cannot show (an environment, a URL, a device, a
// build, parameters, notifications): the new run may be another job's with
// other overrides, so it is named with the line that takes it up, not
// adopted (exit 6), and the start is not sent again.
func TestLostStartWithOverridesNamesTheRun(t *testing.T) {
	params := `{"configs":{"cfg_sandbox-admin":{"role":"admin"}}}`
	for name, args := range map[string][]string{
		"environment":   {"--app", "app_sandbox-web,env=env_sandbox-staging"},
		"url":           {"--app", "app_sandbox-web,url=https://staging.example.com"},
		"device":        {"--app", "app_sandbox-web,device=preset_sandbox-pixel"},
		"parameters":    {"--parameters", "-"},
		"notifications": {"--no-notify"},
	} {
		t.Run(name, func(t *testing.T) {
			e := cmdtest.New(t)
			e.FaultWrites(postRun, cmdtest.LoseAnswer)
			r := e.RunWith(cmdtest.RunOptions{Stdin: params}, append([]string{"run", "start", "--plan", "pln-passing_sandbox",
				"--branch", "main", "--commit", "abc123", "-q"}, args...)...).Expect(t, 6)
			ids := e.Run("run", "list", "--plan", "pln-passing_sandbox", "--limit", "1", "--jq", ".runs[].shortId").Expect(t, 0)
			id := strings.TrimSpace(ids.Stdout)
			cmdtest.Contains(t, "stderr", r.Stderr, "run "+id+" was created since; it was not adopted, as the list of runs cannot show its",
				"\n  testctl run wait "+id+"\n")
			if r.Stdout != "" || runsStarted(e) != 1 || e.Requests(postRun) != 1 {
				t.Errorf("stdout %q; %d runs started by %d POSTs, want 1 by 1", r.Stdout, runsStarted(e), e.Requests(postRun))
			}
		})
	}
}
