package api

import (
	"errors"
	"net/http"
	"net/url"
)

// CheckRunDetail refuses an answer to GET /v1/run/{id} that says nothing
// about the run: a 200 without a status (a captive portal, a proxy's JSON,
// a service answering null fields) is as unreadable as HTML, exit 6. `run
// get` and the wait read it the same way.
func CheckRunDetail(d *RunDetail, id string) error {
	if d != nil && d.Status != "" {
		return nil
	}
	return &DecodeError{Method: http.MethodGet, Path: "/v1/run/" + url.PathEscape(id), Status: http.StatusOK,
		Err: errors.New("no run status in the answer")}
}
