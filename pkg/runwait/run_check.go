package runwait

import "github.com/testctl/testctl/pkg/api"

// CheckRunDetail is api.CheckRunDetail, kept for this package's fetchRun
// (runs.go) until the work in progress on that file has landed; then the
// call there names api.CheckRunDetail and this goes.
//
// Deprecated: use api.CheckRunDetail.
func CheckRunDetail(d *api.RunDetail, id string) error { return api.CheckRunDetail(d, id) }
