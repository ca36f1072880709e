package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is the SDK's stdio transport behind a filter of the lines
// the client sends. The SDK ends the session at the first line that is not
// a JSON-RPC message, and at the end of stdin drops the requests it has
// not answered yet; the filter answers such a line itself, a parse error
// (-32700) or an invalid request (-32600) with a null id, and reads on, as
// JSON-RPC 2.0 asks (§5.1), and passes the end of stdin on only once every
// request it passed has been answered (or stop is closed).
type lineTransport struct {
	in   io.Reader
	out  io.Writer
	stop <-chan struct{}
}

// maxLine bounds a message, as the SDK's own stdio transport does.
const maxLine = mcp.DefaultMaxLineLength

func (t *lineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	w := &frameWriter{out: t.out, pending: newPending()}
	go t.filter(pw, w)
	return (&mcp.IOTransport{Reader: pr, Writer: w}).Connect(ctx)
}

func (t *lineTransport) filter(pw *io.PipeWriter, w *frameWriter) {
	r := bufio.NewReaderSize(t.in, 64<<10)
	for {
		line, tooLong, err := readLine(r, maxLine)
		if !w.pass(pw, bytes.TrimSpace(line), tooLong) || err != nil {
			break
		}
	}
	w.pending.wait(t.stop)
	_ = pw.Close() // the SDK's end of input: the session ends
}

// readLine reads a line of at most max bytes; a longer one is read to its
// end and reported too long.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, rerr := r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > max+1 {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if !errors.Is(rerr, bufio.ErrBufferFull) {
			return line, tooLong, rerr
		}
	}
}

// frameWriter writes the SDK's frames and the filter's errors one whole
// line at a time, and notes the requests the SDK has answered.
type frameWriter struct {
	mu      sync.Mutex
	out     io.Writer
	pending *pending
}

// pass hands a line to the SDK, or answers it when it is no JSON-RPC
// message. It reports false once the SDK reads no more.
func (w *frameWriter) pass(pw io.Writer, line []byte, tooLong bool) bool {
	if len(line) == 0 && !tooLong {
		return true
	}
	if tooLong {
		w.refuse(jsonrpc.CodeParseError, nil, fmt.Sprintf("Parse error: a message longer than %d MiB", maxLine>>20))
		return true
	}
	msgs, err := decodeLine(line)
	if err != nil {
		var id json.RawMessage
		if err.code == jsonrpc.CodeInvalidRequest {
			id = idOf(line)
		}
		w.refuse(err.code, id, err.Error())
		return true
	}
	for _, m := range msgs {
		if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
			w.pending.add(req.ID)
		}
	}
	_, werr := pw.Write(append(line, '\n'))
	return werr == nil
}

// Write writes one frame of the SDK's, whole, and notes the responses in it.
func (w *frameWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	n, err := w.out.Write(p)
	w.mu.Unlock()
	if msgs, bad := decodeLine(bytes.TrimSpace(p)); bad == nil {
		for _, m := range msgs {
			if resp, ok := m.(*jsonrpc.Response); ok {
				w.pending.done(resp.ID)
			}
		}
	}
	return n, err
}

func (w *frameWriter) Close() error { return nil }

// refuse answers a line that is no request with a JSON-RPC error; id is
// the line's own when it has one, else null.
func (w *frameWriter) refuse(code int64, id json.RawMessage, message string) {
	frame, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", nullIfNone(id), jsonrpc.Error{Code: code, Message: message}})
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.out.Write(append(frame, '\n'))
}

func nullIfNone(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// decodeLine decodes a message, or a batch of them, as the SDK would.
func decodeLine(line []byte) ([]jsonrpc.Message, *lineError) {
	if !json.Valid(line) {
		var v any
		return nil, &lineError{jsonrpc.CodeParseError, fmt.Sprintf("Parse error: %v", json.Unmarshal(line, &v))}
	}
	if line[0] != '[' {
		m, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			return nil, &lineError{jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %v", err)}
		}
		return []jsonrpc.Message{m}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(line, &raws); err != nil || len(raws) == 0 {
		return nil, &lineError{jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch"}
	}
	msgs := make([]jsonrpc.Message, len(raws))
	for i, raw := range raws {
		m, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, &lineError{jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: batch member %d: %v", i+1, err)}
		}
		msgs[i] = m
	}
	return msgs, nil
}

// lineError is why a line is no message, with its JSON-RPC code.
type lineError struct {
	code    int64
	message string
}

func (e *lineError) Error() string { return e.message }

// idOf is the id of a request that is invalid otherwise, when it is one an
// id can be (a string or a number); else nil.
func idOf(line []byte) json.RawMessage {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &req) != nil || len(req.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(req.ID, &v) != nil {
		return nil
	}
	if id, err := jsonrpc.MakeID(v); err != nil || !id.IsValid() {
		return nil
	}
	return req.ID
}

// pending counts the requests passed to the SDK and not yet answered.
type pending struct {
	mu      sync.Mutex
	ids     map[jsonrpc.ID]int
	changed chan struct{}
}

func newPending() *pending {
	return &pending{ids: map[jsonrpc.ID]int{}, changed: make(chan struct{}, 1)}
}

func (p *pending) add(id jsonrpc.ID) {
	p.mu.Lock()
	p.ids[id]++
	p.mu.Unlock()
}

func (p *pending) done(id jsonrpc.ID) {
	p.mu.Lock()
	if p.ids[id]--; p.ids[id] <= 0 {
		delete(p.ids, id)
	}
	p.mu.Unlock()
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// wait returns once every request has been answered, or stop is closed.
func (p *pending) wait(stop <-chan struct{}) {
	for {
		p.mu.Lock()
		n := len(p.ids)
		p.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-p.changed:
		case <-stop:
			return
		}
	}
}
