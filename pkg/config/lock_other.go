//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// lockFile, on systems without flock or LockFileEx, holds the lock by
// creating path exclusively, and gives up after a while with the file to
// remove if a crashed testctl left it behind.
func lockFile(path string) (unlock func(), err error) {
	const wait, step = 10 * time.Second, 20 * time.Millisecond
	for waited := time.Duration(0); ; waited += step {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { _ = os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if waited >= wait {
			return nil, fmt.Errorf("still locked after %s: remove %s if no other testctl is running", wait, path)
		}
		time.Sleep(step)
	}
}
