package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// checkDebugBlocks fails unless every request's --debug block is whole:
// its header lines follow its "> METHOD URL" line, as many as a request of
// that method carries (Accept, Authorization, User-Agent; and Content-Type
// with a body), with no line of another request or answer between.
func checkDebugBlocks(t *testing.T, stderr string) {
	t.Helper()
	headers, blocks, want := -1, 0, 0
	for _, line := range strings.Split(stderr, "\n") {
		isHeader := strings.HasPrefix(line, "> ") && strings.Contains(line, ": ") && !strings.Contains(line, "(attempt ")
		switch {
		case strings.HasPrefix(line, "> ") && strings.HasSuffix(line, ")") && strings.Contains(line, " (attempt "):
			headers, blocks, want = 0, blocks+1, 3
			if strings.HasPrefix(line, "> POST ") {
				want = 4
			}
		case isHeader && headers >= 0:
			headers++
			if headers == want {
				headers = -1
			}
		case isHeader:
			t.Errorf("a header line outside its request's block: %q\n%s", line, stderr)
		case headers >= 0 && !strings.HasPrefix(line, "> {") && !strings.HasPrefix(line, "  ") && line != "}":
			t.Errorf("%q inside a request's block (after %d of %d headers)\n%s", line, headers, want, stderr)
			headers = -1
		}
	}
	if blocks == 0 {
		t.Errorf("no --debug block:\n%s", stderr)
	}
}

// Requests in flight at once (the starts of several plans, the pages --all
// fetches ahead) write their --debug blocks whole: run with -race, the
// writes are also checked to take turns.
func TestDebugBlocksOfConcurrentRequestsStayWhole(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--debug", "--plan", "pln-passing_sandbox", "--plan", "pln-failing_sandbox",
		"--plan", "pln-skipped_sandbox", "--plan", "pln-slow_sandbox").Expect(t, 0)
	checkDebugBlocks(t, r.Stderr)
	r = e.Run("run", "list", "--all", "-L", "1", "-o", "json", "--debug").Expect(t, 0)
	checkDebugBlocks(t, r.Stderr)
}
