package auth_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/keyring"
	"github.com/testctl/testctl/pkg/sandbox"
)

// loggedOut is a machine whose key is only where `auth login` puts it.
func loggedOut(t *testing.T) (*cmdtest.Env, *keyring.Fake) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	fake := e.Keyring.(*keyring.Fake)
	return e, fake
}

func login(t *testing.T, e *cmdtest.Env, args ...string) cmdtest.Result {
	t.Helper()
	return e.RunWith(cmdtest.RunOptions{Stdin: sandbox.ProjectKey + "\n"}, append([]string{"auth", "login"}, args...)...)
}

func configFile(t *testing.T, e *cmdtest.Env) string {
	t.Helper()
	data, err := os.ReadFile(e.Getenv("TESTCTL_CONFIG"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

func noKeyIn(t *testing.T, r cmdtest.Result) {
	t.Helper()
	if strings.Contains(r.Output(), sandbox.ProjectKey) {
		t.Fatalf("the key was printed:\n%s", r.Output())
	}
}

// The whole round: login keeps the key in the keyring under the base URL,
// a command authenticates with it, status and config list say where it is,
// logout removes it.
func TestKeyringRoundTrip(t *testing.T) {
	e, fake := loggedOut(t)
	noKeyIn(t, login(t, e).Expect(t, 0))
	if strings.Contains(configFile(t, e), "api_key") {
		t.Errorf("the config file holds a key:\n%s", configFile(t, e))
	}
	before := e.Requests("GET /v1/run")
	noKeyIn(t, e.Run("run", "list", "-o", "json").Expect(t, 0))
	if e.Requests("GET /v1/run") != before+1 {
		t.Error("run list did not reach the service with the keyring's key")
	}
	r := e.Run("auth", "status").Expect(t, 0)
	cmdtest.Contains(t, "status", r.Stdout, "****-key from the OS keyring")
	noKeyIn(t, r)
	r = e.Run("config", "list", "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "config list", r.Stdout, `"value": "****-key"`, `"source": "keyring"`)
	noKeyIn(t, r)

	r = e.Run("auth", "logout").Expect(t, 0)
	cmdtest.Contains(t, "logout", r.Stderr, "Removed the API key from the OS keyring")
	if len(fake.Items()) != 0 {
		t.Errorf("logout left %v", fake.Items())
	}
	e.Run("run", "list").Expect(t, 4)
}

// Two services (or two profiles) never share a key.
func TestKeyringKeysAreKeptPerBaseURLAndProfile(t *testing.T) {
	e, fake := loggedOut(t)
	login(t, e).Expect(t, 0)
	base := e.Getenv("TESTCTL_BASE_URL")
	if _, ok := fake.Items()[[2]string{"testctl:" + base, "default"}]; !ok {
		t.Fatalf("keyring: %v", fake.Items())
	}
	r := e.Run("auth", "status", "--base-url", "https://other.example.com").Expect(t, 4)
	cmdtest.Contains(t, "other service", r.Output(), "No API key")
	e.Run("auth", "status", "--profile", "other").Expect(t, 4)
}

// With the key in the environment or a flag, the keyring is never asked,
// even one that would hang.
func TestKeyringUntouchedWithEnvOrFlag(t *testing.T) {
	e := cmdtest.New(t)
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	fake := &keyring.Fake{Block: block}
	e.Keyring = fake
	start := time.Now()
	e.Run("run", "list").Expect(t, 0)
	e.Run("auth", "status").Expect(t, 0)
	e.Run("config", "list").Expect(t, 0)
	e.Setenv("TESTCTL_API_KEY", "")
	e.Run("run", "list", "--api-key", sandbox.ProjectKey).Expect(t, 0)
	e.Run("auth", "status", "--api-key", sandbox.ProjectKey).Expect(t, 0)
	if fake.Calls != 0 {
		t.Errorf("the keyring was asked %d times", fake.Calls)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s", took)
	}
}

// A keyring that fails or does not answer is exit 4 with the reason and the
// fix, and nothing is sent without the key.
func TestUnreadableKeyringIsAnErrorNotARequestWithoutKey(t *testing.T) {
	withBrokenKeyring(t, "org.freedesktop.Secret.Error.IsLocked", func(t *testing.T, name string, e *cmdtest.Env) {
		start := time.Now()
		for _, args := range [][]string{{"run", "list"}, {"auth", "status"}, {"api", "/v1/run"}, {"config", "get", "api_key"}} {
			r := e.Run(args...).Expect(t, 4)
			cmdtest.Contains(t, strings.Join(args, " "), r.Stderr, "OS keyring", "TESTCTL_API_KEY", "auth login --insecure-storage")
			if strings.Contains(r.Stderr, "rejected") || strings.Contains(r.Stderr, "invalid") {
				t.Errorf("%v blamed the key:\n%s", args, r.Stderr)
			}
		}
		if name == "hangs" {
			cmdtest.Contains(t, "hangs", e.Run("run", "list").Stderr, "did not answer within 100ms")
		} else {
			cmdtest.Contains(t, "fails", e.Run("run", "list").Stderr, "IsLocked")
		}
		if n := e.Requests("GET /v1/run"); n != 0 {
			t.Errorf("%d requests reached the service without a key", n)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("took %s", took)
		}
	})
}

// withBrokenKeyring runs test twice, logged out with a keyring that answers
// every call with the error fails ("fails") and with one that never answers
// ("hangs"), TESTCTL_KEYRING_TIMEOUT 100ms.
func withBrokenKeyring(t *testing.T, fails string, test func(t *testing.T, name string, e *cmdtest.Env)) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	for name, fake := range map[string]*keyring.Fake{
		"fails": {Err: errors.New(fails)},
		"hangs": {Block: block},
	} {
		t.Run(name, func(t *testing.T) {
			e, _ := loggedOut(t)
			e.Keyring = fake
			e.Setenv("TESTCTL_KEYRING_TIMEOUT", "100ms")
			test(t, name, e)
		})
	}
}

// login falls back to the file when the keyring fails or hangs, and says so;
// --insecure-storage chooses the file without asking the keyring.
func TestLoginFallsBackToTheFile(t *testing.T) {
	withBrokenKeyring(t, "org.freedesktop.DBus.Error.ServiceUnknown", func(t *testing.T, _ string, e *cmdtest.Env) {
		r := login(t, e).Expect(t, 0)
		noKeyIn(t, r)
		cmdtest.Contains(t, "stderr", r.Stderr, "OS keyring cannot take the key", "config file instead", "--insecure-storage")
		assertKeyInPrivateFile(t, e)
		e.Keyring = &keyring.Fake{Err: errors.New("must not be asked")}
		e.Run("run", "list").Expect(t, 0) // the file comes before the keyring
	})
	e, fake := loggedOut(t)
	r := login(t, e, "--insecure-storage").Expect(t, 0)
	if strings.Contains(r.Stderr, "warning") || fake.Calls != 0 {
		t.Errorf("--insecure-storage: %d keyring calls, stderr:\n%s", fake.Calls, r.Stderr)
	}
	assertKeyInPrivateFile(t, e)
}

func assertKeyInPrivateFile(t *testing.T, e *cmdtest.Env) {
	t.Helper()
	if !strings.Contains(configFile(t, e), "api_key: "+sandbox.ProjectKey) {
		t.Errorf("the key is not in the config file:\n%s", configFile(t, e))
	}
	if info, err := os.Stat(e.Getenv("TESTCTL_CONFIG")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("config file: %v %v", info, err)
	}
}

// A key an earlier version stored in the file keeps working; the next login
// moves it to the keyring.
func TestKeyInTheFileMovesToTheKeyring(t *testing.T) {
	e, fake := loggedOut(t)
	path := e.Getenv("TESTCTL_CONFIG")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("profiles:\n  default:\n    api_key: "+sandbox.ProjectKey+"\n    project: proj-demo_sandbox\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.Run("run", "list").Expect(t, 0)
	r := e.Run("auth", "status", "-o", "json").Expect(t, 0)
	var st map[string]any
	_ = json.Unmarshal([]byte(r.Stdout), &st)
	if st["keySource"] != "profile" || fake.Calls != 0 {
		t.Errorf("status %v, %d keyring calls", st, fake.Calls)
	}
	login(t, e).Expect(t, 0)
	if data := configFile(t, e); strings.Contains(data, "api_key") || !strings.Contains(data, "project: proj-demo_sandbox") {
		t.Errorf("after login the file is:\n%s", data)
	}
	if len(fake.Items()) != 1 {
		t.Errorf("keyring: %v", fake.Items())
	}
	r = e.Run("auth", "status", "-o", "json").Expect(t, 0)
	_ = json.Unmarshal([]byte(r.Stdout), &st)
	if st["keySource"] != "keyring" {
		t.Errorf("status after login: %v", st)
	}
}

// Without a D-Bus session the real keyring is not asked: login falls back to
// the file at once, and no dbus-launch or dbus-daemon is started.
func TestNoDBusSessionFallsBackWithoutStartingABus(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the D-Bus session bus is Linux's")
	}
	e, _ := loggedOut(t)
	e.Keyring = keyring.System{}
	e.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	before := busProcesses(t)
	start := time.Now()
	r := login(t, e).Expect(t, 0)
	if took := time.Since(start); took > time.Second {
		t.Errorf("login took %s", took)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "not reachable without a D-Bus session", "DBUS_SESSION_BUS_ADDRESS is unset", "--insecure-storage")
	assertKeyInPrivateFile(t, e)
	e.Run("auth", "logout").Expect(t, 0)
	if err := os.WriteFile(e.Getenv("TESTCTL_CONFIG"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r = e.Run("run", "list").Expect(t, 4)
	cmdtest.Contains(t, "no key", r.Stderr, "no API key configured")
	if after := busProcesses(t); after > before {
		t.Errorf("%d dbus-launch/dbus-daemon processes before, %d after", before, after)
	}
}

// busProcesses counts the machine's dbus-launch and dbus-daemon processes.
func busProcesses(t *testing.T) int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/comm")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range dirs {
		comm, err := os.ReadFile(p)
		if name := strings.TrimSpace(string(comm)); err == nil && (name == "dbus-launch" || name == "dbus-daemon") {
			n++
		}
	}
	return n
}

// TESTCTL_KEYRING_TIMEOUT, the hidden bound of each keyring call, must be a
// positive duration.
func TestKeyringTimeoutSetting(t *testing.T) {
	e, _ := loggedOut(t)
	e.Setenv("TESTCTL_KEYRING_TIMEOUT", "soon")
	r := e.Run("auth", "status").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, `invalid TESTCTL_KEYRING_TIMEOUT "soon"`, "3s")
}
