package reconcile

import (
	"context"

	"github.com/testctl/testctl/pkg/api"
)

// maxTestCasePages bounds the reading of an application's test cases,
// which the service does not list newest first.
const maxTestCasePages = 100

// CreateTestCase creates a test case (POST /v1/test-cases) that is never
// doubled and never lost (see Do): what it created has the same name and
// application. An adopted test case's answer is its item of the list, as
// the service sent it.
func CreateTestCase(ctx context.Context, r Reconciler, c *api.Client, req api.CreateTestCaseRequest) (*api.CreateTestCaseResponse, error) {
	return Do(ctx, r, Write[*api.CreateTestCaseResponse]{Noun: "test case", Request: "POST /v1/test-cases",
		Send: func(ctx context.Context) (*api.CreateTestCaseResponse, error) { return c.CreateTestCase(ctx, req) },
		Find: func(ctx context.Context) ([]Found[*api.CreateTestCaseResponse], error) {
			return findTestCases(ctx, c, req.ApplicationShortID, req.Name)
		}})
}

func findTestCases(ctx context.Context, c *api.Client, app, name string) ([]Found[*api.CreateTestCaseResponse], error) {
	var found []Found[*api.CreateTestCaseResponse]
	for page, offset := 0, 0; page < maxTestCasePages; page++ {
		list, err := c.ListTestCases(ctx, api.ListTestCasesOptions{ApplicationShortID: app, Limit: listedRuns, Offset: offset})
		if err != nil {
			return nil, err
		}
		for _, tc := range list.TestCases {
			if tc.Name != name || tc.ApplicationShortID != app {
				continue
			}
			created := &api.CreateTestCaseResponse{ID: tc.ID, Name: tc.Name, IsEnabled: tc.IsEnabled, GenerationStatus: tc.GenerationStatus}
			created.SetRawJSON(tc.RawJSON())
			found = append(found, Found[*api.CreateTestCaseResponse]{ID: tc.ID, CreatedAt: parseTime(tc.CreatedAt), Value: created})
		}
		offset += len(list.TestCases)
		if len(list.TestCases) == 0 || offset >= int(list.Total) {
			break
		}
	}
	return found, nil
}
