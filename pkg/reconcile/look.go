package reconcile

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/termtext"
)

// baseline is what existed before the request: the strong rule is that
// nothing in it is ever adopted.
type baseline struct {
	ids map[string]bool
	// idless counts those listed without an id, by creation time: no id
	// tells one of them from one the request created, only their number.
	idless map[time.Time]int
	// newest is the latest creation time among them, on the service's
	// clock: what the request created cannot be older, whatever the skew
	// between the service's clock and ours.
	newest time.Time
}

func baselineOf[T any](found []Found[T]) baseline {
	b := baseline{ids: make(map[string]bool, len(found)), idless: map[time.Time]int{}}
	for _, f := range found {
		if f.ID == "" {
			b.idless[f.CreatedAt.UTC()]++ // UTC: one key per instant
		} else {
			b.ids[f.ID] = true
		}
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
	left := maps.Clone(b.idless)
	for _, f := range found {
		switch {
		case f.ID == "" && left[f.CreatedAt.UTC()] > 0:
			left[f.CreatedAt.UTC()]--
			continue
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

func idless[T any](found []Found[T]) bool {
	return slices.ContainsFunc(found, func(f Found[T]) bool { return f.ID == "" })
}

// unnamed is the error when a new match is listed without an id: it may be
// the request's, so the request is not sent again (that could double it),
// but with no id it cannot be adopted, named or taken up. The user is told
// where to look, and the others found beside it are named.
func unnamed[T any](r Reconciler, w Write[T], found []Found[T]) error {
	var b strings.Builder
	it := "it"
	if len(found) == 1 {
		fmt.Fprintf(&b, "the answer to %s was lost, and a %s was created since that the list of %ss shows without an id", w.Request, w.Noun, w.Noun)
		if !found[0].CreatedAt.IsZero() {
			fmt.Fprintf(&b, " (created %s)", found[0].CreatedAt.Format(time.RFC3339))
		}
		b.WriteString(": it was not adopted, as it cannot be named or taken up.")
	} else {
		it = "them"
		fmt.Fprintf(&b, "the answer to %s was lost, and %d %ss created since could be the one it created; none was adopted:", w.Request, len(found), w.Noun)
		for _, f := range found {
			b.WriteString("\n  ")
			if f.ID == "" {
				b.WriteString("(listed without an id)")
			} else {
				b.WriteString(termtext.SanitizeLine(f.ID))
			}
			if !f.CreatedAt.IsZero() {
				fmt.Fprintf(&b, " (created %s)", f.CreatedAt.Format(time.RFC3339))
			}
		}
	}
	fmt.Fprintf(&b, "\n%s was not sent again: it may have been carried out, and sending it again could create a second %s.", w.Request, w.Noun)
	if w.Where != nil {
		fmt.Fprintf(&b, "\nLook for %s with:\n  %s", it, r.command(w.Where()))
	}
	return &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf("%s", b.String())}
}

// command is the step of the testctl command line args, after the global
// flags that chose the service, as the reader takes it (r.word).
func (r Reconciler) command(args []string) string {
	return r.word(nextstep.Step{Service: r.WaitArgs, Args: args})
}

// word is a step as the command's reader takes it: a shell's command line,
// or under the MCP server the tool call. A step said already elsewhere is
// still said here, where the message needs it.
func (r Reconciler) word(s nextstep.Step) string {
	rnd := r.steps
	if rnd == nil {
		rnd = nextstep.Shell{}
	}
	if line := rnd.Step(s); line != "" {
		return line
	}
	return rnd.Inline(s)
}

func unsure[T any](found []Found[T]) bool {
	return slices.ContainsFunc(found, func(f Found[T]) bool { return f.Unsure != "" })
}

// named is the error when new matches may be the request's but the list
// cannot tell (see Found.Unsure): each is named, with the command that
// takes it up (w.TakeUp: a run wait) or else the one that lists it
// (w.Where), for the user who knows it is this job's. sent is how many
// times the request was sent: once, or twice when nothing appeared within
// the delay after the first.
func named[T any](r Reconciler, w Write[T], found []Found[T], sent int) error {
	var b strings.Builder
	if len(found) == 1 {
		fmt.Fprintf(&b, "the answer to %s was lost, and %s %s was created since; it was not adopted, as the list of %ss cannot show %s.",
			w.Request, w.Noun, termtext.SanitizeLine(found[0].ID), w.Noun, found[0].Unsure)
	} else {
		fmt.Fprintf(&b, "the answer to %s was lost, and %d %ss created since could be the one it created; none was adopted:", w.Request, len(found), w.Noun)
		for _, f := range found {
			fmt.Fprintf(&b, "\n  %s", termtext.SanitizeLine(f.ID))
			if f.Unsure != "" {
				fmt.Fprintf(&b, " (the list cannot show %s)", f.Unsure)
			}
		}
	}
	switch {
	case w.TakeUp != nil:
		if len(found) == 1 {
			b.WriteString("\nIf it is this job's, take it up with:")
		} else {
			b.WriteString("\nIf one of them is this job's, take it up with:")
		}
		for _, f := range found {
			fmt.Fprintf(&b, "\n  %s", r.word(w.TakeUp(r.WaitArgs, f.ID)))
		}
	case w.Where != nil:
		if len(found) == 1 {
			fmt.Fprintf(&b, "\nIf it is this job's, use %s %s; it is listed by:", w.Noun, termtext.SanitizeLine(found[0].ID))
		} else {
			b.WriteString("\nIf one of them is this job's, use it; they are listed by:")
		}
		fmt.Fprintf(&b, "\n  %s", r.command(w.Where()))
	}
	if sent == 1 {
		b.WriteString("\nOtherwise send the request again: it was sent only once.")
	} else {
		fmt.Fprintf(&b, "\nOtherwise send the request again: it was sent twice, and no %s appeared within %s of the first.", w.Noun, r.Delay)
	}
	return &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf("%s", b.String())}
}
