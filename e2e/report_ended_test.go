package e2e_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// The terminal and the HTML report give a run one time, the same: when
// the wait saw it end (the failing plan ends at 12 s of sandbox time and
// is seen at the poll of 00:15, as docs/sandbox.md says), or that it had
// already finished; never a second figure of their own ("took 11s").
func TestTerminalAndHTMLReportSayWhenARunEndedAlike(t *testing.T) {
	e := cmdtest.New(t)
	html := e.Dir + "/report.html"
	r := e.Run("run", "start", "--plan", "pln-failing_sandbox", "--wait", "--html", html).Expect(t, 1)
	m := regexp.MustCompile(`Run (\w+): COMPLETED · FAILED (after \d\d:\d\d) —`).FindStringSubmatch(r.Stderr)
	if m == nil || m[2] != "after 00:15" {
		t.Fatalf("the summary does not say the run ended after 00:15, as docs/sandbox.md does:\n%s", r.Stderr)
	}
	cmdtest.Contains(t, "the live lines", r.Stderr, "run "+m[1]+" COMPLETED · FAILED after 00:15:")
	doc, err := os.ReadFile("../docs/sandbox.md")
	if err != nil || !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "the terminal says `COMPLETED · FAILED "+m[2]+"`, and so does the HTML report (`"+m[2]+"`)") {
		t.Errorf("docs/sandbox.md does not say what the terminal and the HTML report show (%s): %v", m[2], err)
	}
	page := readPage(t, html)
	if !strings.Contains(page, `"ended":"after 00:15"`) {
		t.Errorf("the HTML report's time of the run is not the terminal's (after 00:15)")
	}
	// In its plan's history, beside the service's durations of the runs
	// before it (11 s from start to end), the run has the same time.
	items := regexp.MustCompile(`\{"shortId":"(\w+)","link":\{[^}]*\},"class":"[^"]*"(?:,"label":"[^"]*")?(?:,"duration":"([^"]*)")?`).FindAllStringSubmatch(page, -1)
	seen := map[string]string{}
	for _, it := range items {
		seen[it[1]] = it[2]
	}
	if d, ok := seen[m[1]]; !ok || d != "after 00:15" || len(seen) < 2 {
		t.Errorf("the run's history: %v; want %s after 00:15 beside earlier runs", seen, m[1])
	}

	// run report waits for nothing, and neither says a time.
	r = e.Run("run", "report", m[1], "--html", html).Expect(t, 1)
	cmdtest.Contains(t, "run report", r.Stderr, "Run "+m[1]+": COMPLETED · FAILED — ")
	if page := readPage(t, html); strings.Contains(page, `"ended":`) {
		t.Errorf("the HTML report of run report gives the run a time the terminal does not")
	}
}

func readPage(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
