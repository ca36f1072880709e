package integrations_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A job retried in its pipeline, under gitlab-ci-local: GitLab numbers no
// attempt, so the retry is recognised by a run of its plan and commit
// created since the pipeline was (CI_PIPELINE_CREATED_AT, fixed here as a
// retry sees it): the first job starts a run and says nothing of a retry,
// the retried job starts nothing and says so.
func TestGitLabCIRetriedJobReusesItsPassedRun(t *testing.T) {
	needGitLabCILocal(t)
	t.Parallel()
	// At the sandbox's own speed: GitLab gives no time for the end of the
	// window but now, so the runs' times must be the runner's.
	rel := newRelease(t)
	sb, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{Speed: 1, History: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	const sha = "fedcba9876543210fedcba9876543210fedcba98"
	// The pipeline's creation: a second before a run started now.
	client := &api.Client{BaseURL: sb.BaseURL, APIKey: testKey}
	ctx := context.Background()
	var list *api.RunList
	if _, err := client.StartRun(ctx, api.StartRunRequest{TestPlanShortID: "pln-skipped_sandbox", CommitHash: "0000000"}); err != nil {
		t.Fatal(err)
	}
	list, err = client.ListRuns(ctx, api.ListRunsOptions{CommitHash: "0000000"})
	if err != nil || len(list.Runs) != 1 {
		t.Fatalf("%v %+v", err, list)
	}
	created := api.Time(&list.Runs[0].CreatedAt).Add(-time.Second).UTC().Format(time.RFC3339)
	in := componentInputs(rel, sb, "pln-passing_sandbox")
	in["args"] = "--commit " + sha + " --branch main"
	// gitlab-ci-local says GITLAB_CI=false, and sets its own creation
	// time, unless told to take ours.
	vars := with(glVars, "CI_PIPELINE_CREATED_AT", created, "GITLAB_CI", "true")
	flags := []string{"--ignore-predefined-vars", "CI_PIPELINE_CREATED_AT,GITLAB_CI"}
	starts := func() int { return sb.Server.Stats().Requests["POST /v1/run"] }

	first := runGitLabCI(t, glPipeline{Includes: []map[string]string{in}, Vars: vars, Flags: flags})
	if first.Jobs["testctl"] != 0 || starts() != 2 {
		t.Fatalf("the first job: exit %d, %d starts in all\n%s", first.Jobs["testctl"], starts(), first.Log)
	}
	if strings.Contains(first.Log, "not run again") || strings.Contains(first.Log, "anew") {
		t.Errorf("the first job talks of a retry:\n%s", first.Log)
	}
	list, err = client.ListRuns(ctx, api.ListRunsOptions{CommitHash: sha})
	if err != nil || len(list.Runs) != 1 {
		t.Fatalf("%v %+v", err, list)
	}
	id := list.Runs[0].ShortID

	retry := runGitLabCI(t, glPipeline{Includes: []map[string]string{in}, Vars: vars, Flags: flags})
	if retry.Jobs["testctl"] != 0 || starts() != 2 {
		t.Errorf("the retried job: exit %d, %d starts in all, want 0 and none more\n%s", retry.Jobs["testctl"], starts(), retry.Log)
	}
	if !strings.Contains(retry.Log, "passed in run "+id+", started by an earlier attempt: not run again") {
		t.Errorf("the retried job does not say it reused run %s:\n%s", id, retry.Log)
	}
}
