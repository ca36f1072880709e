package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/testctl/testctl/pkg/exitcode"
)

// whereAmI is how the snippet names the server's command: "testctl" when
// the binary running is the one PATH finds (symbolic links resolved for the
// comparison), else its absolute path, with a note saying why. A binary
// `go run` built in a temporary directory is gone once it ends: the
// snippet would name nothing, so the user is told to build testctl first.
type whereAmI struct {
	// executable is the running binary's path (os.Executable); path is
	// $PATH as the command line sees it.
	executable func() (string, error)
	path       string
}

func (w whereAmI) command() (cmd, note string, err error) {
	self, err := w.executable()
	if err != nil {
		return "testctl", "", nil // nothing better to say: PATH's, as before
	}
	if temporaryBuild(self) {
		return "", "", exitcode.UsageErrorf("this testctl is a temporary build of `go run` (%s), gone when it ends: "+
			"build testctl first (go build -o testctl . or go install), then run its mcp config", self)
	}
	onPath := lookPath("testctl", w.path)
	if onPath != "" && sameFile(onPath, self) {
		return "testctl", "", nil
	}
	abs, err := filepath.Abs(self)
	if err != nil {
		abs = self
	}
	if onPath == "" {
		return abs, fmt.Sprintf("note: testctl is not on PATH: the snippet names this binary, %s", abs), nil
	}
	return abs, fmt.Sprintf("note: the testctl on PATH (%s) is not this binary: the snippet names this one, %s", onPath, abs), nil
}

// temporaryBuild reports whether a binary is one `go run` built: it lives
// in a go-build directory of the temporary directory, as .../exe/NAME.
func temporaryBuild(path string) bool {
	dir := filepath.ToSlash(filepath.Dir(path))
	return strings.HasSuffix(dir, "/exe") && strings.Contains(dir, "/go-build")
}

// lookPath finds name in the directories of pathEnv, as a shell would: the
// first regular file there that may be executed; "" when none.
func lookPath(name, pathEnv string) string {
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return ""
}

// sameFile reports whether a and b are one file once symbolic links are
// resolved.
func sameFile(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA != nil || errB != nil {
		return false
	}
	fa, errA := os.Stat(ra)
	fb, errB := os.Stat(rb)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
