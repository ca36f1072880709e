package output

import (
	"encoding/json"
	"testing"

	"github.com/testctl/testctl/pkg/iostreams"
)

func TestPrintDryRun(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	d := DryRun{Method: "POST", URL: "https://api.example.com/v1/run\x1b[2J", Body: json.RawMessage(`{"name":"a\u009bb"}`)}
	if err := PrintDryRun(ios, Options{}, d); err != nil {
		t.Fatal(err)
	}
	want := "POST https://api.example.com/v1/run\nContent-Type: application/json\n\n{\n  \"name\": \"a\\u009bb\"\n}\n"
	if out.String() != want || errOut.String() != "Dry run: nothing was sent.\n" {
		t.Errorf("stdout %q\nwant   %q\nstderr %q", out, want, errOut)
	}

	ios, _, out, errOut = iostreams.Test()
	if err := PrintDryRun(ios, Options{Format: FormatJSON}, d); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Method, URL string }
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.Method != "POST" || errOut.Len() != 0 {
		t.Errorf("json: %v %q %q", err, out, errOut)
	}
}
