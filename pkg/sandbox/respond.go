package sandbox

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// maxBodyBytes bounds request bodies: the sandbox may be left running on a
// shared machine, and no valid request comes near this.
const maxBodyBytes = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// compact, as the service answers: a client indents what it prints
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"message":"sandbox: cannot encode response"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// writeError answers with the service's error shape {"message": ...}.
func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, api.ErrorBody{Message: fmt.Sprintf(format, args...)})
}

// writeLegacyError answers with the legacy address's {"statusText": ...}.
func writeLegacyError(w http.ResponseWriter, status int, text string) {
	writeJSON(w, status, api.ErrorBody{StatusText: text})
}

// decodeBody reads a JSON object into v strictly: unknown fields, wrong
// types and trailing data are 400s with a message naming the problem, so a
// client bug surfaces here instead of being silently ignored. With optional
// set an empty body leaves v untouched.
func decodeBody(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return errorf(http.StatusUnsupportedMediaType, "Content-Type must be application/json, not %q", ct)
		}
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		return errorf(http.StatusRequestEntityTooLarge, "request body is larger than %d bytes", maxBodyBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		if optional {
			return nil
		}
		return errorf(http.StatusBadRequest, "request body is required: a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "%s", describeJSONError(err))
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, "malformed JSON body: unexpected data after the JSON object")
	}
	return nil
}

func describeJSONError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("malformed JSON body at byte %d: %v", syn.Offset, syn)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON body: unexpected end of input"
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Sprintf("request body must be a JSON object, not %s", typ.Value)
		}
		kind := typ.Type.Kind().String()
		return fmt.Sprintf("field %q must be %s, not %s", typ.Field, cmp.Or(jsonTypeNames[kind], "a "+kind), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ") + " in request body"
	}
	return "malformed JSON body: " + err.Error()
}

// jsonTypeNames name Go kinds as JSON types; another kind is "a <kind>".
var jsonTypeNames = map[string]string{"string": "a string", "bool": "a boolean", "slice": "an array",
	"map": "an object", "struct": "an object", "ptr": "an object",
	"int": "a number", "int32": "a number", "int64": "a number", "float64": "a number"}
