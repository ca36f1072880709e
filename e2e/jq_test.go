package e2e_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// --jq prints JSON: an explicit -o yaml or -o table beside it is a usage
// error, while a format from the environment or a profile gives way.
func TestJQWithAnotherOutputFormat(t *testing.T) {
	e := cmdtest.New(t)
	tests := []struct {
		name string
		env  string // TESTCTL_OUTPUT
		args []string
		code int
	}{
		{"-o yaml", "", []string{"-o", "yaml"}, 2},
		{"-o table", "", []string{"--output=table"}, 2},
		{"-o json", "", []string{"-o", "json"}, 0},
		{"yaml from the environment", "yaml", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Setenv("TESTCTL_OUTPUT", tt.env)
			before := e.Requests("GET /v1/run")
			r := e.Run(append([]string{"run", "list", "--jq", ".total"}, tt.args...)...).Expect(t, tt.code)
			if tt.code == 0 {
				if strings.TrimSpace(r.Stdout) == "" {
					t.Errorf("no result on stdout")
				}
				return
			}
			cmdtest.Contains(t, "stderr", r.Stderr, "--jq prints JSON and cannot be combined with -o "+strings.TrimPrefix(tt.name, "-o "), "drop one of them")
			if r.Stdout != "" || e.Requests("GET /v1/run") != before {
				t.Errorf("a refused command printed %q or sent a request", r.Stdout)
			}
		})
	}
}

// On a terminal a --jq object is indented, its keys in the service's order;
// off it, one compact line in that same order.
func TestJQResultsOnATerminal(t *testing.T) {
	e := cmdtest.New(t)
	id := strings.TrimSpace(e.Run("run", "start", "--plan", "pln-passing_sandbox", "-q").Expect(t, 0).Stdout)
	e.Clock.Advance(5 * 60e9)
	doc := e.Run("run", "get", id, "-o", "json").Expect(t, 0).Stdout
	var want bytes.Buffer
	var detail struct{ RunTestCases []json.RawMessage }
	if err := json.Unmarshal([]byte(doc), &detail); err != nil || len(detail.RunTestCases) == 0 {
		t.Fatalf("run get -o json: %v\n%s", err, doc)
	}
	if err := json.Indent(&want, detail.RunTestCases[0], "", "  "); err != nil {
		t.Fatal(err)
	}
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "get", id, "--jq", ".runTestCases[0]").Expect(t, 0)
	if r.Stdout != want.String()+"\n" {
		t.Errorf("terminal --jq:\n%s\nwant the service's object, indented:\n%s", r.Stdout, want.String())
	}
	r = e.Run("run", "get", id, "--jq", ".runTestCases[0]").Expect(t, 0)
	var compact bytes.Buffer
	if err := json.Compact(&compact, detail.RunTestCases[0]); err != nil {
		t.Fatal(err)
	}
	if r.Stdout != compact.String()+"\n" {
		t.Errorf("--jq off a terminal:\n%s\nwant the service's object on one line:\n%s", r.Stdout, compact.String())
	}
}

// With several runs the document is an array: an expression written for one
// run fails after the wait with the larger of the verdict's code and 2, and
// the error gives the expression that takes each run.
func TestJQOnSeveralRunsSuggestsEachRun(t *testing.T) {
	e := cmdtest.New(t)
	a, b := e.StartRun(t, "pln-passing_sandbox"), e.StartRun(t, "pln-passing_sandbox")
	r := e.Run("run", "wait", a, b, "--jq", ".status").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "expected an object but got: array",
		"\n  the document is an array of 2: for each of them, --jq '.[].status'\n")
	r = e.Run("run", "wait", a, b, "--jq", ".[].status").Expect(t, 0)
	if r.Stdout != "COMPLETED\nCOMPLETED\n" {
		t.Errorf("--jq '.[].status': %q", r.Stdout)
	}
	// The help of a command with --jq says so.
	for _, cmd := range [][]string{{"run", "wait"}, {"run", "report"}, {"run", "start"}, {"run", "get"}} {
		h := e.Run(append(cmd, "--help")...).Expect(t, 0)
		cmdtest.Contains(t, strings.Join(cmd, " ")+" --help", h.Stdout, "several runs give an array: --jq '.[].status'")
	}
}
