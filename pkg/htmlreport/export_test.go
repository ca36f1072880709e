package htmlreport

import "testing"

// For the tests that open a report testctl itself wrote (against the
// sandbox) in a browser: they import the command tree, which this
// package's own tests cannot.

type Page = page

func BrowserPath(t *testing.T) string {
	t.Helper()
	return browserPath(t)
}

func OpenFile(t *testing.T, browser, path string) *Page { return openFile(t, browser, path, 1280) }

func EvalStrings(t *testing.T, p *Page, js string) []string { return eval[[]string](t, p, js) }

func EvalInt(t *testing.T, p *Page, js string) int { return eval[int](t, p, js) }

func EvalBool(t *testing.T, p *Page, js string) bool { return eval[bool](t, p, js) }
