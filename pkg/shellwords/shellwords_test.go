package shellwords_test

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/shellwords"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"", nil},
		{" \t\n ", nil},
		{"--branch main", []string{"--branch", "main"}},
		{"  a \n\t b  ", []string{"a", "b"}},
		{`--commit-message "two words $(touch pwned)" --branch 'feature/x'`,
			[]string{"--commit-message", "two words $(touch pwned)", "--branch", "feature/x"}},
		{`a;b c|d e&&f >g <h (i) $HOME ~ * #j`, []string{"a;b", "c|d", "e&&f", ">g", "<h", "(i)", "$HOME", "~", "*", "#j"}},
		{"`id`", []string{"`id`"}},
		{`'' ""`, []string{"", ""}},
		{`'it'\''s'`, []string{"it's"}},
		{`"a \"q\" \$x \\ \n"`, []string{`a "q" $x \ \n`}},
		{`a\ b c\\d \"e`, []string{"a b", `c\d`, `"e`}},
		{"a\\\nb", []string{"ab"}},
		{`"multi` + "\n" + `line"`, []string{"multi\nline"}},
		{`end\`, []string{`end\`}},
		{`x"y z"'w'`, []string{"xy zw"}},
	} {
		got, err := shellwords.Split(tc.line)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
}

func TestSplitRefusesAQuoteNeverClosed(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{`--name "unclosed`, "the double quote at character 8 is never closed"},
		{`--name it's`, "the single quote at character 10 is never closed"},
		{`"a" 'b`, "the single quote at character 5"},
		{`"a \" b`, "the double quote at character 1"},
	} {
		_, err := shellwords.Split(tc.line)
		var se *shellwords.Error
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Split(%q): error %v, want %q", tc.line, err, tc.want)
		}
	}
}

// Where the line holds nothing a shell would expand or treat as an
// operator (nor a newline outside quotes, which ends a shell's command and
// here is a blank), the words are the shell's own: sh is the reference.
func TestSplitAgreesWithSh(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipped: sh is not installed (Debian's dash)")
	}
	for _, line := range []string{
		`plain words here`,
		`'single quoted' "double quoted" mixed'in'"side"`,
		`back\ slash\\es \"quoted\" "in \"double\" \\ \a"`,
		`'it'\''s' "a'b" 'a"b'`,
		"tabs\tand  spaces  ",
		"\"quoted\nnewline\"",
		"joined\\\nline",
		`"" '' x""y`,
		`--app "app_sandbox-web,env=env_sandbox-staging,name=Shop web" --branch=feature/x`,
	} {
		got, err := shellwords.Split(line)
		if err != nil {
			t.Errorf("Split(%q): %v", line, err)
			continue
		}
		out, err := exec.Command(sh, "-c", "set -- "+line+"\n"+`for w in "$@"; do printf '%s\0' "$w"; done`).Output()
		if err != nil {
			t.Fatalf("sh: %v", err)
		}
		want := strings.Split(string(out), "\x00")
		want = want[:len(want)-1]
		if !slices.Equal(got, want) {
			t.Errorf("Split(%q) = %q; sh splits it into %q", line, got, want)
		}
	}
}
