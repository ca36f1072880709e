package config

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/output"
)

// ListOptions are the inputs of `config list`.
type ListOptions struct{}

// Entry is one row of `config list`, also its JSON shape.
type Entry struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// NewCmdList builds `config list`.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{}
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "Show every setting, its value and where it comes from",
		Example: `  testctl config list
  testctl config list -o json --jq '.[] | select(.source == "env") | .key'`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(f, opts, runF, listRun),
	}
}

func listRun(_ context.Context, f *cmdutil.Factory, opts *ListOptions) error {
	cfg, out, err := f.ConfigAndOutput()
	if err != nil {
		return err
	}
	var entries []Entry
	for _, s := range config.Settings() {
		value, src, err := valueOf(cfg, s.Key)
		if err != nil {
			return err
		}
		entries = append(entries, Entry{Key: s.Key, Value: display(s.Key, value), Source: string(src)})
	}
	ios := f.IOStreams
	if out.IsStructured() {
		return output.Print(ios.Out, out, entries)
	}
	t := output.NewTable(ios, "KEY", "VALUE", "SOURCE")
	for _, e := range entries {
		t.AddField(e.Key)
		t.AddField(e.Value)
		t.AddField(e.Source, output.WithColor(ios.Styles().Muted))
		t.EndRow()
	}
	return t.Render()
}
