package config

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
)

// A write holds the lock naming itself, this process and its command; a
// write kept waiting gives up after its bound naming them (exit 8), or at
// once when its context ends (Ctrl-C: exit 130), and changes nothing.
func TestALockNamesItsHolderAndBoundsTheWait(t *testing.T) {
	path := writeConfig(t, "profiles:\n  default: {project: proj_a}\n")
	holding := loadAt(t, path)
	holding.command = "testctl auth login"
	unlock, err := holding.lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h := readHolder(path + ".lock"); h.pid != os.Getpid() || h.command != "testctl auth login" {
		t.Errorf("the lock names %+v", h)
	}

	waiting := loadAt(t, path)
	waiting.lockWait = 100 * time.Millisecond
	start := time.Now()
	err = waiting.Set(context.Background(), KeyProject, "proj_b")
	if took := time.Since(start); took < 100*time.Millisecond || took > 5*time.Second {
		t.Errorf("gave up after %s", took)
	}
	if fe := (*FileError)(nil); !errors.As(err, &fe) || exitcode.Of(err) != exitcode.Local {
		t.Fatalf("err %v (exit %d), want a FileError, exit 8", err, exitcode.Of(err))
	}
	want := "still locked after 100ms by process " + strconv.Itoa(os.Getpid()) + " (testctl auth login): wait for it to finish, or remove " + path + ".lock if that process is gone"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("err %q\nwant %q", err, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	waiting.lockWait = time.Minute
	if err := waiting.Set(ctx, KeyProject, "proj_b"); !errors.Is(err, context.Canceled) || exitcode.Of(err) != exitcode.Interrupted {
		t.Errorf("cancelled: %v (exit %d), want 130", err, exitcode.Of(err))
	}

	unlock()
	if h := readHolder(path + ".lock"); h.pid != 0 {
		t.Errorf("a released lock still names %+v", h)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "proj_a") || strings.Contains(string(data), "proj_b") {
		t.Errorf("the file changed:\n%s", data)
	}
	if err := waiting.Set(context.Background(), KeyProject, "proj_c"); err != nil {
		t.Errorf("once released: %v", err)
	}
}

// What a lock file says is only a name: unreadable or foreign content
// names nobody, and control characters never reach the terminal.
func TestReadHolder(t *testing.T) {
	path := t.TempDir() + "/config.yaml.lock"
	for content, want := range map[string]holder{
		"":                             {},
		"junk":                         {},
		"0 testctl":                    {},
		"-3 testctl":                   {},
		"42":                           {},
		"42 testctl config set\n":      {42, "testctl config set"},
		"42 testctl \x1b[31mset\nmore": {42, "testctl set"},
	} {
		if err := os.WriteFile(path, []byte(strings.Repeat("\n", holderOffset)+content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := readHolder(path); got != want {
			t.Errorf("%q: %+v, want %+v", content, got, want)
		}
	}
	if got := readHolder(path + ".missing"); got != (holder{}) {
		t.Errorf("no file: %+v", got)
	}
}
