// Package atomicfile writes the files other programs read (a CI step
// publishing a report, another testctl process): replaced, so that a
// reader sees the old file or the new one, never half of either (Write),
// or appended to in one write, without ever blocking on opening (Append).
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data, with permissions perm: the data goes to a
// temporary file in the same directory, synced, then renamed over path.
// The directory must exist. On an error path is left as it was and the
// temporary file is removed.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	// CreateTemp makes the file 0600; Chmod is not subject to the umask.
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// ProbeWrite reports whether Write could replace path now: its directory
// exists and takes a new file, and path is no directory. It leaves nothing
// behind. A report's sink is probed before any report states an exit code,
// so that its failure decides the code instead of changing it afterwards.
func ProbeWrite(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.probe")
	if err != nil {
		return err
	}
	_ = tmp.Close()
	return os.Remove(tmp.Name())
}

// ProbeAppend reports whether Append could write to path now: it opens the
// file for appending (creating it, as Append would) without writing, and
// never blocks, as Append does not. A named pipe is not opened: its reader
// would read the probe's close as the end of what it is sent.
func ProbeAppend(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
		return nil
	}
	f, err := openAppend(path, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}
