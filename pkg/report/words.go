package report

import (
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/verdict"
)

// ClassStyle is the colour of a class's mark and words on a terminal:
// green passed, red failed or errored, yellow skipped, flaky or not run;
// none for "". The views own their colours: iostreams knows no outcome.
func ClassStyle(st *iostreams.Styles, c verdict.Class) func(string) string {
	switch c {
	case verdict.Passed:
		return st.Success
	case verdict.Failed, verdict.Errored:
		return st.Failure
	case verdict.Skipped, verdict.Flaky, verdict.NotRun:
		return st.Warning
	}
	return plain
}

func plain(s string) string { return s }

// ColorStatus colours a run's or test case's status or result word, as the
// service sends it, by the class it stands for (verdict.WordClass); a word
// testctl does not know stays plain.
func ColorStatus(st *iostreams.Styles, word string) string {
	return ClassStyle(st, verdict.WordClass(word))(word)
}

// RunStyle is the colour of a run's status: its code's first (a run the
// gate fails is never green), then yellow when it passed with warnings.
func RunStyle(st *iostreams.Styles, r verdict.Run) func(string) string {
	switch {
	case r.Code != 0:
		return st.Failure
	case r.Warned():
		return st.Warning
	}
	return st.Success
}
