package integrations_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is the part of GitHub's action metadata syntax a composite
// action uses; decoding with KnownFields refuses any other key.
type actionFile struct {
	Name        string                  `yaml:"name"`
	Description string                  `yaml:"description"`
	Author      string                  `yaml:"author"`
	Branding    map[string]string       `yaml:"branding"`
	Inputs      map[string]actionInput  `yaml:"inputs"`
	Outputs     map[string]actionOutput `yaml:"outputs"`
	Runs        struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionInput struct {
	Description string  `yaml:"description"`
	Required    bool    `yaml:"required"`
	Default     *string `yaml:"default"`
}

type actionOutput struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
}

// loadAction reads ../../action.yml and checks what GitHub requires of a
// composite action and what this emulation relies on.
func loadAction(t *testing.T) actionFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Name == "" || a.Description == "" {
		t.Error("action.yml: name and description are required")
	}
	if a.Runs.Using != "composite" {
		t.Errorf("action.yml: runs.using is %q, want composite", a.Runs.Using)
	}
	for name, in := range a.Inputs {
		if in.Description == "" || in.Default == nil {
			t.Errorf("input %s: needs a description and a default", name)
		}
	}
	ids := map[string]bool{}
	for i, s := range a.Runs.Steps {
		if s.ID == "" || ids[s.ID] {
			t.Errorf("step %d: needs an id of its own (%q)", i, s.ID)
		}
		ids[s.ID] = true
		if s.Shell == "" || s.Run == "" {
			t.Errorf("step %s: a composite run step needs shell and run", s.ID)
		}
		if exprPattern.MatchString(s.Run) {
			t.Errorf("step %s: an expression in the script text lets an input inject commands; pass it in env", s.ID)
		}
		if s.If != "" && s.If != "always()" {
			t.Errorf("step %s: if %q is outside the subset emulated here (always())", s.ID, s.If)
		}
	}
	for name, out := range a.Outputs {
		if out.Description == "" || !exprPattern.MatchString(out.Value) {
			t.Errorf("output %s: needs a description and a value expression", name)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return a
}

// emulatedToken is the job's github.token.
const emulatedToken = "ghs_emulatedjobtoken"

// actionJob is one use of the action in a job: its inputs (the rest take
// their defaults) and the runner's tool cache, which jobs on one runner share.
type actionJob struct {
	Inputs    map[string]string
	ToolCache string
	// OnStart gets the process of the step with this id once it runs.
	OnStartStep string
	OnStart     func(p *os.Process, out *syncBuffer)
}

// actionResult is what a workflow sees after the action's step.
type actionResult struct {
	Code      int               // the first failed step's exit code, else 0
	Outputs   map[string]string // the action's outputs
	Log       string            // as the runner shows it, masked
	RawLog    string            // as the steps wrote it
	Summary   string            // $GITHUB_STEP_SUMMARY
	Path      []string          // what the steps added to $GITHUB_PATH
	Workspace string
}

// runAction runs action.yml's steps in order, as the runner runs a
// composite action: expressions resolved, INPUT_* set, each step's
// $GITHUB_OUTPUT read into steps.ID.outputs, $GITHUB_ENV and $GITHUB_PATH
// carried to the steps after it, a step without `if: always()` skipped once
// one has failed.
func runAction(t *testing.T, job actionJob) actionResult {
	t.Helper()
	a := loadAction(t)
	osName, arch := hostRunner(t)
	home := t.TempDir()
	ws := filepath.Join(home, "workspace")
	temp := filepath.Join(home, "runner-temp")
	for _, d := range []string{ws, temp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	event := filepath.Join(home, "event.json")
	if err := os.WriteFile(event, []byte(`{"head_commit":{"message":"Fix the checkout total"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	actionPath, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	res := actionResult{Workspace: ws, Outputs: map[string]string{}}
	summary := filepath.Join(home, "step-summary.md")
	jobEnv := map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": home, "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"CI":              "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_STEP_SUMMARY": summary,
		"GITHUB_ACTION_PATH": actionPath, "GITHUB_EVENT_PATH": event,
		"GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567", "GITHUB_REF": "refs/heads/main",
		"GITHUB_REPOSITORY": "shop/web", "GITHUB_ACTOR": "octocat",
		"RUNNER_OS": osName, "RUNNER_ARCH": arch, "RUNNER_TEMP": temp, "RUNNER_TOOL_CACHE": job.ToolCache,
	}
	ctx := exprContext{inputs: map[string]string{}, steps: map[string]map[string]string{}, token: emulatedToken}
	for name, in := range a.Inputs {
		def, err := ctx.eval(*in.Default)
		if err != nil {
			t.Fatalf("input %s: default: %v", name, err)
		}
		ctx.inputs[name] = def
	}
	for name, v := range job.Inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
		ctx.inputs[name] = v
	}
	for name, v := range ctx.inputs {
		jobEnv["INPUT_"+strings.ToUpper(strings.ReplaceAll(name, " ", "_"))] = v
	}
	var raw strings.Builder
	failed := false
	for _, s := range a.Runs.Steps {
		if failed && s.If != "always()" {
			ctx.steps[s.ID] = map[string]string{} // a skipped step's outputs are empty
			continue
		}
		env := map[string]string{}
		for k, v := range jobEnv {
			env[k] = v
		}
		env["PATH"] = strings.Join(append(res.Path, jobEnv["PATH"]), string(os.PathListSeparator))
		for k, v := range s.Env {
			ev, err := ctx.eval(v)
			if err != nil {
				t.Fatalf("step %s: env %s: %v", s.ID, k, err)
			}
			env[k] = ev
		}
		outFile, envFile, pathFile := filepath.Join(temp, s.ID+".output"), filepath.Join(temp, s.ID+".env"), filepath.Join(temp, s.ID+".path")
		env["GITHUB_OUTPUT"], env["GITHUB_ENV"], env["GITHUB_PATH"] = outFile, envFile, pathFile
		step := shellStep{ID: s.ID, Shell: s.Shell, Script: s.Run, Dir: ws, Env: env}
		if s.ID == job.OnStartStep {
			step.OnStart = job.OnStart
		}
		log, code := runShell(t, step)
		raw.WriteString(log)
		ctx.steps[s.ID] = readOutputFile(t, outFile)
		for k, v := range readOutputFile(t, envFile) {
			jobEnv[k] = v
		}
		if b, err := os.ReadFile(pathFile); err == nil {
			for _, p := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				res.Path = append([]string{p}, res.Path...)
			}
		}
		if code != 0 && !failed {
			failed, res.Code = true, code
		}
	}
	for name, out := range a.Outputs {
		v, err := ctx.eval(out.Value)
		if err != nil {
			t.Fatalf("output %s: %v", name, err)
		}
		res.Outputs[name] = v
	}
	res.RawLog = raw.String()
	res.Log = maskLog(res.RawLog)
	if b, err := os.ReadFile(summary); err == nil {
		res.Summary = string(b)
	}
	return res
}
