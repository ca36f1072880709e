// Package integrations_test runs the CI integrations under their real
// runners, the GitHub Action under nektos/act and the GitLab component under
// gitlab-ci-local (realrunner_test.go), each installing testctl from a
// release served locally (built from this tree, named and checksummed as
// goreleaser names them) and running it against the sandbox. What those
// runners cannot show (a cancel's signal, a BusyBox shell, GitLab's check of
// declared inputs) runs under an emulation of them (runner_test.go), each
// such test saying why. It runs real processes (bash, the built binary), so
// it lives apart from e2e/, whose tests run the command tree in-process.
package integrations_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/sandbox"
)

// releaseVersion is the version of the release the tests serve; it is not
// the action's default, so a test that forgets the version input fails.
const releaseVersion = "9.8.7"

// release serves one release the way GitHub serves release assets:
// <base>/v<version>/<file>, the archive for this host and checksums.txt.
type release struct {
	URL       string // the download-base-url
	archive   string // its name, as goreleaser names it
	requests  atomic.Int64
	mu        sync.Mutex
	files     map[string][]byte
	Checksums string
}

// newRelease builds testctl for the host, packs it as goreleaser would and
// serves it with its checksums.txt.
func newRelease(t *testing.T) *release {
	t.Helper()
	archive, data := releaseArchive(t)
	sum := sha256.Sum256(data)
	r := &release{archive: archive, files: map[string][]byte{archive: data}}
	r.Checksums = hex.EncodeToString(sum[:]) + "  " + archive + "\n"
	r.files["checksums.txt"] = []byte(r.Checksums)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.requests.Add(1)
		name, ok := strings.CutPrefix(req.URL.Path, "/v"+releaseVersion+"/")
		r.mu.Lock()
		body, found := r.files[name]
		r.mu.Unlock()
		if !ok || !found {
			http.NotFound(w, req)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// tamper changes one byte of the archive, keeping checksums.txt as it was.
func (r *release) tamper() {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := append([]byte(nil), r.files[r.archive]...)
	b[len(b)/2] ^= 0xff
	r.files[r.archive] = b
}

var built struct {
	once          sync.Once
	archive, path string
	data, bin     []byte
	err           error
}

// releaseArchive builds testctl for the host once per test process, stamped
// with the release's version so a test can tell it is the one installed,
// stripped as goreleaser builds it, and packs it under goreleaser's name.
func releaseArchive(t *testing.T) (name string, data []byte) {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "testctl-release-")
		if err != nil {
			built.err = err
			return
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, "testctl")
		cmd := exec.Command("go", "build", "-trimpath", "-o", bin,
			"-ldflags", "-s -w -X github.com/testctl/testctl/pkg/build.Version="+releaseVersion, ".")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		b, err := os.ReadFile(bin)
		if err != nil {
			built.err = err
			return
		}
		built.bin = b
		built.archive = fmt.Sprintf("testctl_%s_%s_%s.tar.gz", releaseVersion, runtime.GOOS, runtime.GOARCH)
		built.data, built.err = tarGz("testctl", b)
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.archive, built.data
}

// tarGz packs one executable file at the archive's root, as goreleaser
// does (it adds README.md, LICENSE, completions and man pages beside it).
func tarGz(name string, content []byte) ([]byte, error) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed) // a valid level cannot fail
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		mode int64
		body []byte
	}{{"README.md", 0o644, []byte("# testctl\n")}, {name, 0o755, content}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body)), ModTime: time.Unix(0, 0)}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.body); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// startSandbox serves the sandbox on loopback, a hundred times faster than
// real time: a passing plan ends in a tenth of a second, the slow one in
// 36 s (past any timeout a test gives it).
func startSandbox(t *testing.T) *sandbox.Instance {
	t.Helper()
	inst, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{Speed: 100, History: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = inst.Close() })
	return inst
}

// hostRunner is RUNNER_OS and RUNNER_ARCH for this host, as GitHub names them.
func hostRunner(t *testing.T) (osName, arch string) {
	t.Helper()
	osName = map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	arch = map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if osName == "" || arch == "" {
		t.Skipf("no runner emulation for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return osName, arch
}
