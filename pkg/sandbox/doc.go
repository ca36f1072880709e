// Package sandbox is an in-memory emulator of the whole Test Run
// Orchestration Service, served over plain HTTP. It lets people try testctl
// without an account (`testctl sandbox`, or the global --sandbox flag) and
// is what the end-to-end tests run against. It keeps no state on disk,
// starts no goroutines of its own, and computes every run from the clock
// at request time, so a fake clock drives it and a seed reproduces it.
//
// # Keys and the project
//
//	sandbox-project-key    project-scoped, project proj-demo_sandbox
//	sandbox-org-key        organization-scoped: projectShortId is required
//	                       (400 without it, 404 for another project), except
//	                       on POST /v1/test-cases and the tunnel operations,
//	                       where the organization's only project is meant
//	sandbox-limit-key      like the project key, but starting a run (or a
//	                       rerun) answers 402 "Organization has reached
//	                       usage limit"
//	sandbox-suspended-key  every authenticated call answers 403 "Invalid
//	                       token or organization suspended"
//
// A missing or unknown key is 401. A project key given another, well-formed
// projectShortId is 403 (the key is valid, just not there); a malformed
// projectShortId is always 400. The project's UUID on the legacy address is
// ProjectUUID.
//
// # Plans
//
// Times are sandbox time after the start; Options.Speed scales them.
//
//	pln-passing_sandbox    5 test cases, all PASSED; COMPLETED/PASSED at 10 s
//	pln-failing_sandbox    7 test cases, 2 FAILED (with issues), 1 SKIPPED
//	                       because a wait-for dependency failed;
//	                       COMPLETED/FAILED at 12 s
//	pln-erroring_sandbox   ERROR at 6 s (environment stopped responding),
//	                       result null
//	pln-cancelled_sandbox  CANCELLED at 6 s, result null
//	pln-skipped_sandbox    COMPLETED/SKIPPED at 3.5 s
//	pln-slow_sandbox       COMPLETED/PASSED at exactly 3600 s
//	pln-flaky_sandbox      5 test cases, 2 FAILED (with issues);
//	                       COMPLETED/FAILED at 10 s; rerun (failedOnly),
//	                       both pass
//	pln-baseline_sandbox   4 test cases, 2 FAILED; COMPLETED/FAILED at 8 s.
//	                       With Options.BaselineHistory, two past runs of
//	                       it on main (ids b…, 10 and 25 minutes before the
//	                       start) where only the coupon fails, then none:
//	                       the baseline of --baseline main
//	pln-empty_sandbox      no test case; COMPLETED/PASSED at once, 0 s
//
// Options.FailingTestCases (the hidden `testctl sandbox
// --failing-test-cases N`) adds N failing test cases, each like the
// declined card, and PlanRegressions (pln-regressions_sandbox) that runs
// them: for benchmarks of the failure reports.
//
// A run is INITIATED until its first test case starts (1 s; 2 s for the
// slow plan), RUNNING until its last one ends, then final; with
// Options.RunEndDelay (the hidden `testctl sandbox --run-end-delay D`) it
// stays RUNNING that much longer, every test case ended, as the service's
// may while it evaluates the run: for benchmarks of how soon a wait sees
// the end. Each test case
// goes INITIATED, RUNNING, then COMPLETED with PASSED, FAILED or SKIPPED
// (or ERROR / CANCELLED, result ""), on its own timeline, so the counts
// of a live view change as it watches. result is null until COMPLETED.
//
// # Test cases
//
// Application app_sandbox-web ("Sandbox Web") with environment
// env_sandbox-staging; scenario scenario_sandbox-checkout; configs
// cfg_sandbox-admin and cfg_sandbox-guest; device presets
// preset_sandbox-desktop and preset_sandbox-pixel. Project test cases
// (ids 5a4db00N-0000-4000-8000-00000000000N, N in hex, so that ids
// shortened to eight characters on a terminal stay distinct):
//
//	1 Log in with email and password
//	2 Add a product to the cart               resumes from 1
//	3 Check out with a saved card             resumes from 2
//	4 Apply an expired coupon                 always FAILS
//	5 Receive the order confirmation email    waits for 3 and 4 (so never runs)
//	6 View the order history                  waits for 1 and 3
//	7 Search the catalogue with infinite scroll  600 network requests
//	8 Health endpoint answers 200             an API test (API calls only)
//	9 Upload a profile picture                disabled
//	a Pay with a declined card                always FAILS
//
// A run of testCaseIds adds the dependencies that were not listed (so
// testCount may exceed the ids given) and orders them: a dependent starts
// when its dependencies have ended; one whose wait-for dependency did not
// pass ends COMPLETED/SKIPPED with a resultTitle saying why; one whose
// resume-from dependency did not run is skipped too. Test cases start half
// a second apart and take 2 to 6 s.
//
// POST /v1/test-cases creates a disabled test case, GENERATING for 60 s of
// sandbox time, then COMPLETED (the list shows generationStatus). Created
// test cases can be run by id and pass in 4 s.
//
// # Lists
//
// GET /v1/run lists runs started in this process, newest first, then
// Options.History generated past runs (default 50; mixed plans, verdicts,
// triggers and branches) in the project. Filters: status, result, trigger,
// branch, testPlanShortId, commitHash; limit 1..100 (default 20), offset >= 0.
// GET /v1/test-cases filters applicationShortId, labels (comma-separated;
// a test case matches when it has ANY of them) and isEnabled; same paging.
//
// # Logs
//
// Every run test case (short id "<run>-<n>") has deterministic telemetry:
// browser tests have network requests (including status 0 with errorText,
// a CORS block, 4xx, 5xx and custom headers) and console output (error,
// log, warning and info levels; some messages carry ANSI and OSC escape
// sequences); the API test has API calls with headers, textResult and
// bodies truncated at BodyTruncateAt characters. One call returns at most
// LogsPerCallCap (250) entries; hasMore and message say when that cut the
// result. A running test case shows what has been captured so far.
// Network requests and API calls carry relativeTimestampMs from the same
// origin as the console's relativeTimestampSeconds (the first captured
// entry), and each list is in time order.
//
// The telemetry agrees with the outcome (telemetry.go, the story*
// constants): the declined card's last request is POST /api/payments 502,
// followed by PaymentTypeError in the console; the expired coupon's
// POST /api/cart/coupon is accepted (200); the flaky plan's search loads
// pages 1 to 16 and times out on page 17, its API test's GET /health
// answers 503; the erroring plan's page loads time out. Passing test cases
// show only background noise (a blocked tracker and font, missing images,
// the recommendations API's 500) and no uncaught error.
//
// # Tunnels
//
//	runner-healthy   4 connections      runner-degraded  2 connections
//	runner-inactive  0 connections      runner-nostatus  5 connections, no status field
//	runner-warming   0, then 2 from 10 s, then 4 from 20 s
//
// # Wire format
//
// Query objects are read both as flat keys (?testCases=all&issues=true) and
// as the non-exploded form (?query=testCases,all,issues,true); a flat key
// wins. Request bodies are decoded strictly: unknown fields, wrong types
// and malformed JSON are 400 with a message. Errors are {"message": …};
// the legacy address (LegacyPrefix) answers {"statusText": …}.
//
// # Faults and statistics
//
// Options.FaultRate fails that share of requests before they are handled
// (500, 502, 503, 429 with Retry-After: 1, or a dropped connection), chosen
// from the seed and the request's sequence number. A write (POST /v1/run,
// a rerun, POST /v1/test-cases) may instead be carried out and then lose
// its answer (a 500 or a dropped connection), unless Options.NoLostAnswers;
// Server.LoseNextAnswers scripts such losses. Options.Latency delays every
// response. GET /_sandbox/stats (no key, never faulted) returns Stats: runs
// and test cases created, faults by kind, lost answers by kind.
//
// Options.VisibilityDelay, for tests of a client's grace, hides a new run
// (404, not listed) for that long, as the service may.
//
// # Reruns
//
// POST /v1/run/{shortId} ({failedOnly, projectTestCaseIds}, both optional)
// starts a new run from a finished one, keeping its plan, trigger, branch,
// commit and applications; failedOnly runs the test cases that ended FAILED
// or ERROR, projectTestCaseIds the ones given, which must be in the
// original. 400 for a run still in progress, nothing to rerun, both fields,
// or ids that are malformed or not in the run; 404 for an unknown run.
//
// Also served: GET /v1/outbound-ips and GET /v1/badge.svg?token=KEY&testPlanShortId=PLN
// (both without Authorization), GET /v1/applications,
// GET /v1/applications/{app}/environments and GET /v1/remote-tunnels.
package sandbox
