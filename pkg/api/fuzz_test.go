package api

import (
	"errors"
	"net/http"
	"testing"

	"github.com/testctl/testctl/pkg/nextstep"
)

// FuzzDecodeResponses feeds arbitrary bodies to every response decoder and to
// the error path: whatever the service (or a proxy in front of it) answers,
// the client returns a value or a typed error, never panics.
func FuzzDecodeResponses(f *testing.F) {
	seeds := []string{
		`{"id":"1","shortId":"s","status":"RUNNING","result":null,"runTestCases":[]}`,
		`{"runs":[{"shortId":"a","status":"COMPLETED","result":"PASSED","totalCount":3}],"total":1,"limit":20,"offset":0}`,
		`{"testCases":[{"id":"u","name":"n","isEnabled":false,"labels":["a"],"lastRun":null}],"total":1,"limit":20,"offset":0}`,
		`{"runTestCaseShortId":"x","kind":"console","totalMatched":1,"returned":1,"hasMore":false,"console":[{"level":"error","message":"\u001b[31mboom","relativeTimestampSeconds":3}]}`,
		`{"connections":2,"hostnames":[{"localPort":3000,"url":"https://x"}]}`,
		`{"success":true,"run":{"id":"1","shortId":"s","url":"u","testCount":2,"testPlan":{"name":"p","shortId":"pln_x"}}}`,
		`<html>502 Bad Gateway</html>`, ``, `{`, `null`, `[]`, `{"message":"x"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), 200)
		f.Add([]byte(s), 500)
	}
	f.Fuzz(func(t *testing.T, body []byte, status int) {
		resp := &Response{StatusCode: status, Header: http.Header{}, Body: body}
		targets := []any{&RunDetail{}, &RunList{}, &TestCaseList{}, &LogsResponse{}, &TunnelStatus{},
			&StartRunResponse{}, &LegacyRunDetail{}, &CreateTestCaseResponse{}}
		for _, out := range targets {
			err := decode("GET", "/v1/x", resp, out)
			var de *DecodeError
			if err != nil && !errors.As(err, &de) {
				t.Fatalf("untyped decode error %T: %v", err, err)
			}
		}
		he := httpError("GET", "/v1/x", resp, nextstep.Shell{})
		_ = he.Error()
		if code := he.ExitCode(); code < 2 || code > 6 {
			t.Fatalf("exit code %d out of range for status %d", code, status)
		}
	})
}
