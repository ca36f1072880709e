package e2e_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// evil is appended to every string the hostile service sends: a window
// title change, an OSC 8 hyperlink to a phishing page, a screen clear and
// cursor home, 8-bit CSI and OSC (U+009B, U+009D … U+009C), a right-to-left
// override, a blinking red SGR, a bell and a DEL. Each string starts with
// a plain marker so the test can tell the field was printed at all.
const evil = "\x1b]0;pwned\x07" +
	"\x1b]8;;https://evil.example/phish\x1b\\click\x1b]8;;\x1b\\" +
	"\x1b[2J\x1b[H" +
	"\u009b2J\u009d0;c1pwned\u009c" +
	"\u202egnp.exe" +
	"\x1b[5;41mBLINK" +
	"\x07\x7f"

// ev returns a field value: a marker, then the hostile sequences.
func ev(marker string) string { return marker + evil }

// evilJSON marshals v, so that every control character travels the way a
// real service would send it: JSON-escaped.
func evilJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// evilService answers every operation testctl reads with hostile text in
// every string field.
func evilService(t *testing.T) *httptest.Server {
	t.Helper()
	testCase := func(i int) map[string]any {
		return map[string]any{"id": ev("TCID"), "shortId": ev("TCSHORT"), "name": ev("TCNAME"), "status": "COMPLETED",
			"result": "FAILED", "resultTitle": ev("RTITLE"), "evaluationThought": ev("THOUGHT\nsecond line"),
			"promptGoal": ev("GOAL"), "promptExamples": ev("EXAMPLES")}
	}
	odd := map[string]any{"id": "c2", "shortId": "r1-2", "name": ev("ODDNAME"), "status": ev("ODDSTATUS"), "result": ev("ODDRESULT"),
		"resultTitle": ev("ODDTITLE"), "evaluationThought": ev("ODDTHOUGHT")}
	detail := map[string]any{"id": ev("RUNID"), "shortId": ev("RUNSHORT"), "status": "COMPLETED", "result": "FAILED",
		"runTestCases": []any{testCase(0), odd},
		"issues": []any{map[string]any{"id": "i1", "shortId": ev("ISSSHORT"), "title": ev("ISSTITLE"), "description": ev("ISSDESC"),
			"severity": ev("SEVERITY"), "issueType": ev("ISSTYPE"), "helpUrl": ev("https://help.invalid/"), "status": ev("ISSSTATUS"),
			"tags": []string{ev("TAG")}, "testCases": []any{map[string]any{"shortId": ev("ISSTC"), "name": ev("ISSTCNAME")}}}}}
	legacy := map[string]any{"id": ev("LEGID"), "shortId": ev("LEGSHORT"), "status": "COMPLETED", "result": "FAILED",
		"failedTestCases": []any{testCase(0)}}
	list := map[string]any{"runs": []any{map[string]any{"shortId": ev("LSID"), "status": ev("LSTA"), "result": ev("LRES"),
		"trigger": ev("TRIGGER"), "branch": ev("BRANCH"), "commitHash": ev("COMMIT"), "testPlanShortId": ev("PLAN"),
		"createdAt": ev("CREATED"), "url": ev("https://app.invalid/r")}}, "total": 1, "limit": 20, "offset": 0}
	started := map[string]any{"success": true, "run": map[string]any{"id": ev("STARTID"), "shortId": ev("STARTSHORT"),
		"url": ev("https://app.invalid/start"), "testCount": 2, "testPlan": map[string]any{"name": ev("PLANNAME"), "shortId": ev("PLANSHORT")}}}
	testCases := map[string]any{"testCases": []any{map[string]any{"id": ev("TCLID"), "name": ev("TCLNAME"), "isEnabled": true,
		"labels": []string{ev("LABEL")}, "classification": ev("CLASS"), "applicationShortId": ev("APPID"), "applicationName": ev("APPNAME"),
		"goal": ev("TCLGOAL"), "createdAt": ev("TCLCREATED"),
		"lastRun": map[string]any{"shortId": ev("LRSHORT"), "status": ev("LRSTATUS"), "result": ev("LRRESULT"), "completedAt": ev("LRDONE")}}},
		"total": 40, "limit": 20, "offset": 0}
	created := map[string]any{"id": ev("NEWID"), "name": ev("NEWNAME"), "isEnabled": false, "generationStatus": ev("GENSTATUS")}
	tunnel := map[string]any{"status": ev("TUNSTATUS"), "connections": 2,
		"hostnames": []any{map[string]any{"localPort": 3000, "url": ev("https://tunnel.invalid/")}}}
	logs := func(kind string) map[string]any {
		// The message is shown when the cap did not cut the result (a cut
		// one gets testctl's note instead), so console, the kind that
		// checks it, is not cut.
		base := map[string]any{"runTestCaseShortId": ev("LOGSHORT"), "kind": kind, "totalMatched": 900, "returned": 1,
			"hasMore": kind != "console", "message": ev("LOGMESSAGE")}
		switch kind {
		case "console":
			base["console"] = []any{map[string]any{"level": ev("LEVEL"), "message": ev("CONSOLE\nline two"), "source": ev("SOURCE"),
				"line": 3, "column": 7, "relativeTimestampSeconds": 1}}
		case "network":
			base["network"] = []any{map[string]any{"url": ev("NURL"), "method": ev("METHOD"), "statusCode": 0,
				"durationMs": nil, "isError": true, "errorText": ev("NETERR"), "crossOriginInfo": ev("CORS"),
				"customExtraHeaders": []string{ev("XHDR")}}}
		default:
			base["apiCalls"] = []any{map[string]any{"url": ev("CURL"), "method": ev("CMETHOD"), "statusCode": 500,
				"success": false, "durationMs": 12, "textResult": ev("TEXTRESULT"),
				"requestHeaders": map[string]string{ev("HNAME"): ev("HVALUE"), "Authorization": ev("Bearer ")},
				"requestBody":    ev("REQBODY"), "requestBodyTruncated": true, "responseBody": ev("RESPBODY\nmore"),
				"responseBodyTruncated": true, "errorMessage": ev("CALLERR")}}
		}
		return base
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if r.Header.Get("Authorization") == "Bearer reject-this-key-please" {
			writeJSON(w, 401, evilJSON(map[string]string{"message": ev("AUTHMSG")}))
			return
		}
		switch {
		case r.Method == http.MethodPost && p == "/v1/run":
			writeJSON(w, 200, evilJSON(started))
		case p == "/v1/run":
			writeJSON(w, 200, evilJSON(list))
		case strings.HasPrefix(p, "/v1/run/missing"):
			writeJSON(w, 404, evilJSON(map[string]string{"message": ev("NOTFOUNDMSG")}))
		case strings.HasPrefix(p, "/v1/run/"):
			writeJSON(w, 200, evilJSON(detail))
		case strings.HasPrefix(p, "/legacy/"):
			writeJSON(w, 200, evilJSON(legacy))
		case r.Method == http.MethodPost && p == "/v1/test-cases":
			writeJSON(w, 200, evilJSON(created))
		case p == "/v1/test-cases":
			writeJSON(w, 200, evilJSON(testCases))
		case strings.HasSuffix(p, "/logs"):
			writeJSON(w, 200, evilJSON(logs(r.URL.Query().Get("kind"))))
		case strings.HasSuffix(p, "/status"):
			writeJSON(w, 200, evilJSON(tunnel))
		case p == "/v1/applications":
			writeJSON(w, 200, evilJSON(map[string]any{"applications": []any{map[string]any{"shortId": ev("APISHORT"), "name": ev("APINAME")}}}))
		case p == "/v1/broken-header":
			w.Header().Set("X-Note", ev("HEADER")) // controls: the HTTP client refuses the answer
			w.WriteHeader(200)
		case p == "/v1/badge.svg":
			w.Header().Set("Content-Type", "image/svg+xml")
			w.Header().Set("X-Note", "HEADER\u009b2J\u202egnp") // bytes a client accepts in a header
			_, _ = w.Write([]byte("<svg>" + ev("BADGE") + "</svg>"))
		default:
			writeJSON(w, 500, evilJSON(map[string]string{"message": ev("SERVERMSG")}))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// sgr matches the colour sequences testctl writes itself on a terminal.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// checkTerminalSafe fails unless out is safe to write to a terminal: none
// of the service's sequences survive, and once testctl's own colours are
// removed no ESC, BEL, C1 control or bidi override is left at all.
func checkTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	for _, raw := range []string{"\x1b]", "\x1b[2J", "\x1b[H", "\x1b[5;41m"} {
		if i := strings.Index(out, raw); i >= 0 {
			t.Errorf("%s lets the service's %q through: %q", what, raw, around(out, i))
		}
	}
	checkSafeText(t, what+" (our colours removed)", sgr.ReplaceAllString(out, ""))
}

// TestServiceTextCannotDriveTheTerminal puts escape sequences, C1 controls
// and bidi overrides in every string the service returns, and runs every
// command that prints them on a terminal (colours on): stdout and stderr
// must carry none of them. JSON and YAML output must keep them escaped.
func TestServiceTextCannotDriveTheTerminal(t *testing.T) {
	srv := evilService(t)
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	e.Setenv("TESTCTL_LEGACY_BASE_URL", srv.URL+"/legacy")
	e.Setenv("TESTCTL_API_KEY", "k-terminal-test")
	const uuid = "5a4db000-0000-4000-8000-0000000000e0"

	tests := []struct {
		args    []string
		stdin   string
		code    int
		markers []string // plain text of service fields that must still be shown
	}{
		{[]string{"run", "get", "r1", "--issues"}, "", 0, []string{"RUNSHORT", "TCSHORT", "TCNAME", "RTITLE", "ODDSTATUS", "ISSTITLE", "SEVERITY", "ISSTYPE"}},
		{[]string{"run", "get", "r1", "--test-cases", "failed"}, "", 0, []string{"TCNAME"}},
		{[]string{"run", "get", "r1", "--legacy", "--project-uuid", uuid}, "", 0, []string{"LEGSHORT", "TCNAME"}},
		{[]string{"run", "get", "missing"}, "", 5, []string{"NOTFOUNDMSG"}},
		{[]string{"run", "list"}, "", 0, []string{"LSID", "LRES", "BRANCH"}},
		{[]string{"run", "start", "--plan", "pln_x"}, "", 0, []string{"STARTSHORT", "https://app.invalid/start"}},
		{[]string{"run", "start", "--plan", "pln_x", "-q"}, "", 0, []string{"STARTSHORT"}},
		// The start's answer names a run whose id would change the request's
		// path: it is never polled (the service failed, 6), and is shown safely.
		{[]string{"run", "start", "--plan", "pln_x", "--wait", "--interval", "1s"}, "", 6, []string{"STARTSHORT"}},
		{[]string{"run", "wait", "r1", "--interval", "1s"}, "", 1, []string{"TCNAME", "RTITLE", "THOUGHT", "ODDRESULT"}},
		{[]string{"run", "wait", "r1", "r2", "--interval", "1s"}, "", 1, []string{"RUNSHORT", "TCNAME"}},
		{[]string{"testcase", "list"}, "", 0, []string{"TCLNAME", "LABEL", "APPID"}},
		{[]string{"testcase", "create", "--name", "n", "--goal", "g", "--app", "app_x"}, "", 0, []string{"NEWID", "GENSTATUS"}},
		{[]string{"logs", "r1-1", "--kind", "console", "--warnings", "--info"}, "", 0, []string{"LEVEL", "CONSOLE", "SOURCE", "LOGMESSAGE"}},
		{[]string{"logs", "r1-1", "--kind", "network"}, "", 0, []string{"METHOD", "NURL", "NETERR"}},
		{[]string{"logs", "r1-1", "--kind", "api-calls"}, "", 0, []string{"CMETHOD", "CURL", "CALLERR"}},
		{[]string{"logs", "r1-1", "--kind", "api-calls", "--full"}, "", 0, []string{"CMETHOD", "TEXTRESULT", "HNAME", "REQBODY", "RESPBODY"}},
		{[]string{"tunnel", "status", "runner-1"}, "", 0, []string{"TUNSTATUS", "https://tunnel.invalid/"}},
		{[]string{"tunnel", "status", "runner-1", "--wait-until", "healthy", "--timeout", "20s", "--interval", "5s"}, "", 1, []string{"TUNSTATUS"}},
		{[]string{"api", "/v1/applications"}, "", 0, []string{"APISHORT"}},
		{[]string{"api", "/v1/badge.svg", "-i"}, "", 0, []string{"BADGE", "HEADER"}},
		{[]string{"api", "/v1/nothing-here"}, "", 6, []string{"SERVERMSG"}},
		{[]string{"api", "/v1/broken-header"}, "", 6, []string{"malformed MIME header"}},
		{[]string{"auth", "login"}, "reject-this-key-please\n", 4, []string{"AUTHMSG"}},
		{[]string{"--debug", "run", "get", "r1"}, "", 0, []string{"RUNSHORT"}},
		{[]string{"run", "get", "r1", "--jq", ".runTestCases[0].name"}, "", 0, []string{"TCNAME"}},
		{[]string{"run", "list", "--jq", ".runs[0].branch"}, "", 0, []string{"BRANCH"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			// testcase list is shown wide enough for every column: a
			// narrower terminal drops the labels and the application before
			// it cuts the name.
			width := map[string]int{"testcase list": 200}[strings.Join(tt.args, " ")]
			r := e.RunWith(cmdtest.RunOptions{TTY: true, Stdin: tt.stdin, Width: width}, tt.args...)
			checkNoPanic(t, r)
			if r.Code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%q\nstderr:\n%q", r.Code, tt.code, r.Stdout, r.Stderr)
			}
			checkTerminalSafe(t, "stdout", r.Stdout)
			checkTerminalSafe(t, "stderr", r.Stderr)
			cmdtest.Contains(t, "output", sgr.ReplaceAllString(r.Output(), ""), tt.markers...)
		})
	}
	if !sgrSeen(e) {
		t.Error("no colour on the terminal: the test would not tell our SGR codes from the service's")
	}

	// Structured output keeps the text, escaped rather than stripped.
	for _, args := range [][]string{
		{"run", "get", "r1", "--issues"}, {"run", "list"}, {"run", "wait", "r1", "--interval", "1s"},
		{"testcase", "list"}, {"logs", "r1-1", "--kind", "api-calls"}, {"tunnel", "status", "runner-1"},
		{"run", "start", "--plan", "pln_x"}, {"api", "/v1/applications"},
	} {
		for _, format := range []string{"json", "yaml"} {
			for _, tty := range []bool{false, true} {
				r := e.RunWith(cmdtest.RunOptions{TTY: tty}, append(args, "-o", format)...)
				checkNoPanic(t, r)
				what := strings.Join(args, " ") + " -o " + format
				if r.Code > 1 {
					t.Fatalf("%s: exit %d\n%s", what, r.Code, r.Stderr)
				}
				checkTerminalSafe(t, what+" stdout", r.Stdout)
				checkTerminalSafe(t, what+" stderr", r.Stderr)
				if format == "json" && !json.Valid([]byte(r.Stdout)) {
					t.Errorf("%s: not one JSON document:\n%s", what, r.Stdout)
				}
				if !strings.Contains(strings.ToLower(r.Stdout), `\u001b]0;pwned\u0007`) &&
					!strings.Contains(r.Stdout, `\e]0;pwned\a`) {
					t.Errorf("%s: the service's text is not kept escaped:\n%.1500s", what, r.Stdout)
				}
			}
		}
	}
}

// sgrSeen runs one coloured command and reports whether testctl wrote its
// own SGR codes on a terminal.
func sgrSeen(e *cmdtest.Env) bool {
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "get", "r1")
	return sgr.MatchString(r.Stdout)
}
