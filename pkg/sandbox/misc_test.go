package sandbox

import (
	"net/http"
	"strings"
	"testing"
)

func TestPublicOperations(t *testing.T) {
	s, fake := newSandbox(t, Options{History: -1})
	ips := decode[map[string][]string](t, send(t, s, "GET", "/v1/outbound-ips", "", nil), 200)
	if len(ips["ips"]) == 0 {
		t.Errorf("outbound ips %v", ips)
	}
	badge := func(query string) (int, string, string) {
		rec := send(t, s, "GET", "/v1/badge.svg?"+query, "", nil)
		return rec.Code, rec.Header().Get("Content-Type"), rec.Body.String()
	}
	code, ct, body := badge("token=" + ProjectKey + "&testPlanShortId=" + PlanFailing)
	if code != 200 || ct != "image/svg+xml" || !strings.HasPrefix(body, "<svg") || !strings.Contains(body, "no runs") {
		t.Errorf("badge without runs: %d %s %s", code, ct, body)
	}
	startPlan(t, s, PlanFailing)
	if _, _, body := badge("token=" + ProjectKey + "&testPlanShortId=" + PlanFailing); !strings.Contains(body, "running") {
		t.Errorf("badge while running: %s", body)
	}
	advance(fake, 30)
	if _, _, body := badge("query=token," + OrgKey + ",testPlanShortId," + PlanFailing); !strings.Contains(body, "failing") {
		t.Errorf("badge after failure: %s", body)
	}
	wantError(t, send(t, s, "GET", "/v1/badge.svg?testPlanShortId="+PlanFailing, "", nil), 400, "token")
	wantError(t, send(t, s, "GET", "/v1/badge.svg?token=nope&testPlanShortId="+PlanFailing, "", nil), 401)
	wantError(t, send(t, s, "GET", "/v1/badge.svg?token="+SuspendedKey+"&testPlanShortId="+PlanFailing, "", nil), 403)
	wantError(t, send(t, s, "GET", "/v1/badge.svg?token="+ProjectKey+"&testPlanShortId=pln_none", "", nil), 404, "pln_none")
}

func TestApplicationsAndEnvironments(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	apps := decode[map[string][]application](t, send(t, s, "GET", "/v1/applications", ProjectKey, nil), 200)
	if len(apps["applications"]) != 1 || apps["applications"][0].ShortID != appWebID || apps["applications"][0].Name != "Sandbox Web" {
		t.Errorf("applications %+v", apps)
	}
	envs := decode[map[string][]environment](t, send(t, s, "GET", "/v1/applications/app_sandbox-web/environments", ProjectKey, nil), 200)
	if len(envs["environments"]) != 1 || envs["environments"][0].ShortID != envStagingID {
		t.Errorf("environments %+v", envs)
	}
	wantError(t, send(t, s, "GET", "/v1/applications/app_x/environments", ProjectKey, nil), 404, "app_x")
	wantError(t, send(t, s, "GET", "/v1/applications/web/environments", ProjectKey, nil), 400, "app_")
}

func TestUnknownRoutesAndStats(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	wantError(t, send(t, s, "GET", "/v2/run", ProjectKey, nil), http.StatusNotFound, "/v2/run")
	wantError(t, send(t, s, "DELETE", "/v1/run", ProjectKey, nil), http.StatusNotFound, "DELETE")
	startPlan(t, s, PlanPassing)
	send(t, s, "GET", "/v1/run/abc?testCases=all", ProjectKey, nil)
	st := decode[Stats](t, send(t, s, "GET", "/_sandbox/stats", "", nil), 200)
	want := map[string]int{"GET /": 1, "DELETE /": 1, "POST /v1/run": 1, "GET /v1/run/{shortId}": 1}
	for k, v := range want {
		if st.Requests[k] != v {
			t.Errorf("Requests[%q] = %d, want %d (%v)", k, st.Requests[k], v, st.Requests)
		}
	}
	if st.RunsStarted != 1 || st.Faults == nil {
		t.Errorf("stats %+v", st)
	}
	// Stats returns a copy.
	st.Requests["POST /v1/run"] = 99
	if s.Stats().Requests["POST /v1/run"] != 1 {
		t.Error("Stats shares its map")
	}
}
