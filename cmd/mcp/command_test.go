package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

func TestHTTPOnLoopbackOnly(t *testing.T) {
	e := cmdtest.New(t)
	for _, addr := range []string{"0.0.0.0:8765", "192.168.1.10:8765", "example.com:80", "8765"} {
		r := e.Run("mcp", "--http", addr).Expect(t, 2)
		cmdtest.Contains(t, "stderr", r.Stderr, "--http")
	}
}

// TestConfigSnippetNeverHasTheKey: each client's snippet runs testctl mcp
// with the flags that chose the service, and never the key, however given.
func TestConfigSnippetNeverHasTheKey(t *testing.T) {
	e := cmdtest.New(t)
	onPath(t, e) // this binary is the testctl on PATH: the snippet says "testctl"
	for client, want := range map[string]string{"claude": `"mcpServers"`, "cursor": `"mcpServers"`, "vscode": `"servers"`} {
		r := e.Run("--api-key", "tk_live_secret123", "--profile", "prod", "mcp", "config", "--client", client, "--read-only").Expect(t, 0)
		if strings.Contains(r.Output(), "tk_live_secret123") || strings.Contains(r.Output(), sandbox.ProjectKey) {
			t.Errorf("%s: the key is in the snippet:\n%s", client, r.Output())
		}
		var doc map[string]map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", client, err, r.Stdout)
		}
		cmdtest.Contains(t, client, r.Stdout, want)
		for _, servers := range doc {
			s := servers["testctl"]
			if s.Command != "testctl" || strings.Join(s.Args, " ") != "--profile=prod mcp --read-only" {
				t.Errorf("%s: %+v", client, s)
			}
		}
	}
	e.Run("mcp", "config", "--client", "emacs").Expect(t, 2)
}

// A base URL carrying a key (in its user part or its query) is refused as
// every other command refuses it: never printed into a snippet meant to be
// committed, nor into the error.
func TestConfigRefusesABaseURLWithCredentials(t *testing.T) {
	e := cmdtest.New(t)
	for _, flag := range []string{"--base-url", "--legacy-base-url"} {
		r := e.Run(flag, "http://u:tk_live_secret123@api.example.com/x?token=tk_live_secret123", "mcp", "config", "--client", "claude").Expect(t, 2)
		if r.Stdout != "" || strings.Contains(r.Output(), "tk_live_secret123") {
			t.Errorf("%s: the key is printed:\n%s", flag, r.Output())
		}
		cmdtest.Contains(t, "stderr", r.Stderr, "(from "+flag+")", "must not carry credentials", "http://api.example.com/x")
	}
	e.Run("--base-url", "https://api.example.com", "mcp", "config", "--client", "claude").Expect(t, 0)
}

// stdio serves `testctl ARGS…` (an mcp command line) in-process on pipes
// and connects the SDK's client to it; end closes the client and returns
// every line the server wrote on stdout and its result.
func stdio(t *testing.T, e *cmdtest.Env, args ...string) (cs *mcp.ClientSession, end func() ([]string, cmdtest.Result)) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	clientR, clientW := io.Pipe()
	var frames []string
	read := make(chan struct{})
	go func() { // every line the server writes is kept, then handed to the client
		defer close(read)
		defer clientW.Close()
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			frames = append(frames, sc.Text())
			_, _ = clientW.Write(append(sc.Bytes(), '\n'))
		}
	}()
	done := make(chan cmdtest.Result)
	go func() {
		r := e.RunWith(cmdtest.RunOptions{In: inR, Stdout: outW}, args...)
		outW.Close()
		done <- r
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: clientR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, func() ([]string, cmdtest.Result) {
		_ = cs.Close()
		inW.Close()
		r := <-done
		<-read
		return frames, r
	}
}

// TestStdoutCarriesFramesOnly: `testctl mcp` over stdio, driven by the
// SDK's client, writes nothing on stdout but protocol messages, while its
// tools run commands that print documents, progress and warnings.
func TestStdoutCarriesFramesOnly(t *testing.T) {
	e := cmdtest.New(t)
	cs, end := stdio(t, e, "mcp", "--read-only")
	id := e.StartRun(t, "pln-failing_sandbox")
	for _, p := range []*mcp.CallToolParams{
		{Name: "wait_run", Arguments: map[string]any{"run_ids": []string{id}}},
		{Name: "list_runs", Arguments: map[string]any{"limit": 5}},
		{Name: "get_run", Arguments: map[string]any{"run_id": "rzzzzz"}},
	} {
		p.SetProgressToken(p.Name)
		if _, err := cs.CallTool(context.Background(), p); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
	}
	frames, r := end()
	if r.Code != 0 {
		t.Errorf("exit %d when the client closed: %s", r.Code, r.Stderr)
	}
	if len(frames) < 5 {
		t.Fatalf("%d frames", len(frames))
	}
	for _, f := range frames {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(f), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout carries a line that is no protocol message: %.200q", f)
		}
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "serving the Model Context Protocol on stdio")
}

// TestGlobalFlagsApply: the flags before mcp choose the service of every
// tool, as for any command: here --base-url over a variable that points
// nowhere.
func TestGlobalFlagsApply(t *testing.T) {
	e := cmdtest.New(t)
	url := e.Getenv("TESTCTL_BASE_URL")
	e.Setenv("TESTCTL_BASE_URL", "http://127.0.0.1:1")
	cs, end := stdio(t, e, "--base-url", url, "mcp")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_runs", Arguments: map[string]any{"limit": 1}})
	if err != nil || res.IsError {
		t.Fatalf("list_runs through --base-url: %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.HasPrefix(text, "Verdict: ok") {
		t.Errorf("%s", text)
	}
	end()
}

// onPath puts a link named testctl to the running binary on the Env's PATH.
func onPath(t *testing.T, e *cmdtest.Env) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, "testctl")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	e.Setenv("PATH", bin)
}

// The snippet names a command that runs where it is pasted: "testctl" when
// this binary is PATH's (through a link too), else this binary's absolute
// path, said on stderr; a go run build is refused, asking to build first.
func TestConfigSnippetNamesThisBinary(t *testing.T) {
	e := cmdtest.New(t)
	command := func(r cmdtest.Result) string {
		var doc struct {
			MCPServers map[string]struct{ Command string } `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, r.Stdout)
		}
		return doc.MCPServers["testctl"].Command
	}
	self, _ := os.Executable()
	e.Setenv("PATH", t.TempDir()) // no testctl there
	r := e.Run("mcp", "config", "--client", "claude").Expect(t, 0)
	if got := command(r); got != self || !strings.Contains(r.Stderr, "testctl is not on PATH") {
		t.Errorf("not on PATH: command %q, want %q\n%s", got, self, r.Stderr)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "testctl"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.Setenv("PATH", other)
	r = e.Run("mcp", "config", "--client", "cursor").Expect(t, 0)
	if got := command(r); got != self || !strings.Contains(r.Stderr, "is not this binary") {
		t.Errorf("another testctl on PATH: command %q, want %q\n%s", got, self, r.Stderr)
	}
	onPath(t, e)
	if r = e.Run("mcp", "config", "--client", "claude").Expect(t, 0); command(r) != "testctl" {
		t.Errorf("this binary on PATH through a link: command %q, want testctl", command(r))
	}
}
