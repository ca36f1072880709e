package integrations_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/ci.md lists every input of the component, and nothing it does not
// have: the table is what users read instead of templates/run.yml. The
// component has the action's inputs that apply on GitLab: all but those
// named here, with why.
func TestCIDocsListEveryComponentInput(t *testing.T) {
	spec, _ := loadComponent(t, nil).Header["spec"].(map[string]any)
	inputs, _ := spec["inputs"].(map[string]any)
	if len(inputs) == 0 {
		t.Fatal("templates/run.yml declares no spec:inputs")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n## GitLab CI/CD: the testctl component\n")
	section, _, _ = strings.Cut(section, "\n## ")
	_, table, ok := strings.Cut(section, "| input | default | |")
	if !ok {
		t.Fatal("docs/ci.md's component section has no table of inputs (| input | default | |)")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(table, -1) {
		rows[m[1]] = true
	}
	for name := range inputs {
		if !rows[name] {
			t.Errorf("docs/ci.md's table of the component's inputs has no row for %s", name)
		}
	}
	for name := range rows {
		if _, ok := inputs[name]; !ok {
			t.Errorf("docs/ci.md lists the component input %s, which templates/run.yml does not declare", name)
		}
	}
	notOnGitLab := map[string]string{
		"api-key":      "the key is the masked CI/CD variable TESTCTL_API_KEY: inputs show in the pipeline's configuration",
		"github-token": "GitHub's; the component's comment takes TESTCTL_GITLAB_TOKEN",
		"wait":         "the job gates the pipeline: it always waits",
		"preview":      "it reads GitHub deployments; wait-for-app waits for a url= in app on GitLab",
	}
	var missing []string
	for name := range loadAction(t).Inputs {
		if _, ok := inputs[name]; !ok && notOnGitLab[name] == "" {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("the action's inputs %v are not the component's: add them to templates/run.yml (and docs/ci.md), or say here why they do not apply", missing)
	}
}
