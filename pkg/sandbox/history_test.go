package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func listRuns(t testing.TB, s *Server, query string) api.RunList {
	t.Helper()
	return decode[api.RunList](t, send(t, s, "GET", "/v1/run"+query, ProjectKey, nil), http.StatusOK)
}

func TestRunHistoryPaging(t *testing.T) {
	s, _ := newSandbox(t, Options{Seed: 7})
	first := listRuns(t, s, "")
	if first.Total != DefaultHistory || first.Limit != 20 || first.Offset != 0 || len(first.Runs) != 20 {
		t.Fatalf("default page: total %d limit %d offset %d len %d", first.Total, first.Limit, first.Offset, len(first.Runs))
	}
	var paged []api.RunSummary
	for off := 0; off < 60; off += 7 {
		page := listRuns(t, s, fmt.Sprintf("?limit=7&offset=%d", off))
		paged = append(paged, page.Runs...)
	}
	whole := listRuns(t, s, "?limit=100")
	if len(whole.Runs) != 50 || len(paged) != 50 {
		t.Fatalf("whole %d, paged %d", len(whole.Runs), len(paged))
	}
	statuses, triggers, branches, plans := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i, r := range whole.Runs {
		if r.ShortID != paged[i].ShortID {
			t.Fatalf("page order differs at %d", i)
		}
		if i > 0 && r.CreatedAt > whole.Runs[i-1].CreatedAt {
			t.Errorf("not newest first at %d", i)
		}
		if !api.IsTerminalStatus(r.Status) || r.FinishedAt == nil || r.StartedAt == nil || r.URL == "" ||
			r.TotalCount == 0 || r.PassedCount+r.FailedCount+r.SkippedCount+r.ErroredCount+r.CancelledCount != r.TotalCount {
			t.Errorf("summary %+v", r)
		}
		statuses[r.Status+"/"+fmt.Sprint(r.Result != nil)] = true
		triggers[r.Trigger] = true
		if r.Branch != nil {
			branches[*r.Branch] = true
		}
		if r.TestPlanShortID != nil {
			plans[*r.TestPlanShortID] = true
		}
	}
	if len(statuses) < 3 || len(triggers) != 2 || len(branches) < 3 || len(plans) < 4 {
		t.Errorf("history not mixed: %v %v %v %v", statuses, triggers, branches, plans)
	}
	if page := listRuns(t, s, "?offset=200"); len(page.Runs) != 0 || page.Total != 50 {
		t.Errorf("past the end: %+v", page)
	}
	// A past run can be read in detail.
	d := getRun(t, s, whole.Runs[3].ShortID, "?testCases=all")
	if d.Status != whole.Runs[3].Status || len(d.RunTestCases) != whole.Runs[3].TotalCount {
		t.Errorf("detail of a past run %+v", d)
	}
}

func TestRunHistoryFilters(t *testing.T) {
	s, _ := newSandbox(t, Options{History: 500})
	for _, f := range []string{"status=ERROR", "status=CANCELLED", "result=FAILED", "result=SKIPPED", "trigger=CODEHOST",
		"trigger=API", "branch=main", "branch=fix/login-timeout", "testPlanShortId=pln-failing_sandbox",
		"status=COMPLETED&result=PASSED&trigger=CODEHOST&branch=develop"} {
		t.Run(f, func(t *testing.T) {
			total := int32(0)
			n := 0
			for off := 0; ; off += 100 {
				page := listRuns(t, s, fmt.Sprintf("?%s&limit=100&offset=%d", f, off))
				total = page.Total
				for _, r := range page.Runs {
					n++
					ok := true
					switch f {
					case "status=ERROR", "status=CANCELLED":
						ok = r.Status == f[7:] && r.Result == nil
					case "result=FAILED", "result=SKIPPED":
						ok = r.Result != nil && *r.Result == f[7:]
					case "trigger=CODEHOST", "trigger=API":
						ok = r.Trigger == f[8:]
					case "branch=main", "branch=fix/login-timeout":
						ok = r.Branch != nil && *r.Branch == f[7:]
					case "testPlanShortId=pln-failing_sandbox":
						ok = r.TestPlanShortID != nil && *r.TestPlanShortID == PlanFailing
					default:
						ok = r.Status == "COMPLETED" && *r.Result == "PASSED" && r.Trigger == "CODEHOST" && *r.Branch == "develop"
					}
					if !ok {
						t.Fatalf("%+v does not match", r)
					}
				}
				if len(page.Runs) < 100 {
					break
				}
			}
			if n == 0 || int32(n) != total || total >= 500 {
				t.Errorf("matched %d, total %d", n, total)
			}
		})
	}
	for _, bad := range []string{"limit=0", "limit=101", "limit=-1", "limit=ten", "offset=-1", "offset=x",
		"status=DONE", "result=passed", "trigger=CI", "testPlanShortId=plan"} {
		wantError(t, send(t, s, "GET", "/v1/run?"+bad, ProjectKey, nil), http.StatusBadRequest)
	}
}

func TestLiveRunsOnTopOfHistory(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	a := startPlan(t, s, PlanPassing).Run.ShortID
	advance(fake, 1)
	b := startPlan(t, s, PlanFailing).Run.ShortID
	l := listRuns(t, s, "?limit=3")
	if l.Total != 52 || l.Runs[0].ShortID != b || l.Runs[1].ShortID != a {
		t.Fatalf("live runs not on top: %+v", l.Runs)
	}
	if l.Runs[0].Status != api.StatusInitiated || l.Runs[0].StartedAt != nil || l.Runs[0].FinishedAt != nil || l.Runs[0].Result != nil {
		t.Errorf("new run's summary %+v", l.Runs[0])
	}
	if l.Runs[1].Status != api.StatusRunning || l.Runs[1].StartedAt == nil || l.Runs[1].FinishedAt != nil {
		t.Errorf("running summary %+v", l.Runs[1])
	}
	// Filters read the live state.
	if n := listRuns(t, s, "?status=RUNNING").Total; n != 1 {
		t.Errorf("RUNNING runs: %d", n)
	}
	advance(fake, 30)
	if n := listRuns(t, s, "?status=RUNNING").Total; n != 0 {
		t.Errorf("RUNNING runs after 30 s: %d", n)
	}
	if l := listRuns(t, s, "?testPlanShortId=pln-failing_sandbox&limit=1"); l.Runs[0].ShortID != b {
		t.Errorf("plan filter %+v", l.Runs[0])
	}
}

// TestLargeHistory checks paging and filters over a history of 100,000 runs;
// how fast that is belongs to BenchmarkLargeHistory, not to a test.
func TestLargeHistory(t *testing.T) {
	s, _ := newSandbox(t, Options{History: 100000, Seed: 3})
	last := listRuns(t, s, "?limit=100&offset=99950")
	filtered := listRuns(t, s, "?status=CANCELLED&trigger=API&offset=1000&limit=100")
	if last.Total != 100000 || len(last.Runs) != 50 {
		t.Errorf("last page: total %d, %d runs", last.Total, len(last.Runs))
	}
	if filtered.Total < 1000 || len(filtered.Runs) != 100 {
		t.Errorf("filtered: total %d, %d runs", filtered.Total, len(filtered.Runs))
	}
	// The oldest run is still readable.
	getRun(t, s, last.Runs[49].ShortID, "?testCases=all")
}

func BenchmarkLargeHistory(b *testing.B) {
	for b.Loop() {
		s, _ := newSandbox(b, Options{History: 100000, Seed: 3})
		listRuns(b, s, "?limit=100&offset=99950")
		listRuns(b, s, "?status=CANCELLED&trigger=API&offset=1000&limit=100")
	}
}

func TestHistoryIsDeterministic(t *testing.T) {
	ids := func(seed int64) []string {
		s, _ := newSandbox(t, Options{Seed: seed})
		var out []string
		for _, r := range listRuns(t, s, "?limit=100").Runs {
			out = append(out, fmt.Sprint(r.ShortID, r.Status, r.Trigger, r.CreatedAt, r.CommitHash != nil))
		}
		return out
	}
	if a, b := ids(11), ids(11); !slices.Equal(a, b) {
		t.Error("same seed, different history")
	}
	if a, b := ids(11), ids(12); slices.Equal(a, b) {
		t.Error("different seeds, same history")
	}
}
