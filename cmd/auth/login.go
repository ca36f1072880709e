package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	configcmd "github.com/testctl/testctl/cmd/config"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/keyring"
)

// LoginOptions are the inputs of `auth login`.
type LoginOptions struct {
	NoVerify        bool
	InsecureStorage bool
}

// NewCmdLogin builds `auth login`.
func NewCmdLogin(f *cmdutil.Factory, runF func(*LoginOptions) error) *cobra.Command {
	opts := &LoginOptions{}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Store an API key in the OS keyring",
		Long: `Read an API key from standard input (when it is not a terminal) or from a
hidden prompt, check it with a cheap authenticated call, and store it in the
OS keyring (macOS Keychain, Windows Credential Manager, the Secret Service on
Linux) under the base URL and the active profile. --base-url,
--legacy-base-url and --project, when given as flags, are stored in the
profile of the config file, so that the profile reaches the service the key
was checked against. The key is never taken as an argument: arguments end up
in shell history and process lists.

Where no keyring can be reached (on Linux, no D-Bus session), or it fails or
does not answer, the key goes to the config file (mode 0600) instead, with a
warning; --insecure-storage chooses the file on purpose. A key an earlier
version kept in the file moves to the keyring.`,
		Example: `  # Interactive: paste at the hidden prompt
  testctl auth login

  # From a secret store or CI variable
  printf '%s' "$TESTCTL_KEY" | testctl auth login --profile ci

  # A profile for another service, stored with its base URL
  testctl auth login --profile staging --base-url https://staging-api.example.com`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				// Not echoed: the argument may well be the key itself.
				return exitcode.FlagErrorf("auth login takes no arguments: the key is read from standard input or a hidden prompt, " +
					"never from an argument, which would end up in shell history")
			}
			return nil
		},
		RunE: cmdutil.RunE(f, opts, runF, loginRun),
	}
	cmd.Flags().BoolVar(&opts.NoVerify, "no-verify", false, "store the key without checking it against the service")
	cmd.Flags().BoolVar(&opts.InsecureStorage, "insecure-storage", false, "store the key in the config file (mode 0600), not the OS keyring")
	return cmd
}

func loginRun(ctx context.Context, f *cmdutil.Factory, opts *LoginOptions) error {
	ios := f.IOStreams
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	// Asked before the key, not after it was typed and checked.
	if _, err := cfg.Location(); err != nil {
		return &config.FileError{Op: "writing", Err: err}
	}
	cfg.CreatesProfile()
	values, also, err := serviceFlags(cfg)
	if err != nil {
		return err
	}
	key, err := ios.ReadSecret(ctx, "Paste your API key: ") // trimmed
	if errors.Is(err, iostreams.ErrNoPrompt) {
		return exitcode.UsageErrorf("no prompt under a coding agent (TESTCTL_AGENT=0 allows one): pipe the key on standard input, " +
			"as in: printf '%%s' \"$KEY\" | testctl auth login")
	}
	if err != nil {
		return fmt.Errorf("reading the key: %w", err)
	}
	if key == "" {
		return exitcode.FlagErrorf("no API key given: pipe it on standard input or paste it at the prompt")
	}
	if strings.ContainsFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return exitcode.FlagErrorf("the API key contains spaces or control characters; copy it again")
	}
	if !opts.NoVerify {
		if err := verifyKey(ctx, f, key); err != nil {
			return err
		}
	}
	where, err := storeKey(ctx, ios, opts, cfg, key, values)
	if err != nil {
		return err
	}
	fmt.Fprintf(ios.ErrOut, "%s Logged in: key %s stored in %s\n", ios.ErrStyles().SuccessIcon(), configcmd.MaskKey(key), where)
	if also != "" {
		fmt.Fprintf(ios.ErrOut, "  %s stored in profile %q of the config file %s\n", also, cfg.Profile(), cfg.Path())
	}
	if _, src := cfg.GetWithSource(config.KeyAPIKey); src == config.SourceEnv || src == config.SourceFlag {
		fmt.Fprintf(ios.ErrOut, "%s a key from the %s still takes precedence over the stored one\n", ios.ErrStyles().WarningIcon(), src)
	}
	return nil
}

// storeKey keeps the key in the keyring and the service flags in the file,
// removing a key an earlier version kept there; or, with --insecure-storage
// or a keyring that cannot take it, all in the file, saying why.
func storeKey(ctx context.Context, ios *iostreams.IOStreams, opts *LoginOptions, cfg *config.Config, key string, values map[string]string) (where string, err error) {
	inFile := fmt.Sprintf("profile %q of the config file %s", cfg.Profile(), cfg.Path())
	if !opts.InsecureStorage {
		kerr := cfg.StoreKeyInKeyring(key)
		if kerr == nil {
			if err := cfg.Save(ctx, values, config.KeyAPIKey); err != nil {
				_, _ = cfg.RemoveKeyFromKeyring() // the key and its base URL together, or neither
				return "", err
			}
			return fmt.Sprintf("the OS keyring (%s)", cfg.KeyringEntry()), nil
		}
		why := kerr.Error()
		if ke := (*keyring.Error)(nil); errors.As(kerr, &ke) {
			why = "it " + ke.Reason()
		}
		fmt.Fprintf(ios.ErrOut, "%s the OS keyring cannot take the key (%s): storing it in the config file instead, "+
			"readable by anyone who can read that file; pass --insecure-storage to choose the file without this warning\n", ios.ErrStyles().WarningIcon(), why)
	}
	values[config.KeyAPIKey] = key
	return inFile, cfg.Save(ctx, values)
}

// serviceFlags are the settings that chose the service the key was checked
// against, when given as flags: stored beside the key, so that the next
// command with the same --profile reaches the same service. It also says
// which, for the success message.
func serviceFlags(cfg *config.Config) (values map[string]string, also string, err error) {
	values = map[string]string{}
	var names []string
	for _, key := range []string{config.KeyBaseURL, config.KeyLegacyBaseURL, config.KeyProject} {
		v, src := cfg.GetWithSource(key)
		if src != config.SourceFlag || v == "" {
			continue
		}
		if s, _ := config.Lookup(key); s.Validate != nil {
			if err := s.Validate(v); err != nil {
				return nil, "", exitcode.FlagErrorf("invalid --%s: %v", s.Flag, err)
			}
		}
		values[key] = v
		names = append(names, key)
	}
	return values, strings.Join(names, " and "), nil
}

// verifyKey checks the key before login stores it (see checkKey).
func verifyKey(ctx context.Context, f *cmdutil.Factory, key string) error {
	orgScoped, err := checkKey(ctx, f, key)
	if err == nil {
		if orgScoped {
			fmt.Fprintf(f.IOStreams.ErrOut, "%s the key looks organization-scoped: set a project with `%s`\n", f.IOStreams.ErrStyles().WarningIcon(), f.Globals.ConfigSetCommand("project", "proj_…"))
		}
		return nil
	}
	if he, ok := rejected(err); ok {
		return &exitcode.AuthError{Err: fmt.Errorf("the service rejected this key (HTTP %d%s); nothing was stored", he.StatusCode, messageSuffix(he))}
	}
	return fmt.Errorf("could not check the key (nothing was stored; --no-verify skips the check): %w", err)
}

// checkKey makes the cheapest authenticated call with key. A 400 means the
// key was accepted but needs a project (organization scope): orgScoped, no
// error. A key the service refuses is an error rejected recognises.
func checkKey(ctx context.Context, f *cmdutil.Factory, key string) (orgScoped bool, err error) {
	client, err := f.PublicAPIClient()
	if err != nil {
		return false, err
	}
	client.APIKey = key
	_, err = client.ListRuns(ctx, api.ListRunsOptions{Limit: 1})
	if he, ok := errors.AsType[*api.HTTPError](err); ok && he.StatusCode == http.StatusBadRequest {
		return true, nil
	}
	return false, err
}

// rejected reports whether err is the service refusing the key (401, 403).
func rejected(err error) (*api.HTTPError, bool) {
	he, ok := errors.AsType[*api.HTTPError](err)
	return he, ok && (he.StatusCode == http.StatusUnauthorized || he.StatusCode == http.StatusForbidden)
}

func messageSuffix(he *api.HTTPError) string {
	if he.Message == "" {
		return ""
	}
	return ": " + he.Message
}
