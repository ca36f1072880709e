package sandbox

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

// docs/sandbox.md is what users read about the fixtures; this keeps its
// numbers those of the code.
func TestDocsAgreeWithFixtures(t *testing.T) {
	data, err := os.ReadFile("../../docs/sandbox.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	rows := map[string]string{}
	for _, line := range strings.Split(doc, "\n") {
		if m := regexp.MustCompile("^\\| `(pln-[a-z]+_sandbox)` \\|").FindStringSubmatch(line); m != nil {
			rows[m[1]] = line
		}
	}
	if len(rows) != len(fixturePlans) {
		t.Errorf("the plans table has %d rows, the sandbox %d plans", len(rows), len(fixturePlans))
	}
	for _, p := range fixturePlans {
		row, ok := rows[p.ShortID]
		if !ok {
			t.Errorf("plan %s is not in the plans table", p.ShortID)
			continue
		}
		_, end := (&run{cases: p.Cases}).span()
		ending, result := verdict(p.Cases)
		if result != "" {
			ending += " / " + result
		}
		for _, want := range []string{ending + " after " + fmt.Sprintf("%g s", end), fmt.Sprintf("(%d test cases", len(p.Cases))} {
			if !strings.Contains(row, want) {
				t.Errorf("the row of %s does not say %q:\n%s", p.ShortID, want, row)
			}
		}
		failed := 0
		for _, c := range p.Cases {
			if c.result == api.ResultFailed {
				failed++
			}
		}
		if failed > 0 && !strings.Contains(row, fmt.Sprintf("%d fail", failed)) {
			t.Errorf("the row of %s does not say that %d fail:\n%s", p.ShortID, failed, row)
		}
	}
	for _, tc := range fixtureTestCases {
		if !strings.Contains(doc, "| `"+tc.ID+"` |") {
			t.Errorf("test case %s is not in the test cases table", tc.ID)
		}
	}
	prose := strings.Join(strings.Fields(doc), " ") // phrases may wrap
	for _, want := range []string{
		fmt.Sprintf("at most %d entries", LogsPerCallCap),
		fmt.Sprintf("captures %d network requests", heavyNetwork),
		fmt.Sprintf("after a %d s burn-in", burnIn),
		fmt.Sprintf("| `--history` | `%d` |", DefaultHistory),
		fmt.Sprintf("(up to %d,%03d,%03d)", MaxHistory/1_000_000, MaxHistory/1000%1000, MaxHistory%1000),
		"by kind: `" + strings.Join(faultKinds, "`, `") + "`",
		"by kind: `" + LostAnswer500 + "`, `" + LostAnswerDrop + "`",
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/sandbox.md does not say %q", want)
		}
	}
}
