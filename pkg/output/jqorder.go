package output

import (
	"bytes"
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/itchyny/gojq"
)

// keyOrder is the order of the keys of every object of a document. gojq
// holds objects as Go maps and would print their keys sorted; --jq results
// are printed with the keys in the service's order instead, like the
// document they came from.
type keyOrder struct {
	doc   []byte              // read at the first object printed: `length` needs no order
	bySet map[string][]string // an object's sorted keys, joined → its keys in order
	rank  map[string]int      // a key → where it first appears in the document
}

// load reads the objects of k.doc, a valid JSON document.
func (k *keyOrder) load() {
	k.bySet, k.rank = map[string][]string{}, map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(k.doc))
	dec.UseNumber()
	_ = k.read(dec) // an error runJQ has already reported
}

// read reads one value from dec, recording the keys of its objects.
func (k *keyOrder) read(dec *json.Decoder) error {
	open, err := dec.Token()
	if err != nil {
		return err
	}
	if open != json.Delim('{') && open != json.Delim('[') {
		return nil
	}
	var keys []string
	for dec.More() {
		if open == json.Delim('{') {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key := tok.(string)
			keys = append(keys, key)
			if _, seen := k.rank[key]; !seen {
				k.rank[key] = len(k.rank)
			}
		}
		if err := k.read(dec); err != nil {
			return err
		}
	}
	if open == json.Delim('{') {
		sorted := setKey(slices.Sorted(slices.Values(keys)))
		if _, seen := k.bySet[sorted]; !seen {
			k.bySet[sorted] = keys
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

func setKey(sorted []string) string { return strings.Join(sorted, "\x00") }

// keys returns m's keys: in the order of an object of the document with the
// same keys, else by where each first appears in it, keys the document does
// not hold (made by the filter) last, sorted.
func (k *keyOrder) keys(m map[string]any) []string {
	if k.bySet == nil {
		k.load()
	}
	keys := slices.Sorted(maps.Keys(m))
	if order, ok := k.bySet[setKey(keys)]; ok {
		return order
	}
	rank := func(key string) int {
		if r, ok := k.rank[key]; ok {
			return r
		}
		return len(k.rank) // after the document's keys; sorted, as the sort is stable
	}
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
	return keys
}

// appendJSON appends v, a jq result, as compact JSON with its objects'
// keys in the document's order. gojq.Marshal returns no error: it encodes
// every value jq produces.
func (k *keyOrder) appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case map[string]any:
		b = append(b, '{')
		for i, key := range k.keys(v) {
			if i > 0 {
				b = append(b, ',')
			}
			b = k.appendJSON(append(k.appendJSON(b, key), ':'), v[key])
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = k.appendJSON(b, e)
		}
		return append(b, ']')
	}
	s, _ := gojq.Marshal(v)
	return append(b, s...)
}
