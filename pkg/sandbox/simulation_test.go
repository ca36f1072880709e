package sandbox

import (
	"time"

	"net/http"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestPlanTimelines(t *testing.T) {
	cases := []struct {
		plan           string
		start, end     float64
		status, result string
	}{
		{PlanPassing, 1, 10, api.StatusCompleted, api.ResultPassed},
		{PlanFailing, 1, 12, api.StatusCompleted, api.ResultFailed},
		{PlanErroring, 1, 6, api.StatusError, ""},
		{PlanCancelled, 1, 6, api.StatusCancelled, ""},
		{PlanSkipped, 1, 3.5, api.StatusCompleted, api.ResultSkipped},
		{PlanSlow, 2, 3600, api.StatusCompleted, api.ResultPassed},
	}
	for _, tc := range cases {
		t.Run(tc.plan, func(t *testing.T) {
			s, fake := newSandbox(t, Options{})
			id := startPlan(t, s, tc.plan).Run.ShortID
			check := func(at float64, status, res string) {
				t.Helper()
				d := getRun(t, s, id, "?testCases=all")
				if d.Status != status || result(d) != res {
					t.Errorf("at %.1fs: %s/%s, want %s/%s", at, d.Status, result(d), status, res)
				}
				if d.Status != api.StatusCompleted && d.Result != nil {
					t.Errorf("at %.1fs: result %q while %s", at, *d.Result, d.Status)
				}
			}
			check(0, api.StatusInitiated, "")
			advance(fake, tc.start)
			check(tc.start, api.StatusRunning, "")
			advance(fake, tc.end-tc.start-0.01)
			check(tc.end-0.01, api.StatusRunning, "")
			advance(fake, 0.01)
			check(tc.end, tc.status, tc.result)
			advance(fake, 3600)
			check(tc.end+3600, tc.status, tc.result)
		})
	}
}

func TestSlowPlanTakesAnHour(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	id := startPlan(t, s, PlanSlow).Run.ShortID
	advance(fake, 59*60)
	if d := getRun(t, s, id, ""); d.Status != api.StatusRunning {
		t.Fatalf("after 59 min: %s", d.Status)
	}
	advance(fake, 60)
	if d := getRun(t, s, id, ""); d.Status != api.StatusCompleted || result(d) != api.ResultPassed {
		t.Fatalf("after 60 min: %s/%s", d.Status, result(d))
	}
}

func TestSpeedScalesTime(t *testing.T) {
	s, fake := newSandbox(t, Options{Speed: 60})
	id := startPlan(t, s, PlanSlow).Run.ShortID
	advance(fake, 59)
	if d := getRun(t, s, id, ""); d.Status != api.StatusRunning {
		t.Fatalf("after 59 s at speed 60: %s", d.Status)
	}
	advance(fake, 1)
	if d := getRun(t, s, id, ""); d.Status != api.StatusCompleted {
		t.Fatalf("after 60 s at speed 60: %s", d.Status)
	}
}

// A live view must see test cases progress on their own: at some point of
// a run, cases are in different states, and the list's counts change.
func TestTestCasesProgressIndependently(t *testing.T) {
	s, fake := newSandbox(t, Options{History: -1})
	id := startPlan(t, s, PlanPassing).Run.ShortID
	mixed := false
	var passedSeen []int
	for step := 0; step <= 44; step++ {
		d := getRun(t, s, id, "?testCases=all")
		states := map[string]bool{}
		for _, c := range d.RunTestCases {
			states[c.Status] = true
			if c.Status != api.StatusCompleted && (c.Result != "" || c.ResultTitle != "") {
				t.Errorf("unfinished case with a result: %+v", c)
			}
		}
		mixed = mixed || len(states) == 3
		list := decode[api.RunList](t, send(t, s, "GET", "/v1/run", ProjectKey, nil), http.StatusOK)
		if n := list.Runs[0].PassedCount; len(passedSeen) == 0 || passedSeen[len(passedSeen)-1] != n {
			passedSeen = append(passedSeen, n)
		}
		advance(fake, 0.25)
	}
	if !mixed {
		t.Error("never saw INITIATED, RUNNING and COMPLETED test cases at once")
	}
	if len(passedSeen) < 4 || passedSeen[len(passedSeen)-1] != 5 {
		t.Errorf("passed count went %v; want several steps up to 5", passedSeen)
	}
}

func TestDependencyOrdering(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	// Order history waits for login and checkout; checkout resumes from
	// add-to-cart, which resumes from login. None of those are listed.
	id := startCases(t, s, TestCaseOrderHistory).Run.ShortID
	started, ended := map[string]float64{}, map[string]float64{}
	var final api.RunDetail
	for at := 0.0; at <= 30; at += 0.25 {
		final = getRun(t, s, id, "?testCases=all")
		for _, c := range final.RunTestCases {
			if _, ok := started[c.Name]; !ok && c.Status != api.StatusInitiated {
				started[c.Name] = at
			}
			if _, ok := ended[c.Name]; !ok && c.Status == api.StatusCompleted {
				ended[c.Name] = at
			}
		}
		advance(fake, 0.25)
	}
	name := func(id string) string { return fixtureByID(id).Name }
	if len(final.RunTestCases) != 4 || result(final) != api.ResultPassed {
		t.Fatalf("run %s/%s with %d cases", final.Status, result(final), len(final.RunTestCases))
	}
	for _, dep := range []struct{ dependent, dependency string }{
		{TestCaseAddToCart, TestCaseLogin}, {TestCaseCheckout, TestCaseAddToCart},
		{TestCaseOrderHistory, TestCaseLogin}, {TestCaseOrderHistory, TestCaseCheckout},
	} {
		if started[name(dep.dependent)] < ended[name(dep.dependency)] {
			t.Errorf("%q started at %.2f before %q ended at %.2f", name(dep.dependent), started[name(dep.dependent)],
				name(dep.dependency), ended[name(dep.dependency)])
		}
	}
}

func TestFailedWaitForDependencySkips(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	id := startCases(t, s, TestCaseOrderEmail).Run.ShortID
	for at := 0.0; at <= 30; at += 0.5 {
		for _, c := range getRun(t, s, id, "?testCases=all").RunTestCases {
			if c.Name == fixtureByID(TestCaseOrderEmail).Name && c.Status == api.StatusRunning {
				t.Fatalf("the dependent of a failed wait-for dependency ran at %.1fs", at)
			}
		}
		advance(fake, 0.5)
	}
	d := getRun(t, s, id, "?testCases=all")
	if result(d) != api.ResultFailed {
		t.Errorf("run result %s", result(d))
	}
	byName := map[string]api.RunTestCase{}
	for _, c := range d.RunTestCases {
		byName[c.Name] = c
	}
	coupon, email := byName[fixtureByID(TestCaseExpiredCoupon).Name], byName[fixtureByID(TestCaseOrderEmail).Name]
	if coupon.Result != api.ResultFailed {
		t.Errorf("the always-failing test case %+v", coupon)
	}
	if email.Status != api.StatusCompleted || email.Result != api.ResultSkipped ||
		email.ResultTitle != `Not run: waits for "Apply an expired coupon", which did not pass` {
		t.Errorf("dependent %+v", email)
	}
}

func TestScheduleRules(t *testing.T) {
	cases := scheduleTestCases([]string{TestCaseOrderEmail, TestCaseHealthAPI}, fixtureByID)
	at := map[string]caseRun{}
	for _, c := range cases {
		at[c.tc.ID] = c
	}
	if len(cases) != 6 || cases[len(cases)-1].tc.ID != TestCaseHealthAPI {
		t.Fatalf("order %v", cases)
	}
	// Wait-for dependencies may run in parallel with each other.
	if a, b := at[TestCaseCheckout], at[TestCaseExpiredCoupon]; b.start >= a.end {
		t.Errorf("independent test cases did not overlap: %v %v", a, b)
	}
	if e := at[TestCaseOrderEmail]; e.start != e.end || e.start < at[TestCaseCheckout].end {
		t.Errorf("skipped dependent timeline %v", e)
	}
	// A test case resuming from one that did not run is skipped as well.
	lookup := func(id string) *testCase {
		if id == "x" {
			return &testCase{ID: "x", Name: "Resume after email", ResumeFrom: TestCaseOrderEmail, Duration: 1}
		}
		return fixtureByID(id)
	}
	got := scheduleTestCases([]string{"x"}, lookup)
	last := got[len(got)-1]
	if last.result != api.ResultSkipped || last.title != `Not run: resumes the browser session of "Receive the order confirmation email", which did not run` {
		t.Errorf("resume after a skipped case: %+v", last)
	}
	// One resuming from a failed test case still runs.
	lookup2 := func(id string) *testCase {
		if id == "y" {
			return &testCase{ID: "y", Name: "Resume after coupon", ResumeFrom: TestCaseExpiredCoupon, Duration: 1, PassTitle: "ok"}
		}
		return fixtureByID(id)
	}
	got = scheduleTestCases([]string{"y"}, lookup2)
	if last := got[len(got)-1]; last.result != api.ResultPassed || last.start < got[0].end {
		t.Errorf("resume after a failed case: %+v", last)
	}
}

// With RunEndDelay a run goes on after its last test case ended, as the
// service's may while it evaluates the run: every test case final, the run
// RUNNING, until the delay has passed; its finishedAt says when it ended.
func TestRunEndDelay(t *testing.T) {
	s, fake := newSandbox(t, Options{RunEndDelay: 2 * time.Second})
	id := startPlan(t, s, PlanPassing).Run.ShortID
	fake.Advance(10*time.Second + 500*time.Millisecond) // the last test case ended at 10 s
	d := getRun(t, s, id, "?testCases=all")
	if d.Status != api.StatusRunning {
		t.Errorf("half a second after its last test case: %s, want RUNNING", d.Status)
	}
	for _, c := range d.RunTestCases {
		if c.Status != api.StatusCompleted {
			t.Errorf("test case %s is %s", c.Name, c.Status)
		}
	}
	fake.Advance(2 * time.Second)
	if d := getRun(t, s, id, "?testCases=all"); d.Status != api.StatusCompleted || result(d) != api.ResultPassed {
		t.Errorf("after the delay: %s/%s", d.Status, result(d))
	}
	list := decode[api.RunList](t, send(t, s, "GET", "/v1/run?limit=1", ProjectKey, nil), 200)
	if len(list.Runs) != 1 || list.Runs[0].FinishedAt == nil || *list.Runs[0].FinishedAt != epoch.Add(12*time.Second).Format(time.RFC3339) {
		t.Errorf("finishedAt %+v, want 12 s after the start", list.Runs)
	}
}
