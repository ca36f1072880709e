// Package clock lets everything that waits take its time from an injectable
// source, so tests of polling and simulated runs take milliseconds.
package clock

import (
	"context"
	"sync"
	"time"
)

// Clock tells the time and sleeps.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, returning ctx.Err() in that case.
	Sleep(ctx context.Context, d time.Duration) error
}

// Real is the wall clock.
type Real struct{}

// Now returns the current time.
func (Real) Now() time.Time { return time.Now() }

// Sleep waits for d or until ctx is done.
func (Real) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d): // collected unfired since Go 1.23
		return nil
	}
}

// Fake is a manual clock: Sleep advances it at once instead of blocking, so a
// client polling a sandbox that shares the same Fake sees simulated time pass
// exactly as fast as it waits. Safe for concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	slept  time.Duration
	sleeps int
}

// NewFake returns a Fake clock set to start.
func NewFake(start time.Time) *Fake { return &Fake{now: start} }

// Now returns the fake current time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Sleep advances the clock by d unless ctx is already done.
func (f *Fake) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(max(d, 0))
	f.slept += d
	f.sleeps++
	return nil
}

// Advance moves the clock forward by d.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(max(d, 0))
}

// Slept returns the total duration and number of Sleep calls so far, so tests
// can assert how a caller paced itself.
func (f *Fake) Slept() (time.Duration, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.slept, f.sleeps
}
