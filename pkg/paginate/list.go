package paginate

import (
	"context"
	"fmt"
	"slices"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// Page is one answer of a paged list.
type Page[T any] struct {
	Items []T
	Total int
	// Doc is the answer as a whole (an api list model, which keeps the
	// service's bytes): what a single page prints as JSON or YAML.
	Doc any
}

// List describes one list command.
type List[T any] struct {
	Key     string // the array's name in the document: "runs"
	Noun    string // the records, for messages: "runs"
	Headers []string
	Row     func(*output.Table, T)
	ID      func(T) string // what makes a record the same across pages
	Fetch   func(ctx context.Context, limit, offset int) (*Page[T], error)
	// Raw, when set, is the list for output that prints the service's
	// documents (-o json, yaml, --jq): its items are the service's bytes,
	// never decoded, which is what keeps `run list --all -o json` close to
	// the cost of fetching the pages.
	Raw func(ctx context.Context, limit, offset int) (*api.RawList, error)
}

// Run prints one page, or every page with p.All, on ios.Out in the format
// out asks for; a page's table also on out.Beside, which needs the items
// decoded.
func (l List[T]) Run(ctx context.Context, ios *iostreams.IOStreams, out output.Options, p Flags) error {
	if l.Raw == nil || !out.IsStructured() || out.Beside != nil {
		return l.run(ctx, ios, out, p)
	}
	return List[api.RawItem]{Key: l.Key, Noun: l.Noun, ID: func(it api.RawItem) string { return it.ID },
		Fetch: func(ctx context.Context, limit, offset int) (*Page[api.RawItem], error) {
			raw, err := l.Raw(ctx, limit, offset)
			if err != nil {
				return nil, err
			}
			return &Page[api.RawItem]{Items: raw.Items, Total: raw.Total, Doc: raw}, nil
		}}.run(ctx, ios, out, p)
}

func (l List[T]) run(ctx context.Context, ios *iostreams.IOStreams, out output.Options, p Flags) error {
	if p.All {
		return l.all(ctx, ios, out, p)
	}
	page, err := l.Fetch(ctx, p.Limit, p.Offset)
	if err != nil {
		return err
	}
	if out.IsStructured() {
		// One answer: the service's document as it came.
		if err := output.Print(ios.Out, out, page.Doc); err != nil {
			return err
		}
		if beside := output.BesideStreams(out); beside != nil {
			if err := l.table(beside, out, page.Items); err != nil {
				return err
			}
		}
	} else {
		lw := output.NewListWriter(ios, out, l.Key, l.Headers, l.Row)
		if err := lw.Add(page.Items...); err != nil {
			return err
		}
		if err := lw.Close(nil); err != nil {
			return err
		}
		output.NoteShortened(ios, lw.Table())
	}
	if !pastTheEnd(ios, l.Noun, p.Offset, len(page.Items), page.Total) {
		l.noneHint(ios, out, len(page.Items))
	}
	moreHint(ios, out, p.Offset, len(page.Items), page.Total)
	return nil
}

// table renders items as the table format does, on beside.
func (l List[T]) table(beside *iostreams.IOStreams, out output.Options, items []T) error {
	out.Format, out.JQ = output.FormatTable, ""
	lw := output.NewListWriter(beside, out, l.Key, l.Headers, l.Row)
	if err := lw.Add(items...); err != nil {
		return err
	}
	return lw.Close(nil)
}

// all streams every page from p.Offset as one document (see
// output.ListWriter), holding at most the page being written and the one
// fetched ahead of it. On an error the JSON document is left unterminated,
// so a consumer never takes a partial list for the whole.
func (l List[T]) all(ctx context.Context, ios *iostreams.IOStreams, out output.Options, p Flags) error {
	lw := output.NewListWriter(ios, out, l.Key, l.Headers, l.Row)
	pages, stop := prefetch(ctx, l.Fetch, p.Limit, p.Offset)
	defer stop()
	var previous map[string]bool
	total, first, bound := 0, 0, -1
	for r := range pages {
		if r.err != nil {
			return r.err
		}
		// Lists are newest first, so a record created while --all pages
		// through one shifts every later record one place down and repeats
		// the last record of a page at the top of the next: records the
		// previous page held are dropped. Only the previous page is
		// remembered, which keeps memory flat.
		seen := previous
		previous = make(map[string]bool, len(r.page.Items))
		for _, it := range r.page.Items {
			previous[l.ID(it)] = true
		}
		fresh := slices.DeleteFunc(r.page.Items, func(it T) bool { return seen[l.ID(it)] })
		if len(fresh) == 0 && len(previous) > 0 {
			return repeatedPage(l.Noun)
		}
		if err := lw.Add(fresh...); err != nil {
			return err
		}
		if ios.ReaderGone() {
			return nil // nobody reads the rest: a list decided no other code
		}
		if bound < 0 {
			first, bound = r.page.Total, walkBound(r.page.Total, len(r.page.Items))
		}
		total = r.page.Total
	}
	if bound >= 0 && total > bound {
		return growingList(l.Noun, first, total)
	}
	if err := lw.Close(map[string]any{"total": total}); err != nil {
		return err
	}
	output.NoteShortened(ios, lw.Table())
	l.noneHint(ios, out, lw.Count())
	return nil
}

// noneHint says so, on stderr, when a table has no rows (output.Table then
// prints nothing, not even its header): without it an empty stdout would
// look like a failure.
func (l List[T]) noneHint(ios *iostreams.IOStreams, out output.Options, count int) {
	if count == 0 && !out.IsStructured() {
		fmt.Fprintf(ios.ErrOut, "No %s match.\n", l.Noun)
	}
}

// pastTheEnd says, on stderr, that --offset is past the end of the list
// when an empty page follows from that, not from a filter: "No runs
// match." would send the user to the filters. It reports whether it spoke.
func pastTheEnd(ios *iostreams.IOStreams, noun string, offset, count, total int) bool {
	if count > 0 || offset == 0 || total == 0 || offset < total {
		return false
	}
	fmt.Fprintf(ios.ErrOut, "No %s at --offset %d: the list has %d, so offsets go from 0 to %d.\n", noun, offset, total, total-1)
	return true
}

// moreHint tells a person at a terminal that the table is one page of more.
func moreHint(ios *iostreams.IOStreams, out output.Options, offset, count, total int) {
	shown := offset + count
	if out.IsStructured() || !ios.IsStderrTTY() || count == 0 || shown >= total {
		return
	}
	fmt.Fprintln(ios.ErrOut, ios.ErrStyles().Muted(fmt.Sprintf(
		"Showing %d–%d of %d; use --all for every page, or --offset %d for the next.", offset+1, shown, total, shown)))
}

// growingList is a list whose total outgrew walkBound while --all read it.
// The document is left unterminated, as after any error.
func growingList(noun string, first, last int) error {
	return &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf(
		"the service's count of %s kept growing while --all read them (%d, then %d): stopping rather than paging forever", noun, first, last)}
}

// repeatedPage is a page that holds only the records of the page before:
// the service, or a cache in front of it, ignores the offset. Paging on
// would fetch the same page until the total and end as if the list were
// complete; the document is left unterminated, as after any error.
func repeatedPage(noun string) error {
	return &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf(
		"the service answered the next page of %s with the page before (does a proxy or cache ignore the offset?): stopping rather than paging forever", noun)}
}
