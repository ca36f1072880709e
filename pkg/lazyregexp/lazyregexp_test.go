package lazyregexp

import (
	"regexp"
	"sync"
	"testing"
)

func TestMatchesLikeRegexp(t *testing.T) {
	const pattern = `^pln(-.+_.+|_.+)$`
	lazy, eager := New(pattern), regexp.MustCompile(pattern)
	for _, s := range []string{"pln_a1", "pln-shop_a1", "pln-", "pln_", "xpln_a1", ""} {
		if got, want := lazy.MatchString(s), eager.MatchString(s); got != want {
			t.Errorf("MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}

// Outside tests nothing is compiled until the first match.
func TestCompilesOnFirstUse(t *testing.T) {
	r := &Regexp{str: `^[a-z]+$`}
	if r.rx != nil {
		t.Fatal("compiled before use")
	}
	if !r.MatchString("abc") || r.rx == nil {
		t.Fatal("first use must compile and match")
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	r := &Regexp{str: `^[0-9a-fA-F]{7,64}$`}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("deadbeef") {
				t.Error("no match")
			}
		}()
	}
	wg.Wait()
}

func TestInvalidPatternPanicsUnderTest(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("an invalid pattern must panic at New under go test")
		}
	}()
	New(`(`)
}
