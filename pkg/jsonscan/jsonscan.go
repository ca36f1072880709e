// Package jsonscan reads and lays out JSON in single byte loops, without
// decoding it: Valid (the same answers as json.Valid), and, for documents
// already known to be valid, a list page's items, their ids and the total
// (ReadPage) and an indented copy (AppendIndent). encoding/json does each
// several times slower (Valid, Unmarshal into json.RawMessage, Indent), and
// they are most of what `run list --all -o json` does (docs/benchmarks.md).
// Given invalid JSON, ReadPage and AppendIndent do not fail or panic, but
// their results mean nothing.
//
// Why it is still hand-written, measured on `run list --all -o json` of
// 100,000 runs against one kept-alive curl (the bar: 1.25x) on a quiet
// machine: this package 1.09-1.15x; encoding/json alone (json.Valid, the
// page decoded into json.RawMessage, json.Indent) 1.97x. Go 1.26's
// encoding/json/jsontext builds only under GOEXPERIMENT=jsonv2, which a
// release cannot depend on; its upstream, github.com/go-json-experiment/json,
// did 1.15-1.20x, but pkg/api would then put a third party's module among
// the dependencies of the outcome model (pkg/verdict reads the API's models),
// which must have none.
package jsonscan

import "bytes"

// walkObject calls value with the name of each member of the object at
// doc[i] and the index where its value starts; value returns the index
// past the value. walkObject returns the index past the object (or
// len(doc) when doc[i] is not an object or the JSON is not valid).
func walkObject(doc []byte, i int, value func(name []byte, i int) int) int {
	if i >= len(doc) || doc[i] != '{' {
		return len(doc)
	}
	for i = skipSpace(doc, i+1); i < len(doc) && doc[i] == '"'; {
		end := skipString(doc, i)
		if end >= len(doc) {
			return len(doc) // not valid JSON
		}
		name := doc[i+1 : end-1]
		i = value(name, skipSpace(doc, skipSpace(doc, end)+1)) // past the colon
		if i = skipSpace(doc, i); i < len(doc) && doc[i] == ',' {
			i = skipSpace(doc, i+1)
		}
	}
	return min(i+1, len(doc))
}

// AppendIndent appends doc to dst laid out as json.Indent lays it out (each
// element on its own line, prefix then indent per level; empty objects and
// arrays as {} and []; ": " after keys), without json.Indent's validation.
func AppendIndent(dst, doc []byte, prefix, indent string) []byte {
	depth := 0
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			end := skipString(doc, i)
			dst = append(dst, doc[i:end]...)
			i = end - 1
		case '{', '[':
			if j := skipSpace(doc, i+1); j < len(doc) && (doc[j] == '}' || doc[j] == ']') {
				dst = append(dst, c, doc[j])
				i = j
				continue
			}
			depth++
			dst = newline(append(dst, c), prefix, indent, depth)
		case '}', ']':
			depth--
			dst = append(newline(dst, prefix, indent, depth), c)
		case ',':
			dst = newline(append(dst, c), prefix, indent, depth)
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func newline(dst []byte, prefix, indent string, depth int) []byte {
	dst = append(append(dst, '\n'), prefix...)
	for range depth {
		dst = append(dst, indent...)
	}
	return dst
}

// skipValue returns the index past the value at doc[i].
func skipValue(doc []byte, i int) int {
	if i >= len(doc) {
		return i
	}
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for ; i < len(doc); i++ {
			switch doc[i] {
			case '"':
				i = skipString(doc, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	start := i
	for i < len(doc) && doc[i] != ',' && doc[i] != '}' && doc[i] != ']' && !isSpace(doc[i]) {
		i++ // a number, true, false or null
	}
	return max(i, start+1) // on invalid JSON, still move on
}

// skipString returns the index past the string whose opening quote is at
// doc[i].
func skipString(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		j := bytes.IndexByte(doc[i:], '"')
		if j < 0 {
			return len(doc)
		}
		i += j
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		k := i
		for k > 0 && doc[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 0 {
			return i + 1
		}
	}
	return len(doc)
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && isSpace(doc[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
