package paginate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

type rec struct {
	ID string `json:"id"`
}

func recs(from, to int) []rec {
	var out []rec
	for i := from; i < to; i++ {
		out = append(out, rec{fmt.Sprintf("r%04d", i)})
	}
	return out
}

func testList(fetch func(ctx context.Context, limit, offset int) (*Page[rec], error)) List[rec] {
	return List[rec]{Key: "recs", Noun: "records", Headers: []string{"id"},
		Row: func(t *output.Table, r rec) { t.AddField(r.ID) }, ID: func(r rec) string { return r.ID }, Fetch: fetch}
}

// stdout lets the fetcher look at what was written while the list runs, and
// holds the first write until the fetcher says so.
type stdout struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	release chan struct{}
	once    sync.Once
}

func (s *stdout) Write(p []byte) (int, error) {
	s.once.Do(func() { <-s.release })
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *stdout) count(sub string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.buf.String(), sub)
}

// --all asks for page n+1 while page n is being written (the first write
// is held until that request is made: without prefetching it never would
// be), and not for page n+2 before page n is written: two pages at most
// are held, however long the list.
func TestAllFetchesOnePageAheadAndNoFurther(t *testing.T) {
	const total, size = 450, 100
	out := &stdout{release: make(chan struct{})}
	var mu sync.Mutex
	var writtenAt []int // records on stdout when each page was asked for
	fetch := func(_ context.Context, limit, offset int) (*Page[rec], error) {
		mu.Lock()
		writtenAt = append(writtenAt, out.count(`"id"`))
		mu.Unlock()
		if offset == size {
			close(out.release)
		}
		return &Page[rec]{Items: recs(offset, min(offset+limit, total)), Total: total}, nil
	}
	ios, _, _, _ := iostreams.Test()
	ios.Out = out
	done := make(chan error, 1)
	go func() {
		done <- testList(fetch).Run(context.Background(), ios, output.Options{Format: output.FormatJSON}, Flags{Limit: size, All: true})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute): // a guard against a hang, not a timing assertion
		t.Fatal("page 2 was never asked for while page 1 was being written")
	}
	if len(writtenAt) != 5 {
		t.Fatalf("%d requests, want 5", len(writtenAt))
	}
	for n, w := range writtenAt {
		if lo, hi := max(0, (n-1)*size), n*size; w < lo || w > hi {
			t.Errorf("page %d was asked for with %d records on stdout, want %d to %d", n+1, w, lo, hi)
		}
	}
	var doc struct {
		Recs  []rec `json:"recs"`
		Total int   `json:"total"`
	}
	if err := json.Unmarshal(out.buf.Bytes(), &doc); err != nil || len(doc.Recs) != total || doc.Total != total {
		t.Errorf("%v: %d records, total %d", err, len(doc.Recs), doc.Total)
	}
}

// A record created while --all pages through the list pushes the others
// down: the next page starts with the last record of the one before.
func TestAllDropsRecordsRepeatedAcrossPages(t *testing.T) {
	pages := map[int][]rec{0: recs(0, 3), 3: recs(2, 5), 6: recs(5, 7)}
	fetch := func(_ context.Context, _, offset int) (*Page[rec], error) {
		return &Page[rec]{Items: pages[offset], Total: 8}, nil
	}
	ios, _, out, _ := iostreams.Test()
	if err := testList(fetch).Run(context.Background(), ios, output.Options{Format: output.FormatTable}, Flags{Limit: 3, All: true}); err != nil {
		t.Fatal(err)
	}
	if want := "ID\nr0000\nr0001\nr0002\nr0003\nr0004\nr0005\nr0006\n"; out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestAllStopsAtTheFirstErrorLeavingTheDocumentOpen(t *testing.T) {
	boom := errors.New("boom")
	fetch := func(_ context.Context, limit, offset int) (*Page[rec], error) {
		if offset > 0 {
			return nil, boom
		}
		return &Page[rec]{Items: recs(0, limit), Total: 10}, nil
	}
	ios, _, out, _ := iostreams.Test()
	err := testList(fetch).Run(context.Background(), ios, output.Options{Format: output.FormatJSON}, Flags{Limit: 5, All: true})
	if !errors.Is(err, boom) || json.Valid(out.Bytes()) || !strings.Contains(out.String(), "r0004") {
		t.Errorf("%v\n%s", err, out)
	}
}

func TestOnePageHints(t *testing.T) {
	fetch := func(_ context.Context, limit, offset int) (*Page[rec], error) {
		return &Page[rec]{Items: recs(offset, min(offset+limit, 45)), Total: 45, Doc: map[string]int{"total": 45}}, nil
	}
	for _, tt := range []struct {
		tty    bool
		offset int
		format output.Format
		stderr string
	}{
		{true, 0, output.FormatTable, "Showing 1–20 of 45; use --all for every page, or --offset 20 for the next.\n"},
		{true, 40, output.FormatTable, ""},
		{false, 0, output.FormatTable, ""},
		{true, 0, output.FormatJSON, ""},
		{true, 50, output.FormatTable, "No records match.\n"},
	} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStderrTTY(tt.tty)
		ios.SetColorDisabled(true)
		err := testList(fetch).Run(context.Background(), ios, output.Options{Format: tt.format}, Flags{Limit: 20, Offset: tt.offset})
		if err != nil || errOut.String() != tt.stderr {
			t.Errorf("%+v: %v, stderr %q", tt, err, errOut)
		}
		if tt.format == output.FormatJSON && out.String() != "{\n  \"total\": 45\n}\n" {
			t.Errorf("one page as JSON is the answer's document: %q", out)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		in       Flags
		limitSet bool
		want     Flags
		err      string
	}{
		{Flags{Limit: DefaultLimit}, false, Flags{Limit: DefaultLimit}, ""},
		{Flags{Limit: DefaultLimit, All: true}, false, Flags{Limit: MaxLimit, All: true}, ""},
		{Flags{Limit: 7, All: true}, true, Flags{Limit: 7, All: true}, ""},
		{Flags{Limit: 0}, true, Flags{}, "--limit must be between 1 and 100, not 0"},
		{Flags{Limit: 101}, true, Flags{}, "--limit must be between 1 and 100, not 101"},
		{Flags{Limit: 5, Offset: -1}, true, Flags{}, "--offset must not be negative"},
	} {
		got := tt.in
		err := got.Check(tt.limitSet)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%+v: %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%+v: %v %+v, want %+v", tt.in, err, got, tt.want)
		}
	}
}
