package api

import (
	"bytes"
	"encoding/json"
)

// Raw keeps the JSON document a model was decoded from, byte for byte. The
// contract makes -o json the service's own document: fields this client
// does not know are kept, and fields the service did not send are not
// invented, which re-encoding the typed model could do neither of. Every
// answer model embeds it; pkg/output prints RawJSON when it is set.
//
// A model built by hand (tests, the sandbox) has no raw document, and is
// printed by encoding its fields.
type Raw struct {
	raw json.RawMessage
}

// RawJSON returns the service's document, or nil for a model that was not
// decoded from an answer.
func (r Raw) RawJSON() json.RawMessage { return r.raw }

// SetRawJSON replaces the kept document: for a caller that must change
// what is printed (see EditStrings) or builds a model from another source.
func (r *Raw) SetRawJSON(b []byte) { r.raw = json.RawMessage(bytes.TrimSpace(b)) }

// rawKeeper is a model embedding Raw.
type rawKeeper interface{ SetRawJSON([]byte) }

// KeepRaw stores body, the answer out was decoded from, in out when out
// embeds Raw. The client does it for every answer it decodes; a caller that
// decodes an answer itself (the wait engine's polls) calls it after
// json.Unmarshal. body must not be written to afterwards.
func KeepRaw(out any, body []byte) {
	if k, ok := out.(rawKeeper); ok {
		k.SetRawJSON(body)
	}
}
