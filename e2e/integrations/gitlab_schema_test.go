package integrations_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// gitlabSchema is GitLab's published CI/CD configuration schema
// (testdata/README.md says where it comes from).
func gitlabSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "gitlab-ci.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("gitlab-ci.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("gitlab-ci.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validateCI checks one YAML document against the schema, as JSON.
func validateCI(t *testing.T, s *jsonschema.Schema, what string, doc any) {
	t.Helper()
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%s does not conform to GitLab's CI schema: %v", what, err)
	}
}

// The component's spec header and its job, interpolated with the default
// inputs, are valid GitLab CI configuration.
func TestComponentConformsToGitLabsSchema(t *testing.T) {
	s := gitlabSchema(t)
	c := loadComponent(t, map[string]string{"plan": "pln-checkout_a1b2"})
	validateCI(t, s, "the spec header of templates/run.yml", c.Header)
	validateCI(t, s, "the job of templates/run.yml", c.Jobs)
}

// The GitLab examples of docs/ci.md are valid configuration too, and
// include the component by the name it has.
func TestDocsGitLabExamplesConformToGitLabsSchema(t *testing.T) {
	s := gitlabSchema(t)
	blocks := gitlabExamples(t, filepath.Join("..", "..", "docs", "ci.md"))
	if len(blocks) == 0 {
		t.Fatal("docs/ci.md has no GitLab example that includes the component")
	}
	for i, b := range blocks {
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(b), &doc); err != nil {
			t.Fatalf("example %d: %v\n%s", i+1, err, b)
		}
		validateCI(t, s, "docs/ci.md's GitLab example "+string(rune('1'+i)), doc)
		// Each include's inputs are the component's own (GitLab refuses
		// any other; gitlab-ci-local would not say).
		includes, _ := doc["include"].([]any)
		for _, inc := range includes {
			m, _ := inc.(map[string]any)
			inputs := map[string]string{}
			for k, v := range asMap(m["inputs"]) {
				inputs[k] = fmt.Sprint(v)
			}
			loadComponent(t, inputs)
		}
	}
}

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// gitlabExamples are the YAML blocks of a Markdown file that include the
// component.
func gitlabExamples(t *testing.T, path string) []string {
	t.Helper()
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range yamlBlock.FindAllStringSubmatch(string(md), -1) {
		if strings.Contains(m[1], "component: ") && strings.Contains(m[1], "/testctl/run@") {
			out = append(out, m[1])
		}
	}
	return out
}

// An empty html and a job-name of one's own are valid configuration too, and
// leave no empty artefact path (gitlab-ci-local archived the whole project,
// .git/ included, for one): the job archives its fixed report directory,
// which a job that wrote no report leaves absent.
func TestComponentHTMLEmptyAndJobNameConformToGitLabsSchema(t *testing.T) {
	s := gitlabSchema(t)
	c := loadComponent(t, map[string]string{"plan": "pln-checkout_a1b2", "html": "", "job-name": "e2e checkout"})
	validateCI(t, s, "templates/run.yml with html '' and job-name 'e2e checkout'", c.Jobs)
	if _, ok := c.Jobs["e2e checkout"]; !ok {
		t.Errorf("the job is not named by job-name: %v", keys(c.Jobs))
	}
	for _, p := range c.Job.Artifacts.Paths {
		if strings.TrimSpace(p) == "" || strings.Contains(p, "$[[") {
			t.Errorf("artifacts:paths %q: an empty path (or one made of an input) archives the whole project when html is ''", c.Job.Artifacts.Paths)
		}
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
