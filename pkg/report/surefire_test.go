package report

import (
	"bytes"
	"encoding/xml"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/verdict"
)

// xmllint is the consumer CI servers' JUnit readers are modelled on: the
// report validates against Surefire's 3.0 schema. Locally the test skips,
// saying so, without libxml2's xmllint; in CI it never skips.
func xmllint(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xmllint is missing in CI: install libxml2-utils")
		}
		t.Skip("skipped: xmllint (Debian's libxml2-utils) is not installed")
	}
	return path
}

// Every suite of the JUnit report validates against Surefire's schema, for
// random verdicts with evidence, flaky and rerun failures, hostile text and
// run-level elements.
func TestJUnitConformsToSurefireSchema(t *testing.T) {
	lint := xmllint(t)
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	n := 0
	for i := 0; i < 30; i++ {
		recs := []verdict.Record{randomRecord(rng, "r1"), randomRecord(rng, "r2")}
		recs[0].Plan.Name = "Checkout <\"&'> \x1b[31m"
		v := verdict.Decide(recs, verdict.Options{FailOnSkipped: i%2 == 0, FailOnFlaky: i%3 == 0})
		ev := Evidence{}
		for _, r := range v.Runs {
			for _, c := range r.Cases {
				code := int32(502)
				ev[c.ShortID] = evidence.Case{Target: evidence.TargetOf(c.RunShortID, "p", c.RunTestCase),
					Network: evidence.Part[api.NetworkEntry]{Entries: []api.NetworkEntry{{URL: "https://x/api?a=<b>&c", Method: "POST", StatusCode: code, IsError: true}}},
					Console: evidence.Part[api.ConsoleEntry]{Unavailable: "HTTP 500"}}
			}
		}
		var b bytes.Buffer
		if err := WriteJUnit(&b, v, ev); err != nil {
			t.Fatal(err)
		}
		// Each suite alone, as the schema's root is one testsuite.
		var full junitSuites
		_ = xml.Unmarshal(b.Bytes(), &full)
		for _, s := range full.Suites {
			one, err := xml.MarshalIndent(s, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			one = bytes.Replace(one, []byte("<junitSuite"), []byte("<testsuite"), 1)
			one = bytes.Replace(one, []byte("</junitSuite>"), []byte("</testsuite>"), 1)
			path := filepath.Join(dir, "suite.xml")
			if err := os.WriteFile(path, append([]byte(xml.Header), one...), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(lint, "--noout", "--schema", "testdata/surefire-test-report-3.0.xsd", path).CombinedOutput()
			if err != nil {
				t.Fatalf("suite %d of case %d does not validate: %v\n%s\n%s", n, i, err, out, one)
			}
			n++
		}
	}
	t.Logf("%d suites validated against Surefire's 3.0 schema", n)
}
