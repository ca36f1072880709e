// Package yamlcheck helps say where a hand-written YAML file (the config
// file, the quarantine file) is wrong: the line to fix, and the known key
// a misspelt one was meant to be.
package yamlcheck

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ErrorLine is the first line at which data stops being valid YAML, or 0.
// yaml.v3 reports some errors at the start of the block they break (a key
// indented one space too few on line 5 is "line 2: did not find expected
// key"): the shortest prefix of whole lines that fails to parse ends on the
// line to fix.
func ErrorLine(data []byte) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	var v any
	for n := 1; n <= len(lines); n++ {
		if yaml.Unmarshal(bytes.Join(lines[:n], nil), &v) != nil {
			return n
		}
	}
	return 0
}

// Locate is where a syntax error of yaml.v3 on data is to be fixed, and
// what it says: the line it gave ("yaml: line N: msg"), or the one
// ErrorLine finds when that is later. ok is false for an error that names
// no line.
func Locate(err error, data []byte) (line int, msg string, ok bool) {
	rest, ok := strings.CutPrefix(err.Error(), "yaml: line ")
	if !ok {
		return 0, err.Error(), false
	}
	n, msg, ok := strings.Cut(rest, ": ")
	if !ok {
		return 0, err.Error(), false
	}
	if _, scanErr := fmt.Sscan(n, &line); scanErr != nil {
		return 0, err.Error(), false
	}
	return max(line, ErrorLine(data)), msg, true
}

// Nearest is the known key closest to key, when it is near enough to be a
// slip: at most maxEdits edits apart once case, '-' and '_' are set aside
// (baseurl, base-url, bse_url for base_url); "" when none is.
func Nearest(key string, known []string, maxEdits int) string {
	norm := func(s string) string { return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s)) }
	best, bestDist := "", maxEdits+1
	for _, k := range known {
		if d := distance(norm(key), norm(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance of two short keys.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
