package output

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/testctl/testctl/pkg/iostreams"
)

// Widths are checked with twwidth, the measure tablewriter pads with; it
// differs from ansi.StringWidth only for East Asian ambiguous characters
// in a CJK locale.

func newIOS(tty bool, width int) (*iostreams.IOStreams, *strings.Builder) {
	ios, _, _, _ := iostreams.Test()
	var out strings.Builder
	ios.Out = &out
	ios.SetStdoutTTY(tty)
	ios.SetTerminalWidth(width)
	return ios, &out
}

const evil = "\x1b]0;pwned\x07na\x1b[2Jme\twith\ttabs\nand lines"

func TestTablePlain(t *testing.T) {
	ios, out := newIOS(false, 20)
	tb := NewTable(ios, "id", "Status", "name")
	tb.AddField("run-1")
	tb.AddField("PASSED", WithColor(ios.Styles().Success), WithColor(func(s string) string { return "\x1b[31m" + s }))
	tb.AddField(evil)
	tb.EndRow()
	tb.AddField("run-2")
	tb.AddField("")
	tb.AddField(strings.Repeat("long ", 20))
	tb.EndRow()
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	want := "ID\tSTATUS\tNAME\n" +
		"run-1\tPASSED\tname with tabs and lines\n" +
		"run-2\t\t" + strings.Repeat("long ", 20) + "\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}

func TestTableTTY(t *testing.T) {
	ios, out := newIOS(true, 80)
	st := ios.Styles()
	tb := NewTable(ios, "ID", "STATUS", "NAME")
	tb.AddField("run-1")
	tb.AddField("PASSED", WithColor(st.Success))
	tb.AddField(evil)
	tb.EndRow()
	tb.AddField("run-22")
	tb.AddField("FAILED", WithColor(st.Failure))
	tb.AddField("short")
	tb.EndRow()
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	want := st.Bold("ID") + "      " + st.Bold("STATUS") + "  " + st.Bold("NAME") + "\n" +
		"run-1   " + st.Success("PASSED") + "  name with tabs and lines\n" +
		"run-22  " + st.Failure("FAILED") + "  short\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if strings.Contains(ansi.Strip(got), "\x1b") || strings.Contains(got, "pwned") || strings.Contains(got, "\x1b[2J") {
		t.Errorf("service escapes leaked: %q", got)
	}
}

// TestTableTTYColourIsOurs checks what tablewriter does with coloured
// cells: it must measure them by their visible width, add no SGR sequence
// of its own (it appends resets to text it truncates, which is why cells
// reach it already cut) and keep them aligned with uncoloured rows.
func TestTableTTYColourIsOurs(t *testing.T) {
	ios, out := newIOS(true, 50)
	st := ios.Styles()
	tb := NewTable(ios, "id", "status", "name", "url")
	tb.AddField("run-1")
	tb.AddField("PASSED", WithColor(st.Success))
	tb.AddField("a test case name long enough to be cut", WithColor(st.Failure))
	tb.AddField("https://x.io/1", WithColor(st.Info))
	tb.EndRow()
	tb.AddField("run-2")
	tb.AddField("CANCELLED")
	tb.AddField("é名前")
	tb.AddField("https://x.io/2")
	tb.EndRow()
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two rows:\n%s", out)
	}
	// Our sequences, in order: the header's bold pairs, then the row's colours.
	sgr := regexp.MustCompile("\x1b\\[[0-9;]*m")
	pairs := func(styled ...string) (seqs []string) {
		for _, s := range styled {
			seqs = append(seqs, sgr.FindAllString(s, -1)...)
		}
		return seqs
	}
	want := [][]string{
		pairs(st.Bold("ID"), st.Bold("STATUS"), st.Bold("NAME"), st.Bold("URL")),
		pairs(st.Success("x"), st.Failure("x"), st.Info("x")),
		nil,
	}
	for i, l := range lines {
		if got := sgr.FindAllString(l, -1); fmt.Sprint(got) != fmt.Sprint(want[i]) {
			t.Errorf("line %d has sequences %q, want %q: %q", i, got, want[i], l)
		}
		if w := twwidth.Width(l); w > 50 {
			t.Errorf("line %d is %d wide: %q", i, w, l)
		}
	}
	open, shut, _ := strings.Cut(st.Failure("\x00"), "\x00")
	if !regexp.MustCompile(regexp.QuoteMeta(open) + "a test case [^\x1b]+…" + regexp.QuoteMeta(shut)).MatchString(lines[1]) {
		t.Errorf("the cut must be inside the colour: %q", lines[1])
	}
	for _, col := range []string{"https", "PASSED|CANCELLED"} {
		re := regexp.MustCompile(col)
		at := func(l string) int { l = ansi.Strip(l); return twwidth.Width(l[:re.FindStringIndex(l)[0]]) }
		if at(lines[1]) != at(lines[2]) {
			t.Errorf("column %q not aligned:\n%s", col, ansi.Strip(out.String()))
		}
	}
}

func TestTableTTYNoColor(t *testing.T) {
	ios, out := newIOS(true, 80)
	ios.SetNoColorEnv(true)
	tb := NewTable(ios, "id", "status")
	tb.AddField("run-1")
	tb.AddField("PASSED", WithColor(ios.Styles().Success))
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	if want := "ID     STATUS\nrun-1  PASSED\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestTableTTYTruncatesWidestColumnToFit(t *testing.T) {
	ios, out := newIOS(true, 40)
	tb := NewTable(ios, "id", "name", "url")
	tb.AddField("run-1")
	tb.AddField("a rather long test case name that goes on")
	tb.AddField("https://x.io/r/1")
	tb.EndRow()
	tb.AddField("run-2")
	tb.AddField("名前はとても長いテストケースです、本当に長い")
	tb.AddField("https://x.io/r/2", WithColor(ios.Styles().Info))
	tb.EndRow()
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for _, l := range lines {
		if w := twwidth.Width(l); w > 40 {
			t.Errorf("line wider than the terminal (%d): %q", w, l)
		}
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing white space: %q", l)
		}
	}
	if !strings.Contains(lines[1], "…") || !strings.Contains(lines[2], "…") {
		t.Errorf("the name column should be truncated:\n%s", out)
	}
	if !strings.Contains(lines[1], "https://x.io/r/1") || !strings.Contains(ansi.Strip(lines[2]), "https://x.io/r/2") {
		t.Errorf("narrower columns must stay whole:\n%s", out)
	}
	col := func(l string) int { l = ansi.Strip(l); return twwidth.Width(l[:strings.Index(l, "https")]) }
	if col(lines[1]) != col(lines[2]) {
		t.Errorf("columns not aligned:\n%s", ansi.Strip(out.String()))
	}
}

func TestTableRenderAgainKeepsHeaderAndWidths(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(fmt.Sprint("tty=", tty), func(t *testing.T) {
			ios, out := newIOS(tty, 80)
			tb := NewTable(ios, "id", "status")
			tb.AddField("run-100")
			tb.AddField("PASSED")
			tb.Render()
			tb.AddField("r2")
			tb.AddField("OK")
			tb.Render()
			got := ansi.Strip(out.String())
			if strings.Count(got, "ID") != 1 {
				t.Errorf("header must be written once: %q", got)
			}
			if tty && got != "ID       STATUS\nrun-100  PASSED\nr2       OK\n" {
				t.Errorf("widths must carry over: %q", got)
			}
		})
	}
}

func TestFit(t *testing.T) {
	tests := []struct {
		widths  []int
		primary int // the index of the primary column, -1 for none
		room    int
		want    []int
	}{
		{[]int{5, 10}, -1, 20, []int{5, 10}},
		{[]int{5, 40}, -1, 30, []int{5, 25}},
		{[]int{30, 30, 4}, -1, 44, []int{20, 20, 4}},
		{[]int{30, 29, 4}, -1, 44, []int{20, 20, 4}},
		{[]int{50, 12, 4}, -1, 30, []int{14, 12, 4}},
		{[]int{20, 20}, -1, 10, []int{8, 8}}, // does not go below the minimum
		// The others give way first, down to their least; then the primary.
		{[]int{30, 30, 4}, 0, 44, []int{30, 10, 4}},
		{[]int{30, 30, 4}, 1, 30, []int{8, 18, 4}},
	}
	for _, tt := range tests {
		got := append([]int(nil), tt.widths...)
		cols := make([]column, len(got))
		for i := range cols {
			if i == tt.primary {
				cols[i].flags = primary
			}
			cols[i].least = leastWidth(cols[i], got[i])
		}
		fit(cols, make([]bool, len(got)), got, tt.room)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("fit(%v, primary %d, %d) = %v, want %v", tt.widths, tt.primary, tt.room, got, tt.want)
		}
	}
}

func TestTruncateMiddle(t *testing.T) {
	for _, tt := range []struct {
		in   string
		w    int
		want string
	}{
		{"/api/payments", 20, "/api/payments"},
		{"staging.sandbox.testctl.invalid/api/payments", 20, "stagin…/api/payments"},
		{"https://staging.sandbox.testctl.invalid/static/app.js:2210:9", 16, "https….js:2210:9"},
		{"名前はとても長いテストケースです", 11, "名…ースです"},
		{"abcdef", 3, "ab…"},
	} {
		got := truncateMiddle(tt.in, tt.w)
		if got != tt.want || twwidth.Width(got) > tt.w {
			t.Errorf("truncateMiddle(%q, %d) = %q (%d wide), want %q", tt.in, tt.w, got, twwidth.Width(got), tt.want)
		}
	}
}

// The plain path writes text itself; the tty path goes through tablewriter,
// which costs an order of magnitude more (see Table).
func BenchmarkTableRender10k(b *testing.B) { benchmarkTable(b, 10_000) }
func BenchmarkTableRender1k(b *testing.B)  { benchmarkTable(b, 1_000) }

func benchmarkTable(b *testing.B, rows int) {
	for _, tty := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "tty"}[tty], func(b *testing.B) {
			ios, _, _, _ := iostreams.Test()
			ios.Out = discard{}
			ios.SetStdoutTTY(tty)
			ios.SetTerminalWidth(100)
			st := ios.Styles()
			for b.Loop() {
				tb := NewTable(ios, "id", "status", "result", "branch", "created", "name")
				for i := range rows {
					tb.AddField(fmt.Sprintf("run-%05d", i))
					tb.AddField("COMPLETED", WithColor(st.Success))
					tb.AddField("PASSED", WithColor(st.Success))
					tb.AddField("feature/some-branch-name")
					tb.AddField("2025-01-02T03:04:05Z", WithColor(st.Muted))
					tb.AddField("checkout flow with a fairly long descriptive test case name")
					tb.EndRow()
				}
				if err := tb.Render(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestStyledWidth(t *testing.T) {
	for _, s := range []string{"", "plain", "\x1b[31mred\x1b[0m", "\x1b[1;38;5;42mx\x1b[m", "✓ \x1b[32mok\x1b[0m", "\x1b]8;;u\x1b\\l\x1b]8;;\x1b\\", "a\x1b[2Kb"} {
		if got, want := styledWidth(s), twwidth.Width(s); got != want {
			t.Errorf("styledWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTableTTYKeepsWholeFieldsWhole(t *testing.T) {
	const id = "5a4db001-0000-4000-8000-000000000001"
	for _, width := range []int{20, 50, 80} {
		ios, out := newIOS(true, width)
		tb := NewTable(ios, "id", "name")
		tb.AddField(id, WithoutTruncation())
		tb.AddField(strings.Repeat("a long name ", 5))
		tb.EndRow()
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		line := strings.Split(out.String(), "\n")[1]
		if !strings.HasPrefix(line, id+"  ") {
			t.Errorf("width %d: the id was cut:\n%s", width, out)
		}
		if width >= 50 && twwidth.Width(line) > width {
			t.Errorf("width %d: the other column did not give way (%d wide):\n%s", width, twwidth.Width(line), out)
		}
	}
}

// A terminal too narrow for every column drops the columns marked
// droppable, lowest rank first, only as far as needed: no line is wider
// than the terminal, a whole field stays whole, and off a terminal every
// column is printed.
func TestTableTTYDropsColumnsThatCannotFit(t *testing.T) {
	const id = "5a4db001-0000-4000-8000-000000000001"
	render := func(tty bool, width int) string {
		ios, out := newIOS(tty, width)
		tb := NewTable(ios, "id", "name", "labels", "application", "result")
		for range 2 {
			tb.AddField(id, WithoutTruncation())
			tb.AddField("Log in with email and password", DropWhenNarrow(4))
			tb.AddField("auth,smoke", DropWhenNarrow(1))
			tb.AddField("app_sandbox-web", DropWhenNarrow(2))
			tb.AddField("PASSED", WithColor(ios.Styles().Success), DropWhenNarrow(3))
			tb.EndRow()
		}
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	for _, tt := range []struct {
		width  int
		header string
	}{
		{200, "ID NAME LABELS APPLICATION RESULT"},
		{80, "ID NAME LABELS APPLICATION RESULT"}, // values shortened, never a header
		{70, "ID NAME APPLICATION RESULT"},
		{62, "ID NAME RESULT"},
		{50, "ID NAME"},
		{40, "ID"},
	} {
		got := ansi.Strip(render(true, tt.width))
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if h := strings.Join(strings.Fields(lines[0]), " "); h != tt.header {
			t.Errorf("width %d: header %q, want %q:\n%s", tt.width, h, tt.header, got)
		}
		for _, l := range lines {
			if w := twwidth.Width(l); w > tt.width || !strings.HasPrefix(l, "ID") && !strings.HasPrefix(l, id) {
				t.Errorf("width %d: line of %d columns: %q", tt.width, w, l)
			}
		}
	}
	if got := render(false, 40); !strings.HasPrefix(got, "ID\tNAME\tLABELS\tAPPLICATION\tRESULT\n"+id+"\t") {
		t.Errorf("off a terminal every column is printed:\n%s", got)
	}
}

// Issue 39, point 7: beside an id kept whole, a droppable primary column
// (a test case's name) goes last: cut as far as it goes first, and left
// out only where even that does not fit.
func TestTableTTYDropsAPrimaryColumnLast(t *testing.T) {
	const id = "5a4db001-0000-4000-8000-000000000001"
	for _, tt := range []struct {
		width int
		want  string // the row
	}{
		{100, id + "  Log in with email and password  yes"},
		{70, id + "  Log in with email and password"},
		{60, id + "  Log in with email and…"},
		{46, id + "  Log in …"},
		{45, id},
	} {
		ios, out := newIOS(true, tt.width)
		tb := NewTable(ios, "id", "name", "enabled")
		tb.AddField(id, WithoutTruncation())
		tb.AddField("Log in with email and password", Primary(), DropWhenNarrow(2))
		tb.AddField("yes", DropWhenNarrow(1))
		tb.EndRow()
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		if row := strings.Split(out.String(), "\n")[1]; row != tt.want {
			t.Errorf("width %d: row %q, want %q", tt.width, row, tt.want)
		}
	}
}

// Issue 39, point 8: on a terminal a column empty (or "-") on every row is
// left out, whatever its field options, so the room goes to one that says
// something; off a terminal the columns stay fixed.
func TestTableTTYLeavesOutBlankColumns(t *testing.T) {
	render := func(tty bool, branches ...string) string {
		ios, out := newIOS(tty, 60)
		tb := NewTable(ios, "id", "branch", "plan")
		for _, b := range branches {
			tb.AddField("r1a2b3", WithoutTruncation())
			tb.AddField(b, DropWhenNarrow(2))
			tb.AddField("pln-baseline_sandbox", DropWhenNarrow(1))
			tb.EndRow()
		}
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got := ansi.Strip(render(true, "-", "")); got != "ID      PLAN\nr1a2b3  pln-baseline_sandbox\nr1a2b3  pln-baseline_sandbox\n" {
		t.Errorf("a blank column on a terminal:\n%s", got)
	}
	if got := render(true, "-", "main"); !strings.HasPrefix(ansi.Strip(got), "ID      BRANCH  PLAN\n") {
		t.Errorf("a column with a value on a terminal:\n%s", got)
	}
	if got := render(false, "-", ""); got != "ID\tBRANCH\tPLAN\nr1a2b3\t-\tpln-baseline_sandbox\nr1a2b3\t\tpln-baseline_sandbox\n" {
		t.Errorf("off a terminal:\n%s", got)
	}
}

// Issue 33: a narrow terminal keeps what the reader came for. The primary
// column is cut last, after the droppable columns went and the others gave
// way; the short forms replace a column's values alike when it would be
// cut; a column empty on every row is left out; Shortened says whether
// anything was left out, and off a terminal everything is printed.
func TestTableTTYKeepsThePrimaryColumn(t *testing.T) {
	const host = "https://staging.example.invalid"
	urls := []string{host + "/api/payments", host + "/static/app.js?v=1", "https://tracker.invalid/collect"}
	render := func(tty bool, width int) (string, bool) {
		ios, out := newIOS(tty, width)
		tb := NewTable(ios, "method", "duration", "url", "error", "truncated")
		for _, u := range urls {
			tb.AddField("POST")
			tb.AddField("371ms", DropWhenNarrow(1))
			tb.AddField(u, Primary(), TruncateMiddle(), WithShortForm(strings.TrimPrefix(u, host)))
			tb.AddField("")
			tb.AddField("-")
			tb.EndRow()
		}
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		return out.String(), tb.Shortened()
	}
	for _, tt := range []struct {
		width int
		want  []string
		cut   bool
	}{
		{100, []string{"METHOD  DURATION  URL\n", "POST    371ms     " + host + "/api/payments\n"}, false},
		{50, []string{"METHOD  DURATION  URL\n", "371ms     /api/payments\n", "371ms     /static/app.js?v=1\n", "https://tracker.invalid/collect\n"}, true},
		{30, []string{"METHOD  URL\n", "POST    /api/payments\n", "POST    https:/…nvalid/collect\n"}, true},
	} {
		got, cut := render(true, tt.width)
		got = ansi.Strip(got)
		cmdtestContains(t, fmt.Sprint("width ", tt.width), got, tt.want...)
		if cut != tt.cut {
			t.Errorf("width %d: Shortened() = %v, want %v:\n%s", tt.width, cut, tt.cut, got)
		}
		if strings.Contains(got, "ERROR") || strings.Contains(got, "TRUNCATED") {
			t.Errorf("width %d: the empty columns are shown:\n%s", tt.width, got)
		}
	}
	got, cut := render(false, 30)
	if want := "METHOD\tDURATION\tURL\tERROR\tTRUNCATED\nPOST\t371ms\t" + urls[0] + "\t\t-\n"; !strings.HasPrefix(got, want) || cut {
		t.Errorf("off a terminal every column and value is printed, nothing is shortened (%v):\n%s", cut, got)
	}
}

func cmdtestContains(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}
