package output

import (
	"fmt"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
)

// DryRun is a request --dry-run shows instead of sending; -o json and yaml
// print it as this document.
type DryRun struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Body   any    `json:"body"` // a value encoding/json encodes, or json.RawMessage
}

// PrintDryRun shows requests the way every --dry-run does: with -o json or
// yaml as one document (an array for several requests), otherwise as each
// request starts on the wire (the request line, its Content-Type, a blank
// line, the indented JSON body), then a note on stderr that nothing was
// sent.
func PrintDryRun(ios *iostreams.IOStreams, out Options, ds ...DryRun) error {
	switch {
	case out.IsStructured() && len(ds) == 1:
		return Print(ios.Out, out, ds[0])
	case out.IsStructured():
		return Print(ios.Out, out, ds)
	}
	for i, d := range ds {
		if i > 0 {
			fmt.Fprintln(ios.Out)
		}
		if _, err := fmt.Fprintf(ios.Out, "%s %s\nContent-Type: application/json\n\n", d.Method, termtext.SanitizeLine(d.URL)); err != nil {
			return err
		}
		// Print escapes C1 controls and bidi overrides a pasted flag value
		// may hold, which encoding/json leaves as they are.
		if err := Print(ios.Out, Options{Format: FormatJSON}, d.Body); err != nil {
			return err
		}
	}
	fmt.Fprintln(ios.ErrOut, ios.ErrStyles().Muted("Dry run: nothing was sent."))
	return nil
}
