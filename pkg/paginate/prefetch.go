package paginate

import "context"

type result[T any] struct {
	page *Page[T]
	err  error
}

// prefetch fetches pages from offset in the background, one ahead of the
// reader: while the reader writes page n, page n+1 is requested, so the
// service's time and ours overlap instead of adding up. The channel is
// unbuffered, so page n+2 is not asked for before the reader takes page
// n+1: at most two pages are held, whatever the length of the list. The
// walk advances by what each answer returned and ends at an empty page, at
// the total, or after an error (sent as the last result). stop ends the
// walk and waits for it, so nothing is left running when the list returns.
func prefetch[T any](ctx context.Context, fetch func(context.Context, int, int) (*Page[T], error), limit, offset int) (<-chan result[T], func()) {
	ctx, cancel := context.WithCancel(ctx)
	ch := make(chan result[T])
	go func() {
		defer close(ch)
		for {
			page, err := fetch(ctx, limit, offset)
			select {
			case ch <- result[T]{page, err}:
			case <-ctx.Done():
				return
			}
			if err != nil || len(page.Items) == 0 {
				return
			}
			offset += len(page.Items)
			if offset >= page.Total {
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
