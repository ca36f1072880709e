package output

import (
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/iostreams"
)

// BesideStreams are the streams a command renders its table on for
// o.Beside, after it printed its document: stdout is Beside, off a
// terminal and without colour (stable columns, nothing cut); stderr is
// discarded, since the document's own notes went to the real one. Nil when
// there is no Beside, or the output is a table already.
func BesideStreams(o Options) *iostreams.IOStreams {
	if o.Beside == nil || !o.IsStructured() {
		return nil
	}
	ios := iostreams.New(strings.NewReader(""), o.Beside, io.Discard)
	ios.SetStdoutTTY(false)
	ios.SetStderrTTY(false)
	ios.SetNoColorEnv(true)
	return ios
}
