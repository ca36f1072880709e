package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"

	"github.com/testctl/testctl/pkg/termtext"
)

// RawDocument is a value that carries the JSON document it was decoded
// from: the api models, whose RawJSON is the service's answer. Print and
// ListWriter print that document instead of encoding the value, so fields
// this client does not know are kept and absent fields stay absent. A nil
// RawJSON (a model built by hand) falls back to encoding the value.
type RawDocument interface {
	RawJSON() json.RawMessage
}

// Print writes data as JSON, YAML or the results of --jq. Tables are built
// with NewTable instead, since only the command knows its columns; Print
// returns an error for the table format.
//
// The document printed is data's RawJSON when it has one (the service's
// own bytes, key order and numbers as sent), else data encoded as JSON.
// JSON is indented by two spaces and ends with a newline; control
// characters inside strings are escaped, so service text cannot reach the
// terminal as an escape sequence. YAML carries the JSON field names in the
// JSON order. A jq filter prints each result on its own line: strings raw,
// like `gh --jq` (but sanitised, as they are no longer JSON-escaped), other
// values as compact JSON. A jq runtime error is returned after the results
// that preceded it.
func Print(w io.Writer, o Options, data any) error {
	f, err := ParseFormat(string(o.Format))
	if err != nil && o.JQ == "" {
		return err
	}
	if o.JQ == "" && f == FormatTable {
		return errors.New("output: the table format is rendered with NewTable, not Print")
	}
	doc, err := document(data)
	if err != nil {
		return err
	}
	switch {
	case o.JQ != "":
		return runJQ(w, o, doc)
	case f == FormatYAML:
		return writeYAMLFromJSON(w, doc)
	}
	b, err := indentJSON(new(bytes.Buffer), doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// document is the JSON document of data: data itself when it is a
// json.RawMessage, its RawJSON when it has one, else data encoded.
func document(data any) ([]byte, error) {
	if b, ok := data.(json.RawMessage); ok {
		return b, nil
	}
	if r, ok := data.(RawDocument); ok {
		if b := r.RawJSON(); b != nil {
			return b, nil
		}
	}
	return marshalJSON(data)
}

// Array is one JSON array of the documents of items (see document), for
// printing several answers, such as the runs of one wait, as one document.
func Array[T any](items []T) (json.RawMessage, error) {
	b := []byte{'['}
	for i, it := range items {
		doc, err := document(it)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, doc...)
	}
	return append(b, ']'), nil
}

// indentJSON indents doc into buf (emptied first) and returns it with
// unsafe runes escaped (see escapeUnsafeJSON); the result is valid until buf
// is used again. It fails on a document that is not valid JSON.
func indentJSON(buf *bytes.Buffer, doc []byte, prefix, indent string) ([]byte, error) {
	buf.Reset()
	if err := json.Indent(buf, doc, prefix, indent); err != nil {
		return nil, fmt.Errorf("encoding JSON: %w", err)
	}
	return escapeUnsafeJSON(buf.Bytes()), nil
}

// marshalJSON encodes v compactly, leaving <, > and & alone: the output is
// for terminals and programs, not HTML.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding JSON: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// runJQ runs o.JQ over doc. Values other than strings keep the document's
// key order; on a terminal (o.Terminal) they are indented for reading,
// elsewhere each is one compact line, for scripts.
func runJQ(w io.Writer, o Options, doc []byte) error {
	code, err := compileJQ(o.JQ)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("decoding JSON: %w", err)
	}
	order := &keyOrder{doc: doc}
	buf := bufio.NewWriterSize(w, 64<<10)
	var indented bytes.Buffer
	iter := code.Run(v)
	for {
		r, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := r.(error); ok {
			if halt, ok := errors.AsType[*gojq.HaltError](err); ok && halt.Value() == nil {
				break
			}
			// Results before the error are still printed, as jq does.
			if werr := buf.Flush(); werr != nil {
				return werr
			}
			return &JQError{Err: err, Hint: arrayHint(o.JQ, v, err)}
		}
		if s, ok := r.(string); ok {
			// Raw strings are the one path where service text is printed
			// without JSON escaping, so it is sanitised like table text.
			buf.WriteString(termtext.Sanitize(s))
		} else {
			b := order.appendJSON(nil, r)
			if o.Terminal {
				var err error
				if b, err = indentJSON(&indented, b, "", "  "); err != nil {
					return &JQError{Err: err}
				}
			} else {
				b = escapeUnsafeJSON(b)
			}
			buf.Write(b)
		}
		buf.WriteByte('\n')
	}
	return buf.Flush()
}
