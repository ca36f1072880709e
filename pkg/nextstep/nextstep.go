// Package nextstep holds the next steps a command suggests (what shows
// more, what reruns, what resumes a wait) and the renderer that words them
// for the reader of its output: the command line a person pastes into a
// shell, or, under the MCP server, the tool call an agent makes. A command
// states the step; the renderer carried on its context words it.
package nextstep

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/shellwords"
)

// Step is one next step: the testctl command line that takes it.
type Step struct {
	// Service are the global flags that chose the service, already shell
	// words (cmdutil.GlobalFlags.ServiceArgs), so that the line reaches
	// the same one.
	Service []string
	// Args are the words after the service flags, unquoted.
	Args []string
	// ForUser: only the person can take it (auth login), never an agent.
	ForUser bool
}

// Command is the step of the command line testctl args….
func Command(args ...string) Step { return Step{Args: args} }

// Wait is the step that waits on runs: their short ids as the service gave
// them, after "--" when one would read as a flag (see
// shellwords.WaitCommand).
func Wait(service, ids []string) Step {
	args := []string{"run", "wait"}
	if slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(shellwords.Word(id), "-") }) {
		args = append(args, "--")
	}
	return Step{Service: service, Args: append(args, ids...)}
}

// Renderer words the steps of one command's output for its reader.
type Renderer interface {
	// Step is s as its reader takes it, on a line of its own; "" leaves
	// it out (it was suggested already).
	Step(s Step) string
	// Inline is s within a sentence, never left out.
	Inline(s Step) string
	// Usage points to the usage of the command at path (cobra's
	// CommandPath) after a usage error; "" says nothing.
	Usage(path string) string
}

// Shell words steps for a person at a shell: the command line, each word
// quoted as a POSIX shell needs.
type Shell struct{}

func (Shell) Step(s Step) string {
	words := slices.Concat([]string{"testctl"}, s.Service)
	for _, a := range s.Args {
		words = append(words, shellwords.Word(a))
	}
	return strings.Join(words, " ")
}

// Inline is the command line in backquotes.
func (sh Shell) Inline(s Step) string { return "`" + sh.Step(s) + "`" }

func (Shell) Usage(path string) string { return fmt.Sprintf("Run '%s --help' for usage.", path) }

// Steps words several steps, leaving out those r leaves out.
func Steps(r Renderer, steps []Step) []string {
	var out []string
	for _, s := range steps {
		if line := r.Step(s); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// Worded is an error whose message names steps: Error words them for a
// shell; where it is printed, Worded words them for the reader.
type Worded interface {
	error
	Worded(r Renderer) string
}

type rendererKey struct{}

// With is ctx carrying r, for the commands run on it.
func With(ctx context.Context, r Renderer) context.Context {
	return context.WithValue(ctx, rendererKey{}, r)
}

// From is the renderer ctx carries; Shell when it carries none.
func From(ctx context.Context) Renderer {
	if ctx != nil {
		if r, ok := ctx.Value(rendererKey{}).(Renderer); ok && r != nil {
			return r
		}
	}
	return Shell{}
}

// Or is r, or Shell when r is nil.
func Or(r Renderer) Renderer {
	if r == nil {
		return Shell{}
	}
	return r
}
