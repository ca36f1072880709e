package paginate

import "context"

type result[T any] struct {
	page *Page[T]
	err  error
}

// ahead is how many requests --all keeps in flight. The service's time per
// page dominates a long list; with two requests out, the reader never waits
// for more than one answer, and the service can work on two at once.
const ahead = 2

// pending is one request in flight: its offset, its answer to come, and how
// to call it off when the guess that asked for it turns out wrong.
type pending[T any] struct {
	offset int
	done   chan result[T]
	cancel context.CancelFunc
}

// prefetch walks the list from offset in the background, in order. Once a
// page has told the total, it keeps up to `ahead` requests in flight at the
// offsets the pages so far predict (each page the size of the last one), and
// never asks past the total. A page shorter than predicted calls off the
// guesses after it and asks again from where that page ended, so no record
// is skipped. The walk ends at an empty page, at the total (never past
// walkBound of the first page's), or after an error (sent as the last
// result). At most `ahead` pages wait, besides the
// one the reader is writing, so memory stays flat whatever the list's
// length. stop ends the walk and waits for it: nothing is left running.
func prefetch[T any](ctx context.Context, fetch func(context.Context, int, int) (*Page[T], error), limit, offset int) (<-chan result[T], func()) {
	ctx, cancel := context.WithCancel(ctx)
	ch := make(chan result[T])
	ask := func(off int) *pending[T] {
		rctx, rcancel := context.WithCancel(ctx)
		p := &pending[T]{offset: off, done: make(chan result[T], 1), cancel: rcancel}
		go func() {
			page, err := fetch(rctx, limit, off)
			p.done <- result[T]{page, err}
		}()
		return p
	}
	go func() {
		defer close(ch)
		queue := []*pending[T]{ask(offset)}
		bound := -1 // walkBound of the first page
		callOff := func() {
			for _, p := range queue {
				p.cancel()
				<-p.done
			}
			queue = nil
		}
		defer callOff()
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			r := <-p.done
			p.cancel()
			if r.err == nil && len(r.page.Items) > 0 {
				if bound < 0 {
					bound = walkBound(r.page.Total, len(r.page.Items))
				}
				end := p.offset + len(r.page.Items)
				if len(queue) > 0 && queue[0].offset != end {
					callOff() // a short page: the guesses after it are off
				}
				next := end
				if len(queue) > 0 {
					next = queue[len(queue)-1].offset + len(r.page.Items)
				}
				for ; len(queue) < ahead && next < min(r.page.Total, bound); next += len(r.page.Items) {
					queue = append(queue, ask(next))
				}
			}
			select {
			case ch <- r:
			case <-ctx.Done():
				return
			}
			if r.err != nil || len(r.page.Items) == 0 {
				return
			}
		}
	}()
	stop := func() {
		cancel()
		for range ch {
		}
	}
	return ch, stop
}

// walkBound is how far --all follows a list whose first page said total:
// a record created while it pages shifts the later ones down (all drops
// the repeats) and the total grows, which the walk follows; but a total
// that keeps growing with every page (a broken or hostile service) would
// keep it going forever, so it stops at twice the first total and a page.
func walkBound(total, page int) int { return 2*total + page }
