// Package output renders command results: tables for people, JSON and YAML
// for programs, and a jq filter over the JSON document.
package output

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/itchyny/gojq"
)

// Format is the value of --output.
type Format string

// The format constants carry a Format prefix because Table is also the
// name of the table printer.
const (
	FormatTable Format = "table"
	FormatJSON  Format = "json"
	FormatYAML  Format = "yaml"
)

// ParseFormat accepts the names of the formats in any case; "" means the
// default, table.
func ParseFormat(s string) (Format, error) {
	switch v := Format(strings.ToLower(strings.TrimSpace(s))); v {
	case "":
		return FormatTable, nil
	case FormatTable, FormatJSON, FormatYAML:
		return v, nil
	}
	return "", fmt.Errorf("invalid value %q for --output: valid values are table, json, yaml", s)
}

// Options are the output flags of a command. A non-empty JQ implies JSON
// whatever Format says, so `TESTCTL_OUTPUT=yaml` in the environment does not
// make --jq an error.
type Options struct {
	Format Format
	JQ     string
	// Terminal is set when stdout is a terminal: --jq results are then
	// indented for reading rather than one compact line each.
	Terminal bool
	// Chosen: the format was asked for (-o, TESTCTL_OUTPUT, a profile's
	// output), not taken by default.
	Chosen bool
	// Beside, with a structured format, is where the command also renders
	// the table it prints without one, as off a terminal: the text the MCP
	// server gives beside the document. See BesideStreams.
	Beside io.Writer
}

// Validate checks the flags before anything is sent to the service, so a
// typo in --jq does not start a run and then fail to print it.
func (o Options) Validate() error {
	if _, err := ParseFormat(string(o.Format)); err != nil {
		return err
	}
	if o.JQ != "" {
		if _, err := compileJQ(o.JQ); err != nil {
			return err
		}
	}
	return nil
}

// IsStructured reports whether the output is for programs (json, yaml or
// jq) rather than a table.
func (o Options) IsStructured() bool {
	return o.JQ != "" || o.format() != FormatTable
}

// format is the effective format; Validate has reported bad values.
func (o Options) format() Format {
	if o.JQ != "" {
		return FormatJSON
	}
	f, _ := ParseFormat(string(o.Format)) // "" for a bad value
	return cmp.Or(f, FormatTable)
}

func compileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid --jq expression: %w", err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, fmt.Errorf("invalid --jq expression: %w", err)
	}
	return code, nil
}
