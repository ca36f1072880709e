package config

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/userfile"
)

// DefaultLockWait bounds how long a command that writes the config file
// waits for another to release the file's lock. A write holds it for
// milliseconds, so seconds mean the holder hangs (stopped with Ctrl-Z,
// stuck on a network file system), and waiting on would hang this command
// with it. TESTCTL_CONFIG_LOCK_TIMEOUT (a hidden setting) changes it.
const DefaultLockWait = 10 * time.Second

const (
	lockPoll   = 25 * time.Millisecond // between two tries of a held lock
	lockNotice = time.Second           // a wait this long is said on stderr
	maxHolder  = 512                   // the most of a lock file read for its holder
)

// ParseLockTimeout reads TESTCTL_CONFIG_LOCK_TIMEOUT: empty is
// DefaultLockWait.
func ParseLockTimeout(raw string) (time.Duration, error) {
	if raw == "" {
		return DefaultLockWait, nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("invalid TESTCTL_CONFIG_LOCK_TIMEOUT %q: use a positive duration like 10s", raw)
	}
	return d, nil
}

// lock takes the config file's lock for a write. It waits for another
// command to release it at most c.lockWait, and no longer than ctx lives
// (Ctrl-C, SIGTERM): either way nothing is written. The lock file names
// its holder, this process and command (`PID COMMAND`, from holderOffset),
// so that a command kept waiting can say who holds it.
func (c *Config) lock(ctx context.Context) (unlock func(), err error) {
	path := c.path + ".lock"
	start := time.Now()
	noticed := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("waiting for the config file's lock: %w", err)
		}
		f, release, err := tryLock(path)
		if err != nil {
			return nil, &FileError{Op: "locking", Path: c.path, Err: err}
		}
		if f != nil {
			// A holder left unnamed only makes a waiter's message vaguer.
			_ = f.Truncate(holderOffset)
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+" "+c.holderName()+"\n"), holderOffset)
			return func() {
				_ = f.Truncate(holderOffset) // names nobody once released
				release()
			}, nil
		}
		waited := time.Since(start)
		if waited >= c.lockWait {
			return nil, &FileError{Op: "locking", Path: c.path, Err: lockedError(path, c.lockWait, readHolder(path))}
		}
		if !noticed && waited >= lockNotice && c.warn != nil {
			noticed = true
			fmt.Fprintf(c.warn, "Waiting for the lock of the config file %s, held by %s…\n", c.path, readHolder(path))
		}
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// holderName is what this command's lock file says holds it.
func (c *Config) holderName() string {
	if c.command == "" {
		return "testctl"
	}
	return c.command
}

// holder is who a lock file says holds it; pid 0 when it says nothing (an
// older testctl, another program).
type holder struct {
	pid     int
	command string
}

func (h holder) String() string {
	if h.pid <= 0 {
		return "another program"
	}
	return fmt.Sprintf("process %d (%s)", h.pid, h.command)
}

// readHolder reads who holds the lock at path, without taking it.
func readHolder(path string) holder {
	data, err := userfile.Read(context.Background(), path, userfile.Rule{Max: holderOffset + maxHolder, Regular: true})
	if err != nil || len(data) < holderOffset {
		return holder{}
	}
	line, _, _ := bytes.Cut(data[holderOffset:], []byte("\n"))
	pid, command, _ := bytes.Cut(line, []byte(" "))
	h := holder{command: termtext.SanitizeLine(string(command))}
	if h.pid, err = strconv.Atoi(string(pid)); err != nil || h.pid <= 0 || h.command == "" {
		return holder{}
	}
	return h
}

// lockedError says who still holds the lock after the wait, and the fix:
// wait for a holder that runs to finish, remove the lock file of one that
// is gone.
func lockedError(path string, waited time.Duration, h holder) error {
	switch {
	case h.pid <= 0:
		return fmt.Errorf("still locked after %s by another program: wait for it to finish, or remove %s if no other testctl is running", waited, path)
	case processGone(h.pid):
		return fmt.Errorf("still locked after %s; %s, which took it, is gone: remove %s if no other testctl is running", waited, h, path)
	}
	return fmt.Errorf("still locked after %s by %s: wait for it to finish, or remove %s if that process is gone", waited, h, path)
}
