package evidence_test

import (
	"context"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
)

// On the sandbox's failing plan, the declined card's evaluation says "POST
// /api/payments returned 502 and the console shows an uncaught TypeError":
// those two lead its network and console lines, the application's other
// 5xx follow, and static assets (images, fonts) come last.
func TestTheEntriesTheEvaluationNamesComeFirst(t *testing.T) {
	_, client, targets := failedRun(t)
	card := byName(gather(context.Background(), client, targets, evidence.Options{}, nil), "Pay with a declined card")
	var network, console []string
	for _, l := range evidence.Lines(card) {
		switch {
		case strings.Contains(l, "console "):
			console = append(console, l)
		case strings.Contains(l, " GET ") || strings.Contains(l, " POST ") || strings.HasPrefix(l, "…"):
			network = append(network, l)
		}
	}
	if len(network) == 0 || !strings.Contains(network[0], "POST /api/payments 502") {
		t.Errorf("the payment's 502 does not come first:\n%s", strings.Join(network, "\n"))
	}
	if len(network) < 2 || !strings.Contains(network[1], "GET /api/recommendations") || !strings.Contains(network[1], " 500 ") {
		t.Errorf("the application's 5xx does not come second:\n%s", strings.Join(network, "\n"))
	}
	if len(console) == 0 || !strings.Contains(console[0], "Uncaught TypeError") {
		t.Errorf("the TypeError does not come first:\n%s", strings.Join(console, "\n"))
	}
	// Static assets come after every other request.
	seenStatic := false
	for _, l := range network {
		static := strings.Contains(l, ".png ") || strings.Contains(l, ".woff2 ") || strings.Contains(l, ".ico ")
		if seenStatic && !static && !strings.HasPrefix(l, "…") {
			t.Errorf("a request after a static asset's:\n%s", strings.Join(network, "\n"))
		}
		seenStatic = seenStatic || static
	}
}

func TestNamed(t *testing.T) {
	n := evidence.NamedBy(evidence.Target{ResultTitle: "Blank page after payment",
		EvaluationThought: "POST /api/payments returned 502 and the console shows an uncaught TypeError. See /api/cart."})
	code := func(c int32) *int32 { return &c }
	tests := []struct {
		what string
		got  bool
		want bool
	}{
		{"the path", n.Network(api.NetworkEntry{URL: "https://shop.invalid/api/payments?id=3", StatusCode: 400}), true},
		{"the status", n.Network(api.NetworkEntry{URL: "https://shop.invalid/api/other", StatusCode: 502}), true},
		{"a path at the end of a sentence", n.Network(api.NetworkEntry{URL: "https://shop.invalid/api/cart", StatusCode: 404}), true},
		{"a longer path", n.Network(api.NetworkEntry{URL: "https://shop.invalid/api/payments/3/refund", StatusCode: 0}), false},
		{"a longer path, dotted", n.Network(api.NetworkEntry{URL: "https://shop.invalid/api/cart.json", StatusCode: 404}), false},
		{"the root", n.Network(api.NetworkEntry{URL: "https://shop.invalid/", StatusCode: 404}), false},
		{"another request", n.Network(api.NetworkEntry{URL: "https://shop.invalid/favicon.ico", StatusCode: 404}), false},
		{"a status within a number", n.Network(api.NetworkEntry{URL: "https://shop.invalid/x", StatusCode: 50}), false},
		{"an API call by its path", n.APICall(api.APICallEntry{URL: "https://api.invalid/api/payments", StatusCode: code(500)}), true},
		{"the console's opening words", n.Console(api.ConsoleEntry{Message: "Uncaught TypeError: Cannot read properties of undefined"}), true},
		{"an error type", n.Console(api.ConsoleEntry{Message: "at checkout.js: TypeError thrown"}), true},
		{"another message", n.Console(api.ConsoleEntry{Message: "Cookie has no SameSite"}), false},
		{"a short opening", n.Console(api.ConsoleEntry{Message: "the: console"}), false},
	}
	scroll := evidence.NamedBy(evidence.Target{ResultTitle: "Results stopped loading at page 17 of 24",
		EvaluationThought: "Scrolling loaded 16 pages, then the request for page 17 timed out after 10 s; no shoe results."})
	timedOut := "net::ERR_TIMED_OUT"
	tests = append(tests, []struct {
		what string
		got  bool
		want bool
	}{
		{"a number beside its key", scroll.Network(api.NetworkEntry{URL: "https://shop.invalid/api/search?page=17", ErrorText: "net::ERR_FAILED"}), true},
		{"a number without its key", scroll.Network(api.NetworkEntry{URL: "https://shop.invalid/api/search?offset=17", ErrorText: "net::ERR_FAILED"}), false},
		{"a word of the query", scroll.Network(api.NetworkEntry{URL: "https://shop.invalid/api/search?q=shoe", StatusCode: 404}), true},
		{"a short word of the query", scroll.Network(api.NetworkEntry{URL: "https://shop.invalid/api/search?q=no", StatusCode: 404}), false},
		{"the kind of failure", scroll.Network(api.NetworkEntry{URL: "https://shop.invalid/api/next", ErrorText: timedOut}), true},
		{"a kind of one word", scroll.Network(api.NetworkEntry{URL: "https://shop.invalid/api/next", ErrorText: "net::ERR_FAILED"}), false},
		{"another kind", scroll.Network(api.NetworkEntry{URL: "https://shop.invalid/api/next", ErrorText: "net::ERR_NAME_NOT_RESOLVED"}), false},
		{"a timeout", evidence.NamedBy(evidence.Target{EvaluationThought: "The search hit a timeout."}).Network(api.NetworkEntry{URL: "https://a.invalid/x", ErrorText: timedOut}), true},
	}...)
	for _, tt := range tests[len(tests)-8:] {
		if tt.got != tt.want {
			t.Errorf("%s: named %v, want %v", tt.what, tt.got, tt.want)
		}
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: named %v, want %v", tt.what, tt.got, tt.want)
		}
	}
	if none := evidence.NamedBy(evidence.Target{}); none.Console(api.ConsoleEntry{Message: "Error: x"}) || none.Network(api.NetworkEntry{URL: "https://a.invalid/x", StatusCode: 500}) {
		t.Error("an empty evaluation names something")
	}
}
