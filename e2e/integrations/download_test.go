package integrations_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The install's download bounds, shell by shell, without building testctl:
// a stand-in release (a script named testctl, padded with random bytes, and
// its checksums.txt) from a server that never sends or that trickles, and
// only the install's script of action.yml (bash, curl) or of the component
// (sh with curl; BusyBox's sh with its wget, as its alpine image has).

// The bounds the tests give the scripts (docs/ci.md): a try that moves
// less than 100 bytes a second for 2 s is given up, and tried once more.
var shortBounds = map[string]string{
	"TESTCTL_DOWNLOAD_STALL_TIMEOUT": "2", "TESTCTL_DOWNLOAD_MIN_RATE": "100",
	"TESTCTL_DOWNLOAD_RETRIES": "1", "TESTCTL_DOWNLOAD_CONNECT_TIMEOUT": "2",
}

const stalledMessage = "the download stalled, less than 100 bytes a second for 2s (tried 2 times)"

// standInRelease is a release whose archive holds a script, not testctl:
// the install unpacks and checks it, and never runs it.
type standInRelease struct {
	archive string
	files   map[string][]byte
}

func newStandInRelease(t *testing.T, pad int) standInRelease {
	t.Helper()
	noise := make([]byte, pad)
	_, _ = rand.Read(noise) // random bytes do not compress: the archive stays as large
	script := append([]byte("#!/bin/sh\necho stand-in\nexit 0\n"), noise...)
	data, err := tarGz("testctl", script)
	if err != nil {
		t.Fatal(err)
	}
	archive := fmt.Sprintf("testctl_%s_%s_%s.tar.gz", releaseVersion, runtime.GOOS, runtime.GOARCH)
	sum := sha256.Sum256(data)
	return standInRelease{archive: archive, files: map[string][]byte{
		archive: data, "checksums.txt": []byte(hex.EncodeToString(sum[:]) + "  " + archive + "\n"),
	}}
}

// trickleServer serves rel, the archive chunk bytes every tick after its
// headers: slow, but never stalled.
func trickleServer(t *testing.T, rel standInRelease, chunk int, tick time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/v"+releaseVersion+"/")
		body, ok := rel.files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		if name != rel.archive {
			_, _ = w.Write(body)
			return
		}
		for len(body) > 0 {
			n := min(chunk, len(body))
			if _, err := w.Write(body[:n]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			body = body[n:]
			select {
			case <-time.After(tick):
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// installShell is one way the install runs: its script, shell and PATH.
type installShell struct {
	name   string
	script string
	shell  string
	env    map[string]string
}

// installShells are the action's install under bash with curl, and the
// component's under sh with curl and under BusyBox with its wget; each
// skips (or, under CI=true, fails) without its tools.
var installShells = []struct {
	name  string
	setup func(t *testing.T) installShell
}{
	{"action", func(t *testing.T) installShell {
		needTools(t, actionTools...)
		osName, arch := hostRunner(t)
		var script string
		for _, s := range loadAction(t).Runs.Steps {
			if s.ID == "install" {
				script = s.Run
			}
		}
		home := t.TempDir()
		return installShell{name: "action", script: script, shell: "bash", env: map[string]string{
			"PATH": os.Getenv("PATH"), "RUNNER_OS": osName, "RUNNER_ARCH": arch, "RUNNER_TEMP": home,
			"RUNNER_TOOL_CACHE": filepath.Join(home, "tool-cache"), "GITHUB_OUTPUT": filepath.Join(home, "output"),
			"GITHUB_PATH": filepath.Join(home, "path"),
		}}
	}},
	{"component-curl", func(t *testing.T) installShell {
		needTools(t, componentTools...)
		return installShell{name: "component, curl", script: loadComponent(t, nil).Job.Script[0], shell: "sh",
			env: map[string]string{"PATH": os.Getenv("PATH")}}
	}},
	{"component-busybox-wget", func(t *testing.T) installShell {
		busybox, path := busyboxPath(t)
		return installShell{name: "component, BusyBox wget", script: loadComponent(t, nil).Job.Script[0], shell: "busybox",
			env: map[string]string{"PATH": path, "BUSYBOX": busybox}}
	}},
}

// runInstall runs the install against url with the short bounds; a run
// that has not ended after a minute is ended and fails the test.
func runInstall(t *testing.T, s installShell, url string) (string, int) {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{"HOME": home, "TMPDIR": home, "TESTCTL_VERSION": releaseVersion, "TESTCTL_DOWNLOAD_BASE_URL": url}
	for _, m := range []map[string]string{s.env, shortBounds} {
		for k, v := range m {
			env[k] = v
		}
	}
	ended := make(chan struct{})
	defer close(ended)
	return runShell(t, shellStep{ID: "install", Shell: s.shell, Script: s.script, Dir: home, Env: env,
		OnStart: func(p *os.Process, _ *syncBuffer) {
			go func() {
				select {
				case <-ended:
				case <-time.After(time.Minute):
					t.Errorf("%s: the install had not ended after a minute", s.name)
					_ = p.Kill()
				}
			}()
		}})
}

// A server that accepts and never sends fails the install after two
// stalled tries, naming the download and that it stalled.
func TestInstallGivesUpAStalledDownload(t *testing.T) {
	t.Parallel()
	for _, shell := range installShells {
		t.Run(shell.name, func(t *testing.T) {
			s := shell.setup(t)
			t.Parallel()
			url := silentServer(t)
			log, code := runInstall(t, s, url)
			want := "could not download " + url + "/v" + releaseVersion + "/testctl_" + releaseVersion + "_"
			if code == 0 || !strings.Contains(log, want) || !strings.Contains(log, stalledMessage) {
				t.Errorf("%s: exit %d; want the download named (%q) and said to have stalled (%q):\n%s", s.name, code, want, stalledMessage, log)
			}
		})
	}
}

// A download at 400 bytes a second, four times the minimum, that lasts
// three times the stall time is never cut: the install completes.
func TestInstallKeepsASlowSteadyDownload(t *testing.T) {
	t.Parallel()
	rel := newStandInRelease(t, 3000)
	if n := len(rel.files[rel.archive]); n < 3*2*400 {
		t.Fatalf("the archive is %d bytes: too small to last three stall times", n)
	}
	for _, shell := range installShells {
		t.Run(shell.name, func(t *testing.T) {
			s := shell.setup(t)
			t.Parallel()
			url := trickleServer(t, rel, 40, 100*time.Millisecond)
			log, code := runInstall(t, s, url)
			if code != 0 || !strings.Contains(log, "testctl "+releaseVersion+" installed") || strings.Contains(log, "download stalled") {
				t.Errorf("%s: exit %d; want the slow download kept and installed:\n%s", s.name, code, log)
			}
		})
	}
}

// With their default bounds, the action's and the component's installs
// give up on a server that never sends within two minutes: every try ends
// after the stall time, and one second passes between tries.
func TestInstallDefaultsGiveUpWithinTwoMinutes(t *testing.T) {
	t.Parallel()
	action, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	component, err := os.ReadFile(filepath.Join("..", "..", "templates", "run.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, script := range map[string]string{"action.yml": string(action), "templates/run.yml": string(component)} {
		def := func(variable string) int {
			m := regexp.MustCompile(`\$\{` + variable + `:-([0-9]+)\}`).FindStringSubmatch(script)
			if m == nil {
				t.Fatalf("%s: no default for %s", name, variable)
			}
			n, _ := strconv.Atoi(m[1])
			return n
		}
		stall, retries := def("TESTCTL_DOWNLOAD_STALL_TIMEOUT"), def("TESTCTL_DOWNLOAD_RETRIES")
		if worst := time.Duration((retries+1)*stall+retries) * time.Second; worst > 2*time.Minute {
			t.Errorf("%s: a server that never sends holds the install %v (%d tries of %ds)", name, worst, retries+1, stall)
		}
		if def("TESTCTL_DOWNLOAD_MIN_RATE") < 1 || strings.Contains(script, "--max-time") {
			t.Errorf("%s: a slow download that keeps moving may be cut", name)
		}
	}
}
