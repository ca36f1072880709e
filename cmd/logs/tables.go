package logs

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// printTable renders the entries of the response's kind. Every cell goes
// through output.Table, which removes escape sequences before colouring.
// It returns the table, which says whether it shortened anything.
//
// Each table keeps the column the reader opened it for, the URL or the
// message (output.Primary): on a narrow terminal the duration goes and
// the other columns give way first; columns empty on every row (no error,
// nothing truncated) are left out; a URL is cut in the middle, keeping the
// end of its path, and shows no host when it is the application's. That
// host is the one that answered most of the entries (evidence.NetworkSite,
// the one the failure story uses too): the logs and the run test case
// carry no application URL, and the application's own requests outnumber a
// page's third parties (a tracker, fonts, a CDN) in every capture.
func printTable(ios *iostreams.IOStreams, resp *api.LogsResponse, full bool) (*output.Table, error) {
	st := ios.Styles()
	var t *output.Table
	switch resp.Kind {
	case api.LogKindConsole:
		t = consoleTable(ios, st, resp.Console)
	case api.LogKindAPICalls:
		if full {
			return nil, printFull(ios, resp.APICalls)
		}
		t = apiCallsTable(ios, st, resp.APICalls)
	default:
		t = networkTable(ios, st, resp.Network)
	}
	return t, t.Render()
}

// urlField is a URL cell: what the table is read for, cut in its middle,
// its short form without the application's host (site) or scheme.
func urlField(url, site string) []output.FieldOption {
	return []output.FieldOption{output.Primary(), output.TruncateMiddle(), output.WithShortForm(evidence.ShortURL(url, site))}
}

func networkTable(ios *iostreams.IOStreams, st *iostreams.Styles, entries []api.NetworkEntry) *output.Table {
	t := output.NewTable(ios, "time", "method", "status", "duration", "url", "error")
	site := evidence.NetworkSite(entries)
	for _, e := range entries {
		t.AddField(evidence.Since(e.RelativeTimestampMs))
		t.AddField(e.Method)
		code := e.StatusCode
		t.AddField(statusText(&code), output.WithColor(statusColor(st, &code, !e.IsError)))
		t.AddField(duration(e.DurationMs), output.DropWhenNarrow(1))
		t.AddField(e.URL, urlField(e.URL, site)...)
		t.AddField(joinNonEmpty("; ", e.ErrorText, e.CrossOriginInfo), output.WithColor(st.Failure))
		t.EndRow()
	}
	return t
}

func consoleTable(ios *iostreams.IOStreams, st *iostreams.Styles, entries []api.ConsoleEntry) *output.Table {
	t := output.NewTable(ios, "time", "level", "message", "source")
	site := evidence.ConsoleSite(entries)
	for _, e := range entries {
		ms := int64(e.RelativeTimestampSeconds) * 1000 // the console counts whole seconds
		t.AddField(evidence.Since(&ms))
		t.AddField(e.Level, output.WithColor(levelColor(st, e.Level)))
		t.AddField(e.Message, output.Primary())
		// The source gives way to the message, cut in its middle: the end
		// names the script and the line.
		src := source(e)
		t.AddField(src, output.TruncateMiddle(), output.WithShortForm(evidence.ShortURL(src, site)))
		t.EndRow()
	}
	return t
}

func apiCallsTable(ios *iostreams.IOStreams, st *iostreams.Styles, entries []api.APICallEntry) *output.Table {
	t := output.NewTable(ios, "time", "method", "status", "success", "duration", "url", "truncated", "error")
	site := evidence.APICallSite(entries)
	for _, e := range entries {
		t.AddField(evidence.Since(e.RelativeTimestampMs))
		t.AddField(e.Method)
		t.AddField(statusText(e.StatusCode), output.WithColor(statusColor(st, e.StatusCode, e.Success)))
		// A narrow terminal drops, first, the marks of bodies the table
		// does not show (--full does), then the duration, then what the
		// status's colour says already.
		if e.Success {
			t.AddField("yes", output.WithColor(st.Success), output.DropWhenNarrow(3))
		} else {
			t.AddField("no", output.WithColor(st.Failure), output.DropWhenNarrow(3))
		}
		t.AddField(duration(e.DurationMs), output.DropWhenNarrow(2))
		t.AddField(e.URL, urlField(e.URL, site)...)
		t.AddField(truncationMarks(e), output.DropWhenNarrow(1))
		t.AddField(e.ErrorMessage, output.WithColor(st.Failure))
		t.EndRow()
	}
	return t
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
