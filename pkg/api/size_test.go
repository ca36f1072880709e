package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// An answer over the size limit is refused once: fetching it again would
// download the same oversized body. One that declares its size is refused
// before any of it is read.
func TestOversizedAnswersAreNotRetried(t *testing.T) {
	for _, declared := range []bool{false, true} {
		c, rec, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			if declared {
				w.Header().Set("Content-Length", strconv.Itoa(maxBodyBytes+10))
			}
			chunk := []byte(strings.Repeat(" ", 1<<20))
			for i := 0; i < (maxBodyBytes>>20)+2; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		})
		_, err := c.ListRuns(context.Background(), ListRunsOptions{})
		var te *TransportError
		if !errors.As(err, &te) || te.ExitCode() != 6 || !strings.Contains(err.Error(), "larger than 64 MiB") {
			t.Fatalf("declared=%v: got %v, want a size refusal with exit 6", declared, err)
		}
		rec.mu.Lock()
		n := len(rec.requests)
		rec.mu.Unlock()
		if n != 1 {
			t.Errorf("declared=%v: %d requests, want 1", declared, n)
		}
	}
}
