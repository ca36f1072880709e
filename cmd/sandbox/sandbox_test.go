package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/sandbox"
)

func testFactory() (*cmdutil.Factory, *iostreams.IOStreams) {
	ios, _, _, _ := iostreams.Test()
	return &cmdutil.Factory{IOStreams: ios, Clock: clock.Real{}, Globals: &cmdutil.GlobalFlags{}}, ios
}

func parse(t *testing.T, args ...string) (*Options, error) {
	t.Helper()
	f, _ := testFactory()
	var got *Options
	cmd := NewCmdSandbox(f, func(o *Options) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(&strings.Builder{})
	cmd.SetErr(&strings.Builder{})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	return got, err
}

func TestFlags(t *testing.T) {
	o, err := parse(t)
	if err != nil || o.Addr != DefaultAddr || o.Speed != 1 || o.FaultRate != 0 || o.Latency != 0 ||
		o.History != sandbox.DefaultHistory || o.Seed != 0 {
		t.Fatalf("defaults %+v %v", o, err)
	}
	o, err = parse(t, "--addr", "127.0.0.1:0", "--speed", "60", "--fault-rate", "0.25", "--latency", "150ms",
		"--history", "100000", "--seed", "-7")
	if err != nil || o.Addr != "127.0.0.1:0" || o.Speed != 60 || o.FaultRate != 0.25 || o.Latency != 150*time.Millisecond ||
		o.History != 100000 || o.Seed != -7 {
		t.Fatalf("parsed %+v %v", o, err)
	}
	if _, err := parse(t, "--history", "0", "--fault-rate", "1", "--addr", ":9000"); err != nil {
		t.Errorf("edge values rejected: %v", err)
	}
	for _, args := range [][]string{
		{"--addr", "8787"}, {"--addr", "localhost"}, {"--speed", "0"}, {"--speed", "-2"}, {"--speed", "NaN"},
		{"--fault-rate", "1.5"}, {"--fault-rate", "-0.1"}, {"--latency", "-1s"}, {"--history", "-1"},
		{"--history", "2000000"}, {"--visibility-delay", "-1s"}, {"--failing-test-cases", "-1"}, {"--failing-test-cases", "1001"},
	} {
		_, err := parse(t, args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || exitcode.Of(err) != exitcode.Usage {
			t.Errorf("%v: %v, want a flag error (exit 2)", args, err)
		}
	}
	if o, err := parse(t, "--visibility-delay", "3s"); err != nil || o.VisibilityDelay != 3*time.Second {
		t.Errorf("--visibility-delay: %+v %v", o, err)
	}
	if o, err := parse(t, "--failing-test-cases", "10"); err != nil || o.FailingTestCases != 10 {
		t.Errorf("--failing-test-cases: %+v %v", o, err)
	}
	if _, err := parse(t, "extra"); err == nil {
		t.Error("positional argument accepted")
	}
}

func TestServesUntilCancelled(t *testing.T) {
	f, ios := testFactory()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan *sandbox.Instance, 1)
	opts := &Options{Addr: "127.0.0.1:0", Speed: 1, History: 0, Seed: 3,
		onReady: func(i *sandbox.Instance) { ready <- i }}
	done := make(chan error, 1)
	go func() { done <- sandboxRun(ctx, f, opts) }()
	var inst *sandbox.Instance
	select {
	case inst = <-ready:
	case err := <-done:
		t.Fatalf("returned early: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("sandbox did not start")
	}

	resp, err := http.Get(inst.BaseURL + "/v1/run")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unauthenticated list: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", inst.BaseURL+"/v1/run", nil)
	req.Header.Set("Authorization", "Bearer "+sandbox.ProjectKey)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var list api.RunList
	_ = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if list.Total != 0 {
		t.Errorf("--history 0 still lists %d runs", list.Total)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("returned %v after cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not stop after cancel")
	}
	if _, err := http.Get(inst.BaseURL + "/v1/outbound-ips"); err == nil {
		t.Error("still serving after stop")
	}
	out := ios.Out.(interface{ String() string }).String()
	errOut := ios.ErrOut.(interface{ String() string }).String()
	if out != "" {
		t.Errorf("stdout is for data only, got %q", out)
	}
	for _, want := range []string{inst.BaseURL, inst.LegacyBaseURL, sandbox.ProjectKey, sandbox.OrgKey, sandbox.ProjectShortID,
		"export TESTCTL_BASE_URL=" + inst.BaseURL, "TESTCTL_API_KEY=" + sandbox.ProjectKey, "pln-passing_sandbox", "pln-flaky_sandbox",
		"Sandbox stopped after 2 requests (0 runs started, 0 faults injected"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, want := range sandbox.PlanIDs() {
		if !strings.Contains(errOut, want+" ") && !strings.Contains(errOut, want+"\n") {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "Warning") {
		t.Errorf("loopback address warned about:\n%s", errOut)
	}
}

// A sandbox that cannot listen is a local failure (exit 8), never 1, which
// a CI gate reads as failed tests; the message names the address and a fix.
func TestListenFailure(t *testing.T) {
	busy, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := strings.TrimPrefix(busy.BaseURL, "http://")
	f, _ := testFactory()
	cmd := NewCmdSandbox(f, nil)
	cmd.SetArgs([]string{"--addr", addr})
	cmd.SetOut(&strings.Builder{})
	cmd.SetErr(&strings.Builder{})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err = cmd.ExecuteContext(context.Background())
	if code := exitcode.Of(err); code != exitcode.Local {
		t.Errorf("busy port: exit %d (%v), want %d", code, err, exitcode.Local)
	}
	for _, want := range []string{"cannot listen on " + addr, "address already in use", "another testctl sandbox", "--addr 127.0.0.1:0"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
	if strings.Count(err.Error(), addr) != 1 {
		t.Errorf("the address is named more than once: %v", err)
	}
}

func TestHelp(t *testing.T) {
	f, _ := testFactory()
	cmd := NewCmdSandbox(f, nil)
	var out strings.Builder
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"--help"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--addr", "--speed", "--fault-rate", "--latency", "--history", "--seed",
		"127.0.0.1:8787", "Examples:", "export TESTCTL_BASE_URL", sandbox.ProjectKey, "runner-nostatus"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
	for _, plan := range sandbox.PlanIDs() {
		if !strings.Contains(out.String(), plan) {
			t.Errorf("help lacks the plan %s", plan)
		}
	}
	if strings.Contains(out.String(), "visibility-delay") {
		t.Error("the hidden --visibility-delay shows in the help")
	}
}

// docs/sandbox.md lists every visible flag with the default it has.
func TestDocsListTheFlagsAndDefaults(t *testing.T) {
	data, err := os.ReadFile("../../docs/sandbox.md")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := testFactory()
	NewCmdSandbox(f, nil).Flags().VisitAll(func(fl *pflag.Flag) {
		if fl.Hidden {
			return
		}
		if row := "| `--" + fl.Name + "` | `" + fl.DefValue + "` |"; !strings.Contains(string(data), row) {
			t.Errorf("docs/sandbox.md lacks the row %q", row)
		}
	})
}
