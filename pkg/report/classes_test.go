package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/verdict"
)

// classedVerdict is a run of plan pln-c on a feature branch: Login fails
// and passed on main (new), Pay fails there too (known), Coupon fails and
// is quarantined, Search passes; --fail-on new lets the run through.
func classedVerdict(failOn verdict.FailOn) verdict.Verdict {
	tc := func(id, name, result string) api.RunTestCase {
		return api.RunTestCase{ShortID: id, Name: name, Status: api.StatusCompleted, Result: result}
	}
	rec := verdict.Record{ShortID: "r2", Plan: verdict.Plan{ShortID: "pln-c", Name: "Checkout"}, Detail: &api.RunDetail{
		ShortID: "r2", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
			tc("c1", "Pay", api.ResultFailed), tc("c2", "Coupon", api.ResultFailed), tc("c3", "Login", api.ResultFailed), tc("c4", "Search", api.ResultPassed)}}}
	rec.Detail.SetRawJSON([]byte(`{"shortId":"r2","status":"COMPLETED","result":"FAILED","unknownField":1,"runTestCases":[]}`))
	o := verdict.Options{FailOn: failOn, BaselineBranch: "main", Now: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC),
		Baselines: map[string]*verdict.Baseline{"pln-c": {Branch: "main", RunShortID: "rb1", Cases: []api.RunTestCase{
			tc("b1", "Login", api.ResultPassed), tc("b2", "Pay", api.ResultFailed)}}},
		Quarantine: []verdict.Quarantine{{Name: "Coupon", Owner: "@alice", Reason: "PSP down", Until: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)},
			{Name: "Gone", Owner: "@bob", Until: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC), Line: 6}}}
	return verdict.Decide([]verdict.Record{rec}, o)
}

func TestSummaryListsNewThenKnownThenQuarantined(t *testing.T) {
	v := classedVerdict(verdict.FailOnAny)
	var b bytes.Buffer
	ios, _, _, _ := iostreams.Test()
	WriteSummary(&b, ios.ErrStyles(), 0, v, nil, Resume{})
	s := b.String()
	login, pay, coupon := strings.Index(s, "Login FAILED"), strings.Index(s, "Pay FAILED"), strings.Index(s, "Coupon FAILED")
	if login < 0 || pay < login || coupon < pay {
		t.Errorf("new (Login), known (Pay), quarantined (Coupon) in that order:\n%s", s)
	}
	for _, want := range []string{"against run rb1 on main", "failures: 1 new failure · 1 known · 1 quarantined",
		"[c3] · new", "[c1] · known", "[c2] · quarantined", "quarantined until 2026-12-31 (owner @alice): PSP down"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, s)
		}
	}
	var stale bytes.Buffer
	writeStale(&stale, v)
	if !strings.Contains(stale.String(), `the quarantine entry (line 6) for "Gone" matches no test case`) {
		t.Errorf("stale: %q", stale.String())
	}
}

func TestSummarySaysNoBaselineOncePerPlan(t *testing.T) {
	d := &api.RunDetail{Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{Name: "Pay", Status: api.StatusCompleted, Result: api.ResultFailed}}}
	recs := []verdict.Record{{ShortID: "r1", Plan: verdict.Plan{ShortID: "p"}, Detail: d}, {ShortID: "r2", Plan: verdict.Plan{ShortID: "p"}, Detail: d}}
	v := verdict.Decide(recs, verdict.Options{BaselineBranch: "main", Baselines: map[string]*verdict.Baseline{"p": {Branch: "main"}}})
	var b bytes.Buffer
	ios, _, _, _ := iostreams.Test()
	WriteSummary(&b, ios.ErrStyles(), 0, v, nil, Resume{})
	if n := strings.Count(b.String(), "no COMPLETED run of plan p on main to compare with: every failure is new"); n != 1 {
		t.Errorf("said %d times:\n%s", n, b.String())
	}
}

func TestStepSummaryHeadline(t *testing.T) {
	var b strings.Builder
	stated := classedVerdict(verdict.FailOnNew)
	if err := WriteStepSummary(&b, stated, stated.Code, nil, Resume{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**1 new failure · 1 known · 1 quarantined**", "**Pay** · known", "against run rb1 on main"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}

// ::error only for what fails the gate.
func TestAnnotationsErrorOnlyForTheGate(t *testing.T) {
	for _, c := range []struct {
		failOn verdict.FailOn
		errors []string
	}{
		{verdict.FailOnNew, []string{"Login (new)"}},
		{verdict.FailOnAny, []string{"Login (new)", "Pay (known)"}},
	} {
		var b bytes.Buffer
		stated := classedVerdict(c.failOn)
		WriteAnnotations(&b, stated, stated.Code, nil, Resume{})
		var errs, warns []string
		for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			_, title, _ := strings.Cut(line, "%3A ")
			title, _, _ = strings.Cut(title, "::")
			if strings.HasPrefix(line, "::error") {
				errs = append(errs, title)
			} else {
				warns = append(warns, title)
			}
		}
		if strings.Join(errs, "|") != strings.Join(c.errors, "|") {
			t.Errorf("--fail-on %s: errors %q, want %q\n%s", c.failOn, errs, c.errors, b.String())
		}
		if !strings.Contains(strings.Join(warns, "|"), "Coupon (quarantined)") {
			t.Errorf("--fail-on %s: warnings %q", c.failOn, warns)
		}
	}
}

func TestJUnitKeepsEveryFailureAndNamesTheClass(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, classedVerdict(verdict.FailOnNew), nil); err != nil {
		t.Fatal(err)
	}
	var doc JUnitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Suites[0]
	if s.Failures != 3 {
		t.Errorf("%d failures, want all 3", s.Failures)
	}
	props := map[string]string{}
	for _, p := range s.Properties {
		props[p.Name] = p.Value
	}
	for k, want := range map[string]string{"baseline_branch": "main", "baseline_run_short_id": "rb1",
		"failure_class:Login": "new", "failure_class:Pay": "known", "failure_class:Coupon": "quarantined"} {
		if props[k] != want {
			t.Errorf("property %s = %q, want %q", k, props[k], want)
		}
	}
}

func TestOutputsCountNewAndKnown(t *testing.T) {
	var b strings.Builder
	if err := WriteOutputs(&b, classedVerdict(verdict.FailOnNew)); err != nil {
		t.Fatal(err)
	}
	out := parseGitHubOutput(t, b.String())
	if out["new_failures"] != "1" || out["known_failures"] != "1" {
		t.Errorf("outputs: %v", out)
	}
	var runs []struct {
		Failures map[string]string
		Baseline string `json:"baselineRunShortId"`
		ExitCode int
	}
	if err := json.Unmarshal([]byte(out["runs_json"]), &runs); err != nil {
		t.Fatal(err)
	}
	if runs[0].Baseline != "rb1" || runs[0].Failures["Pay"] != "known" || runs[0].ExitCode != 1 {
		t.Errorf("runs_json: %+v", runs)
	}
	// Without a baseline or a quarantine file, nothing is added.
	b.Reset()
	v := classedVerdict(verdict.FailOnAny)
	v.Classified = false
	_ = WriteOutputs(&b, v)
	if strings.Contains(b.String(), "new_failures") {
		t.Errorf("unclassified: %s", b.String())
	}
}

func TestJSONCarriesTheClassesInTestctlsOwnKey(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	if err := WriteData(ios.Out, ios, output.Options{Format: output.FormatJSON}, classedVerdict(verdict.FailOnNew)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		UnknownField int `json:"unknownField"`
		Testctl      struct {
			BaselineRunShortID string `json:"baselineRunShortId"`
			Failures           []struct{ Name, Class string }
		} `json:"testctl"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if doc.UnknownField != 1 || doc.Testctl.BaselineRunShortID != "rb1" || len(doc.Testctl.Failures) != 3 ||
		doc.Testctl.Failures[0].Name != "Login" || doc.Testctl.Failures[0].Class != "new" {
		t.Errorf("document: %+v\n%s", doc, out.String())
	}
}

func TestHTMLBadgesEachFailure(t *testing.T) {
	path := t.TempDir() + "/r.html"
	if err := WriteHTMLFile(path, classedVerdict(verdict.FailOnNew), nil, nil, nil, Resume{}); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range readHTMLData(t, path).Runs[0].Cases {
		got[c.Name] = c.Failure
	}
	if got["Login"] != "new" || got["Pay"] != "known" || got["Coupon"] != "quarantined" || got["Search"] != "" {
		t.Errorf("classes in the page's data: %v", got)
	}
}
