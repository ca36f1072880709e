package paginate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
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

// --all keeps two requests in flight while a page is being written (the
// first write is held until page 3 is asked for: fetching one page at a
// time, that would never happen), asks for nothing past the total, and
// holds no more than the page written and two ahead: page n is not asked
// for before page n-4 is written, however long the list.
func TestAllKeepsTwoRequestsAheadAndNoFurther(t *testing.T) {
	const total, size = 450, 100
	out := &stdout{release: make(chan struct{})}
	var mu sync.Mutex
	writtenAt := map[int]int{} // offset asked for: records on stdout then
	fetch := func(_ context.Context, limit, offset int) (*Page[rec], error) {
		mu.Lock()
		writtenAt[offset] = out.count(`"id"`)
		mu.Unlock()
		if offset == 2*size {
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
		t.Fatal("page 3 was never asked for while page 1 was being written")
	}
	if len(writtenAt) != 5 {
		t.Fatalf("asked for offsets %v, want the 5 pages of %d records", writtenAt, total)
	}
	for n := 1; n <= 5; n++ {
		w, ok := writtenAt[(n-1)*size]
		if lo := max(0, (n-4)*size); !ok || w < lo {
			t.Errorf("page %d asked for with %d records on stdout, want at least %d", n, w, lo)
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

// A service may answer fewer records than asked for (a cap of its own), and
// change its page size half-way: the requests guessed ahead are called off
// and asked again from where the short page ended, so every record is
// printed once, in order. A list of one page costs one request.
func TestAllFollowsShortPagesWithoutSkipping(t *testing.T) {
	const total = 500
	var mu sync.Mutex
	asked := 0
	fetch := func(_ context.Context, limit, offset int) (*Page[rec], error) {
		mu.Lock()
		asked++
		mu.Unlock()
		size := 100
		if offset >= 200 {
			size = 30
		}
		return &Page[rec]{Items: recs(offset, min(offset+min(limit, size), total)), Total: total}, nil
	}
	ios, _, out, _ := iostreams.Test()
	if err := testList(fetch).Run(context.Background(), ios, output.Options{Format: output.FormatJSON}, Flags{Limit: 100, All: true}); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Recs []rec }
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if want := recs(0, total); fmt.Sprint(doc.Recs) != fmt.Sprint(want) {
		t.Errorf("%d records, not the %d in order", len(doc.Recs), total)
	}

	asked = 0
	small := func(ctx context.Context, limit, offset int) (*Page[rec], error) {
		mu.Lock()
		asked++
		mu.Unlock()
		return &Page[rec]{Items: recs(offset, min(offset+limit, 20)), Total: 20}, nil
	}
	if err := testList(small).Run(context.Background(), ios, output.Options{Format: output.FormatJSON}, Flags{Limit: 100, All: true}); err != nil || asked != 1 {
		t.Errorf("%v: %d requests for a list of one page, want 1", err, asked)
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
		// Past the end: not a filter that matched nothing, but an offset.
		{true, 50, output.FormatTable, "No records at --offset 50: the list has 45, so offsets go from 0 to 44.\n"},
		{false, 45, output.FormatJSON, "No records at --offset 45: the list has 45, so offsets go from 0 to 44.\n"},
	} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStderrTTY(tt.tty)
		ios.SetColorDisabled(true)
		err := testList(fetch).Run(context.Background(), ios, output.Options{Format: tt.format}, Flags{Limit: 20, Offset: tt.offset})
		if err != nil || errOut.String() != tt.stderr {
			t.Errorf("%+v: %v, stderr %q", tt, err, errOut)
		}
		if tt.format == output.FormatJSON && tt.offset == 0 && out.String() != "{\n  \"total\": 45\n}\n" {
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

// A service (or a cache in front of it) that ignores the offset answers
// every page with the first: --all stops at the first repeat with exit 6,
// the document left open, instead of fetching the same page up to the
// total and ending as if the list were whole.
func TestAllStopsWhenAPageRepeatsThePageBefore(t *testing.T) {
	out, asked, err := allOfABadService(func(limit, _ int) *Page[rec] { return &Page[rec]{Items: recs(0, limit), Total: 10_000} })
	if exitcode.Of(err) != exitcode.Service || !strings.Contains(err.Error(), "ignore the offset") {
		t.Errorf("err %v (exit %d), want exit 6 naming the repeated page", err, exitcode.Of(err))
	}
	if json.Valid(out) || strings.Count(string(out), `"id"`) != 10 {
		t.Errorf("stdout:\n%s", out)
	}
	if asked > 8 { // the pages in flight when it stopped
		t.Errorf("%d requests: it went on paging", asked)
	}
}

// allOfABadService runs --all (10 a page, JSON) over pages answered by
// page, and returns stdout, how many pages were asked for and the error.
func allOfABadService(page func(limit, offset int) *Page[rec]) (out []byte, asked int, err error) {
	var n atomic.Int32
	fetch := func(_ context.Context, limit, offset int) (*Page[rec], error) {
		n.Add(1)
		return page(limit, offset), nil
	}
	ios, _, stdout, _ := iostreams.Test()
	err = testList(fetch).Run(context.Background(), ios, output.Options{Format: output.FormatJSON}, Flags{Limit: 10, All: true})
	return stdout.Bytes(), int(n.Load()), err
}

// A service whose total grows with every page (each page of fresh records)
// cannot keep --all paging forever: it stops past twice the first total,
// exit 6 saying why, the JSON document left unterminated.
func TestAllStopsWhenTheTotalKeepsGrowing(t *testing.T) {
	out, asked, err := allOfABadService(func(limit, offset int) *Page[rec] {
		return &Page[rec]{Items: recs(offset, offset+limit), Total: offset + 3*limit}
	})
	if exitcode.Of(err) != exitcode.Service || !strings.Contains(err.Error(), "kept growing while --all read them (30, then") {
		t.Errorf("err %v (exit %d), want exit 6 saying the count kept growing", err, exitcode.Of(err))
	}
	if json.Valid(out) {
		t.Errorf("a complete document for a list cut short:\n%s", out)
	}
	if asked > 10 { // 2×30+10 records are 7 pages, and two in flight
		t.Errorf("%d requests: it went on paging", asked)
	}
}

// A total that grows a little on the way (records created while --all
// pages) is followed to its end: nothing is left out.
func TestAllFollowsATotalThatGrowsALittle(t *testing.T) {
	fetch := func(_ context.Context, limit, offset int) (*Page[rec], error) {
		total := 95
		if offset > 0 {
			total = 100 // five records created after the first page
		}
		return &Page[rec]{Items: recs(offset, min(offset+limit, total)), Total: total}, nil
	}
	ios, _, out, _ := iostreams.Test()
	if err := testList(fetch).Run(context.Background(), ios, output.Options{Format: output.FormatJSON}, Flags{Limit: 10, All: true}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), `"id"`); n != 100 {
		t.Errorf("%d records, want 100", n)
	}
}
