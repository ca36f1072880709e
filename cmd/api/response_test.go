package api

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

func TestPrintBody(t *testing.T) {
	compact := []byte(`{"a":[1,2],"s":"\u001b[31mred","c":"` + "\u009b" + `"}`)
	for _, tc := range []struct {
		name string
		tty  bool
		out  output.Options
		body []byte
		want string
	}{
		{"pipe: bytes as received", false, output.Options{}, compact, string(compact)},
		{"terminal: indented, C1 escaped", true, output.Options{},
			compact, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"s\": \"\\u001b[31mred\",\n  \"c\": \"\\u009b\"\n}\n"},
		{"-o json off a terminal", false, output.Options{Format: output.FormatJSON}, []byte(`{"n":1}`), "{\n  \"n\": 1\n}\n"},
		{"-o yaml", false, output.Options{Format: output.FormatYAML}, []byte(`{"z":1,"a":true}`), "z: 1\na: true\n"},
		{"--jq", false, output.Options{JQ: ".a[1]"}, compact, "2\n"},
		{"big numbers keep their digits", true, output.Options{}, []byte(`{"n":12345678901234567890}`), "{\n  \"n\": 12345678901234567890\n}\n"},
		{"svg to a pipe", false, output.Options{}, []byte("<svg>\x1b]0;t\x07</svg>"), "<svg>\x1b]0;t\x07</svg>"},
		{"svg to a terminal: sanitised", true, output.Options{}, []byte("<svg>\x1b]0;t\x07</svg>"), "<svg></svg>\n"},
		{"empty body", true, output.Options{}, nil, ""},
	} {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tc.tty)
		if err := printBody(ios, tc.out, tc.body); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if out.String() != tc.want {
			t.Errorf("%s:\n%q\nwant\n%q", tc.name, out.String(), tc.want)
		}
	}
	ios, _, _, _ := iostreams.Test()
	if err := printBody(ios, output.Options{JQ: "."}, []byte("<svg/>")); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("--jq on SVG: %v", err)
	}
}
