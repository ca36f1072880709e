package cmdutil

import (
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// Factory hands commands their dependencies. Everything costly is a lazy
// function, so commands that need no key (help, version, completion) never
// read the config file or build a client.
type Factory struct {
	AppVersion string
	IOStreams  *iostreams.IOStreams
	Clock      clock.Clock
	// LookupEnv reads the environment (CI detection, GitHub Actions files);
	// tests inject their own.
	LookupEnv func(string) (string, bool)
	// Globals holds the root command's global flags once they are parsed.
	Globals *GlobalFlags
	// Command is the command being run ("testctl config set"), once cobra
	// has found it: the config file's lock names it while it writes.
	Command string

	// Config resolves the settings (flag > env > profile > default).
	Config func() (*config.Config, error)
	// APIClient is a client with a base URL and a key; without either it
	// fails with exit 2 or 4 and says how to set them.
	APIClient func() (*api.Client, error)
	// PublicAPIClient needs a base URL but no key, for public endpoints.
	PublicAPIClient func() (*api.Client, error)
	// Output returns the validated -o / --jq choice.
	Output func() (output.Options, error)
	// SandboxPlans are the fixture plans of the emulator --sandbox starts,
	// in its order, for what names them without asking it (completion, the
	// hint of a plan not found): cmd/factory links the emulator, commands
	// do not.
	SandboxPlans func() []SandboxPlan
}

// SandboxPlan is one fixture plan of the emulator.
type SandboxPlan struct {
	ShortID string
	Name    string
}

// Getenv returns an environment variable's value or "".
func (f *Factory) Getenv(key string) string {
	v, _ := f.LookupEnv(key)
	return v
}

// OutputAndClient opens every command that asks the service and prints its
// answer. The -o/--jq choice is checked first, so a bad --jq fails as a
// usage error before a missing key is reported.
func (f *Factory) OutputAndClient() (output.Options, *api.Client, error) {
	out, err := f.Output()
	if err != nil {
		return out, nil, err
	}
	client, err := f.APIClient()
	return out, client, err
}

// ConfigAndOutput opens the commands that print settings.
func (f *Factory) ConfigAndOutput() (*config.Config, output.Options, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, output.Options{}, err
	}
	out, err := f.Output()
	return cfg, out, err
}

// BaseURL is the configured service address, for checks that depend on
// where the service is (a loopback service may be polled faster).
func (f *Factory) BaseURL() (string, error) {
	if f.Config == nil {
		return "", nil
	}
	cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	return cfg.Get(config.KeyBaseURL), nil
}
