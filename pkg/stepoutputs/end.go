package stepoutputs

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/termtext"
)

// ExitCodeFileEnv names a file that gets the exit code when testctl ends,
// for a CI step that execs testctl (so that the runner's SIGINT and SIGTERM
// reach it) and leaves no shell behind to see the code: a later step reads
// it from the file. VerdictFileEnv names one that gets what the code means
// in a word (verdict.Word). Documented for any such step; our own Action
// and component write their outputs through ci-step instead.
const (
	ExitCodeFileEnv = "TESTCTL_EXIT_CODE_FILE"
	VerdictFileEnv  = "TESTCTL_VERDICT_FILE"
)

// Sink is one file of the step's end that states the exit code: probed
// before any report states a code, written with the code settled.
type Sink struct {
	// Name says what it is, for the error of one that failed.
	Name  string
	Probe func() error
	Write func(code int) error
}

// EndFiles says where the files of a step's end go; "" writes none.
type EndFiles struct {
	// Dotenv is --dotenv; GitHubOutput is $GITHUB_OUTPUT under GitHub
	// Actions, for a command that gives a verdict.
	Dotenv, GitHubOutput string
	// ExitCodeFile and VerdictFile are $TESTCTL_EXIT_CODE_FILE and
	// $TESTCTL_VERDICT_FILE, for any command.
	ExitCodeFile, VerdictFile string
	// Word is what a code means in a word (verdict.Word, with whether the
	// command only started runs).
	Word func(code int) string
	// Warn gets the warning of a dotenv report cut to GitLab's size.
	Warn io.Writer
}

// Sinks are the files of the step's end asked for, in the order they are
// written: the dotenv report, the GitHub outputs exit-code and verdict
// (with junit and html, once written), the exit code file, the verdict
// file. Each is written once: MarkEnded tells the process's end that they
// were.
func (s *Step) Sinks(e EndFiles) []Sink {
	var sinks []Sink
	if e.Dotenv != "" {
		path := e.Dotenv
		sinks = append(sinks, Sink{Name: "the dotenv report",
			Probe: func() error { return probe(atomicfile.ProbeWrite(path), "the dotenv report") },
			Write: func(code int) error {
				cut, err := s.WriteDotenv(path, End{Code: code, Word: e.Word(code)})
				if err != nil {
					return fmt.Errorf("writing the dotenv report: %w", err)
				}
				if cut > 0 && e.Warn != nil {
					fmt.Fprintf(e.Warn, "warning: the dotenv report %s names %s fewer: GitLab refuses one of %d bytes or more (%s counts them all)\n",
						path, termtext.Plural(cut, "run"), DotenvBudget+1024, DotenvRunCount)
				}
				return nil
			}})
	}
	if path := e.GitHubOutput; path != "" {
		sinks = append(sinks, Sink{Name: "the step outputs exit-code and verdict",
			Probe: func() error { return probe(atomicfile.ProbeAppend(path), "the step outputs exit-code and verdict") },
			Write: func(code int) error {
				if err := s.AppendGitHub(path, End{Code: code, Word: e.Word(code)}); err != nil {
					return fmt.Errorf("writing the step outputs exit-code and verdict: %w", err)
				}
				return nil
			}})
	}
	for _, file := range []struct {
		env, path string
		content   func(int) string
	}{{ExitCodeFileEnv, e.ExitCodeFile, strconv.Itoa}, {VerdictFileEnv, e.VerdictFile, e.Word}} {
		path := file.path
		if path == "" {
			continue
		}
		what := "the exit code to " + file.env
		sinks = append(sinks, Sink{Name: what,
			Probe: func() error { return probe(atomicfile.ProbeWrite(path), what) },
			// Replaced whole, never opened: a named pipe there would block
			// the open where no signal reaches it.
			Write: func(code int) error {
				if err := atomicfile.Write(path, []byte(file.content(code)+"\n"), 0o644); err != nil {
					return fmt.Errorf("writing %s: %w", what, err)
				}
				return nil
			}})
	}
	return sinks
}

func probe(err error, what string) error {
	if err != nil {
		return fmt.Errorf("writing %s: %w", what, err)
	}
	return nil
}

// FilesOf are the files of the step's end the environment names: the
// GitHub outputs when verdict (the command gives a verdict) and the job
// runs under GitHub Actions, the exit code files always.
func FilesOf(getenv func(string) string, verdict bool) EndFiles {
	e := EndFiles{ExitCodeFile: getenv(ExitCodeFileEnv), VerdictFile: getenv(VerdictFileEnv)}
	if verdict && getenv("GITHUB_ACTIONS") == "true" {
		e.GitHubOutput = getenv("GITHUB_OUTPUT")
	}
	return e
}

// MarkEnded notes that the files of the step's end were written, by the
// reports of a verdict: the process's end writes them no second time.
func (s *Step) MarkEnded() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = true
}

// Ended reports whether MarkEnded was called.
func (s *Step) Ended() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}

type stepKey struct{}

// NewContext is ctx carrying step: the command line that runs on it notes
// its runs and reports there, and its end writes them. Each command line
// has its own (a tool call of `testctl mcp` too): the factory, shared by
// them, holds none.
func NewContext(ctx context.Context, step *Step) context.Context {
	return context.WithValue(ctx, stepKey{}, step)
}

// FromContext is the Step of the command line ctx runs; nil (which notes
// nothing) outside one.
func FromContext(ctx context.Context) *Step {
	s, _ := ctx.Value(stepKey{}).(*Step)
	return s
}
