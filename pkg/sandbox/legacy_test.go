package sandbox

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestLegacyRunDetail(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	failing := startPlan(t, s, PlanFailing).Run.ShortID
	passing := startPlan(t, s, PlanPassing).Run.ShortID
	path := func(run string) string { return LegacyPrefix + "/projects/" + ProjectUUID + "/runs/" + run }
	legacy := func(run, key string, status int) legacyRunDetail {
		t.Helper()
		return decode[legacyRunDetail](t, send(t, s, "GET", path(run), key, nil), status)
	}
	if d := legacy(failing, ProjectKey, 200); d.Result != nil || d.FailedTestCases == nil || len(d.FailedTestCases) != 0 {
		t.Errorf("running: %+v", d)
	}
	advance(fake, 30)
	d := legacy(failing, OrgKey, 200)
	if !uuidPattern().MatchString(d.ID) || d.ShortID != failing || d.Status != api.StatusCompleted || *d.Result != api.ResultFailed ||
		len(d.FailedTestCases) != 2 || d.TestPlan == nil || d.TestPlan.ShortID != PlanFailing {
		t.Errorf("failed run: %+v", d)
	}
	for _, c := range d.FailedTestCases {
		if c.Result != api.ResultFailed {
			t.Errorf("not a failed case: %+v", c)
		}
	}
	if raw := send(t, s, "GET", path(failing), ProjectKey, nil).Body.String(); !strings.Contains(raw, `"short_id"`) {
		t.Errorf("legacy snake_case missing: %s", raw)
	}
	if d := legacy(passing, LimitKey, 200); *d.Result != api.ResultPassed || len(d.FailedTestCases) != 0 {
		t.Errorf("passed run: %+v", d)
	}
	// Errors are {"statusText": ...}; a bad key is 404 like an unknown run.
	for _, tc := range []struct {
		path, key string
		status    int
	}{
		{path(failing), "", 404}, {path(failing), "wrong", 404}, {path(failing), SuspendedKey, 403},
		{path("zzzzzz"), ProjectKey, 404}, {LegacyPrefix + "/projects/00000000-0000-4000-8000-000000000000/runs/" + failing, ProjectKey, 404},
		{LegacyPrefix + "/nothing", ProjectKey, 404},
	} {
		body := decode[api.ErrorBody](t, send(t, s, "GET", tc.path, tc.key, nil), tc.status)
		if body.StatusText == "" || body.Message != "" {
			t.Errorf("%s with %q: %+v", tc.path, tc.key, body)
		}
	}
	if got := s.Stats().Requests["GET "+LegacyPrefix+"/projects/{projectUuid}/runs/{shortId}"]; got < 5 {
		t.Errorf("legacy route counted %d times", got)
	}
}
