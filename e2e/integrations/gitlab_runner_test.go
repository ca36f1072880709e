package integrations_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// component is templates/run.yml: its spec header and its job, as
// documents for the schema and as the job the runner runs.
type component struct {
	Header, Jobs map[string]any // the two YAML documents, interpolated
	Job          gitlabJob
}

type gitlabJob struct {
	Stage       string         `yaml:"stage"`
	Image       string         `yaml:"image"`
	Variables   map[string]any `yaml:"variables"`
	Script      []string       `yaml:"script"`
	AfterScript []string       `yaml:"after_script"`
	Artifacts   struct {
		When     string   `yaml:"when"`
		ExposeAs string   `yaml:"expose_as"`
		Paths    []string `yaml:"paths"`
		Reports  struct {
			JUnit  string `yaml:"junit"`
			Dotenv string `yaml:"dotenv"`
		} `yaml:"reports"`
	} `yaml:"artifacts"`
}

type specInput struct {
	Description string   `yaml:"description"`
	Default     *string  `yaml:"default"`
	Options     []string `yaml:"options"`
}

var inputRef = regexp.MustCompile(`\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]`)

// loadComponent reads the component and interpolates its inputs as GitLab
// does when a pipeline includes it: the given ones, else their defaults.
// An input that is not declared, or a value outside its options, fails
// the test, as it fails the pipeline; gitlab-ci-local accepts undeclared
// inputs, so only this reading checks that the tests (and the docs'
// examples) use the component's own.
func loadComponent(t *testing.T, inputs map[string]string) component {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "templates", "run.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("templates/run.yml: %v", err)
		}
		docs = append(docs, &n)
	}
	if len(docs) != 2 {
		t.Fatalf("templates/run.yml has %d documents, want the spec header and the job", len(docs))
	}
	var header struct {
		Spec struct {
			Inputs map[string]specInput `yaml:"inputs"`
		} `yaml:"spec"`
	}
	if err := docs[0].Decode(&header); err != nil {
		t.Fatal(err)
	}
	values := map[string]string{}
	for name, in := range header.Spec.Inputs {
		if in.Description == "" || in.Default == nil {
			t.Errorf("input %s: needs a description and a default", name)
			continue
		}
		values[name] = *in.Default
	}
	for name, v := range inputs {
		in, ok := header.Spec.Inputs[name]
		if !ok {
			t.Fatalf("the component has no input %q", name)
		}
		if len(in.Options) > 0 && !contains(in.Options, v) {
			t.Fatalf("input %s: %q is not one of %v", name, v, in.Options)
		}
		values[name] = v
	}
	interpolate(t, docs[1], values)
	var c component
	for i, dst := range []*map[string]any{&c.Header, &c.Jobs} {
		if err := docs[i].Decode(dst); err != nil {
			t.Fatal(err)
		}
	}
	jobs := docs[1].Content[0]
	if len(jobs.Content) != 2 {
		t.Fatalf("the component defines %d keys, want one job", len(jobs.Content)/2)
	}
	if err := jobs.Content[1].Decode(&c.Job); err != nil {
		t.Fatal(err)
	}
	return c
}

// interpolate replaces $[[ inputs.NAME ]] in every string of n.
func interpolate(t *testing.T, n *yaml.Node, values map[string]string) {
	t.Helper()
	if n.Kind == yaml.ScalarNode {
		n.Value = inputRef.ReplaceAllStringFunc(n.Value, func(m string) string {
			name := inputRef.FindStringSubmatch(m)[1]
			v, ok := values[name]
			if !ok {
				t.Errorf("%s: no such input in spec:inputs", m)
			}
			return v
		})
		return
	}
	for _, c := range n.Content {
		interpolate(t, c, values)
	}
}

// gitlabResult is what the job leaves: its exit code, log and artefacts.
type gitlabResult struct {
	Code   int
	Log    string
	Dotenv map[string]string
	Dir    string // $CI_PROJECT_DIR
}

// runGitLabJob runs the job's script, then its after_script, each as one
// sh script in $CI_PROJECT_DIR, with GitLab's predefined variables, the
// job's variables and the project's CI/CD variables (the key).
func runGitLabJob(t *testing.T, job gitlabJob, projectVars map[string]string, onStart func(*os.Process, *syncBuffer)) gitlabResult {
	t.Helper()
	return runGitLabJobWith(t, job, projectVars, "sh", onStart)
}

// runGitLabJobIn runs the job in another shell ("busybox").
func runGitLabJobIn(t *testing.T, job gitlabJob, projectVars map[string]string, shell string) gitlabResult {
	t.Helper()
	return runGitLabJobWith(t, job, projectVars, shell, nil)
}

func runGitLabJobWith(t *testing.T, job gitlabJob, projectVars map[string]string, shell string, onStart func(*os.Process, *syncBuffer)) gitlabResult {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": home, "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "TMPDIR": home,
		"CI": "true", "GITLAB_CI": "true", "CI_PROJECT_DIR": dir, "CI_PROJECT_PATH": "shop/web",
		"CI_COMMIT_SHA": "89abcdef0123456789abcdef0123456789abcdef", "CI_COMMIT_BRANCH": "release-2",
		"CI_COMMIT_REF_NAME": "release-2", "CI_COMMIT_MESSAGE": "Bump the cart service",
		"GITLAB_USER_LOGIN": "tanuki", "CI_JOB_ID": "4242", "CI_PIPELINE_SOURCE": "push",
	}
	for k, v := range job.Variables {
		switch v := v.(type) {
		case string:
			env[k] = v
		case map[string]any:
			env[k], _ = v["value"].(string)
		default:
			t.Fatalf("variable %s: %T", k, v)
		}
	}
	for k, v := range projectVars {
		env[k] = v
	}
	var res gitlabResult
	res.Dir = dir
	log, code := runShell(t, shellStep{ID: "script", Shell: shell, Script: strings.Join(job.Script, "\n"), Dir: dir, Env: env, OnStart: onStart})
	after, _ := runShell(t, shellStep{ID: "after_script", Shell: shell, Script: strings.Join(job.AfterScript, "\n"), Dir: dir, Env: env})
	res.Code, res.Log = code, log+after
	res.Dotenv = readOutputFile(t, filepath.Join(dir, job.Artifacts.Reports.Dotenv))
	return res
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
