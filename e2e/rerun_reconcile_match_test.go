package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// rerunOf reruns the test cases ids of a finished failing run while another
// job reruns otherIDs of the same run; this rerun's answer is lost after
// fault.
func rerunOf(t *testing.T, fault cmdtest.WriteFault, ids, otherIDs []string) (*cmdtest.Env, *cmdtest.OtherJob, cmdtest.Result) {
	t.Helper()
	e := cmdtest.New(t)
	orig := finishedRun(t, e, sandbox.PlanFailing, 1)
	job := e.OtherJob("POST /v1/run/"+orig, fault, nil, func(body map[string]any) { body["projectTestCaseIds"] = otherIDs })
	args := []string{"run", "rerun", orig, "-q"}
	for _, id := range ids {
		args = append(args, "--test-case", id)
	}
	return e, job, e.Run(args...)
}

// A rerun of given test cases knows its test count: another job's rerun of
// the same run with fewer tests is not it, and the rerun is sent once more;
// one with more may be it with dependencies added, and is named, not
// adopted (exit 6).
func TestLostRerunOfTestCasesNeverAdoptsAnotherCount(t *testing.T) {
	both := []string{sandbox.TestCaseExpiredCoupon, sandbox.TestCaseDeclinedCard}
	one := []string{sandbox.TestCaseExpiredCoupon}
	t.Run("fewer", func(t *testing.T) {
		e, job, r := rerunOf(t, cmdtest.LoseRequest, both, one)
		r.Expect(t, 0)
		if id := strings.TrimSpace(r.Stdout); id == job.ShortID() || reruns(e) != 2 {
			t.Errorf("started %q (the other job's is %q); %d reruns reached the sandbox\n%s", id, job.ShortID(), reruns(e), r.Stderr)
		}
		cmdtest.Contains(t, "stderr", r.Stderr, "once more")
	})
	t.Run("more", func(t *testing.T) {
		e, job, r := rerunOf(t, cmdtest.LoseRequest, one, both)
		r.Expect(t, 6)
		cmdtest.Contains(t, "stderr", r.Stderr, "run "+job.ShortID()+" was created since; it was not adopted",
			"testctl run wait "+job.ShortID())
		if r.Stdout != "" || reruns(e) != 1 {
			t.Errorf("stdout %q; %d reruns reached the sandbox, want the other job's", r.Stdout, reruns(e))
		}
	})
}

// Its own rerun, whose count agrees, is adopted beside another job's.
func TestLostRerunOfTestCasesAdoptsTheSameCount(t *testing.T) {
	e, job, r := rerunOf(t, cmdtest.LoseAnswer, []string{sandbox.TestCaseExpiredCoupon, sandbox.TestCaseDeclinedCard},
		[]string{sandbox.TestCaseExpiredCoupon})
	r.Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but run "+id+" was created: using it", "Started run "+id+" (2 tests)")
	if id == job.ShortID() || reruns(e) != 2 {
		t.Errorf("adopted %q (the other job's is %q); %d reruns reached the sandbox", id, job.ShortID(), reruns(e))
	}
}

// A new run of the original's plan and commit that the list shows with
// other applications than the original's is likely another job's rerun (a
// sibling of a matrix): it is named, not adopted (exit 6), and the rerun
// is not sent again.
func TestLostRerunNamesARunOfOtherApplications(t *testing.T) {
	e := cmdtest.New(t)
	orig := finishedRun(t, e, sandbox.PlanFailing, 1)
	job := e.OtherJob("POST /v1/run/"+orig, cmdtest.LoseRequest, []string{"app_other"}, func(map[string]any) {})
	r := e.Run("run", "rerun", orig, "--failed-only", "-q").Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "run "+job.ShortID()+" was created since; it was not adopted",
		"it runs app_other, the original ran app_sandbox-web", "testctl run wait "+job.ShortID())
	if r.Stdout != "" || reruns(e) != 1 {
		t.Errorf("stdout %q; %d reruns reached the sandbox, want the other job's", r.Stdout, reruns(e))
	}
}
