package shared

import (
	"strings"
	"testing"
)

func TestCheckPrefixed(t *testing.T) {
	for v, ok := range map[string]bool{"app_x": true, "app_": false, "app": false, "cfg_x": false, "app_a b": false, "app_\x1b[31m": false} {
		if err := CheckPrefixed("app", v, "app_"); (err == nil) != ok {
			t.Errorf("CheckPrefixed(%q): %v", v, err)
		} else if err != nil && !strings.Contains(err.Error(), "--app") {
			t.Errorf("error does not name the flag: %v", err)
		}
	}
}

func TestSplitList(t *testing.T) {
	got, err := SplitList("label", []string{"a", " b , c"})
	if err != nil || strings.Join(got, "|") != "a|b|c" {
		t.Errorf("got %q, %v", got, err)
	}
	for _, in := range [][]string{{""}, {"a", " "}, {"a,,b"}, {"a,"}} {
		if _, err := SplitList("label", in); err == nil || !strings.Contains(err.Error(), "--label") {
			t.Errorf("%q: %v", in, err)
		}
	}
}
