package e2e_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// The service's answers below put keys in no particular order, carry fields
// testctl does not know (novel*) and leave out fields its models have (a
// run's id, a test case's resultTitle, a created test case's isEnabled).
var passthroughAnswers = map[string]string{
	"GET /v1/run/r1": `{"status": "COMPLETED", "shortId": "r1", "result": "PASSED",
		"novelField": {"zeta": 1, "alpha": [2.50, "x", null]},
		"runTestCases": [{"shortId": "r1-1", "name": "n", "status": "COMPLETED", "result": "PASSED", "novelScore": 0.97}]}`,
	"GET /v1/run/r2":      `{"shortId": "r2", "status": "COMPLETED", "result": "PASSED", "runTestCases": [], "novelTag": "second"}`,
	"POST /v1/run":        `{"run": {"shortId": "s1", "url": "https://app.invalid/s1", "testCount": 1, "novelQueue": 3}, "success": true}`,
	"POST /v1/test-cases": `{"generationStatus": "GENERATING", "id": "c9", "novelOwner": {"name": "ci"}}`,
	"GET /v1/run-test-case/r1-1/logs": `{"kind": "console", "runTestCaseShortId": "r1-1", "totalMatched": 1, "returned": 1,
		"hasMore": false, "console": [{"message": "hi", "level": "log", "relativeTimestampSeconds": 0, "novelStack": "s"}]}`,
	"GET /v1/remote-tunnels/runner-1/status": `{"connections": 2, "hostnames": [], "novelRegion": "eu"}`,
}

func passthroughService(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := passthroughAnswers[r.Method+" "+r.URL.Path]
		if !ok {
			writeJSON(w, 404, `{"message": "no such route"}`)
			return
		}
		writeJSON(w, 200, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func passthroughEnv(t *testing.T) *cmdtest.Env {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", passthroughService(t).URL)
	e.Setenv("TESTCTL_API_KEY", "k-passthrough-test")
	return e
}

// indented is what -o json must print for a service document: the document
// itself, indented, nothing added, nothing dropped, nothing reordered.
func indented(t *testing.T, doc string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(doc), "", "  "); err != nil {
		t.Fatal(err)
	}
	return b.String() + "\n"
}

func TestJSONOutputIsTheServiceDocument(t *testing.T) {
	e := passthroughEnv(t)
	for _, tt := range []struct {
		args  []string
		route string
	}{
		{[]string{"run", "get", "r1"}, "GET /v1/run/r1"},
		{[]string{"run", "start", "--plan", "pln_x"}, "POST /v1/run"},
		{[]string{"run", "wait", "r1"}, "GET /v1/run/r1"},
		{[]string{"testcase", "create", "--name", "n", "--goal", "g", "--app", "app_x"}, "POST /v1/test-cases"},
		{[]string{"logs", "r1-1", "--kind", "console"}, "GET /v1/run-test-case/r1-1/logs"},
		{[]string{"tunnel", "status", "runner-1"}, "GET /v1/remote-tunnels/runner-1/status"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := e.Run(append(tt.args, "-o", "json")...).Expect(t, 0)
			if want := indented(t, passthroughAnswers[tt.route]); r.Stdout != want {
				t.Errorf("stdout\n%s\nwant the service's document\n%s", r.Stdout, want)
			}
		})
	}
}

func TestRunGetKeepsUnknownFieldsAndInventsNone(t *testing.T) {
	e := passthroughEnv(t)
	r := e.Run("run", "get", "r1", "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, `"novelField": {`, `"zeta": 1,`, `2.50,`, `"novelScore": 0.97`)
	for _, absent := range []string{`"id"`, `"resultTitle"`, `"issues"`, `"promptExamples"`} {
		if strings.Contains(r.Stdout, absent) {
			t.Errorf("%s invented:\n%s", absent, r.Stdout)
		}
	}
	if strings.Index(r.Stdout, `"status"`) > strings.Index(r.Stdout, `"shortId"`) {
		t.Errorf("the service's key order is lost:\n%s", r.Stdout)
	}

	r = e.Run("run", "get", "r1", "--jq", ".novelField.alpha[0], .runTestCases[0].novelScore, (.id == null)").Expect(t, 0)
	if r.Stdout != "2.50\n0.97\ntrue\n" {
		t.Errorf("--jq: %q", r.Stdout)
	}

	r = e.Run("run", "get", "r1", "-o", "yaml").Expect(t, 0)
	want := "status: COMPLETED\nshortId: r1\nresult: PASSED\nnovelField:\n  zeta: 1\n  alpha:\n    - 2.50\n    - x\n    - null\n"
	if !strings.HasPrefix(r.Stdout, want) {
		t.Errorf("yaml:\n%s\nwant it to begin\n%s", r.Stdout, want)
	}
}

// Several runs waited on are one array of the service's documents.
func TestWaitPrintsEachRunAsTheServiceSentIt(t *testing.T) {
	e := passthroughEnv(t)
	// r2 ran no test case: --pass-with-no-tests, as this is about its document.
	r := e.Run("run", "wait", "r1", "r2", "-o", "json", "--pass-with-no-tests").Expect(t, 0)
	want := indented(t, "["+passthroughAnswers["GET /v1/run/r1"]+","+passthroughAnswers["GET /v1/run/r2"]+"]")
	if r.Stdout != want {
		t.Errorf("stdout\n%s\nwant\n%s", r.Stdout, want)
	}
}
