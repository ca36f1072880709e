package api

import (
	"errors"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
)

// A run detail without a status tells nothing of the run: a service error
// (exit 6) naming the request, never a run to classify.
func TestCheckRunDetail(t *testing.T) {
	if err := CheckRunDetail(&RunDetail{Status: StatusRunning}, "r1"); err != nil {
		t.Errorf("a run with a status: %v", err)
	}
	for name, d := range map[string]*RunDetail{"nil": nil, "no status": {}} {
		err := CheckRunDetail(d, "r 1")
		if _, ok := errors.AsType[*DecodeError](err); !ok || exitcode.Of(err) != exitcode.Service ||
			!strings.Contains(err.Error(), "/v1/run/r%201") {
			t.Errorf("%s: %v, want a decode error of GET /v1/run/r%%201 (exit 6)", name, err)
		}
	}
}
