package flagcheck

import (
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
)

func TestValidateInterval(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		base string
		ok   bool
	}{
		{time.Second, "https://api.example", true},
		{500 * time.Millisecond, "https://api.example", false},
		{500 * time.Millisecond, "http://127.0.0.1:8787", true},
		{10 * time.Millisecond, "http://localhost:1", true},
		{500 * time.Millisecond, "::not a url", false},
	} {
		err := ValidateInterval("interval", c.d, c.base)
		if (err == nil) != c.ok || err != nil && exitcode.Of(err) != exitcode.Usage {
			t.Errorf("ValidateInterval(%s, %s) = %v, want ok %v", c.d, c.base, err, c.ok)
		}
	}
}

func TestValidatePositiveDuration(t *testing.T) {
	for d, ok := range map[time.Duration]bool{time.Second: true, 0: false, -time.Second: false} {
		if err := ValidatePositiveDuration("timeout", d); (err == nil) != ok {
			t.Errorf("ValidatePositiveDuration(%s) = %v", d, err)
		}
	}
}

func TestValidateReportPath(t *testing.T) {
	dir := t.TempDir()
	for path, ok := range map[string]bool{"": true, dir + "/r.xml": true, dir: false, dir + "/nope/r.xml": false} {
		err := ValidateReportPath("junit", path)
		if (err == nil) != ok || err != nil && exitcode.Of(err) != exitcode.Usage {
			t.Errorf("ValidateReportPath(%q) = %v, want ok %v", path, err, ok)
		}
	}
}
