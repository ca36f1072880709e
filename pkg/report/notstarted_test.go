package report

import (
	"bytes"
	"testing"
)

// A warning annotation is raised only under GitHub Actions, one line the
// runner reads as one command: its properties' separators and the
// message's line breaks escaped, and no escape sequence reaching the log.
func TestWriteWarningAnnotation(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	var buf bytes.Buffer
	WriteWarningAnnotation(getenv, &buf, "t", "m")
	if buf.Len() != 0 {
		t.Errorf("outside GitHub Actions: %q", buf.String())
	}
	env["GITHUB_ACTIONS"] = "true"
	WriteWarningAnnotation(getenv, &buf, "testctl: API, not CODEHOST", "no commit message (100%)\n::error::x\x1b[31m")
	want := "::warning title=testctl%3A API%2C not CODEHOST::no commit message (100%25)%0A::error::x\n"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
}
