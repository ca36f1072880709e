package integrations_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README documents every input and output of the action, and nothing
// the action does not have: its tables are what users read instead of
// action.yml.
func TestReadmeDocumentsEveryInputAndOutput(t *testing.T) {
	a := loadAction(t)
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n## GitHub Action\n")
	section, _, _ = strings.Cut(section, "\n## ")
	inputs, outputs, _ := strings.Cut(section, "| output |")
	check := func(table, what string, want map[string]bool) {
		rows := map[string]bool{}
		for _, m := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(table, -1) {
			rows[m[1]] = true
		}
		for name := range want {
			if !rows[name] {
				t.Errorf("README's GitHub Action section has no row for %s %s", what, name)
			}
		}
		for name := range rows {
			if !want[name] {
				t.Errorf("README documents %s %s, which action.yml does not have", what, name)
			}
		}
	}
	in, out := map[string]bool{}, map[string]bool{}
	for name := range a.Inputs {
		in[name] = true
	}
	for name := range a.Outputs {
		out[name] = true
	}
	check(inputs, "input", in)
	check(outputs, "output", out)
}

// The action's pinned version and the component's are one: the release
// process sets both (scripts/action-version.sh), and a user moving from
// GitHub to GitLab gets the same binary.
func TestActionAndComponentPinTheSameRelease(t *testing.T) {
	a := loadAction(t)
	c := loadComponent(t, nil)
	v := *a.Inputs["version"].Default
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(v) {
		t.Errorf("action.yml's version default %q is not a release (X.Y.Z); never latest", v)
	}
	if got := c.Job.Variables["TESTCTL_VERSION"]; got != v {
		t.Errorf("templates/run.yml installs %v by default, action.yml %s", got, v)
	}
}
