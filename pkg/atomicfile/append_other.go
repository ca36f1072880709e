//go:build !unix

package atomicfile

import "os"

// openAppend opens path for appending. Without Unix's named pipes, opening
// a file does not wait for a reader.
func openAppend(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}
