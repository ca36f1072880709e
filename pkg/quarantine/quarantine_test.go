package quarantine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
)

const good = `# quarantined until the PSP sandbox is back
- name: Pay with a declined card
  plan: pln-failing_sandbox
  owner: "@alice"
  reason: the payment provider's sandbox is down (INC-123)
  until: 2026-12-31
- name: Apply an expired coupon
  owner: team-checkout
  until: 2026-11-01
`

func TestParse(t *testing.T) {
	qs, err := Parse("q.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 {
		t.Fatalf("%d entries", len(qs))
	}
	q := qs[0]
	if q.Name != "Pay with a declined card" || q.Plan != "pln-failing_sandbox" || q.Owner != "@alice" || q.Line != 2 ||
		!q.Until.Equal(time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)) || !strings.Contains(q.Reason, "INC-123") {
		t.Errorf("entry: %+v", q)
	}
	if qs[1].Plan != "" || qs[1].Line != 7 {
		t.Errorf("second entry: %+v", qs[1])
	}
	now := time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC)
	warn := Expired("q.yaml", qs, now)
	if len(warn) != 1 || !strings.Contains(warn[0], "q.yaml:7:") || !strings.Contains(warn[0], "ended on 2026-11-01") {
		t.Errorf("warnings: %q", warn)
	}
	if w := Expired("q.yaml", qs[:1], time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC)); len(w) != 0 {
		t.Errorf("until is the last day it holds: %q", w)
	}
}

// Every mistake is exit 2 and names its line.
func TestParseMistakes(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"unknown key", "- name: a\n  owner: b\n  until: 2026-12-31\n  expires: 2027-01-01\n", `q.yaml:4: unknown key "expires"`},
		{"misspelt key", "- name: a\n  ownr: b\n  until: 2026-12-31\n", `q.yaml:2: unknown key "ownr" (did you mean owner?)`},
		{"bad date", "- name: a\n  owner: b\n  until: 31/12/2026\n", `q.yaml:3: until "31/12/2026" is not a date: write it as YYYY-MM-DD`},
		{"impossible date", "- name: a\n  owner: b\n  until: 2026-02-30\n", `q.yaml:3: until "2026-02-30" is not a date`},
		{"no until", "- name: a\n  owner: b\n", "q.yaml:1: the entry has no until"},
		{"no owner", "\n- name: a\n  until: 2026-12-31\n", "q.yaml:2: the entry has no owner"},
		{"no name", "- owner: b\n  until: 2026-12-31\n", "q.yaml:1: the entry has no name"},
		{"empty name", "- name: \"\"\n  owner: b\n  until: 2026-12-31\n", "q.yaml:1: the entry has no name"},
		{"not a list", "name: a\nowner: b\n", "q.yaml:1: the file is a list of entries"},
		{"entry not a mapping", "- a\n", "q.yaml:1: an entry is a mapping"},
		{"list value", "- name: [a, b]\n  owner: b\n  until: 2026-12-31\n", "q.yaml:1: name must be a single value"},
		{"twice", "- name: a\n  name: b\n  owner: b\n  until: 2026-12-31\n", "q.yaml:2: name is given twice"},
		{"bad YAML", "- name: a\n  owner: b\n until: x\n", "q.yaml:3: not valid YAML"},
	} {
		_, err := Parse("q.yaml", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) || exitcode.Of(err) != exitcode.Usage {
			t.Errorf("%s: %v (exit %d), want %q and exit 2", c.name, err, exitcode.Of(err), c.want)
		}
	}
	if qs, err := Parse("q.yaml", []byte("# nothing quarantined\n")); err != nil || len(qs) != 0 {
		t.Errorf("an empty file: %v %v", qs, err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.yaml")
	if _, err := Load(t.Context(), missing, true); err == nil || exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a given file that is missing: %v", err)
	}
	if qs, err := Load(t.Context(), missing, false); err != nil || qs != nil {
		t.Errorf("the default file missing is no quarantine: %v %v", qs, err)
	}
	path := filepath.Join(dir, "q.yaml")
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	if qs, err := Load(t.Context(), path, true); err != nil || len(qs) != 2 {
		t.Errorf("%v %v", qs, err)
	}
	// A file that cannot be read within its bound is exit 8, saying why.
	large := filepath.Join(dir, "large.yaml")
	if err := os.WriteFile(large, []byte("# "+strings.Repeat("x", MaxFileBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for given, want := range map[bool]string{true: "reading --quarantine " + large, false: "reading the quarantine file " + large} {
		if _, err := Load(t.Context(), large, given); exitcode.Of(err) != exitcode.Local || !strings.Contains(err.Error(), want+": larger than 4 MiB") {
			t.Errorf("too large (given %v): %v", given, err)
		}
	}
	// The default file must be a file; a directory given is refused too.
	if _, err := Load(t.Context(), dir, false); exitcode.Of(err) != exitcode.Local || !strings.Contains(err.Error(), "a directory, not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}
