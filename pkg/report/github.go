package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/testctl/testctl/pkg/atomicfile"
)

// GitHubReporters are the reports of GitHub Actions, each a reporter of
// its own so that one that cannot be written stops none of the others: the
// annotations (workflow commands on stderr: GitHub reads them from both
// streams, and stdout is for data), the step summary and the step
// outputs, appended to the files GitHub gives the step. Outside GitHub
// Actions there are none.
func GitHubReporters(getenv func(string) string, stderr io.Writer, res Resume) []Reporter {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	file := func(env, what string, write func(io.Writer, Outcome) error) Reporter {
		// A file whose probe failed was said to be; it is not tried again.
		var unwritable error
		return reporter{name: what, states: true,
			probe: func(Outcome) error {
				if path := getenv(env); path != "" {
					if unwritable = atomicfile.ProbeAppend(path); unwritable != nil {
						return fmt.Errorf("GitHub Actions: writing %s: %w", what, unwritable)
					}
				}
				return nil
			},
			end: func(out Outcome) error {
				if unwritable != nil {
					return nil
				}
				if err := appendTo(getenv(env), func(w io.Writer) error { return write(w, out) }); err != nil {
					return fmt.Errorf("GitHub Actions: writing %s: %w", what, err)
				}
				return nil
			}}
	}
	return []Reporter{
		reporter{name: "the annotations", states: true, end: func(out Outcome) error {
			WriteAnnotations(stderr, out.Verdict, out.Code, out.Evidence, res)
			return nil
		}},
		file("GITHUB_STEP_SUMMARY", "the step summary", func(w io.Writer, out Outcome) error {
			return WriteStepSummary(w, out.Verdict, out.Code, out.Evidence, res)
		}),
		file("GITHUB_OUTPUT", "the step outputs", func(w io.Writer, out Outcome) error { return WriteOutputs(w, out.Verdict) }),
	}
}

// appendTo appends what write writes to path, creating it if needed;
// nothing when path is "". GitHub Actions gives every step the same
// summary and output files to append to.
func appendTo(path string, write func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	// Not os.OpenFile: a named pipe nobody reads would block it for good.
	return atomicfile.Append(path, b.Bytes(), 0o644)
}
