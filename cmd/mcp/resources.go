package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/idcheck"
	"github.com/testctl/testctl/pkg/verdict"
)

// Resources: the reports a call wrote (file:// links in its result, read
// back only while they are inside the working directory, and bounded), a
// run (testctl://runs/{id}) and a test case's logs
// (testctl://runs/{id}/test-cases/{rtc}/logs/{kind}), read as get_run and
// get_logs read them: bounded, sanitised, the key redacted.
const (
	runTemplate  = "testctl://runs/{id}"
	logsTemplate = "testctl://runs/{id}/test-cases/{rtc}/logs/{kind}"
	fileTemplate = "file:///{+path}"
	// maxReportRead bounds a report read back: an HTML report of a large
	// run is some megabytes.
	maxReportRead = 8 << 20
	// finishedTTL is how long a client may keep what it read of a run that
	// ended (SEP-2549's ttlMs, private to the user): it changes no more.
	finishedTTL = time.Hour
)

// reportFiles are the absolute paths of the reports this server's calls
// wrote: the only files resources/read serves.
type reportFiles struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (r *reportFiles) add(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.paths == nil {
		r.paths = map[string]bool{}
	}
	r.paths[path] = true
}

func (r *reportFiles) has(path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paths[path]
}

// addResources registers the resource templates.
func (s *server) addResources(srv *mcp.Server) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "run", Title: "A run of testctl", URITemplate: runTemplate, MIMEType: "application/json",
		Description: "A run's detail (its status, result and test cases), as get_run returns it; cacheable for an hour once the run ended."}, s.readRun)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "test-case-logs", Title: "A test case's logs", URITemplate: logsTemplate, MIMEType: "application/json",
		Description: "The network, console or api-calls log (kind) of one test case (rtc, as r7k2p9-3) of run id, as get_logs returns it."}, s.readLogs)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "report", Title: "A report a call wrote", URITemplate: fileTemplate,
		Description: "A JUnit, HTML or CTRF report that a tool call of this server wrote in its working directory (the links of its result)."}, s.readReport)
	s.addApp(srv)
}

// withReports adds to a result a resource_link for each report the call
// wrote (a file at that path changed since the call began).
func (s *server) withReports(began time.Time, paths ...string) func(*mcp.CallToolResult, Result, error) (*mcp.CallToolResult, Result, error) {
	return func(res *mcp.CallToolResult, out Result, err error) (*mcp.CallToolResult, Result, error) {
		if res == nil || err != nil {
			return res, out, err
		}
		wd, werr := os.Getwd()
		for _, p := range paths {
			if p == "" || werr != nil {
				continue
			}
			abs := filepath.Join(wd, p)
			info, err := os.Lstat(abs)
			if err != nil || !info.Mode().IsRegular() || info.ModTime().Before(began.Add(-time.Second)) {
				continue
			}
			s.reports.add(abs)
			size := info.Size()
			res.Content = append(res.Content, &mcp.ResourceLink{URI: fileURI(abs), Name: filepath.Base(abs), Title: "Report " + p,
				MIMEType: mimeOf(abs), Size: &size})
		}
		return res, out, nil
	}
}

func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func mimeOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xml":
		return "application/xml"
	case ".html", ".htm":
		return "text/html"
	case ".json":
		return "application/json"
	}
	if t := mime.TypeByExtension(filepath.Ext(path)); t != "" {
		return t
	}
	return "text/plain"
}

// readReport serves a report this server wrote, while it is a regular file
// inside the working directory (not reached through a symbolic link) and
// within maxReportRead.
func (s *server) readReport(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	path := filepath.Clean(filepath.FromSlash(u.Path))
	if !s.reports.has(path) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || !filepath.IsLocal(rel) || checkReportPath("report", rel) != nil {
		return nil, invalid("%s is no longer a file inside the working directory", uri)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if info.Size() > maxReportRead {
		return nil, invalid("%s is %d bytes, over the %d MiB that are read back: open it from the working directory", uri, info.Size(), maxReportRead>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxReportRead+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReportRead {
		return nil, invalid("%s grew over the %d MiB that are read back", uri, maxReportRead>>20)
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: mimeOf(path)}
	if utf8.Valid(data) {
		c.Text = string(data)
	} else {
		c.Blob = data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}, Cacheable: mcp.Cacheable{CacheScope: "private"}}, nil
}

func invalid(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// runURI splits a testctl://runs/… URI into its path segments after runs,
// each unescaped once: an id holding an escaped / is one segment, which the
// id checks then refuse.
func runURI(uri string) ([]string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "testctl" || u.Host != "runs" || u.RawQuery != "" || u.Fragment != "" {
		return nil, invalid("%q is not a testctl://runs/ URI", uri)
	}
	raw := strings.Split(strings.TrimPrefix(u.EscapedPath(), "/"), "/")
	segs := make([]string, len(raw))
	for i, r := range raw {
		if segs[i], err = url.PathUnescape(r); err != nil {
			return nil, invalid("%q: %v", uri, err)
		}
	}
	return segs, nil
}

func (s *server) readRun(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	segs, err := runURI(uri)
	if err != nil {
		return nil, err
	}
	if len(segs) != 1 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	doc, d, err := s.runDoc(ctx, uri, segs[0])
	if err != nil {
		return nil, err
	}
	return s.resource(uri, doc, verdict.Final(d.Status), "get_run with test_cases \"failed\" returns only those that did not pass")
}

// runDoc reads run id as get_run does: its document and its detail.
func (s *server) runDoc(ctx context.Context, uri, id string) (any, *api.RunDetail, error) {
	if err := idcheck.ValidateRunID(id); err != nil {
		return nil, nil, invalid("%s: %v", uri, err)
	}
	inv := s.invoke(ctx, []string{"run", "get", "--", id}, nil)
	doc, err := s.document(uri, inv)
	if err != nil {
		return nil, nil, err
	}
	var d api.RunDetail
	if json.Unmarshal([]byte(inv.stdout), &d) != nil {
		return nil, nil, fmt.Errorf("%s: the service's run detail cannot be read", uri)
	}
	return doc, &d, nil
}

var logKinds = []string{"network", "console", "api-calls"}

func (s *server) readLogs(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	segs, err := runURI(uri)
	if err != nil {
		return nil, err
	}
	if len(segs) != 5 || segs[1] != "test-cases" || segs[3] != "logs" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	id, rtc, kind := segs[0], segs[2], segs[4]
	if !slices.Contains(logKinds, kind) {
		return nil, invalid("%s: kind must be network, console or api-calls, not %q", uri, kind)
	}
	if err := idcheck.ValidateRunID(rtc); err != nil {
		return nil, invalid("%s: test case run: %v", uri, err)
	}
	_, d, err := s.runDoc(ctx, uri, id)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(d.RunTestCases, func(tc api.RunTestCase) bool { return tc.ShortID == rtc }) {
		return nil, invalid("%s: %q is not a test case of run %q: testctl://runs/%s lists its test cases", uri, rtc, id, id)
	}
	inv := s.invoke(ctx, []string{"logs", "--kind=" + kind, "--", rtc}, nil)
	doc, err := s.document(uri, inv)
	if err != nil {
		return nil, err
	}
	return s.resource(uri, doc, verdict.Final(d.Status), "get_logs narrowed by status or url shows others")
}

// document is a command's -o json document, cleaned as a tool's result
// is, or the command's failure as the read's error.
func (s *server) document(uri string, inv invocation) (any, error) {
	switch inv.code {
	case exitcode.OK:
	case exitcode.NotFound:
		return nil, mcp.ResourceNotFoundError(uri)
	default:
		msg := s.redact(strings.TrimSpace(storyOf(inv.stderr)))
		if len(msg) > 2048 {
			msg = msg[:2048]
		}
		return nil, fmt.Errorf("reading %s: %s (exit code %d)", uri, msg, inv.code)
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(inv.stdout))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("reading %s: the service's answer cannot be read", uri)
	}
	return s.clean(v), nil
}

// resource is a document as a read's result, bounded as a tool's data is;
// what ended is cacheable, privately, for finishedTTL.
func (s *server) resource(uri string, doc any, ended bool, more string) (*mcp.ReadResourceResult, error) {
	doc, cut := bound(doc, maxDataBytes, func(string, int, int) string { return more })
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}},
		Cacheable: mcp.Cacheable{CacheScope: "private"}}
	if ended {
		res.TTLMs = int(finishedTTL / time.Millisecond)
	}
	if cut != "" {
		res.Meta = mcp.Meta{"testctl/cut": cut}
	}
	return res, nil
}
