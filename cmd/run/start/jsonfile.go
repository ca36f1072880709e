package start

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/userfile"
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

// readSource reads FILE, or standard input for "-", until ctx ends.
func readSource(ctx context.Context, ios *iostreams.IOStreams, flag, path string) (*jsonSource, error) {
	var data []byte
	var err error
	name := path
	if path == "-" {
		name = "(stdin)"
		data, err = userfile.ReadStream(ctx, ios.In, maxInputBytes)
	} else {
		data, err = userfile.Read(ctx, path, userfile.Rule{Max: maxInputBytes})
	}
	if _, ok := errors.AsType[*userfile.TooLargeError](err); ok {
		return nil, exitcode.FlagErrorf("--%s %s: larger than %d MiB", flag, name, maxInputBytes>>20)
	}
	if err != nil && ctx.Err() != nil {
		return nil, err // the signal's code, not a usage error
	}
	if err != nil {
		return nil, exitcode.FlagErrorf("--%s: %v", flag, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, exitcode.FlagErrorf("--%s %s: empty input, expected JSON", flag, name)
	}
	return &jsonSource{flag: flag, name: name, data: data}, nil
}

// checkSyntax reports the first syntax error of the whole document, with
// its exact position: the offsets of a streaming decoder's syntax errors
// are relative to where it resumed, so they cannot place the error.
func (s *jsonSource) checkSyntax() error {
	var raw json.RawMessage
	err := json.Unmarshal(s.data, &raw)
	if syntax, ok := errors.AsType[*json.SyntaxError](err); ok {
		at := syntax.Offset - 1 // the offending byte
		if at == int64(len(s.data))-1 && strings.HasPrefix(syntax.Error(), "unexpected end") {
			at++ // just past the last byte
		}
		return s.errorf(at, "%s", syntax.Error())
	}
	return err
}

// errorf reports a problem at byte offset off of the document.
func (s *jsonSource) errorf(off int64, format string, args ...any) error {
	off = max(0, min(off, int64(len(s.data))))
	before := s.data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return exitcode.FlagErrorf("--%s %s: line %d, column %d: %s", s.flag, s.name, line, col, fmt.Sprintf(format, args...))
}

// stream returns a decoder over the document, which checkSyntax has found
// well formed, and reads its opening delimiter, which must be want.
func (s *jsonSource) stream(want json.Delim, what string) (*json.Decoder, error) {
	if err := s.checkSyntax(); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(s.data))
	if tok, err := dec.Token(); err != nil || tok != want {
		return nil, s.errorf(s.skipBlank(0), "expected %s", what)
	}
	return dec, nil
}

// next reads the next value of the stream whole, with its offset.
func (s *jsonSource) next(dec *json.Decoder) (json.RawMessage, int64, error) {
	start := dec.InputOffset()
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, 0, s.errorf(s.skipBlank(start), "%v", err) // not expected after checkSyntax
	}
	return raw, s.skipBlank(start), nil
}

// decodeAt decodes raw, found at offset start, strictly: unknown fields are
// errors, so a misspelt member is not silently dropped, and numbers keep
// every digit.
func (s *jsonSource) decodeAt(raw json.RawMessage, start int64, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	err := dec.Decode(v)
	if typ, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		field := cmp.Or(typ.Field, "value")
		// Offset is just past the offending value.
		return s.errorf(start+typ.Offset-1, "%s: expected %s, got a JSON %s", field, jsonKind(typ.Type.Kind().String()), typ.Value)
	}
	if err == nil {
		return nil
	}
	// Unknown fields carry no offset: point at the value that holds one.
	return s.errorf(start, "%s", strings.TrimPrefix(err.Error(), "json: "))
}

// skipBlank moves off past white space and value separators to where the
// next value starts, for messages that point at a value.
func (s *jsonSource) skipBlank(off int64) int64 {
	if i := bytes.IndexFunc(s.data[off:], func(r rune) bool { return !strings.ContainsRune(" \t\r\n,:", r) }); i >= 0 {
		return off + int64(i)
	}
	return int64(len(s.data))
}

func jsonKind(goKind string) string {
	switch goKind {
	case "map", "struct", "ptr":
		return "an object"
	case "slice", "array":
		return "an array"
	}
	return "a " + goKind
}
