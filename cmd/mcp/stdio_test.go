package mcp_test

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

const (
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsList   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// frame is a JSON-RPC message the server wrote, as raw as it came.
type frame struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decodeFrame(t *testing.T, line string) frame {
	t.Helper()
	var f frame
	if err := json.Unmarshal([]byte(line), &f); err != nil {
		t.Fatalf("not a JSON-RPC message: %q", line)
	}
	return f
}

// A line that is not JSON is answered with a parse error whose id is null,
// and the server reads on: the next request, over the same pipe, gets its
// answer, and the end of stdin is the end of the server, exit 0.
func TestALineThatIsNotJSONIsAParseError(t *testing.T) {
	e := cmdtest.New(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan cmdtest.Result, 1)
	go func() {
		r := e.RunWith(cmdtest.RunOptions{In: inR, Stdout: outW}, "mcp")
		outW.Close()
		done <- r
	}()
	out := bufio.NewScanner(outR)
	out.Buffer(nil, 1<<20)
	next := func() frame {
		t.Helper()
		if !out.Scan() {
			t.Fatalf("the server wrote no more: %v", out.Err())
		}
		return decodeFrame(t, out.Text())
	}

	_, _ = io.WriteString(inW, "this is not JSON\n")
	f := next()
	if f.Error == nil || f.Error.Code != -32700 || string(f.ID) != "null" || !strings.HasPrefix(f.Error.Message, "Parse error") {
		t.Errorf("the answer to garbage: %+v %s", f.Error, f.ID)
	}
	// JSON that is no request is an invalid request, with its id when it has one.
	_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":7,"method":42}`+"\n")
	if f := next(); f.Error == nil || f.Error.Code != -32600 || string(f.ID) != "7" {
		t.Errorf("the answer to an invalid request: %+v %s", f.Error, f.ID)
	}
	_, _ = io.WriteString(inW, initialize+"\n")
	if f := next(); f.Error != nil || string(f.ID) != "1" || !strings.Contains(string(f.Result), `"serverInfo"`) {
		t.Errorf("the answer to initialize: %+v %s %s", f.Error, f.ID, f.Result)
	}
	inW.Close()
	r := <-done
	if r.Code != 0 || out.Scan() {
		t.Errorf("exit %d, more: %q\n%s", r.Code, out.Text(), r.Stderr)
	}
}

// Requests already read when stdin closes are answered before the server
// exits: initialize and tools/list get their responses (the notification
// none), then exit 0.
func TestRequestsPipedInAreAllAnswered(t *testing.T) {
	e := cmdtest.New(t)
	r := e.RunWith(cmdtest.RunOptions{Stdin: initialize + "\n" + initialized + "\n" + toolsList + "\n"}, "mcp").Expect(t, 0)
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d answers, want 2:\n%s", len(lines), r.Stdout)
	}
	for i, want := range []string{"1", "2"} {
		if f := decodeFrame(t, lines[i]); string(f.ID) != want || f.Error != nil || len(f.Result) == 0 {
			t.Errorf("answer %d: %s %+v", i+1, f.ID, f.Error)
		}
	}
	if !strings.Contains(lines[1], `"name":"start_run"`) {
		t.Errorf("tools/list lists no start_run: %.300s", lines[1])
	}
}
