//go:build !unix

package userfile

import "os"

// open opens path to read it; without FIFOs that block an open, as on
// Unix, the mode alone refuses what is not a regular file.
func open(path string, _ bool) (*os.File, error) { return os.Open(path) }
