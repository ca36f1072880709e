package config

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/shellwords"
)

// SetOptions are the inputs of `config set`.
type SetOptions struct {
	Key, Value string
}

// NewCmdSet builds `config set KEY VALUE`.
func NewCmdSet(f *cmdutil.Factory, runF func(*SetOptions) error) *cobra.Command {
	opts := &SetOptions{}
	return &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Store a setting in the active profile",
		Long: `Store a setting in the active profile of the config file (created with mode 0600).
current_profile is stored at the top level and picks the profile later commands use.
api_key cannot be set here: use ` + "`testctl auth login`" + `.`,
		Example: `  testctl config set base_url https://api.example.com
  testctl config set project proj-shop_a1b2 --profile staging
  testctl config set current_profile staging`,
		Args:              cmdutil.ExactArgs(2, "a key and a value", "testctl config set base_url https://api.example.com"),
		ValidArgsFunction: completeKeys,
		PreRunE: func(_ *cobra.Command, args []string) error {
			opts.Key, opts.Value = args[0], args[1]
			if opts.Key == config.KeyAPIKey {
				return exitcode.FlagErrorf("api_key is stored only by `testctl auth login`, which reads it from standard input " +
					"or a hidden prompt: a key typed as an argument ends up in shell history and process lists")
			}
			if err := checkKey(opts.Key); err != nil {
				return err
			}
			if s, _ := config.Lookup(opts.Key); s.Validate != nil {
				if err := s.Validate(opts.Value); err != nil {
					return exitcode.FlagErrorf("invalid %s: %v", opts.Key, err)
				}
			}
			return nil
		},
		RunE: cmdutil.RunE(f, opts, runF, setRun),
	}
}

func setRun(ctx context.Context, f *cmdutil.Factory, opts *SetOptions) error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	// Switching to a profile the file does not hold would succeed here and
	// make the next command fail on settings it cannot find.
	if opts.Key == config.KeyCurrentProfile && config.ProfileKey(opts.Value) != config.DefaultProfile && !slices.Contains(cfg.ProfileNames(), config.ProfileKey(opts.Value)) {
		known := "none yet"
		if names := cfg.ProfileNames(); len(names) > 0 {
			known = strings.Join(names, ", ")
		}
		return exitcode.FlagErrorf("no profile %q in %s (known: %s): create it first, e.g. `testctl config set base_url https://… --profile %s` or `testctl auth login --profile %s`",
			opts.Value, cfg.Path(), known, shellwords.Quote(opts.Value), shellwords.Quote(opts.Value))
	}
	if err := cfg.Set(ctx, opts.Key, opts.Value); err != nil {
		return err
	}
	ios := f.IOStreams
	where := profileNote(cfg)
	if opts.Key == config.KeyCurrentProfile {
		where = cfg.Path()
	}
	fmt.Fprintf(ios.ErrOut, "%s Set %s to %s (%s)\n", ios.ErrStyles().SuccessIcon(), opts.Key, opts.Value, where)
	if s, _ := config.Lookup(opts.Key); s.Env != "" && f.Getenv(s.Env) != "" {
		fmt.Fprintf(ios.ErrOut, "%s %s is set in the environment and takes precedence over the config file\n", ios.ErrStyles().WarningIcon(), s.Env)
	}
	return nil
}
