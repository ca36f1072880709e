package report

import (
	"os"
)

// appendFile adds data to the end of path, creating it if needed: GitHub
// Actions gives every step the same summary and output files to append to.
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
