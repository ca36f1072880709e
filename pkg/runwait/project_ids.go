package runwait

import (
	"context"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// projectIDsTimeout bounds the lookup of project test case ids: a rerun
// that cannot name them still reruns the failed test cases.
const projectIDsTimeout = 10 * time.Second

// maxTestCasePages bounds the pages read to name a rerun's test cases.
const maxTestCasePages = 20

// projectTestCaseIDs finds the project test case id of each name in the
// project's test case list. A run detail names its test cases but gives
// only run test case ids, and a rerun of chosen test cases takes project
// ids. ok is false unless every name is found exactly once.
func projectTestCaseIDs(ctx context.Context, c *api.Client, names []string) (ids []string, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, projectIDsTimeout)
	defer cancel()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	found := map[string][]string{}
	offset := 0
	for page := 0; page < maxTestCasePages; page++ {
		list, err := c.ListTestCases(ctx, api.ListTestCasesOptions{Limit: 100, Offset: offset})
		if err != nil {
			return nil, false
		}
		for _, tc := range list.TestCases {
			if want[tc.Name] && tc.ID != "" {
				found[tc.Name] = append(found[tc.Name], tc.ID)
			}
		}
		offset += len(list.TestCases)
		if len(list.TestCases) == 0 || offset >= int(list.Total) {
			break
		}
	}
	for _, n := range names {
		if len(found[n]) != 1 {
			return nil, false
		}
		ids = append(ids, found[n][0])
	}
	return ids, true
}
