package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
)

func ptr(s string) *string { return &s }

func runs(n int) []api.RunSummary {
	out := make([]api.RunSummary, n)
	for i := range out {
		out[i] = api.RunSummary{
			ShortID: fmt.Sprintf("run-%d", i), Status: "COMPLETED", Result: ptr("PASSED"), Trigger: "API",
			Branch: ptr("main\x1b[2J<&>"), URL: "https://x.io/" + fmt.Sprint(i), ApplicationShortIDs: []string{"app_1"},
			CreatedAt: "2025-01-02T03:04:05Z", TotalCount: i,
		}
	}
	return out
}

func runRow(t *Table, r api.RunSummary) {
	t.AddField(r.ShortID)
	t.AddField(r.Status)
	t.AddField(*r.Branch)
}

func writeList(t *testing.T, ios *iostreams.IOStreams, o Options, pages ...[]api.RunSummary) {
	t.Helper()
	lw := NewListWriter(ios, o, "runs", []string{"id", "status", "branch"}, runRow)
	total := 0
	for _, p := range pages {
		if err := lw.Add(p...); err != nil {
			t.Fatal(err)
		}
		total += len(p)
	}
	if lw.Count() != total {
		t.Fatalf("Count() = %d, want %d", lw.Count(), total)
	}
	if err := lw.Close(map[string]any{"total": total, "limit": 50, "offset": 0}); err != nil {
		t.Fatal(err)
	}
}

// sortedEnvelope is api.RunList with the metadata in the order ListWriter
// writes it, so Print of it must match the stream byte for byte.
type sortedEnvelope struct {
	Runs   []api.RunSummary `json:"runs"`
	Limit  int32            `json:"limit"`
	Offset int32            `json:"offset"`
	Total  int32            `json:"total"`
}

func TestListWriterJSON(t *testing.T) {
	for _, n := range []int{0, 1, 5} {
		t.Run(fmt.Sprint(n, " items"), func(t *testing.T) {
			items := runs(n)
			ios, _, out, _ := iostreams.Test()
			writeList(t, ios, Options{Format: FormatJSON}, items[:n/2], nil, items[n/2:])

			if !json.Valid(out.Bytes()) {
				t.Fatalf("invalid JSON:\n%s", out)
			}
			var got, want any
			wantBytes, _ := json.Marshal(api.RunList{Runs: items, Total: int32(n), Limit: 50})
			json.Unmarshal(out.Bytes(), &got)
			json.Unmarshal(wantBytes, &want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("streamed document differs from json.Marshal of the envelope:\n%s\nwant\n%s", out, wantBytes)
			}
			var printed bytes.Buffer
			Print(&printed, Options{Format: FormatJSON}, sortedEnvelope{Runs: items, Total: int32(n), Limit: 50})
			if n > 0 && out.String() != printed.String() {
				t.Errorf("stream is not formatted like Print:\n%s\nwant\n%s", out, printed.String())
			}
			if n > 0 && (strings.Contains(out.String(), "\x1b") || !strings.Contains(out.String(), `\u001b[2J<&>`)) {
				t.Errorf("control characters must be escaped, HTML must not:\n%s", out)
			}
		})
	}
}

func TestListWriterJSONEmpty(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	writeList(t, ios, Options{Format: FormatJSON})
	want := "{\n  \"runs\": [],\n  \"limit\": 50,\n  \"offset\": 0,\n  \"total\": 0\n}\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestListWriterYAML(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	writeList(t, ios, Options{Format: FormatYAML}, runs(1))
	got := out.String()
	for _, want := range []string{"runs:\n  - shortId: run-0\n    status: COMPLETED\n", "applicationShortIds:\n      - app_1\n", "\nlimit: 50\noffset: 0\ntotal: 1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("YAML lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ShortID") || strings.Contains(got, "\x1b") {
		t.Errorf("YAML must use JSON names and escape controls:\n%s", got)
	}
}

func TestListWriterJQ(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	writeList(t, ios, Options{JQ: `.runs[].shortId, .total, (.runs[0].branch)`}, runs(2), runs(1))
	if want := "run-0\nrun-1\nrun-0\n3\nmain<&>\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestListWriterTable(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(fmt.Sprint("tty=", tty), func(t *testing.T) {
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tty)
			writeList(t, ios, Options{}, runs(2), runs(1))
			got := out.String()
			if strings.Count(ansi.Strip(got), "ID") != 1 || strings.Count(got, "\n") != 4 {
				t.Errorf("want one header and three rows:\n%s", got)
			}
			if strings.Contains(ansi.Strip(got), "\x1b") || strings.Contains(got, "[2J") {
				t.Errorf("service escapes leaked: %q", got)
			}
			if !tty && !strings.HasPrefix(got, "ID\tSTATUS\tBRANCH\nrun-0\tCOMPLETED\tmain<&>\n") {
				t.Errorf("plain table: %q", got)
			}
		})
	}
}

// TestListWriterTableTTYAlignsPages checks that on a terminal nothing is
// printed until Close, so a wide value on a late page widens the column for
// every row; off a terminal each page is written as it comes.
func TestListWriterTableTTYAlignsPages(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(fmt.Sprint("tty=", tty), func(t *testing.T) {
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tty)
			lw := NewListWriter(ios, Options{}, "runs", []string{"id", "status", "branch"}, runRow)
			lw.Add(runs(2)...)
			late := runs(1)
			late[0].ShortID = "run-with-a-much-longer-id"
			lw.Add(late...)
			if written := out.Len() > 0; written == tty {
				t.Fatalf("after two pages, written=%v: %q", written, out)
			}
			if err := lw.Close(nil); err != nil {
				t.Fatal(err)
			}
			if !tty {
				return
			}
			lines := strings.Split(strings.TrimSuffix(ansi.Strip(out.String()), "\n"), "\n")
			if len(lines) != 4 {
				t.Fatalf("want one header and three rows:\n%s", out)
			}
			want := len("run-with-a-much-longer-id  ")
			for i, l := range lines {
				at := strings.Index(l, "COMPLETED")
				if i == 0 {
					at = strings.Index(l, "STATUS")
				}
				if at != want {
					t.Errorf("status column not aligned across pages:\n%s", strings.Join(lines, "\n"))
					break
				}
			}
		})
	}
}

// No rows, no header: the command says "No … match." on stderr and a
// script reading stdout sees no data, on a terminal or off it.
func TestListWriterTableEmptyPrintsNothing(t *testing.T) {
	for _, tty := range []bool{false, true} {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tty)
		writeList(t, ios, Options{})
		if out.String() != "" {
			t.Errorf("tty %v: got %q", tty, out.String())
		}
	}
}

func TestListWriterAddAfterClose(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	lw := NewListWriter(ios, Options{Format: FormatJSON}, "runs", nil, runRow)
	lw.Close(nil)
	if err := lw.Add(runs(1)...); err == nil {
		t.Fatal("want an error")
	}
}

// TestListWriterJSONStreams checks that each page reaches the writer before
// the next is added, which is what keeps memory flat for --all.
func TestListWriterJSONStreams(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	lw := NewListWriter(ios, Options{Format: FormatJSON}, "runs", nil, runRow)
	lw.Add(runs(3)...)
	if !strings.Contains(out.String(), `"shortId": "run-2"`) {
		t.Fatalf("page not written yet: %q", out)
	}
}

// BenchmarkListWriterJSON100k streams 100,000 runs as decoded from the
// service, so each is printed from its own bytes.
func BenchmarkListWriterJSON100k(b *testing.B) {
	body, _ := json.Marshal(api.RunList{Runs: runs(100)})
	var decoded api.RunList
	if err := json.Unmarshal(body, &decoded); err != nil {
		b.Fatal(err)
	}
	api.KeepRaw(&decoded, body)
	page := decoded.Runs
	ios, _, _, _ := iostreams.Test()
	ios.Out = discard{}
	for b.Loop() {
		lw := NewListWriter(ios, Options{Format: FormatJSON}, "runs", nil, runRow)
		for range 1000 {
			lw.Add(page...)
		}
		lw.Close(map[string]any{"total": 100_000})
	}
}
