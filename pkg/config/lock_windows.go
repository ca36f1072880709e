//go:build windows

package config

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// holderOffset is where the lock file names its holder: past the byte
// locked, which Windows lets no one else read.
const holderOffset = 1

// tryLock takes an exclusive lock on path when it is free; f is nil while
// another holds it. The file is never removed (see lock_flock.go).
func tryLock(path string) (f *os.File, release func(), err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	h := windows.Handle(f.Fd())
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol); err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	return f, func() {
		_ = windows.UnlockFileEx(h, 0, 1, 0, ol)
		f.Close()
	}, nil
}

// processGone reports whether no process pid runs.
func processGone(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_INVALID_PARAMETER) // no such process
	}
	defer windows.CloseHandle(h)
	var code uint32
	const stillActive = 259
	return windows.GetExitCodeProcess(h, &code) == nil && code != stillActive
}
