package auth

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	configcmd "github.com/testctl/testctl/cmd/config"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/output"
)

// StatusOptions are the inputs of `auth status`.
type StatusOptions struct{}

// Status is what `auth status` reports, also its JSON shape.
type Status struct {
	Profile       string `json:"profile"`
	KeyConfigured bool   `json:"keyConfigured"`
	KeySource     string `json:"keySource"`
	KeyLastFour   string `json:"keyLastFour,omitempty"`
	BaseURL       string `json:"baseUrl"`
	BaseURLSource string `json:"baseUrlSource"`
	Project       string `json:"project,omitempty"`
	ConfigFile    string `json:"configFile"`
}

// NewCmdStatus builds `auth status`.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{}
	return &cobra.Command{
		Use:   "status",
		Short: "Show which key is in use and where it comes from",
		Long: `Show where the API key comes from (flag, environment, the config file's
profile or the OS keyring) and its last four characters, with the base URL and
project in use. Exits 4 when no key is configured or the keyring cannot be
read.`,
		Example: `  testctl auth status
  testctl auth status -o json --jq .keySource`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(f, opts, runF, statusRun),
	}
}

func statusRun(_ context.Context, f *cmdutil.Factory, opts *StatusOptions) error {
	cfg, out, err := f.ConfigAndOutput()
	if err != nil {
		return err
	}
	key, keySrc, err := cfg.APIKey()
	if err != nil {
		return err
	}
	base, baseSrc := cfg.GetWithSource(config.KeyBaseURL)
	st := Status{
		Profile: cfg.Profile(), KeyConfigured: key != "", KeySource: string(keySrc),
		BaseURL: base, BaseURLSource: string(baseSrc), Project: cfg.Get(config.KeyProject), ConfigFile: cfg.Path(),
		KeyLastFour: strings.TrimPrefix(configcmd.MaskKey(key), "****"),
	}
	ios := f.IOStreams
	if out.IsStructured() {
		if err := output.Print(ios.Out, out, st); err != nil {
			return err
		}
	} else {
		s := ios.Styles()
		if key == "" {
			fmt.Fprintf(ios.Out, "%s No API key configured (profile %q)\n", s.FailureIcon(), st.Profile)
		} else {
			fmt.Fprintf(ios.Out, "%s API key %s from %s\n", s.SuccessIcon(), configcmd.MaskKey(key), describeSource(keySrc, st.Profile))
		}
		fmt.Fprintf(ios.Out, "  Base URL: %s\n", orNone(base, baseSrc))
		fmt.Fprintf(ios.Out, "  Project:  %s\n", orNone(st.Project, ""))
		fmt.Fprintf(ios.Out, "  Profile:  %s\n", st.Profile)
		fmt.Fprintf(ios.Out, "  Config:   %s\n", orNone(st.ConfigFile, ""))
	}
	if key == "" {
		return &exitcode.Error{Code: exitcode.Auth, Err: fmt.Errorf("no API key: run `testctl auth login`, or set TESTCTL_API_KEY")}
	}
	return nil
}

func describeSource(src config.Source, profile string) string {
	switch src {
	case config.SourceEnv:
		return "the environment (TESTCTL_API_KEY)"
	case config.SourceFlag:
		return "the --api-key flag"
	case config.SourceProfile:
		return fmt.Sprintf("profile %q of the config file", profile)
	case config.SourceKeyring:
		return fmt.Sprintf("the OS keyring (profile %q)", profile)
	}
	return string(src)
}

func orNone(v string, src config.Source) string {
	if v == "" {
		return "(not set)"
	}
	if src != "" {
		return fmt.Sprintf("%s (from %s)", v, src)
	}
	return v
}
