package integrations_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testctlBinary is the host's testctl as releaseArchive builds it, once
// per test process, in a directory of the test's own.
func testctlBinary(t *testing.T) string {
	t.Helper()
	releaseArchive(t)
	path := filepath.Join(t.TempDir(), "testctl")
	if err := os.WriteFile(path, built.bin, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A step that pipes testctl's data into a reader that stops at once gets
// testctl's own exit code under `bash -eo pipefail` (GitHub's shell: bash),
// not 141 from a death by SIGPIPE, and the exit code file is written.
func TestClosedPipeEndsWithTestctlsCode(t *testing.T) {
	bin := testctlBinary(t)
	dir := t.TempDir()
	codeFile := filepath.Join(dir, "exit-code")
	out, code := runShell(t, shellStep{ID: "pipe", Shell: "bash", Dir: dir,
		Script: "'" + bin + "' --sandbox run list -o json | (exec 0<&-; sleep 1)\necho step went on\n",
		Env:    map[string]string{"PATH": os.Getenv("PATH"), "HOME": dir, "XDG_CONFIG_HOME": dir, "TESTCTL_EXIT_CODE_FILE": codeFile}})
	if code != 0 || !strings.Contains(out, "step went on") {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	if strings.Contains(out, "error") {
		t.Errorf("the closed pipe is reported:\n%s", out)
	}
	if data, err := os.ReadFile(codeFile); err != nil || string(data) != "0\n" {
		t.Errorf("exit code file: %q, %v", data, err)
	}
}

// A code decided before the data reaches a reader that has gone survives
// it: a start of two plans, one missing, exits 5 with `| true` after it as
// without, as a table or as JSON, and the exit code file says 5.
func TestClosedPipeKeepsADecidedCode(t *testing.T) {
	bin := testctlBinary(t)
	dir := t.TempDir()
	for _, format := range []string{"table", "json"} {
		codeFile := filepath.Join(dir, "exit-code-"+format)
		out, code := runShell(t, shellStep{ID: "pipe-" + format, Shell: "bash", Dir: dir,
			Script: "set +e\n(sleep 1; '" + bin + "' --sandbox run start --plan pln-passing_sandbox --plan pln-nope_sandbox -o " + format + ") | true\n" +
				"echo \"testctl exited ${PIPESTATUS[0]}\"\n",
			Env: map[string]string{"PATH": os.Getenv("PATH"), "HOME": dir, "XDG_CONFIG_HOME": dir, "TESTCTL_EXIT_CODE_FILE": codeFile}})
		if code != 0 || !strings.Contains(out, "testctl exited 5\n") {
			t.Errorf("-o %s: exit %d, want testctl's 5:\n%s", format, code, out)
		}
		if !strings.Contains(out, "plan pln-nope_sandbox was not started") || strings.Contains(out, "pipe") {
			t.Errorf("-o %s: stderr:\n%s", format, out)
		}
		if data, err := os.ReadFile(codeFile); err != nil || string(data) != "5\n" {
			t.Errorf("-o %s: exit code file: %q, %v", format, data, err)
		}
	}
}
