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
	if c.Commit == "" {
		c.Commit = run("rev-parse", "HEAD")
	}
	// The commit being reported, which CI may have named; a hash is the
	// only caller-supplied argument and is checked so that it cannot be
	// read as an option.
	rev := "HEAD"
	if commitPattern().MatchString(c.Commit) {
		rev = c.Commit
	}
	// Only HEAD's own commit, or the one CI named, is described: never
	// HEAD's details for another commit.
	describable := known.Commit == "" || rev != "HEAD"
	if c.Branch == "" {
		if b := run("rev-parse", "--abbrev-ref", "HEAD"); b != "HEAD" { // HEAD: detached
			c.Branch = b
		} else if describable {
			// A detached HEAD (a tag's checkout) names its tag, a ref as a
			// branch is; the highest version when several point at it.
			c.Branch, _, _ = strings.Cut(run("tag", "--points-at", rev, "--sort=-v:refname"), "\n")
		}
	}
	if c.CommitMessage == "" && describable {
		c.CommitMessage = run("log", "-1", "--format=%B", rev, "--")
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

// Detection is what Resolve found, and what a message about a field it
// could not find needs to say.
type Detection struct {
	Meta Meta
	// Source says where the detected fields came from, for the user
	// ("GitHub Actions", "local git", "GitHub Actions and local git", or ""
	// when nothing was detected).
	Source string
	// CI is the CI service recognised ("" for none); InCI is true under
	// any CI service, recognised or only saying so with CI=true.
	CI   string
	InCI bool
	// Event is what started the pipeline, when the CI says so
	// (GITHUB_EVENT_NAME, GitLab's CI_PIPELINE_SOURCE).
	Event string
	// NoCheckout is true when a field is still missing and git found no
	// repository here: checking one out would give more.
	NoCheckout bool
}

// Resolve gathers the metadata of --codehost: explicit flags first,
// then the CI service's variables, then local git.
func Resolve(ctx context.Context, lookup func(string) (string, bool), git GitFunc, explicit Meta) Detection {
	provider, ci := DetectCI(lookup)
	c := explicit.Fill(ci)
	before := c
	// One bound for every git call of the detection, the probe below too.
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	c = FromGit(ctx, git, c)
	var sources []string
	if provider != "" && ci != (Meta{}) {
		sources = append(sources, provider)
	}
	if c != before {
		sources = append(sources, "local git")
	}
	d := Detection{Meta: c, Source: strings.Join(sources, " and "), CI: provider, InCI: provider != "" || ciVariableSet(lookup)}
	for _, k := range []string{"GITHUB_EVENT_NAME", "CI_PIPELINE_SOURCE"} {
		if v, ok := lookup(k); ok && d.Event == "" {
			d.Event = strings.TrimSpace(v)
		}
	}
	if len(c.MissingFlags()) > 0 {
		_, err := git(ctx, "rev-parse", "--git-dir")
		d.NoCheckout = err != nil && ctx.Err() == nil // a git that hung says nothing of the checkout
	}
	return d
}

// ciVariableSet reports whether CI says a CI service runs the command,
// as most set it (true, 1, or the service's name), short of false or 0.
func ciVariableSet(lookup func(string) (string, bool)) bool {
	v, _ := lookup("CI")
	v = strings.TrimSpace(v)
	return v != "" && !strings.EqualFold(v, "false") && v != "0"
}
