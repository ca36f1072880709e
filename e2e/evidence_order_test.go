package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 39, point 5: on pln-flaky_sandbox the infinite scroll's evaluation
// says "the request for page 17 timed out": that request's line leads the
// test case's evidence, before the application's 5xx, with the images'
// 404s last (it was fifth, behind three of them).
func TestTheNamedRequestLeadsTheEvidence(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", sandbox.PlanFlaky, "--wait").Expect(t, 1)
	story := r.Stderr[strings.Index(r.Stderr, "✗ Search the catalogue with infinite scroll FAILED"):]
	var requests []string
	for line := range strings.Lines(story) {
		if strings.HasPrefix(line, "      +") && (strings.Contains(line, " GET ") || strings.Contains(line, " POST ")) {
			requests = append(requests, strings.TrimSpace(line))
		}
		if strings.HasPrefix(line, "      more: ") {
			break
		}
	}
	if len(requests) < 3 || !strings.Contains(requests[0], "GET /api/search?q=shoe&page=17 failed net::ERR_TIMED_OUT") ||
		!strings.Contains(requests[1], "GET /api/recommendations?sku=TR2-42 500") {
		t.Fatalf("the search's timeout, then the application's 500, lead:\n%s", strings.Join(requests, "\n"))
	}
	seenStatic := false
	for _, l := range requests {
		static := strings.Contains(l, ".png ") || strings.Contains(l, ".woff2 ") || strings.Contains(l, ".ico ")
		if seenStatic && !static {
			t.Errorf("a request after a static asset's:\n%s", strings.Join(requests, "\n"))
		}
		seenStatic = seenStatic || static
	}
}
