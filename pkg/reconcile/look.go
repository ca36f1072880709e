package reconcile

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
)

// baseline is what existed before the request: the strong rule is that
// nothing in it is ever adopted.
type baseline struct {
	ids map[string]bool
	// newest is the latest creation time among them, on the service's
	// clock: what the request created cannot be older, whatever the skew
	// between the service's clock and ours.
	newest time.Time
}

func baselineOf[T any](found []Found[T]) baseline {
	b := baseline{ids: make(map[string]bool, len(found))}
	for _, f := range found {
		b.ids[f.ID] = true
		if f.CreatedAt.After(b.newest) {
			b.newest = f.CreatedAt
		}
	}
	return b
}

// look reads the list until a new match shows or r.Delay has passed since
// the answer was lost (the request may have been carried out at any time
// until then), and returns the new matches. A list that cannot be
// read at the end of the delay leaves the question open: that is an error,
// as sending again could create a duplicate.
func look[T any](ctx context.Context, r Reconciler, w Write[T], b baseline, sentAt time.Time) ([]Found[T], error) {
	step := r.Delay / looksPerDelay
	lostAt := r.Clock.Now()
	for {
		found, err := w.Find(ctx)
		elapsed := r.Clock.Now().Sub(lostAt)
		if err == nil {
			fresh := newMatches(r, w.Noun, b, sentAt, found)
			r.debugf("%s after the lost answer: %d %s(s) like it, %d new\n", elapsed.Round(time.Millisecond), len(found), w.Noun, len(fresh))
			if len(fresh) > 0 {
				return fresh, nil
			}
		} else {
			r.debugf("%s after the lost answer: the list failed: %v\n", elapsed.Round(time.Millisecond), err)
		}
		if elapsed >= r.Delay {
			if err != nil {
				return nil, fmt.Errorf("the answer to %s was lost, and whether it created a %s cannot be told: the list of %ss failed. Check it before sending the request again: %w",
					w.Request, w.Noun, w.Noun, err)
			}
			return nil, nil
		}
		if err := r.Clock.Sleep(ctx, min(step, r.Delay-elapsed)); err != nil {
			return nil, err
		}
	}
}

// newMatches keeps the matches the request may have created: absent from
// the baseline, and not created before the request.
func newMatches[T any](r Reconciler, noun string, b baseline, sentAt time.Time, found []Found[T]) []Found[T] {
	var fresh []Found[T]
	for _, f := range found {
		switch {
		case b.ids[f.ID]:
			continue
		case !f.CreatedAt.IsZero() && (f.CreatedAt.Before(b.newest) || f.CreatedAt.Before(sentAt.Add(-clockSkew))):
			r.debugf("%s %s matches but was created at %s, before the request: not it\n",
				noun, termtext.SanitizeLine(f.ID), f.CreatedAt.Format(time.RFC3339))
			continue
		}
		fresh = append(fresh, f)
	}
	return fresh
}

// several is the error when more than one new match could be the request's.
func several[T any](w Write[T], found []Found[T]) error {
	var b strings.Builder
	fmt.Fprintf(&b, "the answer to %s was lost, and %d %ss created since could be the one it created; none was adopted:", w.Request, len(found), w.Noun)
	for _, f := range found {
		fmt.Fprintf(&b, "\n  %s", termtext.SanitizeLine(f.ID))
		if !f.CreatedAt.IsZero() {
			fmt.Fprintf(&b, " (created %s)", f.CreatedAt.Format(time.RFC3339))
		}
	}
	b.WriteString("\nCheck them before starting again: another job may have sent the same request.")
	return &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf("%s", b.String())}
}

func unsure[T any](found []Found[T]) bool {
	return slices.ContainsFunc(found, func(f Found[T]) bool { return f.Unsure != "" })
}

// named is the error when new matches may be the request's but the list
// cannot tell (see Found.Unsure): each is named with the command that takes
// it up (a run wait: only runs are ever unsure), for the user who knows
// it is this job's.
func named[T any](r Reconciler, w Write[T], found []Found[T]) error {
	var b strings.Builder
	if len(found) == 1 {
		fmt.Fprintf(&b, "the answer to %s was lost, and %s %s was created since; it was not adopted, as the list of %ss cannot show %s.",
			w.Request, w.Noun, termtext.SanitizeLine(found[0].ID), w.Noun, found[0].Unsure)
		b.WriteString("\nIf it is this job's, take it up with:")
	} else {
		fmt.Fprintf(&b, "the answer to %s was lost, and %d %ss created since could be the one it created; none was adopted:", w.Request, len(found), w.Noun)
		for _, f := range found {
			fmt.Fprintf(&b, "\n  %s", termtext.SanitizeLine(f.ID))
			if f.Unsure != "" {
				fmt.Fprintf(&b, " (the list cannot show %s)", f.Unsure)
			}
		}
		b.WriteString("\nIf one of them is this job's, take it up with:")
	}
	for _, f := range found {
		fmt.Fprintf(&b, "\n  %s", cmdutil.WaitCommand(r.WaitArgs, []string{f.ID}))
	}
	b.WriteString("\nOtherwise send the request again: it was sent only once.")
	return &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf("%s", b.String())}
}
