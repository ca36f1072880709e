package keyring

import (
	"errors"
	"strings"
	"testing"
	"time"

	zk "github.com/zalando/go-keyring"
)

const secret = "sk-live-0123456789abcd"

// The real backend over the library's in-memory mock: what is stored under
// one base URL and profile is read back there and nowhere else.
func TestSystemOverTheLibrarysMock(t *testing.T) {
	zk.MockInit()
	s := &Store{Backend: System{}, Timeout: time.Second}
	a, b := Service("https://api.example.com/"), Service("https://staging.example.com")
	if a != "testctl:https://api.example.com" {
		t.Errorf("service %q", a)
	}
	if _, err := s.Get(a, "default"); err != ErrNotFound {
		t.Fatalf("empty keyring: %v, want ErrNotFound", err)
	}
	if err := s.Set(a, "default", secret); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(a, "default"); got != secret || err != nil {
		t.Errorf("read back %q %v", got, err)
	}
	for _, where := range [][2]string{{b, "default"}, {a, "staging"}} {
		if _, err := s.Get(where[0], where[1]); err != ErrNotFound {
			t.Errorf("%v: %v, want ErrNotFound: keys of two services or profiles mixed", where, err)
		}
	}
	if err := s.Delete(a, "default"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(a, "default"); err != ErrNotFound {
		t.Errorf("second delete: %v, want ErrNotFound", err)
	}
}

func TestFailureIsAnErrorNamingTheFix(t *testing.T) {
	zk.MockInitWithError(errors.New("org.freedesktop.DBus.Error.ServiceUnknown"))
	s := &Store{Backend: System{}, Timeout: time.Second}
	_, err := s.Get(Service("https://api.example.com"), "default")
	var ke *Error
	if !errors.As(err, &ke) || ke.ExitCode() != 4 {
		t.Fatalf("got %T %v, want a *keyring.Error exiting 4", err, err)
	}
	for _, want := range []string{"failed", "ServiceUnknown", "reading the API key", "TESTCTL_API_KEY", "auth login --insecure-storage"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %s", want, err)
		}
	}
	if err := s.Set(Service("https://api.example.com"), "default", secret); err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("set: %v", err)
	}
}

// A keyring that never answers costs the timeout, not the command.
func TestTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	s := &Store{Backend: &Fake{Block: block}, Timeout: 50 * time.Millisecond}
	start := time.Now()
	_, err := s.Get(Service("https://api.example.com"), "default")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s", took)
	}
	var ke *Error
	if !errors.As(err, &ke) || ke.Timeout != 50*time.Millisecond {
		t.Fatalf("got %v, want a timeout", err)
	}
	for _, want := range []string{"did not answer within 50ms", "TESTCTL_API_KEY", "--insecure-storage"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %s", want, err)
		}
	}
}

// Without a D-Bus session nothing is called: godbus would start dbus-launch.
func TestNoSessionBusCallsNothing(t *testing.T) {
	env := func(v string) func(string) (string, bool) {
		return func(k string) (string, bool) { return v, v != "" && k == "DBUS_SESSION_BUS_ADDRESS" }
	}
	for _, addr := range []string{"", "autolaunch:"} {
		fake := &Fake{}
		s := &Store{Backend: fake, Timeout: time.Second, Unreachable: func() error { return SessionBus(env(addr)) }}
		err := s.Set(Service("https://api.example.com"), "default", secret)
		if !errors.Is(err, ErrNoSession) {
			if SessionBus(env(addr)) == nil {
				t.Skip("this system's keyring needs no D-Bus")
			}
			t.Errorf("%q: %v, want ErrNoSession", addr, err)
		}
		if fake.Calls != 0 {
			t.Errorf("%q: the keyring was called without a session bus", addr)
		}
		if !strings.Contains(err.Error(), "DBUS_SESSION_BUS_ADDRESS is unset") {
			t.Errorf("message: %s", err)
		}
	}
	if err := SessionBus(env("unix:path=/run/user/1000/bus")); err != nil {
		t.Errorf("with a bus: %v", err)
	}
}

func TestParseTimeout(t *testing.T) {
	if d, err := ParseTimeout(""); d != DefaultTimeout || err != nil {
		t.Errorf("default: %s %v", d, err)
	}
	if d, err := ParseTimeout("250ms"); d != 250*time.Millisecond || err != nil {
		t.Errorf("250ms: %s %v", d, err)
	}
	for _, bad := range []string{"soon", "0", "-1s"} {
		if _, err := ParseTimeout(bad); err == nil || !strings.Contains(err.Error(), "TESTCTL_KEYRING_TIMEOUT") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// A call abandoned at its timeout that answers later touches nothing Get
// returned (the race detector watches: the backend is not synchronised
// with the caller, as a real one is not).
func TestLateAnswerAfterTimeout(t *testing.T) {
	s := &Store{Backend: slowBackend{}, Timeout: 10 * time.Millisecond}
	if _, err := s.Get(Service("https://api.example.com"), "default"); err == nil {
		t.Fatal("no timeout")
	}
	time.Sleep(100 * time.Millisecond) // let the abandoned call answer
}

// slowBackend answers every call after 50 ms.
type slowBackend struct{}

func (slowBackend) Get(string, string) (string, error) {
	time.Sleep(50 * time.Millisecond)
	return "late", nil
}
func (slowBackend) Set(string, string, string) error { return nil }
func (slowBackend) Delete(string, string) error      { return nil }
