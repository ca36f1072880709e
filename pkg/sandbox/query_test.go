package sandbox

import (
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestParseQuery(t *testing.T) {
	cases := []struct {
		raw  string
		want params
	}{
		{"", params{}},
		{"testCases=all&issues=true", params{"testCases": "all", "issues": "true"}},
		{"query=testCases,all,issues,true", params{"testCases": "all", "issues": "true"}},
		{"query=labels,smoke%2Cauth,limit,5", params{"labels": "smoke,auth", "limit": "5"}},
		{"query=limit,5&limit=7", params{"limit": "7"}},
		{"labels=a&labels=b", params{"labels": "a,b"}},
		{"urlPattern=%5Eapi%2F&kind=network", params{"urlPattern": "^api/", "kind": "network"}},
		{"query=", nil},
		{"query=kind", nil},
		{"query=kind,network,statusFilter", nil},
		{"kind=%zz", nil},
	}
	for _, tc := range cases {
		got, err := parseQuery(tc.raw)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%q: no error", tc.raw)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tc.want) {
			t.Errorf("%q: %v %v, want %v", tc.raw, got, err, tc.want)
		}
	}
}

// Every operation with a query object answers the same to both encodings.
func TestBothQueryEncodings(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	id := startPlan(t, s, PlanFailing).Run.ShortID
	advance(fake, 30)
	pairs := [][2]string{
		{"/v1/run/" + id + "?testCases=failed&issues=true", "/v1/run/" + id + "?query=testCases,failed,issues,true"},
		{"/v1/run?status=COMPLETED&limit=5&offset=2", "/v1/run?query=status,COMPLETED,limit,5,offset,2"},
		{"/v1/test-cases?labels=smoke,account&isEnabled=true&limit=3", "/v1/test-cases?query=labels,smoke%2Caccount,isEnabled,true,limit,3"},
		{"/v1/run-test-case/" + id + "-2/logs?kind=network&statusFilter=errors&urlPattern=api",
			"/v1/run-test-case/" + id + "-2/logs?query=kind,network,statusFilter,errors,urlPattern,api"},
		{"/v1/run-test-case/" + id + "-2/logs?kind=console&includeWarnings=true",
			"/v1/run-test-case/" + id + "-2/logs?query=kind,console,includeWarnings,true"},
		{"/v1/run?projectShortId=" + ProjectShortID, "/v1/run?query=projectShortId," + ProjectShortID},
	}
	for _, p := range pairs {
		flat := send(t, s, "GET", p[0], orgKeyIfProject(p[0]), nil)
		object := send(t, s, "GET", p[1], orgKeyIfProject(p[1]), nil)
		if flat.Code != http.StatusOK || flat.Body.String() != object.Body.String() {
			t.Errorf("%s and %s differ:\n%s\n%s", p[0], p[1], flat.Body, object.Body)
		}
	}
	// The filters really were applied.
	if d := getRun(t, s, id, "?query=testCases,failed"); len(d.RunTestCases) != 3 {
		t.Errorf("query=testCases,failed gave %d test cases", len(d.RunTestCases))
	}
	if l := decode[api.RunList](t, send(t, s, "GET", "/v1/run?query=limit,5", ProjectKey, nil), 200); len(l.Runs) != 5 {
		t.Errorf("query=limit,5 gave %d runs", len(l.Runs))
	}
	wantError(t, send(t, s, "GET", "/v1/run?query=limit", ProjectKey, nil), 400, "key,value")
}

// orgKeyIfProject uses the organization key when the request names the
// project, which shows projectShortId is read from query= as well.
func orgKeyIfProject(path string) string {
	if strings.Contains(path, "projectShortId") {
		return OrgKey
	}
	return ProjectKey
}
