package reconcile

import (
	"context"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// maxTestCasePages bounds the reading of an application's test cases,
// which the service does not list newest first.
const maxTestCasePages = 100

// CreateTestCase creates a test case (POST /v1/test-cases) that is never
// doubled and never lost (see Do): what it created has the same name,
// application and goal, all the list shows of what the request asks (one
// listed without some of them is named, not adopted: see
// unlistedTestCase). An adopted test case's answer is its item of the
// list, as the service sent it.
func CreateTestCase(ctx context.Context, r Reconciler, c *api.Client, req api.CreateTestCaseRequest) (*api.CreateTestCaseResponse, error) {
	return Do(ctx, r, Write[*api.CreateTestCaseResponse]{Noun: "test case", Request: "POST /v1/test-cases",
		Send: func(ctx context.Context) (*api.CreateTestCaseResponse, error) { return c.CreateTestCase(ctx, req) },
		Find: func(ctx context.Context) ([]Found[*api.CreateTestCaseResponse], error) {
			return findTestCases(ctx, c, req)
		},
		Where: func() []string { return []string{"testcase", "list", "--app", req.ApplicationShortID} }})
}

func findTestCases(ctx context.Context, c *api.Client, req api.CreateTestCaseRequest) ([]Found[*api.CreateTestCaseResponse], error) {
	app := req.ApplicationShortID
	var found []Found[*api.CreateTestCaseResponse]
	for page, offset := 0, 0; page < maxTestCasePages; page++ {
		list, err := c.ListTestCases(ctx, api.ListTestCasesOptions{ApplicationShortID: app, Limit: listedRuns, Offset: offset})
		if err != nil {
			return nil, err
		}
		for _, tc := range list.TestCases {
			unknown, differs := unlistedTestCase(req, tc)
			if differs {
				continue
			}
			created := &api.CreateTestCaseResponse{ID: tc.ID, Name: tc.Name, IsEnabled: tc.IsEnabled, GenerationStatus: tc.GenerationStatus}
			created.SetRawJSON(tc.RawJSON())
			found = append(found, Found[*api.CreateTestCaseResponse]{ID: tc.ID, CreatedAt: api.Time(&tc.CreatedAt), Value: created, Unsure: unknown})
		}
		offset += len(list.TestCases)
		if len(list.TestCases) == 0 || offset >= int(list.Total) {
			break
		}
	}
	return found, nil
}

// unlistedTestCase compares the name, application and goal the list shows
// of tc with req's, as unlisted does for runs. Only a field shown with
// another value differs: another job may create a test case of the same
// name with another goal. The request always has all three (testcase
// create refuses it otherwise), so a field listed empty, null or absent is
// left out: unknown, not a mismatch, and named in unknown ("its goal").
// White space the service may trim from a goal is no sign.
func unlistedTestCase(req api.CreateTestCaseRequest, tc api.TestCase) (unknown string, differs bool) {
	var what []string
	check := func(name, got, want string) {
		switch {
		case got == "":
			what = append(what, name)
		case got != want:
			differs = true
		}
	}
	check("its name", tc.Name, req.Name)
	check("its application", tc.ApplicationShortID, req.ApplicationShortID)
	check("its goal", strings.TrimSpace(tc.Goal), strings.TrimSpace(req.Goal))
	return either(what), differs
}
