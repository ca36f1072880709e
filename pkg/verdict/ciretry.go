package verdict

import "github.com/testctl/testctl/pkg/api"

// TakeUp is what a retried CI job does with the last run its earlier
// attempt started for a plan (d, its detail): wait on one still going,
// rerun the failures of one that ended FAILED, reuse one that ended
// otherwise COMPLETED (its verdict decided again), and start anew after
// one that ended ERROR or CANCELLED.
func TakeUp(d *api.RunDetail) string {
	switch {
	case !Final(d.Status):
		return CIWaited
	case d.Status != api.StatusCompleted:
		return CINew
	case d.ResultOrEmpty() == api.ResultFailed:
		return CIRerunFailed
	}
	return CIReused
}

// Reran reports whether next may be a rerun --retry-failed made of prev:
// prev ended COMPLETED with FAILED, and next ran test cases of it (by name,
// each as often as it ran there: the service adds the dependencies of
// those named), one at least that did not pass there (failed, errored,
// skipped or not run).
func Reran(prev, next *api.RunDetail) bool {
	if prev.Status != api.StatusCompleted || prev.ResultOrEmpty() != api.ResultFailed || len(next.RunTestCases) == 0 {
		return false
	}
	ran, notPassed := map[string]int{}, map[string]bool{}
	for _, tc := range prev.RunTestCases {
		ran[tc.Name]++
		if c := ClassOf(tc, true); c != Passed && c != Flaky {
			notPassed[tc.Name] = true
		}
	}
	rerun := false
	for _, tc := range next.RunTestCases {
		if ran[tc.Name] == 0 {
			return false
		}
		ran[tc.Name]--
		rerun = rerun || notPassed[tc.Name]
	}
	return rerun
}
