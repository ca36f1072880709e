package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// EditStrings rewrites string values of the kept document in place: edit
// is called with the path of each string value (object keys, and array
// indexes in decimal, from the root) and returns the new value and whether
// it changed. Everything else stays byte for byte as the service sent it.
// It is for what must not be printed as sent, such as the credential
// headers of a logs answer. A model without a document is left alone.
func (r *Raw) EditStrings(edit func(path []string, value string) (string, bool)) error {
	if r.raw == nil {
		return nil
	}
	b, err := editStrings(r.raw, edit)
	if err != nil {
		return err
	}
	r.raw = b
	return nil
}

// frame is one open object or array while walking a document.
type frame struct {
	object  bool
	wantKey bool   // object: the next token is a key (or the closing brace)
	key     string // object: the key of the current value
	index   int    // array: the index of the current value
}

func editStrings(doc []byte, edit func(path []string, value string) (string, bool)) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var (
		stack  []frame
		out    []byte
		copied int // doc[:copied] is in out
	)
	afterValue := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].wantKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		n := len(stack)
		if n > 0 && stack[n-1].object && stack[n-1].wantKey {
			if key, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].wantKey = key, false
				continue
			}
			stack = stack[:n-1] // the closing brace
			afterValue()
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{object: true, wantKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:n-1]
				afterValue()
			}
			continue
		case string:
			if v, changed := edit(pathOf(stack), t); changed {
				start := before + bytes.IndexByte(doc[before:], '"')
				var enc bytes.Buffer
				e := json.NewEncoder(&enc)
				e.SetEscapeHTML(false) // as pkg/output prints: for terminals, not HTML
				if err := e.Encode(v); err != nil {
					return nil, err
				}
				out = append(append(out, doc[copied:start]...), bytes.TrimSuffix(enc.Bytes(), []byte("\n"))...)
				copied = int(dec.InputOffset())
			}
		}
		afterValue()
	}
	if out == nil {
		return doc, nil
	}
	return append(out, doc[copied:]...), nil
}

func pathOf(stack []frame) []string {
	path := make([]string, len(stack))
	for i, f := range stack {
		if f.object {
			path[i] = f.key
		} else {
			path[i] = strconv.Itoa(f.index)
		}
	}
	return path
}
