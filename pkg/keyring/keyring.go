// Package keyring keeps API keys in the operating system's keyring (macOS
// Keychain, Windows Credential Manager, the Secret Service on Linux) through
// github.com/zalando/go-keyring, as gh keeps its token, with every call
// bounded in time: a keyring that does not answer is an error naming the fix,
// never a command that hangs or a request sent without its key.
package keyring

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	zk "github.com/zalando/go-keyring"
)

// DefaultTimeout bounds each keyring call unless TESTCTL_KEYRING_TIMEOUT
// says otherwise.
const DefaultTimeout = 3 * time.Second

// ErrNotFound is a keyring that answered and holds no key.
var ErrNotFound = errors.New("no API key in the OS keyring")

// Backend is a keyring's three operations; System is the real one, tests
// give a Fake or the library's mock.
type Backend interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// Store is a Backend whose every call is bounded by Timeout.
type Store struct {
	Backend Backend
	Timeout time.Duration
	// Unreachable, when it returns an error, says the keyring cannot be
	// reached here at all, before any call is made.
	Unreachable func() error
}

// New bounds backend's calls by timeout; nil is the System keyring. The
// System keyring is asked only where it can answer (SessionBus).
func New(backend Backend, timeout time.Duration, lookupEnv func(string) (string, bool)) *Store {
	if backend == nil {
		backend = System{}
	}
	s := &Store{Backend: backend, Timeout: timeout}
	if _, real := backend.(System); real {
		s.Unreachable = func() error { return SessionBus(lookupEnv) }
	}
	return s
}

// Service is the keyring entry's service name: the base URL is part of it,
// so that two services' keys never mix.
func Service(baseURL string) string {
	return "testctl:" + strings.TrimRight(baseURL, "/")
}

// Get reads the key of a profile; ErrNotFound when there is none.
func (s *Store) Get(service, profile string) (string, error) {
	// The key comes through a channel, not a variable the call sets: a
	// call abandoned at its timeout may still answer, after Get returned.
	keys := make(chan string, 1)
	err := s.call("reading", func(b Backend) error {
		key, err := b.Get(service, profile)
		keys <- key
		return err
	})
	if err != nil {
		return "", err
	}
	return <-keys, nil
}

// Set stores the key of a profile.
func (s *Store) Set(service, profile, key string) error {
	return s.call("storing", func(b Backend) error { return b.Set(service, profile, key) })
}

// Delete removes the key of a profile; ErrNotFound when there was none.
func (s *Store) Delete(service, profile string) error {
	return s.call("removing", func(b Backend) error { return b.Delete(service, profile) })
}

// call runs op in its own goroutine and waits at most Timeout: the
// libraries' calls take no context, and a Secret Service that never answers
// (a locked collection waiting for a prompt nobody sees) would hang the
// command. A call that outlives its timeout is abandoned with the process.
func (s *Store) call(op string, fn func(Backend) error) error {
	if s.Unreachable != nil {
		if err := s.Unreachable(); err != nil {
			return &Error{Op: op, Err: err}
		}
	}
	done := make(chan error, 1)
	go func() { done <- fn(s.Backend) }()
	select {
	case err := <-done:
		switch {
		case err == nil:
			return nil
		case errors.Is(err, zk.ErrNotFound), errors.Is(err, ErrNotFound):
			return ErrNotFound
		}
		return &Error{Op: op, Err: err}
	case <-time.After(s.Timeout): // collected unfired since Go 1.23
		return &Error{Op: op, Timeout: s.Timeout}
	}
}

// Error is a keyring that could not be reached, failed, or did not answer
// in time. Its message names the ways around it; it exits 4, as a key that
// cannot be had.
type Error struct {
	Op      string        // "reading", "storing", "removing"
	Timeout time.Duration // not zero when the keyring did not answer in time
	Err     error
}

func (e *Error) Error() string {
	return fmt.Sprintf("the OS keyring %s (%s the API key); set TESTCTL_API_KEY, "+
		"or keep the key in the config file with `testctl auth login --insecure-storage`", e.Reason(), e.Op)
}

// Reason says what went wrong, without the fix.
func (e *Error) Reason() string {
	switch {
	case e.Timeout > 0:
		return fmt.Sprintf("did not answer within %s", e.Timeout)
	case errors.Is(e.Err, ErrNoSession):
		return "is not reachable without a D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset)"
	}
	return fmt.Sprintf("failed: %v", e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ExitCode is the contract's authentication code: no usable key.
func (e *Error) ExitCode() int { return 4 }

// ErrNoSession is a Linux (or BSD) machine without a D-Bus session, where no
// Secret Service can answer.
var ErrNoSession = errors.New("no D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset)")

// System is the operating system's keyring.
type System struct{}

func (System) Get(service, user string) (string, error) { return zk.Get(service, user) }
func (System) Set(service, user, secret string) error   { return zk.Set(service, user, secret) }
func (System) Delete(service, user string) error        { return zk.Delete(service, user) }

// SessionBus says whether the Secret Service can be asked at all. On Linux
// and the BSDs it lives on the D-Bus session bus; without
// DBUS_SESSION_BUS_ADDRESS, godbus would run dbus-launch to start a bus of
// its own (a daemon left behind by every command, a hang without X), so
// testctl does not call it then. macOS and Windows need no bus.
func SessionBus(lookupEnv func(string) (string, bool)) error {
	switch runtime.GOOS {
	case "darwin", "windows":
		return nil
	}
	if addr, _ := lookupEnv("DBUS_SESSION_BUS_ADDRESS"); addr == "" || addr == "autolaunch:" {
		return ErrNoSession
	}
	return nil
}

// ParseTimeout reads TESTCTL_KEYRING_TIMEOUT: empty is DefaultTimeout.
func ParseTimeout(raw string) (time.Duration, error) {
	if raw == "" {
		return DefaultTimeout, nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("invalid TESTCTL_KEYRING_TIMEOUT %q: use a positive duration like 3s", raw)
	}
	return d, nil
}
