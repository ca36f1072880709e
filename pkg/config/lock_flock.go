//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package config

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on path, waiting for another
// testctl to finish its write. The file is never removed: removing a lock
// file lets a third process lock a new file while the second holds the old.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
