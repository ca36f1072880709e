package mcp

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newProtocol is the first revision of the protocol without sessions
// (SEP-2575): its requests name it in the MCP-Protocol-Version header.
const newProtocol = "2026-07-28"

// httpHandler serves srv over streamable HTTP. A client of the 2026-07-28
// revision, whose every request stands alone, is served without sessions,
// where the SDK serves that revision only; an older client keeps its
// session (and the SDK's own handling of notifications/cancelled). With
// propagate, a call's context ends when its response stream does: a wait
// nobody reads any more stops (what it started is known first, see
// holdCancel).
func (s *server) httpHandler(srv *mcp.Server, addr string, propagate bool) http.Handler {
	get := func(*http.Request) *mcp.Server { return srv }
	sessions := mcp.NewStreamableHTTPHandler(get, nil)
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: propagate})
	s.streams = newStreams()
	return sameOrigin(addr, s.streams.handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") >= newProtocol {
			stateless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})))
}
