//go:build unix

package userfile

import (
	"os"
	"syscall"
)

// openNoWait opens path to read it without waiting: the open of a FIFO
// nobody writes returns at once.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
