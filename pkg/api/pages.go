package api

import (
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The two list answers give each item its own bytes as well as the page's,
// so that `--all -o json` can stream the service's items page after page.
// The page is decoded as usual; the items' bytes are then found by
// readPage, which costs a fraction of decoding the items a second time.

// SetRawJSON keeps the page's document and each run's.
func (l *RunList) SetRawJSON(b []byte) {
	l.Raw.SetRawJSON(b)
	if p, ok := readPage(l.Raw.RawJSON(), "runs", ""); ok && len(p.Items) == len(l.Runs) {
		for i := range l.Runs {
			l.Runs[i].SetRawJSON(p.Items[i])
		}
	}
}

// SetRawJSON keeps the page's document and each test case's.
func (l *TestCaseList) SetRawJSON(b []byte) {
	l.Raw.SetRawJSON(b)
	if p, ok := readPage(l.Raw.RawJSON(), "testCases", ""); ok && len(p.Items) == len(l.TestCases) {
		for i := range l.TestCases {
			l.TestCases[i].SetRawJSON(p.Items[i])
		}
	}
}

// jsontext is github.com/go-json-experiment/json/jsontext, the upstream of
// Go's encoding/json/jsontext, which Go 1.26 builds only under
// GOEXPERIMENT=jsonv2: a release build cannot depend on an experiment.
// Plain encoding/json (json.Valid, then the page and each item unmarshalled
// into json.RawMessage) made `run list --all -o json` of 100,000 runs 2.0×
// to 2.5× one kept-alive curl where the bar is 1.25× (docs/benchmarks.md).

// v1Syntax makes jsontext accept what encoding/json accepts: a name
// repeated in an object, and bytes that are not UTF-8 in strings.
var v1Syntax = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// listPage is a list answer as readPage reads it: the service's
// `{"<items>": [...], "total": N, …}`. Its slices are of the document.
type listPage struct {
	Total    []byte   // the total member's value; nil when absent
	Items    [][]byte // the items member's elements; nil when absent or null
	IDs      []string // each item's id member when it is a string, else ""
	NotArray bool     // the items member is there but neither an array nor null
}

// readPage reads the list answer doc in one pass of jsontext's decoder,
// which checks the syntax on the way: ok is false when doc is not one
// valid JSON value, the answer json.Valid gives (the tests and FuzzReadPage
// hold them to it). When doc is an object, the page holds its members
// itemsKey and "total", and the idKey member of each item ("": none), as
// encoding/json would decode them: names unescaped, a repeated one counting
// the last time.
//
// This is json.Valid and a walk over the items in one, and json.Valid
// alone costs more (1.6× on a quiet machine, BenchmarkReadPage): `run list
// --all` reads every page this way (docs/benchmarks.md, "No decoding").
func readPage(doc []byte, itemsKey, idKey string) (p listPage, ok bool) {
	d := jsontext.NewDecoder(bytes.NewBuffer(doc), v1Syntax...)
	if d.PeekKind() != '{' {
		_, ok := value(d, doc)
		return listPage{}, ok && atEOF(d)
	}
	if _, err := d.ReadToken(); err != nil {
		return listPage{}, false
	}
	for d.PeekKind() == '"' {
		name, _ := d.ReadValue() // a string, as PeekKind said
		switch {
		case isName(name, itemsKey) && d.PeekKind() == '[':
			p.NotArray = false
			if p.Items, p.IDs, ok = readItems(d, doc, idKey); !ok {
				return listPage{}, false
			}
		case isName(name, itemsKey):
			v, ok := value(d, doc)
			if !ok {
				return listPage{}, false
			}
			p.Items, p.IDs, p.NotArray = nil, nil, string(v) != "null"
		case isName(name, "total"):
			if p.Total, ok = value(d, doc); !ok {
				return listPage{}, false
			}
		default:
			if d.SkipValue() != nil {
				return listPage{}, false
			}
		}
	}
	if _, err := d.ReadToken(); err != nil || !atEOF(d) { // }
		return listPage{}, false
	}
	return p, true
}

// readItems reads the array the decoder is at, each element's bytes and,
// in an object element, its idKey member.
func readItems(d *jsontext.Decoder, doc []byte, idKey string) ([][]byte, []string, bool) {
	items, ids := [][]byte{}, []string{}
	if _, err := d.ReadToken(); err != nil { // [
		return nil, nil, false
	}
	for {
		k := d.PeekKind()
		if k == ']' {
			break
		}
		if k != '{' || idKey == "" {
			v, ok := value(d, doc)
			if !ok {
				return nil, nil, false
			}
			items, ids = append(items, v), append(ids, "")
			continue
		}
		if _, err := d.ReadToken(); err != nil { // {
			return nil, nil, false
		}
		start, id := int(d.InputOffset())-1, ""
		for d.PeekKind() == '"' {
			name, _ := d.ReadValue()
			if !isName(name, idKey) {
				if d.SkipValue() != nil {
					return nil, nil, false
				}
				continue
			}
			v, err := d.ReadValue()
			if err != nil {
				return nil, nil, false
			}
			id = stringValue(v)
		}
		if _, err := d.ReadToken(); err != nil { // }
			return nil, nil, false
		}
		items, ids = append(items, doc[start:d.InputOffset()]), append(ids, id)
	}
	if _, err := d.ReadToken(); err != nil { // ]
		return nil, nil, false
	}
	return items, ids, true
}

// value reads the next value and returns its bytes in doc.
func value(d *jsontext.Decoder, doc []byte) ([]byte, bool) {
	v, err := d.ReadValue()
	end := int(d.InputOffset())
	return doc[end-len(v) : end], err == nil
}

// isName reports whether the JSON string name, read by the decoder, is
// want once decoded.
func isName(name jsontext.Value, want string) bool {
	if bytes.IndexByte(name, '\\') < 0 {
		return len(name) == len(want)+2 && string(name[1:len(name)-1]) == want
	}
	return stringValue(name) == want
}

// stringValue is the JSON value v decoded as encoding/json decodes a
// string (bytes that are not UTF-8 as U+FFFD), or "" when v is not a
// string.
func stringValue(v jsontext.Value) string {
	switch {
	case len(v) < 2 || v[0] != '"':
		return ""
	case bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v):
		return string(v[1 : len(v)-1])
	}
	s, _ := jsontext.AppendUnquote(nil, v) // an error only tells of U+FFFD put in
	return string(s)
}

// atEOF reports whether nothing but space follows the value read.
func atEOF(d *jsontext.Decoder) bool {
	_, err := d.ReadToken()
	return err == io.EOF
}
