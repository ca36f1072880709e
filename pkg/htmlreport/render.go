package htmlreport

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"io/fs"
	"reflect"
	"strings"

	"github.com/testctl/testctl/pkg/atomicfile"
)

// The page's style and script, inlined into every report: a report opens
// from a CI artefact, offline, and fetches nothing.
var (
	//go:embed assets/report.css
	reportCSS string
	//go:embed assets/js/*.js
	scriptFiles embed.FS
	reportJS    = joinScripts(scriptFiles)
)

// joinScripts makes one script of the files of assets/js, in name order,
// inside one function: they share its scope and leave nothing global.
func joinScripts(files embed.FS) string {
	entries, err := fs.ReadDir(files, "assets/js")
	if err != nil {
		panic(err) // embedded at build time: cannot fail
	}
	var b strings.Builder
	b.WriteString("(function () {\n")
	for _, e := range entries {
		src, err := fs.ReadFile(files, "assets/js/"+e.Name())
		if err != nil {
			panic(err)
		}
		b.Write(src)
	}
	b.WriteString("})();\n")
	return b.String()
}

// DataElementID is the id of the script element holding the report's data
// as JSON, for tools that read a report back.
const DataElementID = "testctl-report-data"

// Render writes the report's page to w.
func Render(w io.Writer, r Report) error {
	page := buildPage(r)
	sanitize(reflect.ValueOf(&page))
	data, err := json.Marshal(page)
	if err != nil {
		return fmt.Errorf("encoding the HTML report's data: %w", err)
	}
	// json.Marshal escapes <, > and & (and U+2028, U+2029) inside strings,
	// and JSON has no other place for them: the data cannot close its
	// script element, nor open a comment in it.
	bw := bufio.NewWriterSize(w, 64<<10)
	title := "testctl report"
	if r.Verdict != "" {
		title += ": " + r.Verdict
	}
	fmt.Fprintf(bw, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="%s">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<link rel="icon" href="data:,">
<style>%s</style>
</head>
<body>
<noscript><p>This report is drawn by the script inside it: open it with JavaScript allowed. Its data is the JSON in the element #%s.</p></noscript>
<div id="app"></div>
<script type="application/json" id="%s">`, contentSecurityPolicy(), html.EscapeString(title), reportCSS, DataElementID, DataElementID)
	bw.Write(data)
	fmt.Fprintf(bw, "</script>\n<script>%s</script>\n</body>\n</html>\n", reportJS)
	return bw.Flush()
}

// contentSecurityPolicy allows the page its own inline style and script,
// named by their hashes, and nothing else: no request leaves the page, and
// markup that slipped into it could not run a script of its own.
func contentSecurityPolicy() string {
	return strings.Join([]string{
		"default-src 'none'",
		"style-src " + hashSource(reportCSS),
		"script-src " + hashSource(reportJS),
		"img-src data:",
		"base-uri 'none'",
		"form-action 'none'",
	}, "; ")
}

func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// Write writes the report to path atomically: a reader (a CI upload step, a
// browser) sees the previous file or the whole new one, never half of it.
func Write(path string, r Report) error {
	var b bytes.Buffer
	err := Render(&b, r)
	if err == nil {
		// A report is meant to be read by the CI's other steps and tools.
		err = atomicfile.Write(path, b.Bytes(), 0o644)
	}
	if err != nil {
		return fmt.Errorf("writing the HTML report %s: %w", path, err)
	}
	return nil
}
