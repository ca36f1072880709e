package atomicfile

import "os"

// Append adds data to the end of path in one write, creating it with perm
// if needed: GitHub Actions gives every step the same step summary and
// outputs files to append to. Opening never blocks, so a path that is a
// named pipe nobody reads is an error at once rather than a process that
// no signal but a second one ends; a pipe with a reader is written to.
func Append(path string, data []byte, perm os.FileMode) error {
	f, err := openAppend(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
