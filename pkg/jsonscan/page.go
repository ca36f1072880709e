package jsonscan

import "encoding/json"

// Page is a list answer read in one pass over its document: the
// service's `{"<items>": [...], "total": N, …}`.
type Page struct {
	Total    []byte   // the total member's value; nil when absent
	Items    [][]byte // the items member's elements; nil when absent or null
	IDs      []string // each item's id member when it is a string, else ""
	NotArray bool     // the items member is there but neither an array nor null
}

// ReadPage reads the top-level object doc: the members itemsKey and
// "total", and the idKey member of each item ("": none). A repeated key
// counts once, the last time, as encoding/json decodes it; a key written
// with escapes is not recognised.
func ReadPage(doc []byte, itemsKey, idKey string) Page {
	var p Page
	walkObject(doc, skipSpace(doc, 0), func(name []byte, i int) int {
		switch {
		case string(name) == itemsKey && i < len(doc) && doc[i] == '[':
			p.NotArray = false
			p.Items, p.IDs, i = items(doc, i, idKey)
			return i
		case string(name) == itemsKey:
			end := skipValue(doc, i)
			p.Items, p.IDs, p.NotArray = nil, nil, string(doc[i:end]) != "null"
			return end
		case string(name) == "total":
			end := skipValue(doc, i)
			p.Total = doc[i:end]
			return end
		}
		return skipValue(doc, i)
	})
	return p
}

// items splits the array at doc[i], reading each object element's idKey on
// the way, and returns the index past the array.
func items(doc []byte, i int, idKey string) ([][]byte, []string, int) {
	out, ids := [][]byte{}, []string{}
	for i = skipSpace(doc, i+1); i < len(doc) && doc[i] != ']'; {
		start, id := i, ""
		if doc[i] == '{' && idKey != "" {
			i = walkObject(doc, i, func(name []byte, i int) int {
				end := skipValue(doc, i)
				if string(name) == idKey {
					id = stringValue(doc[i:end])
				}
				return end
			})
		} else {
			i = skipValue(doc, i)
		}
		out, ids = append(out, doc[start:i]), append(ids, id)
		if i = skipSpace(doc, i); i < len(doc) && doc[i] == ',' {
			i = skipSpace(doc, i+1)
		}
	}
	return out, ids, i + 1
}

// stringValue is the JSON string v decoded, or "" when v is not a string.
func stringValue(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	for _, c := range v[1 : len(v)-1] {
		if c == '\\' {
			var s string
			_ = json.Unmarshal(v, &s)
			return s
		}
	}
	return string(v[1 : len(v)-1])
}
