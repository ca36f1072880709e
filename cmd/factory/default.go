// Package factory wires the real dependencies of every command.
package factory

import (
	"cmp"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/agentenv"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/keyring"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/sandbox"
	"github.com/testctl/testctl/pkg/termtext"
)

// Options replace the real world in tests.
type Options struct {
	IOStreams *iostreams.IOStreams
	LookupEnv func(string) (string, bool)
	Clock     clock.Clock
	// Transport, when set, carries every HTTP request (tests).
	Transport http.RoundTripper
	// Keyring stands in for the OS keyring (tests); nil is the real one.
	Keyring keyring.Backend
	// Sandbox configures the emulator that --sandbox starts; its Clock
	// defaults to the factory's so a fake clock drives both sides.
	Sandbox sandbox.Options
}

// ProcessOptions are the real world's: a --sandbox of this process gives
// the runs it starts ids of their own, so the runs of two commands never
// share one (tests pass fixed options and keep theirs reproducible).
func ProcessOptions() Options {
	return Options{Sandbox: sandbox.Options{IDSeed: sandbox.ProcessIDSeed()}}
}

// New builds the factory and a cleanup function that stops what it started.
func New(version string, opts Options) (*cmdutil.Factory, func()) {
	opts.IOStreams = cmp.Or(opts.IOStreams, iostreams.System())
	opts.Clock = cmp.Or(opts.Clock, clock.Clock(clock.Real{}))
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	termName, _ := opts.LookupEnv("TERM")
	columns, _ := opts.LookupEnv("COLUMNS")
	opts.IOStreams.SetTerminalEnv(termName, columns)
	if v, _ := opts.LookupEnv("GITHUB_ACTIONS"); v == "true" {
		// Service text must not run workflow commands in the step's log.
		opts.IOStreams.GuardWorkflowCommands()
	}
	// Under a coding agent a pseudo-terminal has nobody watching it: no
	// redraws, no colour, no prompt waiting for a key nobody types.
	agent, envErr := agentenv.Detect(opts.LookupEnv)
	opts.IOStreams.SetNotTerminal(agent || envErr != nil)
	f := &cmdutil.Factory{
		AppVersion: version,
		IOStreams:  opts.IOStreams,
		Clock:      opts.Clock,
		LookupEnv:  opts.LookupEnv,
		Globals:    &cmdutil.GlobalFlags{EnvError: envErr},
	}
	w := &wiring{f: f, opts: opts}
	w.config = sync.OnceValues(w.loadConfig)
	f.Config = w.config
	f.APIClient = func() (*api.Client, error) { return w.client(true) }
	f.PublicAPIClient = func() (*api.Client, error) { return w.client(false) }
	f.Output = w.output
	f.SandboxPlans = sandboxPlans
	return f, w.cleanup
}

// sandboxPlans are the emulator's fixture plans, read only when a command
// names them.
func sandboxPlans() []cmdutil.SandboxPlan {
	ids := sandbox.PlanIDs()
	plans := make([]cmdutil.SandboxPlan, len(ids))
	for i, id := range ids {
		plans[i] = cmdutil.SandboxPlan{ShortID: id, Name: sandbox.PlanName(id)}
	}
	return plans
}

type wiring struct {
	f    *cmdutil.Factory
	opts Options

	config  func() (*config.Config, error) // loadConfig, once
	sandbox *sandbox.Instance

	// tr is the one transport of the command's clients, made on first use.
	trMu sync.Mutex
	tr   *http.Transport
}

func (w *wiring) loadConfig() (*config.Config, error) {
	store, err := w.keyring()
	if err != nil {
		return nil, err
	}
	lockWait, err := config.ParseLockTimeout(w.f.Getenv("TESTCTL_CONFIG_LOCK_TIMEOUT"))
	if err != nil {
		return nil, &exitcode.UsageError{Err: err}
	}
	cfg, err := config.Load(config.Options{
		Flags: w.f.Globals.FlagSet, LookupEnv: w.opts.LookupEnv, Warn: w.f.IOStreams.ErrOut, Keyring: store,
		LockWait: lockWait, Command: w.f.Command, BrokenFileOK: w.f.Globals.Sandbox,
	})
	if err != nil {
		return nil, err // a *config.FileError: exit 8
	}
	if w.f.Globals.Sandbox {
		err = w.startSandbox(cfg)
	}
	return cfg, err
}

// keyring is the OS keyring (or the test's), each call bounded by
// TESTCTL_KEYRING_TIMEOUT (a hidden setting: 3s unless a slow keyring needs
// more). The real one is asked only where it can answer: on Linux, with a
// D-Bus session.
func (w *wiring) keyring() (*keyring.Store, error) {
	timeout, err := keyring.ParseTimeout(w.f.Getenv("TESTCTL_KEYRING_TIMEOUT"))
	if err != nil {
		return nil, &exitcode.UsageError{Err: err}
	}
	return keyring.New(w.opts.Keyring, timeout, w.opts.LookupEnv), nil
}

// startSandbox points this invocation at an emulator on a free loopback
// port. An explicit --api-key or --project still wins, so the organization
// key can be tried too.
func (w *wiring) startSandbox(cfg *config.Config) error {
	so := w.opts.Sandbox
	so.Clock = cmp.Or(so.Clock, w.f.Clock)
	// Every --sandbox has pln-baseline_sandbox's runs on main, so that
	// --baseline main can be tried (docs/sandbox.md).
	so.BaselineHistory = true
	inst, err := sandbox.Listen("127.0.0.1:0", so)
	if err != nil {
		// No loopback port to listen on is a local failure, not the
		// service's: exit 8, as `testctl sandbox --addr` does.
		return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("starting the embedded sandbox: %w", err)}
	}
	w.sandbox = inst
	cfg.Override(config.KeyBaseURL, inst.BaseURL)
	cfg.Override(config.KeyLegacyBaseURL, inst.LegacyBaseURL)
	if _, src := cfg.GetWithSource(config.KeyAPIKey); src != config.SourceFlag {
		cfg.Override(config.KeyAPIKey, sandbox.ProjectKey)
	}
	if _, src := cfg.GetWithSource(config.KeyProject); src != config.SourceFlag {
		cfg.Override(config.KeyProject, "")
	}
	return nil
}

func (w *wiring) cleanup() {
	w.trMu.Lock()
	if w.tr != nil {
		// A kept-alive connection left open would outlive the command:
		// a served sandbox or test server waits for it to close.
		w.tr.CloseIdleConnections()
	}
	w.trMu.Unlock()
	if w.sandbox != nil {
		_ = w.sandbox.Close()
	}
}

func (w *wiring) client(needKey bool) (*api.Client, error) {
	cfg, err := w.config()
	if err != nil {
		return nil, err
	}
	base := cfg.Get(config.KeyBaseURL)
	if base == "" {
		return nil, w.noBaseURL(cfg.Profile())
	}
	if err := config.ValidateBaseURL(base); err != nil {
		return nil, exitcode.UsageErrorf("invalid base URL (from %s): %v", cfg.Origin(config.KeyBaseURL), err)
	}
	legacy := cfg.Get(config.KeyLegacyBaseURL)
	if legacy != "" {
		if err := config.ValidateBaseURL(legacy); err != nil {
			return nil, exitcode.UsageErrorf("invalid legacy base URL (from %s): %v", cfg.Origin(config.KeyLegacyBaseURL), err)
		}
	}
	// Only a client that needs the key asks the keyring for it: not a dry
	// run, nor `auth login`'s check of a new key.
	key := cfg.Get(config.KeyAPIKey)
	if needKey {
		if key, _, err = cfg.APIKey(); err != nil {
			return nil, err
		}
	}
	// A key given with white space around it (pasted so into a variable
	// or the config file) goes out trimmed anyway, as a header's value is:
	// trimmed here, it is also the key an answer quoting it is redacted of.
	key = strings.TrimSpace(key)
	if needKey && key == "" {
		return nil, &exitcode.AuthError{Err: noKeyError{}}
	}
	project := cfg.Get(config.KeyProject)
	if project != "" {
		if err := config.ValidateProject(project); err != nil {
			return nil, exitcode.UsageErrorf("invalid project (from %s): %v", cfg.Origin(config.KeyProject), err)
		}
	}
	timeout, err := cfg.HTTPTimeout()
	if err != nil {
		return nil, &exitcode.UsageError{Err: err}
	}
	c := &api.Client{
		BaseURL:           base,
		LegacyBaseURL:     legacy,
		APIKey:            key,
		ProjectShortID:    project,
		AllowInsecureHTTP: w.f.Globals.AllowInsecureHTTP,
		HTTPClient:        &http.Client{Timeout: timeout, Transport: w.transport()},
		UserAgent:         api.UserAgent(w.f.AppVersion),
		Clock:             w.f.Clock,
		Retry:             api.DefaultRetryPolicy,
	}
	c.OnRetry = w.announceRetry
	if w.f.Globals.Debug || w.f.Getenv("TESTCTL_DEBUG") == "1" {
		c.Debug = w.f.IOStreams.ErrOut
	}
	return c, nil
}

// announceRetry says on stderr why a command pauses before a retry, so a
// long Retry-After never looks like a hang. The notes of concurrent
// requests (the pages --all fetches ahead, the runs several --plan start)
// stay whole lines: one Fprintf is one write, which stderr keeps whole.
func (w *wiring) announceRetry(p api.RetryPause) {
	ios := w.f.IOStreams
	fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.ErrStyles().Warning("warning:"), termtext.SanitizeLine(p.String()))
}

func (w *wiring) output() (output.Options, error) {
	cfg, err := w.config()
	if err != nil {
		return output.Options{}, err
	}
	raw, src := cfg.GetWithSource(config.KeyOutput)
	format, err := output.ParseFormat(raw)
	if err != nil {
		if src == config.SourceFlag {
			return output.Options{}, &exitcode.FlagError{Err: err} // it names --output and the valid values
		}
		return output.Options{}, exitcode.UsageErrorf("output format (from %s): %v", cfg.Origin(config.KeyOutput), err)
	}
	o := output.Options{Format: format, JQ: w.f.Globals.JQ, Terminal: w.f.IOStreams.IsStdoutTTY(),
		Chosen: src != config.SourceDefault && src != config.SourceNone}
	// --jq prints JSON, so it overrides a format from the environment or a
	// profile; a different -o on the same command line is a contradiction.
	if o.JQ != "" && src == config.SourceFlag && format != output.FormatJSON {
		return output.Options{}, exitcode.FlagErrorf("--jq prints JSON and cannot be combined with -o %s: drop one of them", format)
	}
	if err := o.Validate(); err != nil {
		return output.Options{}, &exitcode.FlagError{Err: err}
	}
	return o, nil
}

// transport is the tests' transport, else Go's default one, which speaks
// HTTP/2 to a service that offers it over TLS (one connection carries every
// request), and otherwise keeps enough HTTP/1.1 connections alive for the
// evidence's requests in flight (evidence.DefaultConcurrency) and the polls
// beside them (the default keeps two): the evidence of a failure is read in
// one wave, and over TLS a new connection per request would cost more than
// the request.
// besideEvidence is the connections kept for the requests that go on while
// the evidence is read: the polls of a wait, the run list of its reports.
const besideEvidence = 4

func (w *wiring) transport() http.RoundTripper {
	if w.opts.Transport != nil {
		return w.opts.Transport
	}
	w.trMu.Lock()
	defer w.trMu.Unlock()
	if w.tr == nil {
		w.tr = http.DefaultTransport.(*http.Transport).Clone()
		w.tr.MaxIdleConnsPerHost = evidence.DefaultConcurrency + besideEvidence
		w.tr.MaxConnsPerHost = evidence.DefaultConcurrency + besideEvidence
	}
	return w.tr
}

// noKeyError is a client that needs a key and has none: the fix is the
// user's, whoever reads it (under the MCP server, an agent).
type noKeyError struct{}

func (e noKeyError) Error() string { return e.Worded(nextstep.Shell{}) }

func (noKeyError) Worded(r nextstep.Renderer) string {
	return "no API key configured. Run " + r.Inline(nextstep.Step{Args: []string{"auth", "login"}, ForUser: true}) +
		", set TESTCTL_API_KEY, or pass --api-key (or try --sandbox)"
}
