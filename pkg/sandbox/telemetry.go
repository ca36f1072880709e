package sandbox

import (
	"fmt"
	"math/rand/v2"
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
// them; clients must not let them reach a terminal unfiltered.
const (
	EscapeColour    = "\x1b[31mUncaught TypeError: Cannot read properties of undefined (reading 'price')\x1b[0m"
	EscapeTitle     = "Setting document title \x1b]0;pwned\x07"
	EscapeHyperlink = "Docs: \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\"
)

type capture struct {
	network  []api.NetworkEntry
	console  []api.ConsoleEntry
	apiCalls []api.APICallEntry
}

func (s *Server) captureFor(short string, c *caseRun) capture {
	switch c.tc.Profile {
	case profileAPI:
		return capture{apiCalls: apiCalls(rngFor(s.opts.Seed, "api-calls", short), c.result == api.ResultFailed)}
	case profileUIHeavy:
		return capture{network: network(rngFor(s.opts.Seed, "network", short), heavyNetwork, c.result == api.ResultFailed),
			console: console(rngFor(s.opts.Seed, "console", short))}
	}
	r := rngFor(s.opts.Seed, "network", short)
	return capture{network: network(r, 30+r.IntN(25), c.result == api.ResultFailed),
		console: console(rngFor(s.opts.Seed, "console", short))}
}

func ms(r *rand.Rand, lo, hi int) *int32 {
	v := int32(lo + r.IntN(hi-lo))
	return &v
}

// network returns n browser requests; the first few are the edge cases a
// client meets (requests that never completed, a CORS block, 4xx and 5xx,
// custom headers), the rest ordinary page traffic.
func network(r *rand.Rand, n int, failing bool) []api.NetworkEntry {
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
	if failing {
		out = append(out, api.NetworkEntry{URL: site + "/api/payments", Method: "POST", StatusCode: 502,
			DurationMs: ms(r, 3000, 9000), IsError: true, CustomExtraHeaders: []string{"X-Sandbox-Trace", "X-Idempotency-Key"}})
	}
	assets := []string{"app.js", "vendor.js", "app.css", "logo.svg", "hero.webp", "runtime.js"}
	for i := len(out); i < min(n, networkCaptureCap); i++ {
		e := api.NetworkEntry{Method: "GET", StatusCode: 200, DurationMs: ms(r, 5, 600)}
		switch k := r.IntN(100); {
		case k < 40:
			e.URL = site + "/static/" + assets[r.IntN(len(assets))] + fmt.Sprintf("?v=%d", r.IntN(9)+1)
			if r.IntN(4) == 0 {
				e.StatusCode = 304
			}
		case k < 70:
			e.URL = site + fmt.Sprintf("/api/search?q=shoe&page=%d", i%25+1)
		case k < 82:
			e.URL = fmt.Sprintf("https://cdn.sandbox.testctl.invalid/img/p-%d.webp", r.IntN(480)+1)
		case k < 88:
			e.URL, e.Method, e.StatusCode = site+"/api/events", "POST", 204
			e.CustomExtraHeaders = []string{"X-Sandbox-Trace"}
		case k < 92:
			e.URL = "https://analytics.tracker.invalid/collect?v=2&t=event"
			e.StatusCode, e.DurationMs, e.ErrorText = 0, nil, "net::ERR_NAME_NOT_RESOLVED"
		case k < 95:
			e.URL, e.StatusCode = site+fmt.Sprintf("/static/missing-%d.png", r.IntN(50)), 404
		case k < 97:
			e.URL, e.StatusCode = site+"/api/inventory", 503
		default:
			e.URL, e.StatusCode = site+"/api/recommendations?sku=TR2-42", 500
		}
		e.IsError = e.StatusCode == 0 || e.StatusCode >= 400
		out = append(out, e)
	}
	return out
}

// console returns a test case's console output: the escape-sequence
// messages, one of each level, and ordinary chatter, in a seeded order.
func console(r *rand.Rand) []api.ConsoleEntry {
	app := envStagingURL + "/static/app.js"
	line, col := int32(1842), int32(17)
	entries := []api.ConsoleEntry{
		{Level: "error", Message: EscapeColour, Source: &app, Line: &line, Column: &col},
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
	entries = entries[:min(len(entries), consoleCaptureCap)]
	t := int32(0)
	for i := range entries {
		if i > 0 {
			t += int32(r.IntN(3))
		}
		entries[i].RelativeTimestampSeconds = t
	}
	return entries
}

// truncate cuts a body at BodyTruncateAt characters.
func truncate(body string) (string, bool) {
	if len(body) <= BodyTruncateAt {
		return body, false
	}
	return body[:BodyTruncateAt], true
}

func apiCalls(r *rand.Rand, failing bool) []api.APICallEntry {
	base := "https://api.sandbox.testctl.invalid"
	headers := func() map[string]string {
		return map[string]string{"Accept": "application/json", "Authorization": "Bearer [redacted]",
			"X-Request-Id": fmt.Sprintf("%016x", r.Uint64())}
	}
	status := func(v int32) *int32 { return &v }
	text := func(v string) *string { return &v }
	var products strings.Builder
	products.WriteString(`{"products":[`)
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&products, `{"sku":"SKU-%03d","name":"Trail Runner %d","price":%d.00},`, i, i, 40+i)
	}
	productsBody, productsCut := truncate(strings.TrimSuffix(products.String(), ",") + "]}")
	orderBody, orderCut := truncate(`{"items":[` + strings.Repeat(`{"sku":"SKU-001","quantity":1,"note":"gift wrap please"},`, 30) + `{"sku":"SKU-002","quantity":2}]}`)
	out := []api.APICallEntry{
		{URL: base + "/health", Method: "GET", StatusCode: status(200), Success: true, DurationMs: ms(r, 20, 80),
			TextResult: text("The service reports status ok, version 2.4.1."), RequestHeaders: headers(),
			ResponseBody: `{"status":"ok","version":"2.4.1"}`},
		{URL: base + "/v1/products?limit=60", Method: "GET", StatusCode: status(200), Success: true, DurationMs: ms(r, 60, 300),
			TextResult: text("60 products returned."), RequestHeaders: headers(), ResponseBody: productsBody, ResponseBodyTruncated: productsCut},
		{URL: base + "/v1/orders", Method: "POST", StatusCode: status(201), Success: true, DurationMs: ms(r, 80, 400),
			RequestHeaders: headers(), RequestBody: orderBody, RequestBodyTruncated: orderCut, ResponseBody: `{"id":"SBX-1042","status":"PENDING"}`},
		{URL: base + "/v1/orders/SBX-9999", Method: "GET", StatusCode: status(404), DurationMs: ms(r, 10, 50),
			TextResult: text("Unknown order answered 404, as it should."), RequestHeaders: headers(), ResponseBody: `{"message":"order not found"}`},
		{URL: "https://internal.sandbox.testctl.invalid/metrics", Method: "GET", RequestHeaders: headers(),
			ErrorMessage: "dial tcp: lookup internal.sandbox.testctl.invalid: no such host"},
	}
	if failing {
		out = append(out, api.APICallEntry{URL: base + "/v1/payments", Method: "POST", StatusCode: status(502), DurationMs: ms(r, 3000, 9000),
			RequestHeaders: headers(), RequestBody: `{"order":"SBX-1042","card":"tok_declined"}`, ErrorMessage: "upstream payment gateway timed out"})
	}
	for n := 4 + r.IntN(8); n > 0; n-- {
		sku := r.IntN(60) + 1
		out = append(out, api.APICallEntry{URL: fmt.Sprintf("%s/v1/products/SKU-%03d", base, sku), Method: "GET",
			StatusCode: status(200), Success: true, DurationMs: ms(r, 10, 120), RequestHeaders: headers(),
			ResponseBody: fmt.Sprintf(`{"sku":"SKU-%03d","name":"Trail Runner %d","price":%d.00}`, sku, sku, 40+sku)})
	}
	return out
}
