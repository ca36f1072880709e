package sandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

type route struct {
	method, path string
	body         any
	// needsProject: an organization-scoped key must name the project.
	needsProject bool
	// startsRun: the limit key is refused with 402.
	startsRun bool
}

// authRoutes lists every authenticated operation with a request that
// succeeds for the project key.
func authRoutes(s *Server) []route {
	hist := s.encodeRunID('h', 0)
	create := api.CreateTestCaseRequest{Name: "Smoke", Goal: "It loads", ApplicationShortID: appWebID}
	return []route{
		{"POST", "/v1/run", api.StartRunRequest{TestPlanShortID: PlanPassing}, true, true},
		{"GET", "/v1/run", nil, true, false},
		{"GET", "/v1/run/" + hist + "?testCases=all", nil, true, false},
		{"POST", "/v1/run/" + hist, nil, true, true},
		{"GET", "/v1/run-test-case/" + hist + "-1/logs?kind=console", nil, true, false},
		{"GET", "/v1/test-cases", nil, true, false},
		{"POST", "/v1/test-cases", create, false, false},
		{"GET", "/v1/remote-tunnels/runner-healthy/status", nil, false, false},
		{"GET", "/v1/remote-tunnels", nil, false, false},
		{"GET", "/v1/applications", nil, true, false},
		{"GET", "/v1/applications/" + appWebID + "/environments", nil, true, false},
	}
}

// withQuery appends a query member to a path.
func withQuery(path, kv string) string {
	if strings.Contains(path, "?") {
		return path + "&" + kv
	}
	return path + "?" + kv
}

func TestAuthRulesForEveryKey(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	for _, rt := range authRoutes(s) {
		name := rt.method + " " + rt.path
		t.Run(name, func(t *testing.T) {
			wantError(t, send(t, s, rt.method, rt.path, "", rt.body), http.StatusUnauthorized, "API key")
			wantError(t, send(t, s, rt.method, rt.path, "not-a-key", rt.body), http.StatusUnauthorized, "invalid API key")
			rec := send(t, s, rt.method, rt.path, SuspendedKey, rt.body)
			if b := decode[api.ErrorBody](t, rec, http.StatusForbidden); b.Message != msgSuspended {
				t.Errorf("suspended message %q", b.Message)
			}
			if rec := send(t, s, rt.method, rt.path, ProjectKey, rt.body); rec.Code != http.StatusOK {
				t.Errorf("project key: %d %s", rec.Code, rec.Body)
			}
			if rec := send(t, s, rt.method, withQuery(rt.path, "projectShortId="+ProjectShortID), ProjectKey, rt.body); rec.Code != http.StatusOK {
				t.Errorf("project key with its own project: %d %s", rec.Code, rec.Body)
			}
			rec = send(t, s, rt.method, rt.path, LimitKey, rt.body)
			if rt.startsRun {
				if b := decode[api.ErrorBody](t, rec, http.StatusPaymentRequired); b.Message != msgLimit {
					t.Errorf("limit message %q", b.Message)
				}
			} else if rec.Code != http.StatusOK {
				t.Errorf("limit key: %d %s", rec.Code, rec.Body)
			}
			rec = send(t, s, rt.method, rt.path, OrgKey, rt.body)
			if rt.needsProject {
				wantError(t, rec, http.StatusBadRequest, "projectShortId", "organization")
			} else if rec.Code != http.StatusOK {
				t.Errorf("org key without project: %d %s", rec.Code, rec.Body)
			}
			if rec := send(t, s, rt.method, withQuery(rt.path, "projectShortId="+ProjectShortID), OrgKey, rt.body); rec.Code != http.StatusOK {
				t.Errorf("org key with project: %d %s", rec.Code, rec.Body)
			}
			wantError(t, send(t, s, rt.method, withQuery(rt.path, "projectShortId=proj-other_x1"), OrgKey, rt.body),
				http.StatusNotFound, "proj-other_x1")
			wantError(t, send(t, s, rt.method, withQuery(rt.path, "projectShortId=proj-other_x1"), ProjectKey, rt.body),
				http.StatusForbidden, ProjectShortID, "proj-other_x1")
			wantError(t, send(t, s, rt.method, withQuery(rt.path, "projectShortId=project-1"), ProjectKey, rt.body),
				http.StatusBadRequest, "project-1")
		})
	}
}

func TestAuthorizationHeaderForms(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	for _, h := range []string{"Basic " + ProjectKey, "Bearer", ProjectKey} {
		wantError(t, serve(s, newRequest("GET", "/v1/run", h)), http.StatusUnauthorized)
	}
	if rec := serve(s, newRequest("GET", "/v1/run", "bearer "+ProjectKey)); rec.Code != http.StatusOK {
		t.Errorf("scheme is case-insensitive: %d", rec.Code)
	}
}

func TestProjectInBody(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	req := api.StartRunRequest{TestPlanShortID: PlanPassing, ProjectShortID: ProjectShortID}
	decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run", OrgKey, req), http.StatusOK)
	wantError(t, send(t, s, "POST", "/v1/run?projectShortId=proj-other_x1", OrgKey, req), http.StatusBadRequest, "differs")
	req.ProjectShortID = "proj_elsewhere"
	wantError(t, send(t, s, "POST", "/v1/run", ProjectKey, req), http.StatusForbidden, "proj_elsewhere")
	wantError(t, send(t, s, "POST", "/v1/run", OrgKey, req), http.StatusNotFound, "proj_elsewhere")

	// Creating a test case infers the project even for an org key, but a
	// named project must still exist.
	create := map[string]any{"name": "x", "goal": "y", "applicationShortId": appWebID, "projectShortId": "proj_elsewhere"}
	wantError(t, send(t, s, "POST", "/v1/test-cases", OrgKey, create), http.StatusNotFound, "proj_elsewhere")
	create["projectShortId"] = ProjectShortID
	decode[api.CreateTestCaseResponse](t, send(t, s, "POST", "/v1/test-cases", OrgKey, create), http.StatusOK)
}
