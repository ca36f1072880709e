package list

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// lockedBuffer lets the test server look at stdout while the command runs.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Count(b.buf.Bytes(), []byte(s))
}

// Each page is on stdout before the next is asked for: --all holds one page
// at a time, however long the history.
func TestListAllStreamsPageByPage(t *testing.T) {
	const total, pageSize = 350, 100
	stdout := &lockedBuffer{}
	var seenBefore []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		seenBefore = append(seenBefore, stdout.count(`"shortId"`))
		page := api.RunList{Runs: []api.RunSummary{}, Total: total, Limit: pageSize, Offset: int32(offset)}
		for i := offset; i < min(offset+pageSize, total); i++ {
			page.Runs = append(page.Runs, api.RunSummary{ShortID: fmt.Sprintf("r%04d", i), Status: api.StatusRunning})
		}
		_ = json.NewEncoder(w).Encode(page)
	}))
	defer srv.Close()

	ios, _, _, _ := iostreams.Test()
	ios.Out = stdout
	f := &cmdutil.Factory{
		IOStreams: ios,
		Clock:     clock.NewFake(time.Now()),
		Output:    func() (output.Options, error) { return output.Options{Format: output.FormatJSON}, nil },
		APIClient: func() (*api.Client, error) { return &api.Client{BaseURL: srv.URL, HTTPClient: srv.Client()}, nil },
	}
	if err := listRun(context.Background(), &Options{Factory: f, All: true, Limit: pageSize}); err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 100, 200, 300}; fmt.Sprint(seenBefore) != fmt.Sprint(want) {
		t.Errorf("runs on stdout when each page was requested: %v, want %v", seenBefore, want)
	}
	var doc api.RunList
	if err := json.Unmarshal(stdout.buf.Bytes(), &doc); err != nil || len(doc.Runs) != total || doc.Total != total {
		t.Errorf("%v: %d runs, total %d", err, len(doc.Runs), doc.Total)
	}
}
