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
type StatusOptions struct {
	NoVerify bool
}

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
	// KeyCheck is what the service said of the key: accepted, rejected,
	// or skipped (--no-verify, or no base URL to ask); empty without a key.
	KeyCheck string `json:"keyCheck,omitempty"`
}

// The values of Status.KeyCheck.
const (
	keyAccepted = "accepted"
	keyRejected = "rejected"
	keySkipped  = "skipped"
)

// NewCmdStatus builds `auth status`.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show which key is in use and where it comes from",
		Long: `Show where the API key comes from (flag, environment, the config file's
profile or the OS keyring) and its last four characters, with the base URL and
project in use, and check the key with one cheap request to the service.
Exits 4 when no key is configured, the keyring cannot be read or the service
rejects the key, 6 when the service could not be asked (--no-verify skips the
check).`,
		Example: `  testctl auth status
  testctl auth status --no-verify -o json --jq .keySource`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(f, opts, runF, statusRun),
	}
	cmd.Flags().BoolVar(&opts.NoVerify, "no-verify", false, "show where the key comes from without asking the service whether it accepts it")
	return cmd
}

func statusRun(ctx context.Context, f *cmdutil.Factory, opts *StatusOptions) error {
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
	// The key is checked as `gh auth status` does: a key that is set but
	// refused must not show a tick.
	var checkErr error
	orgScoped := false
	if key != "" {
		switch {
		case opts.NoVerify || base == "":
			st.KeyCheck = keySkipped
		default:
			orgScoped, checkErr = checkKey(ctx, f, key)
			st.KeyCheck = keyAccepted
			if _, ok := rejected(checkErr); ok {
				st.KeyCheck = keyRejected
			} else if checkErr != nil {
				st.KeyCheck = ""
			}
		}
	}
	ios := f.IOStreams
	if out.IsStructured() {
		if err := output.Print(ios.Out, out, st); err != nil {
			return err
		}
	} else {
		s := ios.Styles()
		switch {
		case key == "":
			fmt.Fprintf(ios.Out, "%s No API key configured (profile %q)\n", s.FailureIcon(), st.Profile)
		case st.KeyCheck == keyAccepted:
			fmt.Fprintf(ios.Out, "%s API key %s from %s, accepted by the service\n", s.SuccessIcon(), configcmd.MaskKey(key), describeSource(keySrc, st.Profile))
		case st.KeyCheck == keySkipped:
			why := "not checked (--no-verify)"
			if !opts.NoVerify {
				why = "not checked: no base URL to ask"
			}
			fmt.Fprintf(ios.Out, "%s API key %s from %s, %s\n", s.WarningIcon(), configcmd.MaskKey(key), describeSource(keySrc, st.Profile), why)
		default:
			fmt.Fprintf(ios.Out, "%s API key %s from %s\n", s.FailureIcon(), configcmd.MaskKey(key), describeSource(keySrc, st.Profile))
		}
		fmt.Fprintf(ios.Out, "  Base URL: %s\n", orNone(base, baseSrc))
		fmt.Fprintf(ios.Out, "  Project:  %s\n", orNone(st.Project, ""))
		fmt.Fprintf(ios.Out, "  Profile:  %s\n", st.Profile)
		fmt.Fprintf(ios.Out, "  Config:   %s\n", orNone(st.ConfigFile, ""))
	}
	if key == "" {
		return &exitcode.Error{Code: exitcode.Auth, Err: fmt.Errorf("no API key: run `testctl auth login`, or set TESTCTL_API_KEY")}
	}
	if he, ok := rejected(checkErr); ok {
		return &exitcode.AuthError{Err: fmt.Errorf("the service rejected the key from %s (HTTP %d%s): %s", describeSource(keySrc, st.Profile), he.StatusCode, messageSuffix(he), fixKey(keySrc))}
	}
	if checkErr != nil {
		return fmt.Errorf("could not check the key (--no-verify skips the check): %w", checkErr)
	}
	if orgScoped && st.Project == "" {
		fmt.Fprintf(ios.ErrOut, "%s the key is organization-scoped: set a project with --project or `%s`\n", ios.ErrStyles().WarningIcon(), f.Globals.ConfigSetCommand("project", "proj_…"))
	}
	return nil
}

// fixKey says how to replace a refused key where it comes from: `auth
// login` stores a key below the flag and the environment, so it cannot
// fix a key from either.
func fixKey(src config.Source) string {
	switch src {
	case config.SourceEnv:
		return "fix TESTCTL_API_KEY, or unset it to use the key `testctl auth login` stores (the environment wins over it)"
	case config.SourceFlag:
		return "pass another --api-key"
	}
	return "store another with `testctl auth login`"
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
