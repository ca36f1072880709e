package sandbox

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// Telemetry is generated, never stored: the same seed and run test case
// short id always give the same capture, and a running test case shows the
// share of it captured so far.

// Capture caps of the service (service-notes.md) and the sandbox's own
// per-call cap and body truncation size.
const (
	networkCaptureCap = 1000
	consoleCaptureCap = 100
	LogsPerCallCap    = 250  // entries returned by one logs call
	BodyTruncateAt    = 1024 // characters kept of API call bodies
	heavyNetwork      = 600  // requests of the infinite-scroll search test
)

// Console messages carrying terminal escape sequences, as pages really log
// them; clients must not let them reach a terminal unfiltered. None of them
// says anything about a test case's outcome: every browser test logs them.
const (
	EscapeColour    = "\x1b[31m[analytics] could not send events: net::ERR_NAME_NOT_RESOLVED\x1b[0m"
	EscapeTitle     = "Setting document title \x1b]0;pwned\x07"
	EscapeHyperlink = "Docs: \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\"
)

// Failure stories: what a test case's outcome leaves in its telemetry, so
// that its logs tell what its evaluation says. Every other entry is
// ordinary traffic and background noise (a blocked tracker, a missing
// favicon, the recommendations API's known 500) that passing test cases
// show too and that contradicts no verdict.
const (
	// The payment answers 502 and an uncaught TypeError empties the page:
	// nothing happens after it.
	storyPaymentBlank = "payment-blank"
	// The expired coupon is accepted: a successful request where a
	// rejection was expected, and the new total in the console.
	storyCouponAccepted = "coupon-accepted"
	// Infinite scroll stops: pages 1 to 16 load, page 17 times out after
	// 10 s, no page after it is requested.
	storySearchStalled = "search-stalled"
	// The API test's health call answers 503 {"status":"starting"}.
	storyHealthStarting = "health-starting"
	// Page loads time out after 30 s, three in a row.
	storyEnvironmentDown = "environment-down"
)

// The story's entries, for tests and fixtures to name.
const (
	PaymentTypeError = "Uncaught TypeError: Cannot read properties of undefined (reading 'status')"
	searchPages      = 24 // pages of results of the search ("All 480 results")
	stalledPage      = 17
)

type capture struct {
	network  []api.NetworkEntry
	console  []api.ConsoleEntry
	apiCalls []api.APICallEntry
}

// captureFor is the whole telemetry of a run test case. Network requests
// and API calls carry relativeTimestampMs and console entries
// relativeTimestampSeconds from the same origin, the first captured entry,
// and every list is in time order, so the share captured of a running test
// case is a prefix of it.
func (s *Server) captureFor(short string, c *caseRun) capture {
	// Made once per run test case, as the service stores what it
	// captured: a client reading the same logs again costs the sandbox no
	// more than the service.
	if v, ok := s.captures.Load(short); ok {
		return v.(capture)
	}
	v := s.makeCapture(short, c)
	s.captures.Store(short, v)
	return v
}

func (s *Server) makeCapture(short string, c *caseRun) capture {
	if c.tc.Profile == profileAPI {
		return capture{apiCalls: apiCalls(rngFor(s.opts.Seed, "api-calls", short), c.story)}
	}
	r := rngFor(s.opts.Seed, "network", short)
	n := 30 + r.IntN(25)
	if c.tc.Profile == profileUIHeavy {
		n = heavyNetwork
	}
	net, span := network(r, n, c.story, c.tc.Profile == profileUIHeavy)
	return capture{network: net, console: console(rngFor(s.opts.Seed, "console", short), span, c.story)}
}

func ms(r *rand.Rand, lo, hi int) *int32 { return new(int32(lo + r.IntN(hi-lo))) }

// network returns n browser requests in time order and the time the last
// one ended (ms); the first few are the edge cases a client meets
// (requests that never completed, a CORS block, 4xx and 5xx, custom
// headers), the rest ordinary page traffic, then the story's requests.
// The search (search true) loads its result pages in order.
func network(r *rand.Rand, n int, story string, search bool) ([]api.NetworkEntry, int64) {
	site := envStagingURL
	out := []api.NetworkEntry{
		{URL: site + "/", Method: "GET", StatusCode: 200, DurationMs: ms(r, 80, 400)},
		{URL: "https://analytics.tracker.invalid/collect?v=2&t=pageview", Method: "GET", IsError: true,
			ErrorText: "net::ERR_NAME_NOT_RESOLVED"},
		{URL: "https://fonts.partner.invalid/inter-var.woff2", Method: "GET", IsError: true, ErrorText: "net::ERR_FAILED",
			CrossOriginInfo: "Blocked by CORS policy: no 'Access-Control-Allow-Origin' header is present on the requested resource (origin " + site + ")"},
		{URL: site + "/favicon.ico", Method: "GET", StatusCode: 404, DurationMs: ms(r, 5, 40), IsError: true},
		{URL: site + "/api/recommendations?sku=TR2-42", Method: "GET", StatusCode: 500, DurationMs: ms(r, 200, 900), IsError: true},
		{URL: site + "/api/cart", Method: "POST", StatusCode: 201, DurationMs: ms(r, 40, 200),
			CustomExtraHeaders: []string{"X-Sandbox-Trace", "X-Feature-Flags"}},
		{URL: site + "/account", Method: "GET", StatusCode: 302, DurationMs: ms(r, 10, 60)},
	}
	// The story's own requests come last: they end the test case.
	tail := storyRequests(r, story)
	pages, page := searchPages, 1
	if story == storySearchStalled {
		pages = stalledPage - 1
	}
	assets := []string{"app.js", "vendor.js", "app.css", "logo.svg", "hero.webp", "runtime.js"}
	for i := len(out); i < min(n, networkCaptureCap)-len(tail); i++ {
		e := api.NetworkEntry{Method: "GET", StatusCode: 200, DurationMs: ms(r, 5, 600)}
		switch k := r.IntN(100); {
		case search && page <= pages && k < 30:
			e.URL = site + fmt.Sprintf("/api/search?q=shoe&page=%d", page)
			page++
		case k < 45:
			e.URL = site + "/static/" + assets[r.IntN(len(assets))] + fmt.Sprintf("?v=%d", r.IntN(9)+1)
			if r.IntN(4) == 0 {
				e.StatusCode = 304
			}
		case k < 70:
			e.URL = fmt.Sprintf("https://cdn.sandbox.testctl.invalid/img/p-%d.webp", r.IntN(480)+1)
		case k < 85:
			e.URL, e.Method, e.StatusCode = site+"/api/events", "POST", 204
			e.CustomExtraHeaders = []string{"X-Sandbox-Trace"}
		case k < 91:
			e.URL = "https://analytics.tracker.invalid/collect?v=2&t=event"
			e.StatusCode, e.DurationMs, e.ErrorText = 0, nil, "net::ERR_NAME_NOT_RESOLVED"
		case k < 96:
			e.URL, e.StatusCode = site+fmt.Sprintf("/static/missing-%d.png", r.IntN(50)), 404
		default:
			e.URL, e.StatusCode = site+"/api/recommendations?sku=TR2-42", 500
		}
		e.IsError = e.StatusCode == 0 || e.StatusCode >= 400
		out = append(out, e)
	}
	// Pages the scroll had not reached yet load at the end.
	for ; search && page <= pages; page++ {
		out = append(out, api.NetworkEntry{URL: site + fmt.Sprintf("/api/search?q=shoe&page=%d", page), Method: "GET",
			StatusCode: 200, DurationMs: ms(r, 40, 600)})
	}
	out = append(out, tail...)
	// Requests start one after another, a few at a time.
	t, end := int64(0), int64(0)
	for i := range out {
		if i > 0 {
			t += int64(r.IntN(250))
		}
		if story != "" && i == len(out)-len(tail) {
			t = max(t, end) // the story waits for what came before
		}
		out[i].RelativeTimestampMs = new(t)
		d := int64(0)
		if out[i].DurationMs != nil {
			d = int64(*out[i].DurationMs)
		}
		end = max(end, t+d)
	}
	return out, end
}

// storyRequests are the requests a story ends with.
func storyRequests(r *rand.Rand, story string) []api.NetworkEntry {
	site := envStagingURL
	switch story {
	case storyPaymentBlank:
		return []api.NetworkEntry{{URL: site + "/api/payments", Method: "POST", StatusCode: 502,
			DurationMs: ms(r, 3000, 9000), IsError: true, CustomExtraHeaders: []string{"X-Sandbox-Trace", "X-Idempotency-Key"}}}
	case storyCouponAccepted:
		return []api.NetworkEntry{{URL: site + "/api/cart/coupon", Method: "POST", StatusCode: 200, DurationMs: ms(r, 40, 200)},
			{URL: site + "/api/cart", Method: "GET", StatusCode: 200, DurationMs: ms(r, 20, 120)}}
	case storySearchStalled:
		return []api.NetworkEntry{{URL: site + fmt.Sprintf("/api/search?q=shoe&page=%d", stalledPage), Method: "GET",
			DurationMs: new(int32(10_000)), IsError: true, ErrorText: "net::ERR_TIMED_OUT"}}
	case storyEnvironmentDown:
		var out []api.NetworkEntry
		for _, path := range []string{"/cart", "/cart", "/"} {
			out = append(out, api.NetworkEntry{URL: site + path, Method: "GET", DurationMs: new(int32(30_000)), IsError: true, ErrorText: "net::ERR_TIMED_OUT"})
		}
		return out
	}
	return nil
}

// console returns a test case's console output over the span of its
// network requests (ms): the escape-sequence messages, one of each level,
// ordinary chatter in a seeded order, and the story's messages at the time
// its requests ended.
func console(r *rand.Rand, span int64, story string) []api.ConsoleEntry {
	app := envStagingURL + "/static/app.js"
	entries := []api.ConsoleEntry{
		{Level: "error", Message: EscapeColour, Source: &app, Line: new(int32(1842)), Column: new(int32(17))},
		{Level: "log", Message: EscapeTitle},
		{Level: "log", Message: EscapeHyperlink},
		{Level: "error", Message: "Failed to load resource: the server responded with a status of 500 (Internal Server Error)"},
		{Level: "warning", Message: "[Deprecation] Listener added for a synchronous 'DOMNodeInserted' DOM Mutation Event."},
		{Level: "info", Message: "Download the React DevTools for a better development experience"},
	}
	chatter := []struct{ level, msg string }{
		{"log", "[router] navigated to /products"}, {"log", "[cart] state hydrated from localStorage"},
		{"info", "[perf] largest contentful paint 1.2 s"}, {"info", "[sw] service worker activated"},
		{"warning", "Image with src \"/img/hero.webp\" has no width or height"},
		{"log", "[search] page loaded, 20 results"}, {"warning", "Cookie \"session\" has no SameSite attribute"},
	}
	for n := 12 + r.IntN(20); n > 0; n-- {
		c := chatter[r.IntN(len(chatter))]
		entries = append(entries, api.ConsoleEntry{Level: c.level, Message: c.msg})
	}
	r.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	var tail []api.ConsoleEntry
	switch story {
	case storyPaymentBlank:
		tail = []api.ConsoleEntry{{Level: "error", Message: PaymentTypeError, Source: &app, Line: new(int32(2210)), Column: new(int32(9))}}
	case storyCouponAccepted:
		tail = []api.ConsoleEntry{{Level: "log", Message: "[cart] coupon SPRING-2019 applied: total $84.00 -> $67.20"}}
	case storySearchStalled:
		tail = []api.ConsoleEntry{{Level: "error", Message: fmt.Sprintf("[search] loading page %d failed: request timed out after 10000 ms", stalledPage)}}
	case storyEnvironmentDown:
		tail = []api.ConsoleEntry{{Level: "error", Message: "Failed to load resource: net::ERR_TIMED_OUT"}}
	}
	entries = entries[:min(len(entries), consoleCaptureCap-len(tail))]
	// Spread over the span of the requests, the first at 0 as the first
	// request; the story's messages when its requests had ended.
	secs := int32(span / 1000)
	if len(tail) > 0 {
		secs = max(secs-1, 0)
	}
	times := make([]int32, len(entries))
	for i := 1; i < len(times); i++ {
		times[i] = int32(r.IntN(int(secs) + 1))
	}
	slices.Sort(times)
	for i := range entries {
		entries[i].RelativeTimestampSeconds = times[i]
	}
	for i := range tail {
		tail[i].RelativeTimestampSeconds = int32(span / 1000)
	}
	return append(entries, tail...)
}

// truncate cuts a body at BodyTruncateAt characters.
func truncate(body string) (string, bool) {
	if len(body) <= BodyTruncateAt {
		return body, false
	}
	return body[:BodyTruncateAt], true
}

// apiCalls returns an API test's calls in time order, one after another:
// the health call first, answering 503 {"status":"starting"} in the
// health-starting story.
func apiCalls(r *rand.Rand, story string) []api.APICallEntry {
	base := "https://api.sandbox.testctl.invalid"
	headers := func() map[string]string {
		return map[string]string{"Accept": "application/json", "Authorization": "Bearer [redacted]",
			"X-Request-Id": fmt.Sprintf("%016x", r.Uint64())}
	}
	var products strings.Builder
	products.WriteString(`{"products":[`)
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&products, `{"sku":"SKU-%03d","name":"Trail Runner %d","price":%d.00},`, i, i, 40+i)
	}
	productsBody, productsCut := truncate(strings.TrimSuffix(products.String(), ",") + "]}")
	orderBody, orderCut := truncate(`{"items":[` + strings.Repeat(`{"sku":"SKU-001","quantity":1,"note":"gift wrap please"},`, 30) + `{"sku":"SKU-002","quantity":2}]}`)
	health := api.APICallEntry{URL: base + "/health", Method: "GET", StatusCode: new(int32(200)), Success: true, DurationMs: ms(r, 20, 80),
		TextResult: new("The service reports status ok, version 2.4.1."), RequestHeaders: headers(),
		ResponseBody: `{"status":"ok","version":"2.4.1"}`}
	if story == storyHealthStarting {
		health.StatusCode, health.Success = new(int32(503)), false
		health.TextResult = new("The service answered 503 Service Unavailable: it reports status starting, not ok.")
		health.ResponseBody = `{"status":"starting","version":"2.4.1"}`
	}
	out := []api.APICallEntry{
		health,
		{URL: base + "/v1/products?limit=60", Method: "GET", StatusCode: new(int32(200)), Success: true, DurationMs: ms(r, 60, 300),
			TextResult: new("60 products returned."), RequestHeaders: headers(), ResponseBody: productsBody, ResponseBodyTruncated: productsCut},
		{URL: base + "/v1/orders", Method: "POST", StatusCode: new(int32(201)), Success: true, DurationMs: ms(r, 80, 400),
			RequestHeaders: headers(), RequestBody: orderBody, RequestBodyTruncated: orderCut, ResponseBody: `{"id":"SBX-1042","status":"PENDING"}`},
		{URL: base + "/v1/orders/SBX-9999", Method: "GET", StatusCode: new(int32(404)), DurationMs: ms(r, 10, 50),
			TextResult: new("Unknown order answered 404, as it should."), RequestHeaders: headers(), ResponseBody: `{"message":"order not found"}`},
		{URL: "https://internal.sandbox.testctl.invalid/metrics", Method: "GET", RequestHeaders: headers(),
			ErrorMessage: "dial tcp: lookup internal.sandbox.testctl.invalid: no such host"},
	}
	for n := 4 + r.IntN(8); n > 0; n-- {
		sku := r.IntN(60) + 1
		out = append(out, api.APICallEntry{URL: fmt.Sprintf("%s/v1/products/SKU-%03d", base, sku), Method: "GET",
			StatusCode: new(int32(200)), Success: true, DurationMs: ms(r, 10, 120), RequestHeaders: headers(),
			ResponseBody: fmt.Sprintf(`{"sku":"SKU-%03d","name":"Trail Runner %d","price":%d.00}`, sku, sku, 40+sku)})
	}
	t := int64(0)
	for i := range out {
		out[i].RelativeTimestampMs = new(t)
		if out[i].DurationMs != nil {
			t += int64(*out[i].DurationMs)
		}
		t += int64(5 + r.IntN(40))
	}
	return out
}
