// Package paginate lists a paged collection of the service the same way for
// every list command: one page (-L/--limit, --offset), or every page with
// --all, streamed, with the next two pages in flight while one is written,
// and dropping records a page repeats from the page before.
package paginate

import (
	"strconv"

	"github.com/spf13/pflag"
	"github.com/testctl/testctl/pkg/exitcode"
)

// The page-size policy of every list. Both list operations answer pages of
// DefaultLimit when asked for none (the documented page size of the
// test-case list, the default of the run list) and accept up to MaxLimit
// (what the sandbox, built to the service's behaviour, enforces on both),
// so one page shows DefaultLimit records and --all asks for the largest
// page, to need the fewest requests. The pages are walked by what each
// answer returned rather than by the size asked for, so a service that
// answers smaller pages than asked is still listed to the end.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// Flags are the paging flags of a list command.
type Flags struct {
	Limit  int // records per page: one page, or with All the size of each
	Offset int // records to skip first
	All    bool
}

// Register adds -L/--limit, --offset and --all to fs, bound to p; noun
// names the records ("runs").
func (p *Flags) Register(fs *pflag.FlagSet, noun string) {
	fs.IntVarP(&p.Limit, "limit", "L", DefaultLimit,
		noun+" per page, 1 to "+strconv.Itoa(MaxLimit)+"; pages of --all default to "+strconv.Itoa(MaxLimit))
	fs.IntVar(&p.Offset, "offset", 0, noun+" to skip first")
	fs.BoolVar(&p.All, "all", false, "follow the pages to the end, streaming them")
}

// Check validates the flags; limitSet says whether --limit was given. With
// --all and no --limit, pages are of MaxLimit.
func (p *Flags) Check(limitSet bool) error {
	if p.Limit < 1 || p.Limit > MaxLimit {
		return exitcode.FlagErrorf("--limit must be between 1 and %d, not %d", MaxLimit, p.Limit)
	}
	if p.Offset < 0 {
		return exitcode.FlagErrorf("--offset must not be negative, not %d", p.Offset)
	}
	if p.All && !limitSet {
		p.Limit = MaxLimit
	}
	return nil
}

// Help is the paragraph of a list command's help that describes paging;
// key names the array in the JSON document ("runs").
func Help(key string) string {
	return `Paging: one page of -L/--limit records (default ` + strconv.Itoa(DefaultLimit) + `, at most ` + strconv.Itoa(MaxLimit) + `) from
--offset; on a terminal, stderr says which records the page holds. --all
follows every page to the end and streams: each page is printed as it
arrives (the next one is fetched meanwhile), so memory stays flat over a
long list and -o json is still one JSON document ({"` + key + `": [...],
"total": N}). With --all, --limit is the page size (default ` + strconv.Itoa(MaxLimit) + `), and a
record a page repeats from the page before (one created while listing
shifts the pages) is printed once.`
}
