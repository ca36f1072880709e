package start_test

import (
	"strings"

	"github.com/testctl/testctl/pkg/cmdtest"
)

func runsStarted(e *cmdtest.Env) int { return e.Sandbox.Server.Stats().RunsStarted }

// testCase is the sandbox's project test case n (1 to 10).
func testCase(n int) string {
	return strings.ReplaceAll("5a4db00N-0000-4000-8000-00000000000N", "N", string("0123456789a"[n]))
}
