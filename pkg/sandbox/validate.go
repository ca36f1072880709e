package sandbox

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// apiError is a failed validation: the status and message to answer with.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

// refuse answers err, if there is one: an *apiError with its status, any
// other (a query member that is not valid) as a 400. It says whether it
// answered.
func refuse(w http.ResponseWriter, err error) bool {
	if err == nil {
		return false
	}
	status := http.StatusBadRequest
	if e, ok := err.(*apiError); ok {
		status = e.status
	}
	writeError(w, status, "%v", err)
	return true
}

// notificationTypes are the sandbox's four notification kinds: "slack" is
// the chat-messaging kind, "none" suppresses everything.
var notificationTypes = []string{"slack", "email", "webhook", "none"}

// validateStartRun checks a start-run body as the service would. It returns
// the plan or the test case ids to run. Format problems are 400s; well
// formed references to things the project does not have are 404s.
func (s *Server) validateStartRun(req *api.StartRunRequest) (*plan, []string, error) {
	switch req.Trigger {
	case "", api.TriggerAPI:
	case api.TriggerCodehost:
		var missing []string
		for _, f := range []struct{ name, v string }{{"actor", req.Actor}, {"branch", req.Branch},
			{"commitHash", req.CommitHash}, {"commitMessage", req.CommitMessage}, {"repository", req.Repository}} {
			if strings.TrimSpace(f.v) == "" {
				missing = append(missing, f.name)
			}
		}
		if len(missing) > 0 {
			return nil, nil, errorf(http.StatusBadRequest, "trigger CODEHOST requires actor, branch, commitHash, commitMessage and repository; missing: %s", strings.Join(missing, ", "))
		}
	default:
		return nil, nil, errorf(http.StatusBadRequest, "trigger must be API or CODEHOST, not %q", req.Trigger)
	}
	switch {
	case req.TestPlanShortID != "" && req.TestCaseIDs != nil:
		return nil, nil, errorf(http.StatusBadRequest, "pass exactly one of testPlanShortId and testCaseIds, not both")
	case req.TestPlanShortID == "" && req.TestCaseIDs == nil:
		return nil, nil, errorf(http.StatusBadRequest, "one of testPlanShortId and testCaseIds is required")
	}
	// the first error of the three, in this order
	if err := cmp.Or(validateNotifications(req.Notifications), validateApplications(req.Applications),
		validateParameters(req.Parameters)); err != nil {
		return nil, nil, err
	}
	if req.TestPlanShortID != "" {
		p, err := s.lookupPlan(req.TestPlanShortID)
		return p, nil, err
	}
	ids, err := s.validateTestCaseIDs("testCaseIds", req.TestCaseIDs)
	return nil, ids, err
}

func (s *Server) lookupPlan(id string) (*plan, error) {
	if !planIDPattern().MatchString(id) {
		return nil, errorf(http.StatusBadRequest, "testPlanShortId %q is not a test plan short id (pln_<id> or pln-<slug>_<id>)", id)
	}
	if p := findPlan(id); p != nil {
		return p, nil
	}
	if s.regressions != nil && id == s.regressions.ShortID {
		return s.regressions, nil
	}
	return nil, errorf(http.StatusNotFound, "test plan %s not found in project %s", id, ProjectShortID)
}

// validateTestCaseIDs checks a non-empty list of project test case UUIDs
// and drops duplicates.
func (s *Server) validateTestCaseIDs(field string, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, errorf(http.StatusBadRequest, "%s must not be empty", field)
	}
	var out []string
	seen := map[string]bool{}
	for i, id := range ids {
		if !uuidPattern().MatchString(id) {
			return nil, errorf(http.StatusBadRequest, "%s[%d]: %q is not a UUID (test case ids are the UUIDs of project test cases)", field, i, id)
		}
		id = strings.ToLower(id)
		if s.lookupTestCase(id) == nil {
			return nil, errorf(http.StatusNotFound, "test case %s not found in project %s", id, ProjectShortID)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

func validateApplications(apps []api.RunApplication) error {
	for i, a := range apps {
		at := fmt.Sprintf("applications[%d]", i)
		p, env := a.DevicePresetShortID, cmp.Or(a.Environment, &api.RunEnvironment{})
		u, err := url.Parse(env.URL)
		switch {
		case a.ApplicationShortID == "":
			return errorf(http.StatusBadRequest, "%s.applicationShortId is required", at)
		case !hasPrefixID(a.ApplicationShortID, "app_"):
			return errorf(http.StatusBadRequest, "%s.applicationShortId %q must start with app_", at, a.ApplicationShortID)
		case a.ApplicationShortID != appWebID:
			return errorf(http.StatusNotFound, "application %s not found in project %s", a.ApplicationShortID, ProjectShortID)
		case p != "" && !hasPrefixID(p, "preset_"):
			return errorf(http.StatusBadRequest, "%s.devicePresetShortId %q must start with preset_", at, p)
		case p != "" && !knownPresets[p]:
			return errorf(http.StatusNotFound, "device preset %s not found", p)
		case env.ShortID != "" && !hasPrefixID(env.ShortID, "env_"):
			return errorf(http.StatusBadRequest, "%s.environment.shortId %q must start with env_", at, env.ShortID)
		case env.ShortID != "" && env.ShortID != envStagingID:
			return errorf(http.StatusNotFound, "environment %s not found in application %s", env.ShortID, a.ApplicationShortID)
		case env.ApplicationBuildShortID != "" && !hasPrefixID(env.ApplicationBuildShortID, "build_"):
			return errorf(http.StatusBadRequest, "%s.environment.applicationBuildShortId %q must start with build_", at, env.ApplicationBuildShortID)
		case env.URL != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == ""):
			return errorf(http.StatusBadRequest, "%s.environment.url %q must be an absolute http or https URL", at, env.URL)
		}
	}
	return nil
}

func validateNotifications(ns []api.Notification) error {
	if ns != nil && len(ns) == 0 {
		return errorf(http.StatusBadRequest, `notifications must not be empty: omit it to use the project's defaults, or send [{"type":"none"}] to suppress them`)
	}
	for i, n := range ns {
		switch {
		case n.Type == "":
			return errorf(http.StatusBadRequest, "notifications[%d].type is required (%s)", i, strings.Join(notificationTypes, ", "))
		case !slices.Contains(notificationTypes, n.Type):
			return errorf(http.StatusBadRequest, "notifications[%d].type must be one of %s, not %q", i, strings.Join(notificationTypes, ", "), n.Type)
		case n.Type == "none" && len(ns) > 1:
			return errorf(http.StatusBadRequest, "notifications: type none suppresses all notifications and cannot be combined with other entries")
		case n.Type == "slack" && n.Channel == "":
			return errorf(http.StatusBadRequest, "notifications[%d]: channel is required for type slack", i)
		}
	}
	return nil
}

func validateParameters(p *api.RunParameters) error {
	if p == nil {
		return nil
	}
	for k := range p.Configs {
		if strings.HasPrefix(k, "cfg_") && !knownConfigs[k] {
			return errorf(http.StatusNotFound, "config %s not found in project %s", k, ProjectShortID)
		}
	}
	for k := range p.ConfigsByEnvironment {
		if !uuidPattern().MatchString(k) {
			return errorf(http.StatusBadRequest, "parameters.configsByEnvironment keys are environment UUIDs; %q is not one", k)
		}
		if !strings.EqualFold(k, environmentUUID) {
			return errorf(http.StatusNotFound, "environment %s not found in project %s", k, ProjectShortID)
		}
	}
	return nil
}
