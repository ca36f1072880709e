package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/prcomment/prcommenttest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The oracle of "every report tells the code": the real binary, under
// GitHub Actions, ends each way a command can end (a passing, failing,
// erroring or timed-out run; SIGINT or SIGTERM during the start's POST,
// the wait, the evidence reads or the reports; each sink failing at its
// probe or after it; a closed stdout or stderr; a --jq that fails), and
// every report it wrote must state the code the process exited with, and
// none a pass for a non-zero code. The combinations are covered pairwise;
// the cases synchronise on hooks (a request the service holds, a FIFO whose
// first byte sends the signal), never on sleeps.

// The dimensions of a case, each value a word.
var (
	oracleOutcomes = []string{"pass", "fail", "error", "timeout"}
	oracleSignals  = []string{"none", "INT@list", "TERM@list", "INT@post", "TERM@post", "INT@wait", "TERM@wait", "INT@evidence",
		"TERM@evidence", "INT@reports", "TERM@reports"}
	oracleSinks = []string{"none", "junit@probe", "html@probe", "summary@probe", "outputs@probe", "dotenv@probe", "exitfile@probe",
		"summary@write", "outputs@write", "disk@write", "comment@ok", "comment@fails", "stdout-closed", "stderr-closed"}
	oracleJQ = []string{"none", "failing"}
)

var oraclePlans = map[string]string{"pass": sandbox.PlanPassing, "fail": sandbox.PlanFailing, "error": "pln-erroring_sandbox", "timeout": "pln-slow_sandbox"}

// pairwise is a covering array: rows of value indexes such that every
// value of every dimension meets every value of every other dimension in
// at least one row. Greedy: each row starts from the first pair still
// uncovered and takes, dimension by dimension, the value that covers the
// most uncovered pairs with what the row holds.
func pairwise(sizes []int) [][]int {
	type pair struct{ i, vi, j, vj int }
	uncovered := map[pair]bool{}
	for i := range sizes {
		for j := i + 1; j < len(sizes); j++ {
			for vi := range sizes[i] {
				for vj := range sizes[j] {
					uncovered[pair{i, vi, j, vj}] = true
				}
			}
		}
	}
	var rows [][]int
	for len(uncovered) > 0 {
		row := make([]int, len(sizes))
		for k := range row {
			row[k] = -1
		}
		// The first uncovered pair, in a fixed order.
	first:
		for i := range sizes {
			for j := i + 1; j < len(sizes); j++ {
				for vi := range sizes[i] {
					for vj := range sizes[j] {
						if uncovered[pair{i, vi, j, vj}] {
							row[i], row[j] = vi, vj
							break first
						}
					}
				}
			}
		}
		for k := range sizes {
			if row[k] >= 0 {
				continue
			}
			best, bestN := 0, -1
			for v := range sizes[k] {
				n := 0
				for o := range sizes {
					if o == k || row[o] < 0 {
						continue
					}
					p := pair{o, row[o], k, v}
					if k < o {
						p = pair{k, v, o, row[o]}
					}
					if uncovered[p] {
						n++
					}
				}
				if n > bestN {
					best, bestN = v, n
				}
			}
			row[k] = best
		}
		for i := range sizes {
			for j := i + 1; j < len(sizes); j++ {
				delete(uncovered, pair{i, row[i], j, row[j]})
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func TestPairwiseCoversEveryPair(t *testing.T) {
	sizes := []int{len(oracleOutcomes), len(oracleSignals), len(oracleSinks), len(oracleJQ)}
	rows := pairwise(sizes)
	for i := range sizes {
		for j := i + 1; j < len(sizes); j++ {
			for vi := range sizes[i] {
				for vj := range sizes[j] {
					found := false
					for _, r := range rows {
						found = found || r[i] == vi && r[j] == vj
					}
					if !found {
						t.Errorf("no row has dimension %d = %d with dimension %d = %d", i, vi, j, vj)
					}
				}
			}
		}
	}
	if len(rows) > len(oracleSignals)*len(oracleSinks)+10 {
		t.Errorf("%d rows: far from the %d a covering array needs", len(rows), len(oracleSignals)*len(oracleSinks))
	}
}

type oracleCase struct{ outcome, signal, sink, jq string }

func (c oracleCase) String() string {
	return strings.Join([]string{c.outcome, c.signal, c.sink, "jq-" + c.jq}, "/")
}

func TestEveryReportStatesTheExitCode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("signals and FIFOs are POSIX's")
	}
	bin, err := testctlBinary()
	if err != nil {
		t.Fatal(err)
	}
	rows := pairwise([]int{len(oracleOutcomes), len(oracleSignals), len(oracleSinks), len(oracleJQ)})
	t.Logf("%d cases cover every pair of %d outcomes, %d signals, %d sinks and %d --jq", len(rows),
		len(oracleOutcomes), len(oracleSignals), len(oracleSinks), len(oracleJQ))
	for _, r := range rows {
		c := oracleCase{oracleOutcomes[r[0]], oracleSignals[r[1]], oracleSinks[r[2]], oracleJQ[r[3]]}
		t.Run(strings.ReplaceAll(c.String(), "@", "-at-"), func(t *testing.T) {
			t.Parallel()
			runOracleCase(t, bin, c)
		})
	}
}

// signalHold is a point of a command where the service stops until the test has
// sent the signal.
type signalHold struct {
	once          sync.Once
	reached, sent chan struct{}
}

func newSignalHold() *signalHold {
	return &signalHold{reached: make(chan struct{}), sent: make(chan struct{})}
}

func runOracleCase(t *testing.T, bin string, c oracleCase) {
	dir := t.TempDir()
	path := func(parts ...string) string {
		p := filepath.Join(append([]string{dir}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := map[string]string{
		"junit": path("junit", "junit.xml"), "html": path("html", "report.html"), "summary": path("summary", "summary.md"),
		"outputs": path("outputs", "output"), "dotenv": path("dotenv", "step.env"), "exitfile": path("exitfile", "exit-code"),
	}
	sig, phase, _ := strings.Cut(c.signal, "@")
	signal := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM}[sig]
	sinkName, sinkWhen, _ := strings.Cut(c.sink, "@")
	// A file that fails after its probe: one appended to is /dev/full
	// (opened at the probe, full at the write); a full disk (a file size
	// limit of 0) fails every file's write, after every probe passed.
	if sinkWhen == "write" && sinkName != "disk" {
		files[sinkName] = "/dev/full"
	}
	// The reports' hook: a FIFO in place of the step summary (or of the
	// outputs, when the summary is the sink that fails) whose first byte
	// sends the signal; its reader keeps reading.
	var fifo *fifoReader
	if phase == "reports" {
		which := "summary"
		if sinkName == "summary" {
			which = "outputs"
		}
		fifo = newFIFO(t, files[which])
	}
	var extraEnv []string
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sb := sandbox.New(sandbox.Options{Speed: 2000, History: -1})
	holds := map[string]*signalHold{"list": newSignalHold(), "post": newSignalHold(), "wait": newSignalHold(), "evidence": newSignalHold()}
	var firstPoll sync.Once
	var posted atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := ""
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/run" && !posted.Load():
			at = "list" // the runs that exist before the start's POST
		case r.Method == http.MethodPost && r.URL.Path == "/v1/run":
			at = "post"
			posted.Store(true)
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/run/"):
			at = "wait"
			if sinkWhen == "probe" {
				// The sink's directory goes away while the run goes on.
				firstPoll.Do(func() { _ = os.RemoveAll(filepath.Dir(files[sinkName])) })
			}
		case strings.HasSuffix(r.URL.Path, "/logs"):
			at = "evidence"
		}
		if h := holds[at]; h != nil && at == phase {
			first := false
			h.once.Do(func() { first = true })
			if first {
				close(h.reached)
				// The test signals, then lets the service answer: the
				// service carried the request out whatever the client did.
				select {
				case <-h.sent:
				case <-ctx.Done():
				}
				// Answering before testctl has seen the signal (a loaded
				// machine is slow to deliver it) would let the command go
				// on to its reports, and the signal would come after them,
				// where it changes nothing: not the case under test. A poll
				// is called off by the signal, which the request shows; a
				// start's request is not, so it is given time.
				settle := time.After(5 * time.Second)
				if at == "list" || at == "post" {
					settle = time.After(300 * time.Millisecond)
				}
				select {
				case <-r.Context().Done():
				case <-settle:
				}
				r = r.WithContext(context.WithoutCancel(r.Context()))
			}
		}
		sb.ServeHTTP(w, r)
	}))
	defer srv.Close()

	args := []string{"run", "start", "--plan", oraclePlans[c.outcome], "--wait", "--interval", "100ms",
		"--junit", files["junit"], "--html", files["html"], "--dotenv", files["dotenv"], "-o", "json"}
	if c.outcome == "timeout" {
		args = append(args, "--timeout", "1s")
	}
	if c.jq == "failing" {
		args = append(args, "--jq", ".status.x")
	}
	var comments func() []string
	if sinkName == "comment" {
		args = append(args, "--comment")
		comments = commentService(t, dir, sinkWhen == "ok", func(k, v string) { extraEnv = append(extraEnv, k+"="+v) })
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	if sinkName == "disk" {
		cmd = exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -f 0 && exec "$0" "$@"`, bin}, args...)...)
	}
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TESTCTL_CONFIG=" + filepath.Join(dir, "config.yaml"),
		"TESTCTL_BASE_URL=" + srv.URL, "TESTCTL_API_KEY=" + sandbox.ProjectKey, "NO_COLOR=1", "TESTCTL_AGENT=0",
		"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY=" + files["summary"], "GITHUB_OUTPUT=" + files["outputs"],
		"TESTCTL_EXIT_CODE_FILE=" + files["exitfile"]}
	cmd.Env = append(cmd.Env, extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	switch c.sink {
	case "stdout-closed":
		cmd.Stdout = closedPipe(t)
	case "stderr-closed":
		cmd.Stderr = closedPipe(t)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if signal != 0 {
		var reached <-chan struct{}
		sent := make(chan struct{})
		if phase == "reports" {
			reached = fifo.first
		} else {
			reached, sent = holds[phase].reached, holds[phase].sent
		}
		go func() {
			defer close(sent)
			select {
			case <-reached:
				_ = cmd.Process.Signal(signal)
			case <-ctx.Done():
			}
		}()
	}
	_ = cmd.Wait()
	timedOut := ctx.Err() != nil
	cancel() // releases a hold the command never reached
	if timedOut {
		t.Fatalf("%v did not end within 2 minutes:\n%s", c, stderr.String())
	}
	code := cmd.ProcessState.ExitCode()
	if code < 0 {
		t.Fatalf("%v: ended by a signal (%v):\n%s", c, cmd.ProcessState, stderr.String())
	}
	want := fmt.Sprint(code)
	log := stderr.String()
	fail := func(format string, a ...any) {
		t.Helper()
		t.Errorf("%v, exit %d: "+format+"\nstderr:\n%s", append(append([]any{c, code}, a...), log)...)
	}

	// A sink that fails after its probe raises the code for the reports
	// written after it; those written before it (in the order JUnit, HTML,
	// annotations, step summary, outputs runs_json…, dotenv, outputs
	// exit-code and verdict, exit code files, terminal summary, comment,
	// stdout) state the code as it stood, and an ::error names the sink.
	earlier := func(report, stated string) bool {
		before := map[string][]string{"summary": {"annotations"}, "outputs": {"annotations", "summary"}}[sinkName]
		return sinkWhen == "write" && slices.Contains(before, report) && atoi(stated) < code && strings.Contains(log, "::error title=testctl report::")
	}
	// The files that state the code.
	if b, err := os.ReadFile(files["exitfile"]); err == nil && strings.TrimSpace(string(b)) != want {
		fail("the exit code file says %q", b)
	} else if err != nil && sinkName != "exitfile" && sinkName != "disk" {
		fail("no exit code file: %v", err)
	}
	if _, err := os.Stat(files["dotenv"]); err == nil {
		if got := cmdtest.ReadDotenv(t, files["dotenv"])["TESTCTL_EXIT_CODE"]; got != want && !earlier("dotenv", got) {
			fail("the dotenv report says TESTCTL_EXIT_CODE=%s", got)
		}
	} else if sinkName != "dotenv" && sinkName != "disk" {
		fail("no dotenv report: %v", err)
	}
	outputs, summary := readSink(files["outputs"], fifo), readSink(files["summary"], fifo)
	if outputs != "" {
		got, err := cmdtest.ParseGitHubOutput([]byte(outputs))
		switch {
		case err != nil:
			fail("outputs: %v", err)
		case got["exit-code"] != want && !earlier("outputs", got["exit-code"]):
			fail("the outputs say exit-code=%q", got["exit-code"])
		case code != 0 && got["verdict"] == "passed" && !earlier("outputs", got["exit-code"]):
			fail("the outputs say verdict=passed")
		}
	} else if sinkName != "outputs" && sinkName != "disk" {
		fail("no outputs")
	}
	if summary != "" {
		m := regexp.MustCompile(`## \S+ testctl: (passed|failed) \(exit (\d+)\)`).FindStringSubmatch(summary)
		switch {
		case m == nil:
			fail("the step summary states no code:\n%s", summary)
		case earlier("summary", m[2]):
			// Written before the sink that failed after its probe.
		case m[2] != want || (m[1] == "passed") != (code == 0):
			fail("the step summary says %q", m[0])
		}
	} else if sinkName != "summary" && sinkName != "disk" {
		fail("no step summary")
	}
	// The pull request comment states the code too; one that cannot be
	// written never changes it.
	if comments != nil && sinkWhen == "ok" {
		bodies := comments()
		if len(bodies) != 1 {
			fail("%d pull request comments, want 1", len(bodies))
		} else if m := regexp.MustCompile(`testctl: (passed|failed) \(exit (\d+)\)`).FindStringSubmatch(bodies[0]); m == nil || m[2] != want {
			fail("the comment states %q", m)
		}
	}
	// What stderr states: the terminal summary's code line, and the
	// annotations that name a code.
	if c.sink != "stderr-closed" {
		lines := regexp.MustCompile(`(?m)^[✓✗] ([a-z-]+) \(exit (\d+)\)`).FindAllStringSubmatch(log, -1)
		if len(lines) == 0 {
			fail("the terminal summary states no code")
		}
		for _, m := range lines {
			if m[2] != want {
				fail("the terminal summary says %q", m[0])
			}
		}
		for _, m := range regexp.MustCompile(`::error title=testctl%3A exit (\d+)`).FindAllStringSubmatch(log, -1) {
			if m[1] != want && !earlier("annotations", m[1]) {
				fail("an annotation says %q", m[0])
			}
		}
		if sinkWhen == "write" && !strings.Contains(log, "::error title=testctl report::") {
			fail("no ::error names the %s that failed after its probe", sinkName)
		}
	}
	// The code itself: the signal's when it came before the reports, 8
	// for a sink, 2 at least for --jq, the run's otherwise.
	switch {
	case signal != 0 && (phase == "list" || phase == "post" || phase == "wait" || phase == "evidence" && c.outcome == "fail"):
		if code != map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143}[signal] {
			fail("a signal before the reports, yet not its code")
		}
	case sinkName != "none" && sinkName != "comment" && !strings.HasSuffix(c.sink, "-closed") &&
		!(sinkWhen == "probe" && (phase == "post" || phase == "list") && signal != 0):
		if code < 8 {
			fail("a sink failed, yet the code is below 8")
		}
	case (strings.HasSuffix(c.sink, "-closed") || sinkName == "comment") && c.jq == "none" && signal == 0:
		if wantRun := map[string]int{"pass": 0, "fail": 1, "error": 3, "timeout": 7}[c.outcome]; code != wantRun {
			fail("a closed stream changed the run's code %d", wantRun)
		}
	}
}

// readSink is a sink's content: its FIFO reader's, when it is the FIFO.
func readSink(path string, fifo *fifoReader) string {
	if fifo != nil && fifo.path == path {
		return fifo.content()
	}
	if path == "/dev/full" {
		return ""
	}
	b, _ := os.ReadFile(path)
	return string(b)
}

// fifoReader reads a FIFO the command appends to; first is closed at its
// first byte. It holds the FIFO open for writing too, so the command's
// opens and closes never end its reading.
type fifoReader struct {
	path  string
	first chan struct{}
	// onFirst, when set, runs at the first byte, before first is closed.
	onFirst func()
	mu      sync.Mutex
	buf     bytes.Buffer
	f       *os.File
	done    chan struct{}
}

func newFIFO(t *testing.T, path string) *fifoReader {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := &fifoReader{path: path, first: make(chan struct{}), f: f, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		b := make([]byte, 4096)
		var once sync.Once
		for {
			n, err := f.Read(b)
			if n > 0 {
				r.mu.Lock()
				r.buf.Write(b[:n])
				r.mu.Unlock()
				once.Do(func() {
					if r.onFirst != nil {
						r.onFirst()
					}
					close(r.first)
				})
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { f.Close(); <-r.done })
	return r
}

// content is what was read: everything the command wrote, once it has
// ended. A sentinel written after it marks the end of what it wrote.
func (r *fifoReader) content() string {
	const sentinel = "\x00end of the command's writes\n"
	if _, err := r.f.Write([]byte(sentinel)); err != nil {
		return ""
	}
	for {
		r.mu.Lock()
		s, ok := strings.CutSuffix(r.buf.String(), sentinel)
		r.mu.Unlock()
		if ok {
			return s
		}
		select {
		case <-r.done:
			return s
		case <-time.After(time.Millisecond):
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// commentService is a pull request's GitHub API for --comment, in the
// step's environment (setenv): a working one (ok), whose comments it
// returns, or one that answers 500 to everything.
func commentService(t *testing.T, dir string, ok bool, setenv func(k, v string)) func() []string {
	t.Helper()
	if ok {
		gh := prcommenttest.NewGitHub(t, "ghs_oracleToken0123456789")
		gh.GitHubEnv(setenv, dir)
		return func() []string {
			var bodies []string
			for _, c := range gh.Comments() {
				bodies = append(bodies, c.Body)
			}
			return bodies
		}
	}
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"upstream failed"}`, http.StatusInternalServerError)
	}))
	t.Cleanup(broken.Close)
	gh := prcommenttest.NewGitHub(t, "ghs_oracleToken0123456789")
	gh.GitHubEnv(setenv, dir)
	setenv("GITHUB_API_URL", broken.URL)
	return func() []string { return nil }
}
