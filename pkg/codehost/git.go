package codehost

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// GitFunc runs git with args in the current directory and returns its
// standard output. Tests replace it.
type GitFunc func(ctx context.Context, args ...string) (string, error)

// gitTimeout bounds all git calls of one detection: a hung credential
// helper or a huge repository on a network disk must not stall a CI step.
const gitTimeout = 5 * time.Second

var commitPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`) })

// RunGit is the real GitFunc. Only fixed arguments and validated commit
// hashes are passed, never anything secret, and git gets the environment
// without testctl's own variables: TESTCTL_API_KEY must not reach it, nor
// the hooks and helpers it may run. Prompts are switched off so git cannot
// wait for a password on a CI runner.
func RunGit(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "TESTCTL_") })
	cmd.Env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return strings.TrimSpace(stdout.String()), nil
}

// FromGit fills the empty fields of known from the local checkout. It
// asks git only for what is missing, and a field git cannot give (not a
// repository, detached HEAD, no remote) just stays empty: the caller names
// the flags still missing.
func FromGit(ctx context.Context, git GitFunc, known Meta) Meta {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	run := func(args ...string) string {
		out, err := git(ctx, args...)
		if err != nil {
			return ""
		}
		return out
	}
	c := known
	if c.Branch == "" {
		if b := run("rev-parse", "--abbrev-ref", "HEAD"); b != "HEAD" { // HEAD: detached
			c.Branch = b
		}
	}
	if c.Commit == "" {
		c.Commit = run("rev-parse", "HEAD")
	}
	if c.CommitMessage == "" {
		// The message of the commit being reported, which CI may have
		// named; a hash is the only caller-supplied argument and is checked
		// so that it cannot be read as an option.
		rev := "HEAD"
		if commitPattern().MatchString(c.Commit) {
			rev = c.Commit
		}
		if known.Commit == "" || rev != "HEAD" {
			c.CommitMessage = run("log", "-1", "--format=%B", rev, "--")
		}
	}
	if c.Actor == "" {
		c.Actor = run("config", "user.name")
		if c.Actor == "" {
			c.Actor = run("log", "-1", "--format=%an")
		}
	}
	if c.Repository == "" {
		c.Repository = RepositoryName(run("config", "--get", "remote.origin.url"))
	}
	return c
}

// Resolve gathers the metadata of --codehost: explicit flags first,
// then the CI service's variables, then local git. source says where the
// detected fields came from, for the user ("GitHub Actions", "local git",
// "GitHub Actions and local git", or "" when nothing was detected).
func Resolve(ctx context.Context, lookup func(string) (string, bool), git GitFunc, explicit Meta) (Meta, string) {
	provider, ci := DetectCI(lookup)
	c := explicit.Fill(ci)
	before := c
	c = FromGit(ctx, git, c)
	var sources []string
	if provider != "" && ci != (Meta{}) {
		sources = append(sources, provider)
	}
	if c != before {
		sources = append(sources, "local git")
	}
	return c, strings.Join(sources, " and ")
}
