//go:build unix

package userfile

import (
	"os"
	"syscall"
)

// open opens path to read it. A file that must be regular is opened
// without waiting: the open of a FIFO nobody writes returns at once, and
// the check of its mode refuses it.
func open(path string, regular bool) (*os.File, error) {
	if regular {
		return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	}
	return os.Open(path)
}
