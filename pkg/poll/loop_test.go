package poll

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/exitcode"
)

func TestRetryDelayBacksOffWithJitterAndHonoursRetryAfter(t *testing.T) {
	lo, hi := func() float64 { return 0 }, func() float64 { return 0.999999 }
	cases := []struct {
		n              int
		interval       time.Duration
		retryAfter     time.Duration
		wantLo, wantHi time.Duration
	}{
		{1, 5 * time.Second, 0, 2500 * time.Millisecond, 5 * time.Second},
		{2, 5 * time.Second, 0, 5 * time.Second, 10 * time.Second},
		{3, 5 * time.Second, 0, 10 * time.Second, 20 * time.Second},
		{9, 5 * time.Second, 0, 30 * time.Second, 60 * time.Second}, // capped at a minute
		{1, 5 * time.Second, 20 * time.Second, 20 * time.Second, 20 * time.Second},
		{1, 2 * time.Minute, 0, time.Minute, 2 * time.Minute}, // never below half an interval
	}
	for _, c := range cases {
		gotLo := retryDelay(c.n, c.interval, c.retryAfter, lo)
		gotHi := retryDelay(c.n, c.interval, c.retryAfter, hi)
		if gotLo != c.wantLo || gotHi < c.wantHi-time.Millisecond || gotHi > c.wantHi {
			t.Errorf("retryDelay(%d, %s, %s) in [%s, %s], want [%s, %s]", c.n, c.interval, c.retryAfter, gotLo, gotHi, c.wantLo, c.wantHi)
		}
	}
}

// pollLog is a PollFunc that answers from a script (repeating its last
// answer) and records when it was called.
type pollLog struct {
	clk    *clock.Fake
	script []Outcome
	at     []time.Duration
}

func (p *pollLog) poll(context.Context) Outcome {
	p.at = append(p.at, p.clk.Now().Sub(time.Unix(0, 0)))
	return p.script[min(len(p.at), len(p.script))-1]
}

func TestLoopPollsOnceMoreAtTheDeadline(t *testing.T) {
	clk := clock.NewFake(time.Unix(0, 0))
	p := &pollLog{clk: clk, script: []Outcome{{}}}
	l := &Loop{Clock: clk, Interval: 10 * time.Second, Timeout: 25 * time.Second}
	end, err := l.Run(context.Background(), []*Target{{Name: "x", Poll: p.poll}})
	if err != nil || end != TimedOut {
		t.Fatalf("end %v, err %v", end, err)
	}
	want := []time.Duration{0, 10 * time.Second, 20 * time.Second, 25 * time.Second}
	if len(p.at) != len(want) || p.at[3] != want[3] {
		t.Errorf("polled at %v, want %v", p.at, want)
	}
	if got := l.Elapsed(); got != 25*time.Second {
		t.Errorf("ended after %s", got)
	}
}

func TestLoopKeepsARetryAfterPastTheDeadline(t *testing.T) {
	clk := clock.NewFake(time.Unix(0, 0))
	busy := Outcome{Err: &api.HTTPError{StatusCode: 429}, RetryAfter: time.Minute}
	p := &pollLog{clk: clk, script: []Outcome{busy}}
	var notices int
	l := &Loop{Clock: clk, Interval: 10 * time.Second, Timeout: 25 * time.Second,
		Retrying: func(*Target, error) { notices++ }}
	target := &Target{Name: "x", Poll: p.poll}
	end, err := l.Run(context.Background(), []*Target{target})
	if err != nil || end != TimedOut {
		t.Fatalf("end %v, err %v", end, err)
	}
	if len(p.at) != 1 || notices != 1 {
		t.Errorf("polled at %v with %d notices: the server asked for a minute", p.at, notices)
	}
	// Not one status came: the wait ends on the service's failure (6).
	if code := exitcode.Of(target.Err()); !target.Done() || code != exitcode.Service {
		t.Errorf("done %v, exit %d (%v), want given up with 6", target.Done(), code, target.Err())
	}
}

// At the deadline, a target the service never gave a status of is given up
// with the last failure (exit 6); one that had an answer stays pending (its
// code is the timeout's, 7), whatever its last poll did.
func TestLoopTimedOutGivesUpOnlyTargetsNeverAnswered(t *testing.T) {
	clk := clock.NewFake(time.Unix(0, 0))
	down := Outcome{Err: &api.HTTPError{StatusCode: 503}}
	never := &pollLog{clk: clk, script: []Outcome{down, down, down, down, down, down, down, down}}
	once := &pollLog{clk: clk, script: []Outcome{{}, down, down, down, down, down, down, down}}
	hidden := &pollLog{clk: clk, script: []Outcome{{Err: &api.HTTPError{StatusCode: 404}}, down, down, down, down, down, down}}
	var gaveUp []string
	l := &Loop{Clock: clk, Interval: 10 * time.Second, Timeout: 30 * time.Second,
		GaveUp: func(t *Target) { gaveUp = append(gaveUp, t.Name) }}
	a := &Target{Name: "never", Poll: never.poll}
	b := &Target{Name: "once", Poll: once.poll}
	c := &Target{Name: "hidden", Poll: hidden.poll, VisibleBy: clk.Now().Add(time.Hour)}
	end, err := l.Run(context.Background(), []*Target{a, b, c})
	if err != nil || end != TimedOut {
		t.Fatalf("end %v, err %v", end, err)
	}
	if fmt.Sprint(gaveUp) != "[never]" || exitcode.Of(a.Err()) != exitcode.Service ||
		!strings.Contains(a.Err().Error(), "never: no status within 30s: ") {
		t.Errorf("gave up %v; never: %v", gaveUp, a.Err())
	}
	if b.Done() || c.Done() {
		t.Errorf("a target with an answer was given up: once %v, hidden %v", b.Err(), c.Err())
	}
}

func TestLoopGivesUpOneTargetAndGoesOnWithTheOther(t *testing.T) {
	clk := clock.NewFake(time.Unix(0, 0))
	missing := &pollLog{clk: clk, script: []Outcome{{Err: &api.HTTPError{StatusCode: 404}}}}
	later := &pollLog{clk: clk, script: []Outcome{{}, {}, {Done: true}}}
	var gaveUp []string
	l := &Loop{Clock: clk, Interval: time.Second, Timeout: time.Hour,
		GaveUp: func(t *Target) { gaveUp = append(gaveUp, t.Name) }}
	a, b := &Target{Name: "a", Poll: missing.poll}, &Target{Name: "b", Poll: later.poll}
	end, err := l.Run(context.Background(), []*Target{a, b})
	if err != nil || end != AllDone {
		t.Fatalf("end %v, err %v", end, err)
	}
	if len(gaveUp) != 1 || gaveUp[0] != "a" || a.Err() == nil || b.Err() != nil || len(later.at) != 3 {
		t.Errorf("gave up %v (a: %v, b: %v); b polled %d times", gaveUp, a.Err(), b.Err(), len(later.at))
	}
}

// A key refused for one target gives up that target alone: the others go
// on to their own ends.
func TestLoopGivesUpOnlyTheTargetWhoseKeyIsRejected(t *testing.T) {
	clk := clock.NewFake(time.Unix(0, 0))
	refused := &pollLog{clk: clk, script: []Outcome{{Err: &api.HTTPError{StatusCode: 403}}}}
	other := &pollLog{clk: clk, script: []Outcome{{}, {Done: true}}}
	l := &Loop{Clock: clk, Interval: time.Second, Timeout: time.Hour}
	a, b := &Target{Name: "a", Poll: refused.poll}, &Target{Name: "b", Poll: other.poll}
	end, err := l.Run(context.Background(), []*Target{a, b})
	if err != nil || end != AllDone {
		t.Fatalf("end %v, err %v", end, err)
	}
	if len(refused.at) != 1 || a.Err() == nil || len(other.at) != 2 || b.Err() != nil {
		t.Errorf("a polled %d times (err %v), b %d times (err %v)", len(refused.at), a.Err(), len(other.at), b.Err())
	}
}

func TestFailedKeepsTheRetryAfterOfAnHTTPError(t *testing.T) {
	he := &api.HTTPError{StatusCode: 429, RetryAfter: 30 * time.Second}
	if o := Failed(fmt.Errorf("polling: %w", he)); o.Err == nil || o.RetryAfter != 30*time.Second || o.Done {
		t.Errorf("Failed(429 with Retry-After 30) = %+v", o)
	}
	if o := Failed(&api.TransportError{Err: context.DeadlineExceeded}); o.RetryAfter != 0 {
		t.Errorf("Retry-After without an answer: %+v", o)
	}
}

// A poll in flight when the deadline comes is cut off, and the wait ends
// TimedOut: the time left on the loop's clock bounds the request.
func TestLoopCancelsThePollInFlightAtTheDeadline(t *testing.T) {
	clk := clock.NewFake(time.Unix(0, 0))
	hang := func(ctx context.Context) Outcome {
		<-ctx.Done()
		return Failed(ctx.Err())
	}
	l := &Loop{Clock: clk, Interval: time.Second, Timeout: 50 * time.Millisecond}
	done := make(chan End, 1)
	go func() {
		end, _ := l.Run(context.Background(), []*Target{{Name: "x", Poll: hang}})
		done <- end
	}()
	select {
	case end := <-done:
		if end != TimedOut {
			t.Errorf("end %v, want TimedOut", end)
		}
	case <-time.After(10 * time.Second): // a guard against hanging, not a timed assertion
		t.Fatal("the poll in flight outlived the deadline")
	}
}

// A parked target (a rerun being started, which may take the service's
// visibility delay) stalls neither the other targets nor the loop: they
// are polled on schedule meanwhile, and the parked one is polled again as
// soon as it is released.
func TestParkedTargetDoesNotStallTheOthers(t *testing.T) {
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	release := make(chan struct{})
	var order []string
	parkedOnce := false
	a := &Target{Name: "a", Poll: func(context.Context) Outcome {
		order = append(order, "a")
		if !parkedOnce {
			parkedOnce = true
			return Outcome{Until: release}
		}
		return Outcome{Done: true}
	}}
	bPolls := 0
	b := &Target{Name: "b", Poll: func(context.Context) Outcome {
		order = append(order, "b")
		bPolls++
		if bPolls == 3 {
			close(release) // what parked a finishes while b goes on
		}
		return Outcome{Done: bPolls == 5}
	}}
	l := &Loop{Clock: fake, Interval: time.Second, Timeout: time.Hour}
	end, err := l.Run(context.Background(), []*Target{a, b})
	if err != nil || end != AllDone {
		t.Fatalf("end %v, err %v", end, err)
	}
	got := strings.Join(order, " ")
	if got != "a b b b a b b" {
		t.Errorf("polls %q, want a parked after its first poll while b is polled, then a once released", got)
	}
}

// With every target left parked, the loop waits for the release on the
// wall clock and does not race a fake clock to the deadline.
func TestLoopWaitsForTheOnlyParkedTarget(t *testing.T) {
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	release := make(chan struct{})
	polls := 0
	a := &Target{Name: "a", Poll: func(context.Context) Outcome {
		polls++
		if polls == 1 {
			go func() { time.Sleep(20 * time.Millisecond); close(release) }()
			return Outcome{Until: release}
		}
		return Outcome{Done: true}
	}}
	l := &Loop{Clock: fake, Interval: time.Second, Timeout: 10 * time.Second}
	if end, err := l.Run(context.Background(), []*Target{a}); err != nil || end != AllDone || polls != 2 {
		t.Errorf("end %v, err %v, %d polls: want the run to end after its release", end, err, polls)
	}
	if fake.Now().Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) >= 10*time.Second {
		t.Error("the fake clock ran to the deadline while the target was parked")
	}
}
