//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package config

import (
	"errors"
	"io/fs"
	"os"
)

// holderOffset is where the lock file names its holder.
const holderOffset = 0

// tryLock, on systems without flock or LockFileEx, holds the lock by
// creating path exclusively; f is nil while it exists. A testctl that
// crashed leaves it behind: the error after the wait names it to remove.
func tryLock(path string) (f *os.File, release func(), err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return f, func() {
		f.Close()
		_ = os.Remove(path)
	}, nil
}

// processGone cannot tell here: a holder is taken to run.
func processGone(int) bool { return false }
