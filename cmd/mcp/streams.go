package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// streams follows, over streamable HTTP, the POST that carries each
// tools/call and the client's notifications/cancelled: what tells a
// response stream lost (its POST ended before the call answered: a network
// cut, or under the 2026-07-28 protocol a client that will re-issue the
// call) from a call the client cancelled itself. The SDK's handler cannot
// tell them apart: both end the POST, and the handler's context only ends
// with it under StreamableHTTPOptions.PropagateRequestCancellation.
type streams struct {
	mu        sync.Mutex
	next      uint64
	open      map[string]*post     // by the tag put on the POST's callHeader
	cancelled map[string]time.Time // by requestKey: when the client cancelled it
}

// post is the POST that carries one tools/call.
type post struct {
	ctx     context.Context // the HTTP request's: it ends with the stream
	request string          // requestKey of the call
}

// callHeader tags a tools/call's POST so that the tool's handler, which
// sees the request's headers (RequestExtra.Header), finds its stream. A
// client's own value is replaced.
const callHeader = "X-Testctl-Call"

// maxPeek bounds the body read to find the message: the SDK's own bound.
const maxPeek = 4 << 20

// cancelMemory is how long a client's cancellation is remembered.
const cancelMemory = 10 * time.Minute

func newStreams() *streams {
	return &streams{open: map[string]*post{}, cancelled: map[string]time.Time{}}
}

// requestKey names a request of a client: its session (none under the
// stateless 2026-07-28 protocol) and its JSON-RPC id.
func requestKey(session string, id json.RawMessage) string {
	return session + "\x00" + string(bytes.TrimSpace(id))
}

// handler tags the POSTs of tools/call and notes cancellations, then
// hands the request on unchanged.
func (s *streams) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(callHeader)
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
		if err != nil || len(body) > maxPeek {
			next.ServeHTTP(w, r)
			return
		}
		session := r.Header.Get("Mcp-Session-Id")
		var tag string
		for _, m := range messages(body) {
			switch {
			case m.Method == "tools/call" && len(m.ID) > 0 && tag == "":
				tag = s.opened(r.Context(), requestKey(session, m.ID))
				r.Header.Set(callHeader, tag)
			case m.Method == "notifications/cancelled" && len(m.Params.RequestID) > 0:
				s.cancel(requestKey(session, m.Params.RequestID))
			}
		}
		if tag != "" {
			defer s.closed(tag)
		}
		next.ServeHTTP(w, r)
	})
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// messages are the JSON-RPC messages of a body: one, or a batch.
func messages(body []byte) []message {
	var one message
	if json.Unmarshal(body, &one) == nil {
		return []message{one}
	}
	var batch []message
	_ = json.Unmarshal(body, &batch)
	return batch
}

func (s *streams) opened(ctx context.Context, request string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	tag := strconv.FormatUint(s.next, 10)
	s.open[tag] = &post{ctx: ctx, request: request}
	return tag
}

func (s *streams) closed(tag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, tag)
}

func (s *streams) cancel(request string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	for k, at := range s.cancelled {
		if now.Sub(at) > cancelMemory {
			delete(s.cancelled, k)
		}
	}
	s.cancelled[request] = now
}

// find is the POST a call's headers name; nil off HTTP.
func (s *streams) find(h http.Header) *post {
	if s == nil || h == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open[h.Get(callHeader)]
}

// cancelledByClient says whether the client sent notifications/cancelled
// for the request.
func (s *streams) cancelledByClient(request string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.cancelled[request]
	return ok
}
