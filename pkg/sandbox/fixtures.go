package sandbox

import "github.com/testctl/testctl/pkg/api"

// The fixed world of the sandbox: one project with one application, its
// environment, configs, a scenario, device presets and ten test cases whose
// dependencies cover both rules of service-api.md section 3. See doc.go for
// the user-facing description; keep the two in step.

const (
	appWebID      = "app_sandbox-web"
	appWebName    = "Sandbox Web"
	envStagingID  = "env_sandbox-staging"
	envStagingURL = "https://staging.sandbox.testctl.invalid"
	appURLBase    = "https://app.sandbox.testctl.invalid"
	scenarioID    = "scenario_sandbox-checkout"
	configAdminID = "cfg_sandbox-admin"
	configGuestID = "cfg_sandbox-guest"
	presetDesktop = "preset_sandbox-desktop"
	presetMobile  = "preset_sandbox-pixel"
)

// Fixture test case ids (UUIDs, as the dependency fields require).
const (
	TestCaseLogin         = "5a4db001-0000-4000-8000-000000000001"
	TestCaseAddToCart     = "5a4db002-0000-4000-8000-000000000002"
	TestCaseCheckout      = "5a4db003-0000-4000-8000-000000000003"
	TestCaseExpiredCoupon = "5a4db004-0000-4000-8000-000000000004"
	TestCaseOrderEmail    = "5a4db005-0000-4000-8000-000000000005"
	TestCaseOrderHistory  = "5a4db006-0000-4000-8000-000000000006"
	TestCaseSearch        = "5a4db007-0000-4000-8000-000000000007"
	TestCaseHealthAPI     = "5a4db008-0000-4000-8000-000000000008"
	TestCaseProfilePhoto  = "5a4db009-0000-4000-8000-000000000009"
	TestCaseDeclinedCard  = "5a4db00a-0000-4000-8000-00000000000a"
)

// Telemetry profiles: what a test case's execution leaves behind.
const (
	profileUI      = "ui"       // a browser test: network and console, no API calls
	profileUIHeavy = "ui-heavy" // a browser test with more requests than the per-call cap
	profileAPI     = "api"      // an API test: API calls only
)

// testCase is a project test case, fixture or created through the API.
type testCase struct {
	ID             string
	Name           string
	Goal           string
	Labels         []string
	Classification string
	Enabled        bool
	ResumeFrom     string   // UUID or ""
	WaitFor        []string // UUIDs
	Fails          bool     // always ends FAILED when it runs
	Duration       float64  // sandbox seconds when run by id
	Profile        string
	PassTitle      string
	PassThought    string
	FailTitle      string
	FailThought    string
	Issues         []string // issue keys reported when it fails
	FailStory      string   // what its failure leaves in the telemetry (story*)
	Examples       *string

	createdAtS  float64 // sandbox seconds since start
	generatedAt float64 // sandbox seconds when the burn-in completes
}

var couponExamples = "Coupon SPRING-2019 expired on 2019-06-30.\nExpected: \"This coupon has expired\" below the coupon field."

var fixtureTestCases = withDefaults([]*testCase{
	{ID: TestCaseLogin, Name: "Log in with email and password", Labels: []string{"auth", "smoke"},
		Goal: "Log in as sandbox.user@example.com and reach the dashboard", Duration: 3, Profile: profileUI,
		PassTitle: "Logged in and reached the dashboard", PassThought: "After submitting the form the greeting \"Welcome back, Sandbox User\" appeared on /dashboard, which is what the goal asks for."},
	{ID: TestCaseAddToCart, Name: "Add a product to the cart", Labels: []string{"cart", "smoke"}, ResumeFrom: TestCaseLogin,
		Goal: "Starting logged in, add the first product of the catalogue to the cart", Duration: 3, Profile: profileUI,
		PassTitle: "The cart badge shows 1 item", PassThought: "Clicking \"Add to cart\" on Trail Runner 2 updated the cart badge from 0 to 1 and the cart page lists the product."},
	{ID: TestCaseCheckout, Name: "Check out with a saved card", Labels: []string{"checkout", "smoke"}, ResumeFrom: TestCaseAddToCart,
		Goal: "Pay for the cart with the saved Visa card and see the order confirmation", Duration: 3, Profile: profileUI,
		PassTitle: "Order SBX-1042 confirmed", PassThought: "The confirmation page showed order number SBX-1042 and the total matched the cart, so the purchase went through."},
	{ID: TestCaseExpiredCoupon, Name: "Apply an expired coupon", Labels: []string{"checkout", "regression"}, Fails: true,
		Goal: "Apply the expired coupon SPRING-2019 and check that it is rejected", Duration: 5, Profile: profileUI, Examples: &couponExamples,
		FailTitle:   "Expired coupon SPRING-2019 was accepted and discounted the total",
		FailThought: "The goal requires the expired coupon to be rejected with an error. After entering SPRING-2019 the total dropped from $84.00 to $67.20 and no error was shown, so the expected rejection did not happen.",
		Issues:      []string{"expired-coupon", "recommendations-500"}, FailStory: storyCouponAccepted},
	{ID: TestCaseOrderEmail, Name: "Receive the order confirmation email", Labels: []string{"checkout", "email"}, WaitFor: []string{TestCaseCheckout, TestCaseExpiredCoupon},
		Goal: "Open the sandbox inbox and find the confirmation email of the last order", Duration: 2, Profile: profileUI,
		PassTitle: "Confirmation email received", PassThought: "The inbox holds \"Your order SBX-1042\" sent less than a minute after checkout."},
	{ID: TestCaseOrderHistory, Name: "View the order history", Labels: []string{"account"}, WaitFor: []string{TestCaseLogin, TestCaseCheckout},
		Goal: "Open Account > Orders and find the order placed by the checkout test", Duration: 2, Profile: profileUI,
		PassTitle: "Order SBX-1042 is listed", PassThought: "Account > Orders lists SBX-1042 at the top with status Paid."},
	{ID: TestCaseSearch, Name: "Search the catalogue with infinite scroll", Labels: []string{"search", "smoke"},
		Goal: "Search for \"shoe\" and scroll until the end of the results", Duration: 6, Profile: profileUIHeavy,
		PassTitle: "All 480 results loaded", PassThought: "Scrolling loaded 24 pages of results and the footer \"You have seen all 480 products\" appeared."},
	{ID: TestCaseHealthAPI, Name: "Health endpoint answers 200", Labels: []string{"api", "smoke"}, Classification: "API",
		Goal: "GET /health on the sandbox API returns 200 with status ok", Duration: 2, Profile: profileAPI,
		PassTitle: "GET /health returned 200 {\"status\":\"ok\"}", PassThought: "The health call answered 200 within 41 ms and its body reports status ok."},
	{ID: TestCaseProfilePhoto, Name: "Upload a profile picture", Labels: []string{"account"},
		Goal: "Upload avatar.png on the profile page and see it in the header", Duration: 4, Profile: profileUI,
		PassTitle: "The new avatar appears in the header", PassThought: "After the upload the header image source changed to the uploaded file."},
	{ID: TestCaseDeclinedCard, Name: "Pay with a declined card", Labels: []string{"checkout", "regression"}, Fails: true,
		Goal: "Pay with the test card 4000 0000 0000 0002 and see a clear decline message", Duration: 6, Profile: profileUI,
		FailTitle:   "A declined card leaves a blank page instead of an error",
		FailThought: "After submitting the declined card the payment step rendered an empty page: POST /api/payments returned 502 and the console shows an uncaught TypeError. The user is never told that the payment failed.",
		Issues:      []string{"payment-blank-page", "recommendations-500"}, FailStory: storyPaymentBlank},
})

// withDefaults fills what would be noise in the table above: every fixture
// but the profile picture is enabled, most are browser (UI) tests, and all
// were written and generated months ago.
func withDefaults(tcs []*testCase) []*testCase {
	for i, tc := range tcs {
		tc.createdAtS = -float64(90-i) * 86400
		tc.generatedAt = tc.createdAtS
		if tc.Classification == "" {
			tc.Classification = "UI"
		}
		tc.Enabled = tc.ID != TestCaseProfilePhoto
	}
	return tcs
}

// issueCatalogue are the problems the platform reports for failing test
// cases: an issue of a run adds its ids, help page, status and test cases.
var issueCatalogue = map[string]api.Issue{
	"expired-coupon": {Title: "Expired coupons are accepted at checkout",
		Description: "The coupon field applies SPRING-2019 although it expired on 2019-06-30.",
		Severity:    "HIGH", IssueType: "FUNCTIONAL", Tags: []string{"checkout", "pricing"}},
	"recommendations-500": {Title: "Recommendations API answers 500",
		Description: "GET /api/recommendations fails with 500 on product and checkout pages.",
		Severity:    "MEDIUM", IssueType: "NETWORK", Tags: []string{"api", "backend"}},
	"payment-blank-page": {Title: "Payment step goes blank on a declined card",
		Description: "A 502 from POST /api/payments is not handled; an uncaught TypeError empties the page.",
		Severity:    "CRITICAL", IssueType: "CONSOLE_ERROR", Tags: []string{"checkout", "payments"}},
	"search-page-timeout": {Title: "Search results stop loading after page 16",
		Description: "GET /api/search for page 17 timed out after 10 s; infinite scroll shows no more results.",
		Severity:    "HIGH", IssueType: "NETWORK", Tags: []string{"search", "performance"}},
	"health-starting": {Title: "Health endpoint answers 503 while the service starts",
		Description: "GET /health returned 503 {\"status\":\"starting\"} although the deployment was reported ready.",
		Severity:    "MEDIUM", IssueType: "API", Tags: []string{"api", "deployment"}},
	"environment-down": {Title: "Staging environment stopped responding",
		Description: envStagingURL + " timed out during the run; remaining test cases could not finish.",
		Severity:    "HIGH", IssueType: "ENVIRONMENT", Tags: []string{"environment"}},
}

// application and environment fixtures, for the shape-less operations.
type application struct {
	ShortID string `json:"shortId"`
	Name    string `json:"name"`
	URL     string `json:"url"`
}

type environment struct {
	application
	ID string `json:"id"`
}

var sandboxApplications = []application{{ShortID: appWebID, Name: appWebName, URL: envStagingURL}}

// environmentUUID is the staging environment's internal id, the key
// parameters.configsByEnvironment uses.
const environmentUUID = "5a4db000-0000-4000-8000-0000000e0001"

var sandboxEnvironments = map[string][]environment{
	appWebID: {{application{ShortID: envStagingID, Name: "Staging", URL: envStagingURL}, environmentUUID}},
}

var (
	knownConfigs   = map[string]bool{configAdminID: true, configGuestID: true}
	knownScenarios = map[string]bool{scenarioID: true}
	knownPresets   = map[string]bool{presetDesktop: true, presetMobile: true}
)
