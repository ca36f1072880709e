package mcp

import (
	"context"
	"net/http"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// NewHTTPHandler is the handler of `testctl mcp --http` for tests, with or
// without StreamableHTTPOptions.PropagateRequestCancellation.
func NewHTTPHandler(ctx context.Context, f *cmdutil.Factory, exec Exec, readOnly, propagate bool) http.Handler {
	srv, s := newServer(ctx, f, exec, readOnly)
	return s.httpHandler(srv, "127.0.0.1:0", propagate)
}
