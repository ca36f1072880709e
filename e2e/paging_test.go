package e2e_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// The two lists, which must page alike.
var lists = []struct {
	cmd       []string
	path, key string
	id        string // the field that names a record
}{
	{[]string{"run", "list"}, "/v1/run", "runs", "shortId"},
	{[]string{"testcase", "list"}, "/v1/test-cases", "testCases", "id"},
}

// shiftingList serves a list of 8 records in which one was created while a
// client paged through it: the page at offset 3 starts with the record the
// page at offset 0 ended with. Records carry a field testctl does not know
// and lack fields it does. It returns an env whose commands talk to it, and
// the limit and offset of each request it has seen.
func shiftingList(t *testing.T, path, key, id string) (*cmdtest.Env, func() []string) {
	t.Helper()
	pages := map[int][]int{0: {0, 1, 2}, 3: {2, 3, 4}, 6: {5, 6}}
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		mu.Lock()
		asked = append(asked, q.Get("limit")+"@"+q.Get("offset"))
		mu.Unlock()
		if r.URL.Path != path {
			writeJSON(w, 404, `{"message": "no"}`)
			return
		}
		offset, _ := strconv.Atoi(q.Get("offset"))
		var items []string
		for _, i := range pages[offset] {
			items = append(items, fmt.Sprintf(`{"novelOwner": "ci-%d", %q: "rec%d"}`, i, id, i))
		}
		writeJSON(w, 200, fmt.Sprintf(`{"total": 8, %q: [%s], "limit": 3, "offset": %d, "novelCursor": "c%d"}`,
			key, strings.Join(items, ", "), offset, offset))
	}))
	t.Cleanup(srv.Close)
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	e.Setenv("TESTCTL_API_KEY", "k-paging-test")
	return e, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}
}

func TestAllDropsRecordsRepeatedAcrossPagesOnEveryList(t *testing.T) {
	for _, l := range lists {
		t.Run(strings.Join(l.cmd, " "), func(t *testing.T) {
			e, asked := shiftingList(t, l.path, l.key, l.id)

			r := e.Run(append(l.cmd, "--all", "-L", "3", "-o", "json")...).Expect(t, 0)
			var doc map[string]json.RawMessage
			if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
				t.Fatalf("not one JSON document: %v\n%s", err, r.Stdout)
			}
			var items []map[string]any
			_ = json.Unmarshal(doc[l.key], &items)
			var names []string
			for _, it := range items {
				names = append(names, fmt.Sprint(it[l.id]))
				if it["novelOwner"] == nil || len(it) != 2 {
					t.Errorf("not the service's record: %v", it)
				}
			}
			if got := strings.Join(names, " "); got != "rec0 rec1 rec2 rec3 rec4 rec5 rec6" {
				t.Errorf("records %s, want each once", got)
			}
			if string(doc["total"]) != "8" || len(doc) != 2 {
				t.Errorf("document: %s", r.Stdout)
			}
			// The two pages after the first are asked for at once.
			if got := asked(); len(got) != 3 || got[0] != "3@" || !sameSet(got[1:], "3@3", "3@6") {
				t.Errorf("limit@offset asked: %s", got)
			}

			r = e.Run(append(l.cmd, "--all", "-L", "3")...).Expect(t, 0)
			if n := strings.Count(r.Stdout, "rec2"); n != 1 || strings.Count(r.Stdout, "\n") != 8 {
				t.Errorf("table: rec2 %d times, want a header and 7 rows:\n%s", n, r.Stdout)
			}
		})
	}
}

// One page is the service's answer as it came; on a terminal, stderr says
// which records it holds, in the same words for both lists.
func TestOnePageOfEveryList(t *testing.T) {
	for _, l := range lists {
		t.Run(strings.Join(l.cmd, " "), func(t *testing.T) {
			e, asked := shiftingList(t, l.path, l.key, l.id)

			r := e.Run(append(l.cmd, "-o", "json")...).Expect(t, 0)
			want := indented(t, fmt.Sprintf(`{"total": 8, %q: [{"novelOwner": "ci-0", %q: "rec0"}, {"novelOwner": "ci-1", %[2]q: "rec1"},
				{"novelOwner": "ci-2", %[2]q: "rec2"}], "limit": 3, "offset": 0, "novelCursor": "c0"}`, l.key, l.id))
			if r.Stdout != want {
				t.Errorf("stdout\n%s\nwant the service's page\n%s", r.Stdout, want)
			}
			r = e.RunWith(cmdtest.RunOptions{TTY: true}, append(l.cmd, "--no-color")...).Expect(t, 0)
			cmdtest.Contains(t, "stderr", r.Stderr, "Showing 1–3 of 8; use --all for every page, or --offset 3 for the next.\n")
			if got := strings.Join(asked(), " "); got != "20@ 20@" {
				t.Errorf("limit@offset asked: %s, want the default page of 20", got)
			}
		})
	}
}

func sameSet(got []string, want ...string) bool {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}
