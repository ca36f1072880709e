package start

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
)

// maxInputBytes bounds a JSON file: the service takes small documents, and
// a mistyped path to a build artifact should fail fast, not fill memory.
const maxInputBytes = 8 << 20

// jsonSource is a JSON document given to a flag, kept whole so that errors
// can say where in it they are: people edit these files by hand.
type jsonSource struct {
	flag, name string
	data       []byte
}

// readSource reads FILE, or standard input for "-".
func readSource(ios *iostreams.IOStreams, flag, path string) (*jsonSource, error) {
	var r io.Reader
	name := path
	if path == "-" {
		r, name = ios.In, "(stdin)"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, cmdutil.FlagErrorf("--%s: %v", flag, err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, cmdutil.FlagErrorf("--%s %s: %v", flag, name, err)
	}
	if len(data) > maxInputBytes {
		return nil, cmdutil.FlagErrorf("--%s %s: larger than %d MiB", flag, name, maxInputBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, cmdutil.FlagErrorf("--%s %s: empty input, expected JSON", flag, name)
	}
	return &jsonSource{flag: flag, name: name, data: data}, nil
}

func (s *jsonSource) decoder() *json.Decoder {
	dec := json.NewDecoder(bytes.NewReader(s.data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	return dec
}

// errorf reports a problem at byte offset off of the document.
func (s *jsonSource) errorf(off int64, format string, args ...any) error {
	off = max(0, min(off, int64(len(s.data))))
	before := s.data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return cmdutil.FlagErrorf("--%s %s: line %d, column %d: %s", s.flag, s.name, line, col, fmt.Sprintf(format, args...))
}

// decodeError places an error of dec.Decode; start is dec.InputOffset()
// before the call, which type errors are relative to.
func (s *jsonSource) decodeError(err error, start int64) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return s.errorf(syntax.Offset-1, "%v", syntax)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "value"
		}
		return s.errorf(start+typ.Offset, "%s: expected %s, got a JSON %s", field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return s.errorf(int64(len(s.data)), "unexpected end of JSON input")
	}
	// Unknown fields carry no offset: point at the value that holds one.
	return s.errorf(s.skipBlank(start), "%s", trimJSONPrefix(err.Error()))
}

// open reads the opening delimiter of the document, which must be want.
func (s *jsonSource) open(dec *json.Decoder, want json.Delim, what string) error {
	start := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return s.decodeError(err, start)
	}
	if tok != want {
		return s.errorf(s.skipBlank(start), "expected %s", what)
	}
	return nil
}

// close reads the closing delimiter and checks nothing follows it.
func (s *jsonSource) close(dec *json.Decoder) error {
	start := dec.InputOffset()
	if _, err := dec.Token(); err != nil {
		return s.decodeError(err, start)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return s.errorf(s.skipBlank(end), "unexpected data after the end of the document")
	}
	return nil
}

// skipBlank moves off past white space and value separators to where the
// next value starts, for messages that point at a value.
func (s *jsonSource) skipBlank(off int64) int64 {
	for off < int64(len(s.data)) {
		switch s.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func jsonKind(goKind string) string {
	switch goKind {
	case "map", "struct":
		return "an object"
	case "slice", "array":
		return "an array"
	case "ptr":
		return "an object"
	}
	return "a " + goKind
}

func trimJSONPrefix(msg string) string {
	const prefix = "json: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}
