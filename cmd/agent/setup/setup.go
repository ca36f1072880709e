// Package setup implements `testctl agent setup`: the instructions each
// coding agent reads, written at the repository's root.
package setup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/exitcode"
)

// Options are the inputs of `agent setup`.
type Options struct {
	Agents []string
	Print  bool
	Remove bool
	Check  bool
	// Dir is the working directory; "" is the process's.
	Dir string
	// Tree is the command tree the instructions are generated from.
	Tree *cobra.Command
}

// NewCmdSetup builds `testctl agent setup`.
func NewCmdSetup(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "setup --agent claude|codex|cursor|copilot|all",
		Short: "Write the instructions a coding agent reads about testctl",
		Long: `Write, at the root of the git repository (else in the working directory; stderr
says which), the file each coding agent reads, generated from this command
tree: when to reach for testctl, the loop (start and wait, read the story,
logs, fix, rerun what failed), the exit codes, the JSON documents, the
sandbox, and 'testctl mcp'. Nothing in them changes between two runs of the
same testctl: no version, no date.

  claude   .claude/skills/testctl/SKILL.md (a skill, with its front matter)
  codex    a section of AGENTS.md
  cursor   .cursor/rules/testctl.mdc (a rule, with its front matter)
  copilot  a section of .github/copilot-instructions.md

testctl's text sits between <!-- testctl:begin --> and <!-- testctl:end -->:
setup replaces it in place (or appends it), --remove deletes it, and the
file too only when nothing else is left in it. Text outside the section is
never changed. --check exits 1 when a file is missing or differs from what
setup would write, naming it.`,
		Example: `  # Instructions for Claude Code and Codex
  testctl agent setup --agent claude --agent codex

  # Every agent; in CI, fail when they are out of date
  testctl agent setup --agent all
  testctl agent setup --agent all --check

  # See what would be written, or take it out again
  testctl agent setup --agent cursor --print
  testctl agent setup --agent copilot --remove`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validate(opts); err != nil {
				return err
			}
			opts.Tree = cmd.Root()
			return cmdutil.Dispatch(cmd.Context(), f, opts, runF, setupRun)
		},
	}
	cmd.Flags().StringSliceVar(&opts.Agents, "agent", nil, "agent to write for: claude, codex, cursor, copilot or all (repeatable)")
	cmd.Flags().BoolVar(&opts.Print, "print", false, "print what would be written on stdout, writing nothing")
	cmd.Flags().BoolVar(&opts.Remove, "remove", false, "remove testctl's section (and a file holding nothing else)")
	cmd.Flags().BoolVar(&opts.Check, "check", false, "exit 1 when a file is missing or differs from what setup would write")
	_ = cmd.RegisterFlagCompletionFunc("agent", completion.CompleteEnum(append(agentNames(), "all")...))
	return cmd
}

func validate(opts *Options) error {
	if len(opts.Agents) == 0 {
		return exitcode.FlagErrorf("name the agents to write for: --agent claude|codex|cursor|copilot|all")
	}
	chosen := 0
	for _, b := range []bool{opts.Print, opts.Remove, opts.Check} {
		if b {
			chosen++
		}
	}
	if chosen > 1 {
		return exitcode.FlagErrorf("--print, --remove and --check exclude each other: give one of them")
	}
	var names []string
	for _, a := range opts.Agents {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == "all":
			names = append(names, agentNames()...)
		case slices.Contains(agentNames(), a):
			names = append(names, a)
		default:
			return exitcode.FlagErrorf("invalid --agent %q: want claude, codex, cursor, copilot or all", a)
		}
	}
	// In the order of the table, each once: the output is the same whatever
	// the order of the flags.
	opts.Agents = slices.DeleteFunc(agentNames(), func(a string) bool { return !slices.Contains(names, a) })
	return nil
}

func setupRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	ios := f.IOStreams
	body := guide(opts.Tree)
	if opts.Print {
		for i, a := range opts.Agents {
			t := targetOf(a)
			if len(opts.Agents) > 1 {
				if i > 0 {
					fmt.Fprintln(ios.Out)
				}
				fmt.Fprintf(ios.Out, "==> %s <==\n", t.path)
			}
			fmt.Fprint(ios.Out, string(t.apply(nil, false, body)))
		}
		return nil
	}
	root, how, err := repoRoot(ctx, opts.Dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(ios.ErrOut, "%s %s\n", how, root)
	var stale, staleAgents []string
	for _, a := range opts.Agents {
		t := targetOf(a)
		path := filepath.Join(root, filepath.FromSlash(t.path))
		old, err := os.ReadFile(path)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return localError("reading %s: %w", t.path, err)
		}
		switch {
		case opts.Check:
			if why := t.stale(old, exists, body); why != "" {
				stale = append(stale, fmt.Sprintf("%s (%s)", t.path, why))
				staleAgents = append(staleAgents, t.agent)
			}
		case opts.Remove:
			if err := t.remove(path, old, exists, ios.ErrOut); err != nil {
				return err
			}
		default:
			if _, _, ok := section(old); exists && !ok && hasMarker(old) {
				return localError("%s has %s without %s: mend it by hand, then run setup again", t.path, beginMarker, endMarker)
			}
			next := t.apply(old, exists, body)
			if exists && string(next) == string(old) {
				fmt.Fprintf(ios.ErrOut, "%s is up to date\n", t.path)
				continue
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return localError("writing %s: %w", t.path, err)
			}
			if err := atomicfile.Write(path, next, 0o644); err != nil {
				return localError("writing %s: %w", t.path, err)
			}
			fmt.Fprintf(ios.ErrOut, "Wrote %s (%s)\n", t.path, t.agent)
		}
	}
	if len(stale) > 0 {
		fmt.Fprintf(ios.ErrOut, "out of date (run `testctl agent setup --agent %s`):\n", strings.Join(staleAgents, " --agent "))
		for _, s := range stale {
			fmt.Fprintf(ios.ErrOut, "  %s\n", s)
		}
		return &exitcode.Error{Code: exitcode.Failed}
	}
	if opts.Check {
		fmt.Fprintf(ios.ErrOut, "up to date: %s\n", strings.Join(opts.Agents, ", "))
	}
	return nil
}

// repoRoot is the top of the git repository holding dir, else dir itself,
// with the words that say which.
func repoRoot(ctx context.Context, dir string) (root, how string, err error) {
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return "", "", localError("finding the working directory: %w", err)
		}
	}
	git := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel")
	git.Dir = dir
	if out, err := git.Output(); err == nil {
		if top := strings.TrimSpace(string(out)); top != "" {
			return top, "At the root of the git repository", nil
		}
	}
	return dir, "Not in a git repository: in the working directory", nil
}

func localError(format string, args ...any) error {
	return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf(format, args...)}
}
