package integrations_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// testctlCommand is a shell line (or a part of one) that runs testctl.
var testctlCommand = regexp.MustCompile(`(?m)(^|[;&|(]|\$\()\s*testctl\s`)

// Every workflow and pipeline the docs show runs as pasted with only the
// secrets and variables it names: each use of the action, the component or
// the binary is given the base URL and the key, as an input or in the
// environment, never left to a variable the reader was not told to set
// (actionlint, which checks the rest, cannot know that base-url is needed).
func TestDocsExamplesNameTheBaseURLAndTheKey(t *testing.T) {
	uses := 0
	for _, md := range []string{"README.md", "docs/ci.md", "docs/html-report.md"} {
		text, err := os.ReadFile(filepath.Join("..", "..", md))
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllStringSubmatch(string(text), -1) {
			block := m[1]
			var doc any
			if err := yaml.Unmarshal([]byte(block), &doc); err != nil {
				t.Fatalf("%s, YAML example %d: %v\n%s", md, i+1, err, block)
			}
			found := exampleUses(doc, strings.Contains(block, "TESTCTL_API_KEY"))
			if len(found) == 0 && (testctlCommand.MatchString(block) || strings.Contains(block, "testctl/testctl")) {
				t.Errorf("%s, YAML example %d runs testctl in a shape this test does not read:\n%s", md, i+1, block)
			}
			for _, u := range found {
				uses++
				for _, missing := range u.missing {
					t.Errorf("%s, YAML example %d: %s does not name %s: pasted, it fails for want of it\n%s", md, i+1, u.what, missing, block)
				}
			}
		}
	}
	if uses < 10 {
		t.Errorf("%d uses of testctl found in the docs' examples, want every one (at least 10)", uses)
	}
}

// use is one use of testctl in an example, and what it lacks.
type use struct {
	what    string
	missing []string
}

// exampleUses finds the uses of testctl in a parsed example: a GitHub
// workflow or a list of its steps, a GitLab pipeline (the component or a
// job of its own), or a CircleCI config. keyNamed: the example names the
// variable TESTCTL_API_KEY, which is where GitLab and CircleCI jobs take
// the key from (never a value in the file).
func exampleUses(doc any, keyNamed bool) []use {
	var out []use
	top, _ := doc.(map[string]any)
	if steps, ok := doc.([]any); ok { // a fragment: a GitHub job's steps
		return githubSteps(steps, nil)
	}
	if jobs, ok := top["jobs"].(map[string]any); ok && top["on"] != nil { // GitHub
		for _, j := range jobs {
			job, _ := j.(map[string]any)
			steps, _ := job["steps"].([]any)
			out = append(out, githubSteps(steps, []any{top["env"], job["env"]})...)
		}
		return out
	}
	if jobs, ok := top["jobs"].(map[string]any); ok && top["version"] != nil { // CircleCI
		for name, j := range jobs {
			job, _ := j.(map[string]any)
			steps, _ := job["steps"].([]any)
			runs := false
			for _, s := range steps {
				step, _ := s.(map[string]any)
				cmd, _ := step["run"].(string)
				if m, ok := step["run"].(map[string]any); ok {
					cmd, _ = m["command"].(string)
				}
				runs = runs || testctlCommand.MatchString(cmd)
			}
			if runs {
				out = append(out, use{"CircleCI job " + name, lacks(keyNamed, hasVar(job["environment"], "TESTCTL_BASE_URL"))})
			}
		}
		return out
	}
	// GitLab: the component's includes, and jobs with a script of their own.
	includes, _ := top["include"].([]any)
	for _, inc := range includes {
		m, _ := inc.(map[string]any)
		c, _ := m["component"].(string)
		if !strings.Contains(c, "/testctl/run@") {
			continue
		}
		inputs, _ := m["inputs"].(map[string]any)
		base := hasVar(inputs, "base-url") || hasVar(top["variables"], "TESTCTL_BASE_URL")
		out = append(out, use{"the component's include", lacks(keyNamed, base)})
	}
	for name, j := range top {
		job, _ := j.(map[string]any)
		script, _ := job["script"].([]any)
		for _, line := range script {
			if s, _ := line.(string); testctlCommand.MatchString(s) {
				base := hasVar(job["variables"], "TESTCTL_BASE_URL") || hasVar(top["variables"], "TESTCTL_BASE_URL")
				out = append(out, use{"GitLab job " + name, lacks(keyNamed, base)})
				break
			}
		}
	}
	return out
}

// githubSteps finds the steps that use the action or run testctl, given
// the environments around them (the workflow's, the job's).
func githubSteps(steps []any, env []any) []use {
	var out []use
	for i, s := range steps {
		step, _ := s.(map[string]any)
		envs := append(slices.Clip(env), step["env"])
		inEnv := func(name string) bool {
			for _, e := range envs {
				if hasVar(e, name) {
					return true
				}
			}
			return false
		}
		usesAction := strings.HasPrefix(stringOf(step["uses"]), "testctl/testctl@")
		if !usesAction && !testctlCommand.MatchString(stringOf(step["run"])) {
			continue
		}
		key, base := inEnv("TESTCTL_API_KEY"), inEnv("TESTCTL_BASE_URL")
		what := "the step running testctl"
		if usesAction {
			what = "the action's step"
			key = key || hasVar(step["with"], "api-key")
			base = base || hasVar(step["with"], "base-url")
		}
		if name := stringOf(step["name"]); name != "" {
			what += " " + `"` + name + `"`
		} else {
			what += " " + string(rune('1'+i))
		}
		out = append(out, use{what, lacks(key, base)})
	}
	return out
}

func lacks(key, base bool) []string {
	var out []string
	if !base {
		out = append(out, "the base URL (the base-url input, or TESTCTL_BASE_URL)")
	}
	if !key {
		out = append(out, "the key (the api-key input, or TESTCTL_API_KEY)")
	}
	return out
}

// hasVar: m, a map of inputs or variables, gives name a value.
func hasVar(m any, name string) bool {
	vars, _ := m.(map[string]any)
	v, ok := vars[name]
	return ok && strings.TrimSpace(stringOf(v)) != ""
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}
