package stepoutputs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/stepoutputs"
)

// gitlabName is what GitLab accepts as a dotenv variable's name.
var gitlabName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkGitLabRules fails unless data is a dotenv report GitLab accepts:
// under 5 KB, one KEY=value a line, no empty line, no comment, nothing
// quoted.
func checkGitLabRules(t *testing.T, data []byte) {
	t.Helper()
	if len(data) >= 5120 {
		t.Errorf("dotenv of %d bytes: GitLab refuses 5 KB or more", len(data))
	}
	if !strings.HasSuffix(string(data), "\n") {
		t.Errorf("dotenv does not end with a newline: %q", data)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok || !gitlabName.MatchString(k) || v == "" || strings.ContainsAny(v, "\r\n\"'") || strings.HasPrefix(line, "#") {
			t.Errorf("dotenv line %q breaks GitLab's rules", line)
		}
	}
}

func TestDotenvNamesTheRunsAndTheFinalCode(t *testing.T) {
	var s stepoutputs.Step
	s.SetRuns([]stepoutputs.Run{{ShortID: "r1", URL: "https://x/r1"}})
	// The verdict's runs replace those noted at the start.
	// r3 has no URL: "-" keeps the two lists in step.
	s.SetRuns([]stepoutputs.Run{{ShortID: "r1", URL: "https://x/r1"}, {ShortID: "r2", URL: "https://x/a b\nc\x1b[31m/r2"}, {ShortID: "r3"}})
	path := filepath.Join(t.TempDir(), "testctl.env")
	cut, err := s.WriteDotenv(path, stepoutputs.End{Code: 143, Word: "terminated"})
	if err != nil || cut != 0 {
		t.Fatal(cut, err)
	}
	data, _ := os.ReadFile(path)
	want := "TESTCTL_EXIT_CODE=143\nTESTCTL_VERDICT=terminated\nTESTCTL_RUN_COUNT=3\nTESTCTL_RUN_SHORT_ID=r1 r2 r3\nTESTCTL_RUN_URL=https://x/r1 https://x/a%20b%20c/r2 -\n"
	if string(data) != want {
		t.Errorf("dotenv\n%s\nwant\n%s", data, want)
	}
	checkGitLabRules(t, data)
}

// No run: no empty list (GitLab's rules), the code and its word still.
func TestDotenvWithoutRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testctl.env")
	var s *stepoutputs.Step // a command outside the tree notes nothing
	if _, err := s.WriteDotenv(path, stepoutputs.End{Code: 2, Word: "usage"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "TESTCTL_EXIT_CODE=2\nTESTCTL_VERDICT=usage\nTESTCTL_RUN_COUNT=0\n" {
		t.Errorf("dotenv %q", data)
	}
	checkGitLabRules(t, data)
}

// Hundreds of runs would take the file past GitLab's 5 KB, and GitLab would
// refuse the job's artefacts: the lists stop at what fits.
func TestDotenvStaysUnderGitLabsLimit(t *testing.T) {
	var s stepoutputs.Step
	var runs []stepoutputs.Run
	for i := range 300 {
		id := fmt.Sprintf("r%05d", i)
		runs = append(runs, stepoutputs.Run{ShortID: id, URL: "https://app.example.com/projects/proj_1/runs/" + id})
	}
	s.SetRuns(runs)
	path := filepath.Join(t.TempDir(), "testctl.env")
	cut, err := s.WriteDotenv(path, stepoutputs.End{Code: 1, Word: "failed"})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	checkGitLabRules(t, data)
	if cut == 0 || !strings.Contains(string(data), "TESTCTL_RUN_COUNT=300\n") {
		t.Errorf("cut %d: want some runs left out and all counted:\n%s", cut, data)
	}
	ids := strings.Fields(strings.TrimPrefix(regexp.MustCompile(`(?m)^TESTCTL_RUN_SHORT_ID=.*$`).FindString(string(data)), "TESTCTL_RUN_SHORT_ID="))
	if len(ids)+cut != 300 {
		t.Errorf("%d ids listed and %d cut, want 300 in all", len(ids), cut)
	}
}

// The dotenv file is replaced whole: an earlier job's lines never stay.
func TestDotenvReplacesTheFileWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testctl.env")
	if err := os.WriteFile(path, []byte(strings.Repeat("OLD=1\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	var s stepoutputs.Step
	if _, err := s.WriteDotenv(path, stepoutputs.End{Code: 0, Word: "passed"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "OLD") {
		t.Errorf("an earlier file's lines stayed:\n%s", data)
	}
}

func TestAppendGitHubNamesOnlyTheReportsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	var s stepoutputs.Step
	s.Wrote("junit", "out/junit.xml")
	if err := s.AppendGitHub(path, stepoutputs.End{Code: 8, Word: "local"}); err != nil {
		t.Fatal(err)
	}
	out := cmdtest.ReadGitHubOutput(t, path)
	if out["exit-code"] != "8" || out["verdict"] != "local" || out["junit"] != "out/junit.xml" || len(out) != 3 {
		t.Errorf("outputs %v", out)
	}
}
