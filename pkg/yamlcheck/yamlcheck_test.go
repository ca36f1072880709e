package yamlcheck

import "testing"

func TestErrorLineIsTheLineToFix(t *testing.T) {
	for data, want := range map[string]int{
		"a: 1\nb:\n  c: 2\n d: 3\n": 4, // yaml.v3 says line 2
		"a: 1\nb: [\n":              2,
		"a: 1\n":                    0,
	} {
		if got := ErrorLine([]byte(data)); got != want {
			t.Errorf("ErrorLine(%q) = %d, want %d", data, got, want)
		}
	}
}

func TestNearestIsASlipNotAGuess(t *testing.T) {
	known := []string{"base_url", "project", "output"}
	for key, want := range map[string]string{"baseurl": "base_url", "Base-URL": "base_url", "projct": "project", "colour": "", "x": ""} {
		if got := Nearest(key, known, 2); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", key, got, want)
		}
	}
}
