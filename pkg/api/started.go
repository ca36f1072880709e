package api

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/testctl/testctl/pkg/exitcode"
)

// NotStartedError is a 2xx answer to a start that does not say a run was
// started: "success": false, or no run short id. Taking it at its word
// would report a run that does not exist, and pass a CI gate.
type NotStartedError struct {
	Method, Path string
	Message      string // the service's own reason, sanitised by whoever prints it
	Reason       string // what was wrong with the answer, shown when there is no Message
}

func (e *NotStartedError) Error() string {
	return fmt.Sprintf("%s %s: the service did not start a run: %s", e.Method, e.Path, cmp.Or(e.Message, e.Reason))
}

// ExitCode is the contract's "the service failed".
func (e *NotStartedError) ExitCode() int { return exitcode.Service }

// checkStarted refuses a start answer that does not name a started run. It
// reads the kept document: a missing "success" is accepted, only false is not.
func checkStarted(path string, out *StartRunResponse) error {
	var answer struct {
		Success *bool  `json:"success"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(out.RawJSON(), &answer) // it was decoded once already
	e := &NotStartedError{Method: "POST", Path: path, Message: answer.Message}
	switch {
	case answer.Success != nil && !*answer.Success:
		e.Reason = `the answer says "success": false`
	case out.Run.ShortID == "":
		e.Reason = "the answer names no run (no run.shortId)"
	default:
		return nil
	}
	return e
}
