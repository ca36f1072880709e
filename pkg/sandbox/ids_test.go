package sandbox

import (
	"regexp"
	"testing"
)

func TestRunIDsRoundTrip(t *testing.T) {
	s, _ := newSandbox(t, Options{Seed: 99})
	seen := map[string]bool{}
	for _, prefix := range []byte{'h', 'r'} {
		for _, i := range []int{0, 1, 2, 35, 36, 1000, 99999, MaxHistory - 1} {
			id := s.encodeRunID(prefix, i)
			p, j, ok := s.decodeRunID(id)
			if len(id) != 6 || !ok || p != prefix || j != i || seen[id] {
				t.Errorf("%c %d -> %q -> %c %d %v", prefix, i, id, p, j, ok)
			}
			seen[id] = true
		}
	}
	for _, bad := range []string{"", "h", "x12345", "h1234", "h12345x", "h-2345", "HABCDE"} {
		if _, _, ok := s.decodeRunID(bad); ok {
			t.Errorf("%q decoded", bad)
		}
	}
	if s.findRun(s.encodeRunID('h', 50)) != nil {
		t.Error("a history id past the history was found")
	}
}

func TestUUIDs(t *testing.T) {
	a, b := uuidFor(1, "x"), uuidFor(1, "y")
	if !uuidPattern().MatchString(a) || a[14] != '4' || a == b || a != uuidFor(1, "x") || a == uuidFor(2, "x") {
		t.Errorf("uuids %s %s", a, b)
	}
	if v := a[19]; v != '8' && v != '9' && v != 'a' && v != 'b' {
		t.Errorf("variant of %s", a)
	}
}

// Two sandboxes with the same history give the runs started in them ids of
// their own when their IDSeeds differ; the history and a seed's ids stay
// reproducible.
func TestIDSeedPlacesStartedRunIDs(t *testing.T) {
	a, _ := newSandbox(t, Options{})
	b, _ := newSandbox(t, Options{})
	c, _ := newSandbox(t, Options{IDSeed: ProcessIDSeed()})
	if a.encodeRunID('r', 0) != b.encodeRunID('r', 0) {
		t.Error("the same seed gave different run ids")
	}
	if a.encodeRunID('r', 0) == c.encodeRunID('r', 0) {
		t.Errorf("IDSeed did not change the first run id %s", a.encodeRunID('r', 0))
	}
	if a.encodeRunID('h', 3) != c.encodeRunID('h', 3) {
		t.Error("IDSeed changed the history ids")
	}
	id := c.encodeRunID('r', 41)
	if p, i, ok := c.decodeRunID(id); !ok || p != 'r' || i != 41 {
		t.Errorf("%s decoded to %c %d %v", id, p, i, ok)
	}
	if ProcessIDSeed() == ProcessIDSeed() {
		t.Error("two calls of ProcessIDSeed gave the same seed")
	}
}

// The patterns are compiled on first use, so that start-up pays only for those
// a command line evaluates; compiling each one here makes a mistyped pattern
// fail the tests rather than the first command that reaches it.
func TestPatternsCompile(t *testing.T) {
	for _, rx := range []func() *regexp.Regexp{projectIDPattern, planIDPattern, uuidPattern} {
		rx()
	}
}
