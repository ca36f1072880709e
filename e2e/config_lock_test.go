//go:build unix

package e2e_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/keyring"
	"github.com/testctl/testctl/pkg/sandbox"
)

// holdConfigLock holds the config file's lock as another testctl does
// while it writes (flock, its pid and command in the lock file), until
// the release it returns is called or the test ends.
func holdConfigLock(t *testing.T, e *cmdtest.Env, pid int, command string) (lockPath string, release func()) {
	t.Helper()
	lockPath = e.Getenv("TESTCTL_CONFIG") + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(f, "%d %s\n", pid, command); err != nil {
		t.Fatal(err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			_ = f.Truncate(0)
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
	}
	t.Cleanup(release)
	return lockPath, release
}

// runBounded runs a command line and fails the test when it has not ended
// within limit (the wait for a lock used to have no end); the command is
// then still waited for after release, so whatever it does next is seen.
func runBounded(t *testing.T, e *cmdtest.Env, ro cmdtest.RunOptions, limit time.Duration, release func(), args ...string) cmdtest.Result {
	t.Helper()
	done := make(chan cmdtest.Result, 1)
	go func() { done <- e.RunWith(ro, args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		t.Errorf("%v: still waiting for the config file's lock after %s", args, limit)
		release()
		return <-done
	}
}

// A command that writes the config file waits a bounded time for another
// that holds its lock, then exits 8 naming the holder and the fix, and
// writes nothing, not even once the lock is free. So do all of them:
// config set and unset, auth login and logout.
func TestConfigWritersGiveUpOnAHeldLock(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	e.Setenv("TESTCTL_CONFIG_LOCK_TIMEOUT", "300ms")
	e.Run("config", "set", "http_timeout", "45s").Expect(t, 0)
	e.RunWith(cmdtest.RunOptions{Stdin: sandbox.ProjectKey + "\n"}, "auth", "login", "--insecure-storage").Expect(t, 0)
	path := e.Getenv("TESTCTL_CONFIG")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lockPath, release := holdConfigLock(t, e, os.Getpid(), "testctl config set")
	for _, tc := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"config", "set", "http_timeout", "50s"}, ""},
		{[]string{"config", "unset", "http_timeout"}, ""},
		{[]string{"auth", "login"}, sandbox.ProjectKey + "\n"},
		{[]string{"auth", "logout"}, ""},
	} {
		start := time.Now()
		r := runBounded(t, e, cmdtest.RunOptions{Stdin: tc.stdin}, 5*time.Second, release, tc.args...).Expect(t, 8)
		if took := time.Since(start); took < 300*time.Millisecond {
			t.Errorf("%v gave up after %s, before its bound", tc.args, took)
		}
		cmdtest.Contains(t, fmt.Sprint(tc.args), r.Stderr, "error: locking the config file "+path+": ",
			"still locked after 300ms by process "+strconv.Itoa(os.Getpid())+" (testctl config set)",
			"wait for it to finish, or remove "+lockPath+" if that process is gone")
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Fatalf("%v changed the config file:\n%s", tc.args, after)
		}
	}
	if items := e.Keyring.(*keyring.Fake).Items(); len(items) != 0 {
		t.Errorf("auth login left its key in the keyring: %v", items)
	}

	// A holder that is gone is named as such.
	release()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	_, release = holdConfigLock(t, e, gone.Process.Pid, "testctl auth login")
	r := runBounded(t, e, cmdtest.RunOptions{}, 5*time.Second, release, "config", "set", "project", "proj_after").Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, fmt.Sprintf("process %d (testctl auth login), which took it, is gone: remove %s if no other testctl is running", gone.Process.Pid, lockPath))
	release()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatalf("the config file changed:\n%s", after)
	}
}

// Ctrl-C or SIGTERM ends the wait for the lock with 130 or 143, and the
// setting is not written when the lock is released afterwards.
func TestConfigSetGivesWayToASignalWhileWaitingForTheLock(t *testing.T) {
	for cause, code := range map[error]int{context.Canceled: 130, cmdutil.ErrTerminated: 143} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			e := cmdtest.New(t)
			path := e.Getenv("TESTCTL_CONFIG")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			_, release := holdConfigLock(t, e, os.Getpid(), "testctl config set")
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(100*time.Millisecond, func() { cancel(cause) })
			r := runBounded(t, e, cmdtest.RunOptions{Ctx: ctx}, 3*time.Second, release, "config", "set", "project", "proj_after").Expect(t, code)
			release()
			if data, err := os.ReadFile(path); !os.IsNotExist(err) {
				t.Errorf("the setting was written: %v\n%s", err, data)
			}
			cmdtest.Contains(t, "stderr", r.Stderr, map[int]string{130: "interrupted", 143: "terminated"}[code])
		})
	}
}
