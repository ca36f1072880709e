package output

import (
	"bytes"
	"testing"
)

// A table beside a document is rendered as off a terminal, on Beside; a
// table format, or no Beside, has none.
func TestBesideStreams(t *testing.T) {
	var b bytes.Buffer
	if BesideStreams(Options{Format: FormatJSON}) != nil || BesideStreams(Options{Format: FormatTable, Beside: &b}) != nil {
		t.Fatal("streams beside no document")
	}
	ios := BesideStreams(Options{Format: FormatJSON, Beside: &b})
	if ios == nil || ios.Out != &b || ios.IsStdoutTTY() || ios.IsStderrTTY() {
		t.Fatalf("streams %+v", ios)
	}
	tbl := NewTable(ios, "id", "name")
	tbl.AddField("r1")
	tbl.AddField("a name long enough to be cut on a terminal of forty columns, which this is not")
	tbl.EndRow()
	if err := tbl.Render(); err != nil {
		t.Fatal(err)
	}
	if want := "ID\tNAME\nr1\ta name long enough to be cut on a terminal of forty columns, which this is not\n"; b.String() != want {
		t.Errorf("table %q, want %q", b.String(), want)
	}
}
