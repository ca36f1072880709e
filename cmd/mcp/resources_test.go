package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// TestReportsComeBackAsResourceLinks: the reports a call wrote come back as
// resource_link content with file:// absolute paths, and resources/read
// serves them while they are files inside the working directory; a file
// no call wrote, or one replaced by a symbolic link, is not served.
func TestReportsComeBackAsResourceLinks(t *testing.T) {
	e := cmdtest.New(t)
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("reports", 0o755); err != nil {
		t.Fatal(err)
	}
	a := connect(t, e, false)
	ctx := context.Background()
	p := &mcp.CallToolParams{Name: "start_run", Arguments: map[string]any{"plans": []string{sandbox.PlanFailing},
		"junit": "reports/run.xml", "html": "reports/run.html", "ctrf": "reports/run.json"}}
	res, err := a.cs.CallTool(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]*mcp.ResourceLink{}
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			links[filepath.Base(l.URI)] = l
		}
	}
	real, _ := filepath.EvalSymlinks(dir)
	for name, mime := range map[string]string{"run.xml": "application/xml", "run.html": "text/html", "run.json": "application/json"} {
		l := links[name]
		if l == nil {
			t.Errorf("no resource_link for %s in %d contents", name, len(res.Content))
			continue
		}
		if !strings.HasPrefix(l.URI, "file:///") || l.MIMEType != mime || l.Size == nil || *l.Size == 0 {
			t.Errorf("%s: %+v", name, l)
		}
		got, err := a.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: l.URI})
		if err != nil {
			t.Errorf("reading %s: %v", l.URI, err)
			continue
		}
		want, _ := os.ReadFile(filepath.Join(dir, "reports", name))
		if len(got.Contents) != 1 || got.Contents[0].Text != string(want) {
			t.Errorf("%s read back differs from the file", name)
		}
	}
	if l := links["run.xml"]; l != nil && !strings.Contains(l.URI, filepath.ToSlash(real)) && !strings.Contains(l.URI, filepath.ToSlash(dir)) {
		t.Errorf("%s is not an absolute path of the working directory %s", l.URI, dir)
	}
	// A file no call wrote, and a report replaced by a link out of the
	// working directory, are not served.
	outside := filepath.Join(t.TempDir(), "secret.txt")
	_ = os.WriteFile(outside, []byte("secret"), 0o600)
	_ = os.WriteFile("notes.txt", []byte("notes"), 0o600)
	for _, uri := range []string{"file://" + filepath.ToSlash(filepath.Join(dir, "notes.txt")), "file://" + filepath.ToSlash(outside)} {
		if _, err := a.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s was served", uri)
		}
	}
	if l := links["run.json"]; l != nil {
		_ = os.Remove(filepath.Join(dir, "reports", "run.json"))
		_ = os.Symlink(outside, filepath.Join(dir, "reports", "run.json"))
		if got, err := a.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: l.URI}); err == nil {
			t.Errorf("a report replaced by a symbolic link out of the working directory was served: %q", got.Contents[0].Text)
		}
	}
}

// TestRunsAndLogsAreResources: the templates read a run and a test case's
// logs as the tools do; an ended run is cacheable, privately, for an
// hour; a test case of another run and a bad id or kind are refused.
func TestRunsAndLogsAreResources(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, true)
	ctx := context.Background()
	tmpl, err := a.cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, rt := range tmpl.ResourceTemplates {
		names = append(names, rt.URITemplate)
	}
	cmdtest.Contains(t, "templates", strings.Join(names, " "), "testctl://runs/{id}", "testctl://runs/{id}/test-cases/{rtc}/logs/{kind}")

	failing := e.StartRun(t, sandbox.PlanFailing)
	a.call(t, ctx, "wait_run", map[string]any{"run_ids": []string{failing}})
	slow := e.StartRun(t, "pln-slow_sandbox")

	read := func(uri string) (*mcp.ReadResourceResult, map[string]any) {
		t.Helper()
		got, err := a.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(got.Contents[0].Text), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", uri, err, got.Contents[0].Text)
		}
		return got, doc
	}
	ended, run := read("testctl://runs/" + failing)
	if run["shortId"] != failing || run["status"] != "COMPLETED" {
		t.Errorf("run resource: %v", run)
	}
	if ended.TTLMs != 3600000 || ended.CacheScope != "private" {
		t.Errorf("an ended run: ttlMs %d, cacheScope %q; want an hour, private", ended.TTLMs, ended.CacheScope)
	}
	if going, _ := read("testctl://runs/" + slow); going.TTLMs != 0 || going.CacheScope != "private" {
		t.Errorf("a run going on: ttlMs %d, cacheScope %q; want 0, private", going.TTLMs, going.CacheScope)
	}
	cases, _ := run["runTestCases"].([]any)
	var rtc string
	for _, c := range cases {
		if m, _ := c.(map[string]any); m["result"] == "FAILED" {
			rtc, _ = m["shortId"].(string)
		}
	}
	if rtc == "" {
		t.Fatalf("no failed test case in %v", run)
	}
	for _, kind := range []string{"network", "console", "api-calls"} {
		logs, doc := read("testctl://runs/" + failing + "/test-cases/" + rtc + "/logs/" + kind)
		if len(doc) == 0 || logs.CacheScope != "private" {
			t.Errorf("%s logs: %v", kind, doc)
		}
	}
	otherRun := e.StartRun(t, sandbox.PlanFailing)
	for _, uri := range []string{
		"testctl://runs/" + otherRun + "/test-cases/" + rtc + "/logs/network", // not of that run
		"testctl://runs/" + failing + "/test-cases/" + rtc + "/logs/screenshots",
		"testctl://runs/..%2Fv1%2Frun/test-cases/x/logs/network",
		"testctl://runs/r%20x",
		"testctl://runs/nope404",
	} {
		if got, err := a.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s was read: %v", uri, got.Contents[0].Text)
		}
	}
	if n := e.Requests("GET /v1/run/..%2Fv1%2Frun"); n != 0 {
		t.Errorf("a bad id reached the service")
	}
}
