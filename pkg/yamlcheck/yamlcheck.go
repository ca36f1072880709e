// Package yamlcheck helps say where a hand-written YAML file (the config
// file, the quarantine file) is wrong: the line to fix, and the known key
// a misspelt one was meant to be.
package yamlcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Locate is the line of data to fix for yaml.v3's syntax error err, and
// its message; ok is false for another error. yaml.v3 names where the
// broken block began, or the line before (its parser counts from 0), or
// none on line 1: the line to fix is the one after the longest prefix that
// parses, looked for back from the last line the parser read, in at most
// maxParses parses (time linear in data); else yaml.v3's own line.
func Locate(err error, data []byte) (line int, msg string, ok bool) {
	if _, isType := errors.AsType[*yaml.TypeError](err); isType {
		return 0, err.Error(), false
	}
	msg, ok = strings.CutPrefix(err.Error(), "yaml: ")
	if !ok {
		return 0, err.Error(), false
	}
	line = 1
	if rest, found := strings.CutPrefix(msg, "line "); found {
		n, m, cut := strings.Cut(rest, ": ")
		if _, scanErr := fmt.Sscan(n, &line); !cut || scanErr != nil {
			return 0, err.Error(), false
		}
		msg = m
	}
	ends := lineEnds(data)
	failing := linesRead(data, ends) // prefix[:failing] fails as data does
	lowest := line
	if line >= failing {
		lowest = 1 // a token begun on line 1: yaml.v3 names where it failed
	}
	for failing > lowest && blank(data[ends[failing-1]:ends[failing]]) {
		failing--
	}
	for n, parses := failing-1, 0; n >= lowest; n-- {
		if blank(data[ends[n-1]:ends[n]]) {
			continue // no token there: prefix[:n] fares as prefix[:n-1]
		}
		if parses++; parses > maxParses {
			return max(line, 1), msg, true
		}
		if unmarshal(data[:ends[n]], new(yaml.Node)) == nil {
			break
		}
		failing = n
	}
	return max(failing, lowest, 1), msg, true
}

// maxParses bounds the prefixes Locate parses.
const maxParses = 8

// unmarshal parses a prefix; a variable, for a test to count the work.
var unmarshal = yaml.Unmarshal

// lineEnds are the offsets at which data's lines end: ends[0] is 0, ends[n]
// the end of line n (its newline included).
func lineEnds(data []byte) []int {
	ends := []int{0}
	for i, c := range data {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if ends[len(ends)-1] < len(data) {
		ends = append(ends, len(data)) // a last line without a newline
	}
	return ends
}

// linesRead is how many lines of data a yaml.v3 decoder read before it
// failed: handed one line at a time, it reads only a line or two past
// the token it could not place.
func linesRead(data []byte, ends []int) int {
	r := &lineReader{data: data, ends: ends}
	_ = yaml.NewDecoder(r).Decode(new(yaml.Node))
	return r.lines
}

// lineReader hands out data one line per Read.
type lineReader struct {
	data  []byte
	ends  []int
	off   int
	lines int // lines handed out, in whole or in part
}

func (r *lineReader) Read(p []byte) (int, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	end := r.ends[r.lines]
	if r.off == end {
		r.lines++
		end = r.ends[r.lines]
	}
	n := copy(p, r.data[r.off:end])
	r.off += n
	return n, nil
}

// blank reports whether a line holds no token: spaces, a comment or
// nothing (a tab can be one yaml.v3 refuses).
func blank(line []byte) bool {
	s := bytes.TrimLeft(line, " ")
	return len(s) == 0 || s[0] == '#' || s[0] == '\n' || s[0] == '\r'
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
