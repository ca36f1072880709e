package output

import (
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"": FormatTable, "table": FormatTable, "JSON": FormatJSON, " yaml ": FormatYAML} {
		got, err := ParseFormat(in)
		if err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseFormat("xml")
	if err == nil || !strings.Contains(err.Error(), "--output") || !strings.Contains(err.Error(), "table, json, yaml") {
		t.Errorf("ParseFormat(xml) error = %v, want one naming --output and the valid values", err)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		wantFlag string // "" means valid
	}{
		{"default", Options{}, ""},
		{"yaml", Options{Format: FormatYAML}, ""},
		{"jq", Options{JQ: ".runs[].shortId"}, ""},
		{"jq wins over yaml", Options{Format: FormatYAML, JQ: "."}, ""},
		{"bad format", Options{Format: "csv"}, "--output"},
		{"jq syntax error", Options{JQ: ".runs["}, "--jq"},
		{"jq unknown function", Options{JQ: "nosuchfn(1)"}, "--jq"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opts.Validate()
			switch {
			case tt.wantFlag == "" && err != nil:
				t.Fatalf("Validate() = %v", err)
			case tt.wantFlag != "" && (err == nil || !strings.Contains(err.Error(), tt.wantFlag)):
				t.Fatalf("Validate() = %v, want an error naming %s", err, tt.wantFlag)
			}
		})
	}
}

func TestIsStructured(t *testing.T) {
	for _, tt := range []struct {
		opts Options
		want bool
	}{
		{Options{}, false}, {Options{Format: FormatTable}, false},
		{Options{Format: FormatJSON}, true}, {Options{Format: FormatYAML}, true},
		{Options{Format: FormatTable, JQ: ".x"}, true},
	} {
		if got := tt.opts.IsStructured(); got != tt.want {
			t.Errorf("%+v.IsStructured() = %v", tt.opts, got)
		}
	}
}
