package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"

	"github.com/testctl/testctl/pkg/termtext"
)

// Print writes data as JSON, YAML or the results of --jq. Tables are built
// with NewTable instead, since only the command knows its columns; Print
// returns an error for the table format.
//
// JSON is indented by two spaces and ends with a newline; control
// characters inside strings are escaped, so service text cannot reach the
// terminal as an escape sequence. YAML carries the JSON field names in the
// JSON order. A jq filter prints each result on its own line: strings raw,
// like `gh --jq` (but sanitised, as they are no longer JSON-escaped), other
// values as compact JSON. A jq runtime error is returned after the results
// that preceded it.
func Print(w io.Writer, o Options, data any) error {
	if o.JQ != "" {
		v, err := toGeneric(data)
		if err != nil {
			return err
		}
		return runJQ(w, o.JQ, v)
	}
	f, err := ParseFormat(string(o.Format))
	if err != nil {
		return err
	}
	switch f {
	case FormatJSON:
		b, err := marshalJSON(data, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case FormatYAML:
		return printYAML(w, data)
	}
	return errors.New("output: the table format is rendered with NewTable, not Print")
}

// marshalJSON indents like json.MarshalIndent but leaves <, > and & alone:
// the output is for terminals and programs, not HTML.
func marshalJSON(v any, prefix, indent string) ([]byte, error) {
	return newItemEncoder(prefix, indent).encode(v)
}

// itemEncoder reuses one buffer for many values, as a streamed list does.
type itemEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newItemEncoder(prefix, indent string) *itemEncoder {
	e := &itemEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	e.enc.SetIndent(prefix, indent)
	return e
}

// encode returns v's JSON without the trailing newline; the result is only
// valid until the next call.
func (e *itemEncoder) encode(v any) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding JSON: %w", err)
	}
	return escapeUnsafeJSON(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))), nil
}

// toGeneric turns any value into what JSON decoding would give: maps keyed
// by the JSON field names. Numbers stay json.Number so that large integers
// keep every digit.
func toGeneric(data any) (any, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("encoding JSON: %w", err)
	}
	return decodeGeneric(b)
}

func decodeGeneric(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return v, nil
}

// runJQ runs expr over v, a value as decoded by decodeGeneric.
func runJQ(w io.Writer, expr string, v any) error {
	code, err := compileJQ(expr)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	iter := code.Run(v)
	for {
		r, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := r.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				break
			}
			// Results before the error are still printed, as jq does.
			if _, werr := w.Write(buf.Bytes()); werr != nil {
				return werr
			}
			return fmt.Errorf("--jq: %w", err)
		}
		if s, ok := r.(string); ok {
			// Raw strings are the one path where service text is printed
			// without JSON escaping, so it is sanitised like table text.
			buf.WriteString(termtext.Sanitize(s))
		} else {
			b, err := gojq.Marshal(r)
			if err != nil {
				return fmt.Errorf("--jq: %w", err)
			}
			buf.Write(escapeUnsafeJSON(b))
		}
		buf.WriteByte('\n')
		if buf.Len() > 64<<10 {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			buf.Reset()
		}
	}
	_, err = w.Write(buf.Bytes())
	return err
}
