// Package userfile reads the files a user hands testctl (the config file,
// the quarantine file, the JSON documents of --applications, --parameters
// and api --input, standard input): whole and at most a bound, and for no
// longer than the command's context lives, so that a device that never
// ends, a FIFO nobody writes or a mistyped path to a build artifact can
// neither hang the command past a signal nor fill memory.
package userfile

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
)

// Rule says how one kind of file is read.
type Rule struct {
	// Max is the most bytes read: a larger file is refused whole, never
	// cut (a cut document may still parse, with another meaning).
	Max int64
	// Regular refuses anything but a regular file (a device, a FIFO, a
	// directory) without waiting on it: for the files testctl finds by
	// itself, which nobody meant to be a pipe.
	Regular bool
}

// Read returns the file at path whole, by rule. A regular file is read
// at once, whatever ctx; anything else (a pipe, a FIFO, a device) only
// until ctx ends, even while a FIFO waits for its writer.
func Read(ctx context.Context, path string, rule Rule) ([]byte, error) {
	// Stat, not open: opening a FIFO to look at it would let its writer
	// in, and closing it again would lose what the writer wrote.
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case info.Mode().IsRegular():
		return readRegular(path, rule.Max)
	case rule.Regular || info.IsDir():
		return nil, &NotRegularError{Mode: info.Mode()}
	}
	return cancellable(ctx, func() ([]byte, error) { return readStream(ctx, path, rule.Max) })
}

// ReadStream reads r (standard input) to its end, at most max bytes, until
// ctx ends.
func ReadStream(ctx context.Context, r io.Reader, max int64) ([]byte, error) {
	return cancellable(ctx, func() ([]byte, error) { return readAll(r, max) })
}

// readRegular reads a regular file, which never waits; one that became
// something else since its stat is refused without waiting on it.
func readRegular(path string, max int64) ([]byte, error) {
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !info.Mode().IsRegular():
		return nil, &NotRegularError{Mode: info.Mode()}
	case info.Size() > max:
		return nil, &TooLargeError{Max: max}
	}
	return readAll(f, max)
}

// readStream reads a pipe, FIFO or device: its open may wait (a FIFO's
// for a writer), and so may its reads.
func readStream(ctx context.Context, path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A pipe or terminal, read through the poller, then ends with ctx
	// too, instead of waiting in the background for its writer.
	defer context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Now()) })()
	return readAll(f, max)
}

func readAll(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Max: max}
	}
	return data, nil
}

// cancellable returns read's result, or ctx's error as soon as ctx ends:
// a read blocked in the system (the open of a FIFO nobody writes) is left
// to end with the process.
func cancellable(ctx context.Context, read func() ([]byte, error)) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := read()
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TooLargeError is a file larger than its rule's Max: a local failure
// (exit 8) unless the caller says otherwise.
type TooLargeError struct{ Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("larger than %s, the most testctl reads of it", Size(e.Max))
}

// ExitCode is the contract's local failure: the file could not be read.
func (e *TooLargeError) ExitCode() int { return exitcode.Local }

// NotRegularError is a device, FIFO, socket or directory where a regular
// file is needed.
type NotRegularError struct{ Mode fs.FileMode }

func (e *NotRegularError) Error() string {
	kind := "not a regular file"
	switch {
	case e.Mode.IsDir():
		kind = "a directory"
	case e.Mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case e.Mode&fs.ModeDevice != 0:
		kind = "a device"
	case e.Mode&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return kind + ", not a regular file"
}

// ExitCode is the contract's local failure: the file could not be read.
func (e *NotRegularError) ExitCode() int { return exitcode.Local }

// Size says a bound the way the docs do: 4 MiB, 512 KiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
