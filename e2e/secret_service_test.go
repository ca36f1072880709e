package e2e_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/keyring"
	"github.com/testctl/testctl/pkg/sandbox"
)

// insideSecretService marks the copy of this test binary that runs inside
// a private D-Bus session with its own gnome-keyring.
const insideSecretService = "TESTCTL_TEST_INSIDE_SECRET_SERVICE"

// auth login against a real Secret Service (gnome-keyring on a D-Bus
// session): the key lands there, where secret-tool reads it back, a command
// authenticates with it, and auth logout removes it.
//
// The test runs itself again under dbus-run-session with a keyring daemon
// unlocked in a scratch $HOME, so it never touches the keyring of the
// machine it runs on. Without dbus-run-session, gnome-keyring-daemon or
// secret-tool it skips, saying which is missing; under CI=true it fails
// instead (.ci/run installs them).
func TestSecretService(t *testing.T) {
	if os.Getenv(insideSecretService) == "1" {
		secretServiceRoundTrip(t)
		return
	}
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon", "secret-tool"} {
		if _, err := exec.LookPath(tool); err != nil {
			why := tool + " is not installed (.ci/run installs it: Debian's dbus, gnome-keyring and libsecret-tools)"
			if os.Getenv("CI") == "true" {
				t.Fatalf("the Secret Service test cannot run: %s", why)
			}
			t.Skip("no Secret Service to test against: " + why)
		}
	}
	home := t.TempDir()
	runtimeDir := filepath.Join(home, "run")
	if err := os.Mkdir(runtimeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The daemon reads the login keyring's password on stdin, creates that
	// keyring unlocked and serves org.freedesktop.secrets on the session.
	script := `printf pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"`
	cmd := exec.CommandContext(ctx, "dbus-run-session", "--", "sh", "-c", script, "sh",
		os.Args[0], "-test.run=^TestSecretService$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), insideSecretService+"=1", "HOME="+home, "XDG_RUNTIME_DIR="+runtimeDir,
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the test inside dbus-run-session failed: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "--- PASS: TestSecretService") {
		t.Fatalf("the test inside dbus-run-session did not pass:\n%s", out.String())
	}
	t.Logf("inside dbus-run-session with gnome-keyring:\n%s", out.String())
}

func secretServiceRoundTrip(t *testing.T) {
	bus := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	if bus == "" {
		t.Fatal("no DBUS_SESSION_BUS_ADDRESS inside dbus-run-session")
	}
	e := cmdtest.New(t)
	e.Keyring = keyring.System{}
	e.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	e.Setenv("TESTCTL_API_KEY", "")
	e.Setenv("TESTCTL_KEYRING_TIMEOUT", "30s") // the daemon's first answer, on a busy machine
	service := keyring.Service(e.Getenv("TESTCTL_BASE_URL"))
	lookup := func() (string, error) {
		out, err := exec.Command("secret-tool", "lookup", "service", service, "username", "default").Output()
		return string(out), err
	}

	r := e.RunWith(cmdtest.RunOptions{Stdin: sandbox.ProjectKey + "\n"}, "auth", "login").Expect(t, 0)
	cmdtest.Contains(t, "login", r.Stderr, "stored in the OS keyring", service)
	if strings.Contains(r.Stderr, "warning") || strings.Contains(r.Output(), sandbox.ProjectKey) {
		t.Errorf("login:\n%s", r.Output())
	}
	if got, err := lookup(); got != sandbox.ProjectKey {
		t.Fatalf("secret-tool lookup: %q %v, want the key", got, err)
	}
	if data, _ := os.ReadFile(e.Getenv("TESTCTL_CONFIG")); strings.Contains(string(data), sandbox.ProjectKey) {
		t.Errorf("the key is in the config file too:\n%s", data)
	}

	before := e.Requests("GET /v1/run")
	e.Run("run", "list", "-o", "json").Expect(t, 0)
	if e.Requests("GET /v1/run") != before+1 {
		t.Error("run list did not reach the sandbox with the key from the Secret Service")
	}
	r = e.Run("auth", "status").Expect(t, 0)
	cmdtest.Contains(t, "status", r.Stdout, "****-key from the OS keyring")

	r = e.Run("auth", "logout").Expect(t, 0)
	cmdtest.Contains(t, "logout", r.Stderr, "Removed the API key from the OS keyring")
	if got, _ := lookup(); got != "" {
		t.Errorf("after logout secret-tool still finds %q", got)
	}
	e.Run("run", "list").Expect(t, 4)
}
