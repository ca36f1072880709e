package logs

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// printTable renders the entries of the response's kind. Every cell goes
// through output.Table, which removes escape sequences before colouring.
func printTable(f *cmdutil.Factory, resp *api.LogsResponse, full bool) error {
	ios := f.IOStreams
	st := ios.Styles()
	switch resp.Kind {
	case api.LogKindConsole:
		return consoleTable(ios, st, resp.Console)
	case api.LogKindAPICalls:
		if full {
			return printFull(ios, resp.APICalls)
		}
		return apiCallsTable(ios, st, resp.APICalls)
	}
	return networkTable(ios, st, resp.Network)
}

func networkTable(ios *iostreams.IOStreams, st *iostreams.Styles, entries []api.NetworkEntry) error {
	t := output.NewTable(ios, "time", "method", "status", "duration", "url", "error")
	for _, e := range entries {
		t.AddField(evidence.Since(e.RelativeTimestampMs))
		t.AddField(e.Method)
		code := e.StatusCode
		t.AddField(statusText(&code), output.WithColor(statusColor(st, &code, !e.IsError)))
		t.AddField(duration(e.DurationMs))
		t.AddField(e.URL)
		t.AddField(joinNonEmpty("; ", e.ErrorText, e.CrossOriginInfo), output.WithColor(st.Failure))
		t.EndRow()
	}
	return t.Render()
}

func consoleTable(ios *iostreams.IOStreams, st *iostreams.Styles, entries []api.ConsoleEntry) error {
	t := output.NewTable(ios, "time", "level", "message", "source")
	for _, e := range entries {
		t.AddField("+" + strconv.Itoa(int(e.RelativeTimestampSeconds)) + "s")
		t.AddField(e.Level, output.WithColor(levelColor(st, e.Level)))
		t.AddField(e.Message)
		t.AddField(source(e))
		t.EndRow()
	}
	return t.Render()
}

func apiCallsTable(ios *iostreams.IOStreams, st *iostreams.Styles, entries []api.APICallEntry) error {
	t := output.NewTable(ios, "time", "method", "status", "success", "duration", "url", "truncated", "error")
	for _, e := range entries {
		t.AddField(evidence.Since(e.RelativeTimestampMs))
		t.AddField(e.Method)
		t.AddField(statusText(e.StatusCode), output.WithColor(statusColor(st, e.StatusCode, e.Success)))
		if e.Success {
			t.AddField("yes", output.WithColor(st.Success))
		} else {
			t.AddField("no", output.WithColor(st.Failure))
		}
		t.AddField(duration(e.DurationMs))
		t.AddField(e.URL)
		t.AddField(truncationMarks(e))
		t.AddField(e.ErrorMessage, output.WithColor(st.Failure))
		t.EndRow()
	}
	return t.Render()
}

// statusText shows a request that never completed (status 0, or none) as
// "failed": a number there would read as a status the server sent.
func statusText(code *int32) string {
	if code == nil || *code == 0 {
		return "failed"
	}
	return strconv.Itoa(int(*code))
}

func statusColor(st *iostreams.Styles, code *int32, ok bool) func(string) string {
	switch {
	case code == nil || *code == 0 || *code >= 400 || !ok:
		return st.Failure
	case *code >= 300:
		return st.Muted
	}
	return st.Success
}

func levelColor(st *iostreams.Styles, level string) func(string) string {
	switch strings.ToLower(level) {
	case "error":
		return st.Failure
	case "warning", "warn":
		return st.Warning
	case "info":
		return st.Info
	}
	return st.Muted
}

// duration prints milliseconds as people read them; "-" when the request
// never finished.
func duration(ms *int32) string {
	switch {
	case ms == nil:
		return "-"
	case *ms < 1000:
		return fmt.Sprintf("%dms", *ms)
	}
	return fmt.Sprintf("%.1fs", float64(*ms)/1000)
}

// source is where a console message was logged: file:line:column, or "-".
func source(e api.ConsoleEntry) string { return cmp.Or(evidence.Source(e), "-") }

// truncationMarks names the bodies the service cut, so a reader knows
// --full will not show them whole.
func truncationMarks(e api.APICallEntry) string {
	var marks []string
	if e.RequestBodyTruncated {
		marks = append(marks, "request")
	}
	if e.ResponseBodyTruncated {
		marks = append(marks, "response")
	}
	return cmp.Or(strings.Join(marks, ","), "-")
}

func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), sep)
}
