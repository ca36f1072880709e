//go:build unix

package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Issue 39, point 2: `testctl run start --plan pln-failing_sandbox --wait`,
// typed into a shell in a real terminal emulator (tmux), leaves every line
// printed before and during the wait on the screen and in scrollback: the
// command line, what came before it, the "Started run" line and each test
// case's line. The screen is read every 100 ms while the command runs, and
// what each read showed above its last line must still be there, in order,
// once the command has ended. At 40, 60, 72 and 100 columns, and in a
// 100-column pane shrunk to 50 mid-run. (The spinner library that drew the
// live line erased the line above it at every frame.) Nothing of the live
// line stays behind.
func TestLiveViewKeepsTheLinesAboveInTmux(t *testing.T) {
	tmux := needTmux(t)
	bin, err := testctlBinary() // testctl, built once for the tests' subprocesses
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		width, shrink int
	}{{"40", 40, 0}, {"60", 60, 0}, {"72", 72, 0}, {"100", 100, 0}, {"100-shrunk-to-50", 100, 50}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPane(t, tmux, filepath.Dir(bin), tc.width)
			p.typeLine("echo printed before the wait")
			p.typeLine("testctl --sandbox run start --plan pln-failing_sandbox --wait; echo EXIT=$?")
			var reads [][]string
			shrunk := tc.shrink == 0
			deadline := time.Now().Add(90 * time.Second)
			for {
				lines := p.capture()
				reads = append(reads, lines)
				if slices.ContainsFunc(lines, exitLine.MatchString) {
					break
				}
				if !shrunk && slices.ContainsFunc(lines, isCaseLine) {
					p.tmux("resize-window", "-x", fmt.Sprint(tc.shrink))
					shrunk = true
				}
				if time.Now().After(deadline) {
					t.Fatalf("the command did not end within 90 s:\n%s", strings.Join(lines, "\n"))
				}
				time.Sleep(100 * time.Millisecond)
			}
			final := p.capture()
			screen := strings.Join(final, "\n")
			if !slices.Contains(final, "EXIT=1") {
				t.Fatalf("want exit 1:\n%s", screen)
			}
			for i, read := range reads {
				// The last line of a read may be the live line, or a line
				// still being written.
				if shown := withoutLast(read); !inOrder(shown, final) {
					t.Fatalf("read %d of the screen showed lines that are gone at the end:\nread:\n%s\nat the end:\n%s",
						i+1, strings.Join(shown, "\n"), screen)
				}
			}
			for _, want := range []string{
				"$ echo printed before the wait",
				"printed before the wait",
				"$ testctl --sandbox run start --plan pln-failing_sandbox --wait; echo EXIT=$?",
			} {
				if !slices.Contains(final, want) {
					t.Errorf("the line %q is gone:\n%s", want, screen)
				}
			}
			// Nor is any of the live line left behind, even after the pane
			// was narrowed and the terminal rewrapped it.
			if i := slices.IndexFunc(final, isLiveLine); i >= 0 {
				t.Errorf("the live line is left on the screen: %q\n%s", final[i], screen)
			}
			started := slices.IndexFunc(final, func(l string) bool { return strings.HasPrefix(l, "✓ Started run ") })
			summary := slices.IndexFunc(final, func(l string) bool { return strings.HasPrefix(l, "✗ Run ") })
			if started < 0 || summary < started {
				t.Fatalf("no Started run line before the summary:\n%s", screen)
			}
			if cases := slices.DeleteFunc(slices.Clone(final[started:summary]), func(l string) bool { return !isCaseLine(l) }); len(cases) != 7 {
				t.Errorf("%d of the 7 test cases' lines are on the screen:\n%s", len(cases), screen)
			}
		})
	}
}

// needTmux is tmux's path; without it the test skips, or fails under
// CI=true.
func needTmux(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err == nil {
		return path
	}
	why := "tmux is not installed (.ci/run installs it: Debian's tmux); the live view is tested in it, as in a real terminal"
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip("skipping: " + why)
	return ""
}

var exitLine = regexp.MustCompile(`^EXIT=[0-9]+$`)

// isLiveLine is the spinner's line: it starts with a braille frame.
func isLiveLine(l string) bool {
	r, _ := utf8.DecodeRuneInString(l)
	return r >= 0x2800 && r <= 0x28ff
}

// isCaseLine is a test case's line of the live view.
func isCaseLine(l string) bool {
	return strings.HasPrefix(l, "  ✓ ") || strings.HasPrefix(l, "  ✗ ") || strings.HasPrefix(l, "  - ")
}

// withoutLast is lines without the last that is not blank.
func withoutLast(lines []string) []string {
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] != "" {
			return lines[:i]
		}
	}
	return nil
}

// inOrder reports whether every line of want that is not blank is in got,
// in the same order.
func inOrder(want, got []string) bool {
	j := 0
	for _, w := range want {
		if w == "" {
			continue
		}
		for j < len(got) && got[j] != w {
			j++
		}
		if j == len(got) {
			return false
		}
		j++
	}
	return true
}

// pane is a shell in a tmux server of the test's own, in a window of a
// given width; PATH starts with dir.
type pane struct {
	t        *testing.T
	tmuxPath string
	socket   string
}

func newPane(t *testing.T, tmuxPath, dir string, width int) *pane {
	t.Helper()
	// A socket's path must be short: not under t.TempDir.
	sockDir, err := os.MkdirTemp("", "tmux")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	p := &pane{t: t, tmuxPath: tmuxPath, socket: filepath.Join(sockDir, "s")}
	t.Cleanup(func() {
		_ = exec.Command(tmuxPath, "-S", p.socket, "kill-server").Run()
		_ = os.RemoveAll(sockDir)
	})
	env := []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home,
		"XDG_CONFIG_HOME=" + home, "TESTCTL_CONFIG=" + filepath.Join(home, "config.yaml"),
		"LANG=C.UTF-8", "TERM=xterm-256color"}
	rc := filepath.Join(home, "bashrc")
	if err := os.WriteFile(rc, []byte("PS1='$ '\nunset HISTFILE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tmuxPath, "-u", "-S", p.socket, "-f", os.DevNull, "new-session", "-d",
		"-x", fmt.Sprint(width), "-y", "24", "bash --noprofile --rcfile "+rc)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	p.tmux("set-option", "-g", "history-limit", "5000")
	for deadline := time.Now().Add(10 * time.Second); !slices.Contains(p.capture(), "$"); {
		if time.Now().After(deadline) {
			t.Fatalf("no prompt in the pane:\n%s", strings.Join(p.capture(), "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	return p
}

func (p *pane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command(p.tmuxPath, append([]string{"-u", "-S", p.socket}, args...)...).Output()
	if err != nil {
		p.t.Fatalf("tmux %s: %v", strings.Join(args, " "), err)
	}
	if !utf8.Valid(out) {
		p.t.Fatalf("tmux %s: not UTF-8: %q", strings.Join(args, " "), out)
	}
	return string(out)
}

// typeLine types line into the shell and presses Enter.
func (p *pane) typeLine(line string) {
	p.tmux("send-keys", "-l", line)
	p.tmux("send-keys", "Enter")
}

// capture is the pane's history and screen, a line for each line printed
// (the terminal's wrapped rows joined), without trailing blanks.
func (p *pane) capture() []string {
	lines := strings.Split(strings.TrimRight(p.tmux("capture-pane", "-p", "-J", "-S", "-"), "\n "), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}
