package e2e_test

import (
	"cmp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// A CI step without a base URL (a workflow pasted without the action's or
// the component's base-url input) is told to give that input: exit 2,
// nothing sent. Outside CI the three ways of a terminal are named.
func TestNoBaseURLInCINamesTheBaseURLInput(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", "")
	for _, tt := range []struct {
		env       string
		want, not []string
	}{
		{"GITHUB_ACTIONS", []string{"In GitHub Actions", "base-url: ${{ vars.TESTCTL_BASE_URL }}", "the testctl action's input", "TESTCTL_BASE_URL: ${{ vars.TESTCTL_BASE_URL }}"}, []string{"testctl config set", "--sandbox", "component"}},
		{"GITLAB_CI", []string{"In GitLab CI", "base-url: https://…", "the testctl component's input", "TESTCTL_BASE_URL: https://…  (a CI/CD variable"}, []string{"testctl config set", "--sandbox", "vars.", "action"}},
		{"", []string{"--base-url https://…", "TESTCTL_BASE_URL=https://…", "testctl config set base_url", "--sandbox"}, []string{"input"}},
	} {
		t.Run(cmp.Or(tt.env, "outside CI"), func(t *testing.T) {
			if tt.env != "" {
				e.Setenv(tt.env, "true")
				defer e.Setenv(tt.env, "")
			}
			e.Setenv("TESTCTL_IN_PLAN", "pln-checkout_a1b2")
			e.Setenv("TESTCTL_IN_CODEHOST", "false")
			r := e.Run("ci-step").Expect(t, 2)
			cmdtest.Contains(t, "stderr", r.Stderr, append([]string{"error: no base URL configured."}, tt.want...)...)
			for _, s := range tt.not {
				if strings.Contains(r.Stderr, s) {
					t.Errorf("stderr names %q:\n%s", s, r.Stderr)
				}
			}
			if n := e.Requests("POST /v1/run"); n != 0 {
				t.Errorf("%d starts sent", n)
			}
		})
	}
}
