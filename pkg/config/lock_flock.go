//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package config

import (
	"errors"
	"os"
	"syscall"
)

// holderOffset is where the lock file names its holder.
const holderOffset = 0

// tryLock takes an exclusive advisory lock on path when it is free; f is
// nil while another holds it. The file is never removed: removing a lock
// file lets a third process lock a new file while the second holds the
// old. The kernel releases the lock of a process that ends.
func tryLock(path string) (f *os.File, release func(), err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	return f, func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// processGone reports whether no process pid runs (one of another user's
// still runs).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
