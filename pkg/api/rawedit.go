package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
)

// EditStrings rewrites string values of the kept document in place: edit
// is called with the path of each string value (object keys, and array
// indexes in decimal, from the root) and returns the new value and whether
// it changed. Everything else stays byte for byte as the service sent it.
// It is for what must not be printed as sent, such as the credential
// headers of a logs answer. A model without a document is left alone.
func (r *Raw) EditStrings(edit func(path []string, value string) (string, bool)) error {
	doc := r.raw // nil: no value, nothing edited
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var (
		out    []byte
		copied int // doc[:copied] is in out
	)
	// walk reads one value at path: an object or array whole, member by
	// member (keys, and array indexes in decimal), the closing delimiter
	// included. Its depth is the document's, which encoding/json, having
	// decoded it, held to 10,000.
	var walk func(path []string) error
	walk = func(path []string) error {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			for i := 0; dec.More(); i++ {
				key := strconv.Itoa(i)
				if t == '{' {
					if tok, err = dec.Token(); err != nil {
						return err
					}
					key, _ = tok.(string)
				}
				// Clipped, so that no two values share a path's array.
				if err := walk(append(slices.Clip(path), key)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case string:
			if v, changed := edit(path, t); changed {
				start := before + bytes.IndexByte(doc[before:], '"')
				var enc bytes.Buffer
				e := json.NewEncoder(&enc)
				e.SetEscapeHTML(false) // as pkg/output prints: for terminals, not HTML
				_ = e.Encode(v)        // a string always encodes
				out = append(append(out, doc[copied:start]...), bytes.TrimSuffix(enc.Bytes(), []byte("\n"))...)
				copied = int(dec.InputOffset())
			}
		}
		return nil
	}
	for {
		err := walk([]string{})
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	if out != nil {
		r.raw = append(out, doc[copied:]...)
	}
	return nil
}
