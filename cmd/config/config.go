// Package config implements `testctl config`: reading and writing settings.
package config

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/exitcode"
)

// NewCmdConfig groups the config verbs.
func NewCmdConfig(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "config <command>",
		Short: "Read and write settings",
		Long: `Settings resolve, highest first: flag > environment > the active profile of the
config file > default; the API key last from the OS keyring, where ` + "`testctl auth login`" + `
keeps it. The file holds named profiles; --profile or
TESTCTL_PROFILE picks one, else current_profile, else "default".

Keys: ` + strings.Join(config.KeyNames(), ", ") + `.
api_key is stored only by ` + "`testctl auth login`" + `: a key typed as an argument ends up
in shell history and process lists.`,
	}, NewCmdGet(f, nil), NewCmdSet(f, nil), NewCmdUnset(f, nil), NewCmdList(f, nil), NewCmdPath(f, nil))
}

// checkKey turns an unknown key into a usage error listing the valid ones.
func checkKey(key string) error {
	if _, ok := config.Lookup(key); !ok {
		return exitcode.FlagErrorf("unknown key %q; valid keys: %s", key, strings.Join(config.KeyNames(), ", "))
	}
	return nil
}

// MaskKey shows only the last four characters of an API key.
func MaskKey(key string) string {
	if key == "" {
		return ""
	}
	r := []rune(key)
	if len(r) <= 8 {
		return "****"
	}
	return "****" + string(r[len(r)-4:])
}

// valueOf is a setting's value and where it comes from, the key kept in the
// OS keyring included.
func valueOf(cfg *config.Config, key string) (string, config.Source, error) {
	if key == config.KeyAPIKey {
		return cfg.APIKey()
	}
	v, src := cfg.GetWithSource(key)
	return v, src, nil
}

// display returns a value fit to print: keys are always masked.
func display(key, value string) string {
	if key == config.KeyAPIKey {
		return MaskKey(value)
	}
	return value
}

func completeKeys(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, s := range config.Settings() {
		out = append(out, s.Key+"\t"+s.Help)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func profileNote(cfg *config.Config) string {
	return fmt.Sprintf("profile %q in %s", cfg.Profile(), cfg.Path())
}
