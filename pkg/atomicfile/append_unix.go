//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// openAppend opens path for appending with O_NONBLOCK: open(2) of a named
// pipe without a reader then fails with ENXIO instead of waiting in the
// kernel for one, where the first SIGINT or SIGTERM cannot reach it. The
// flag is cleared once the file is open, so writes behave as they did.
func openAppend(path string, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, perm)
	if errors.Is(err, syscall.ENXIO) {
		if fi, serr := os.Stat(path); serr == nil && fi.Mode()&os.ModeNamedPipe != 0 {
			return nil, fmt.Errorf("%s is a named pipe that nothing reads", path)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(int(f.Fd()), false); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}
