package api

import "github.com/testctl/testctl/pkg/jsonscan"

// The two list answers give each item its own bytes as well as the page's,
// so that `--all -o json` can stream the service's items page after page.
// The page is decoded as usual; the items' bytes are then found by a plain
// scan of the (already validated) document, which costs a fraction of
// decoding the items a second time. A key written with escapes is not
// recognised: list items then have no bytes of their own and are printed by
// encoding them (see Raw).

// SetRawJSON keeps the page's document and each run's.
func (l *RunList) SetRawJSON(b []byte) {
	l.Raw.SetRawJSON(b)
	if items := jsonscan.ReadPage(l.Raw.RawJSON(), "runs", "").Items; len(items) == len(l.Runs) {
		for i := range l.Runs {
			l.Runs[i].SetRawJSON(items[i])
		}
	}
}

// SetRawJSON keeps the page's document and each test case's.
func (l *TestCaseList) SetRawJSON(b []byte) {
	l.Raw.SetRawJSON(b)
	if items := jsonscan.ReadPage(l.Raw.RawJSON(), "testCases", "").Items; len(items) == len(l.TestCases) {
		for i := range l.TestCases {
			l.TestCases[i].SetRawJSON(items[i])
		}
	}
}
