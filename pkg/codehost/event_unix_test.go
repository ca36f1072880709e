//go:build unix

package codehost

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// An event file that is a FIFO nobody writes is no event (the variables
// still say most), never a wait for good.
func TestDetectCIEventFileThatIsAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "event.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_ACTOR": "octocat", "GITHUB_SHA": "abc", "GITHUB_EVENT_PATH": fifo}
	done := make(chan Meta, 1)
	go func() { _, m := DetectCI(lookupIn(env)); done <- m }()
	select {
	case got := <-done:
		if got.Commit != "abc" || got.Actor != "octocat" {
			t.Errorf("got %+v", got)
		}
	case <-time.After(10 * time.Second): // a guard: the refusal takes no time
		t.Fatal("DetectCI still reading the FIFO after 10 s")
	}
}
