package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// outcomeWords are the statuses and results of runs and test cases as the
// service sends them. Only the outcome model (pkg/verdict), the API models
// (pkg/api) and the emulator (pkg/sandbox) may compare with them: anywhere
// else such a comparison is a second classifier, which sooner or later
// disagrees with the verdict (a false green).
var outcomeWords = []string{"PASSED", "FAILED", "SKIPPED", "COMPLETED", "ERROR", "CANCELLED", "RUNNING", "INITIATED", "QUEUED"}

// outcomeOwners may compare statuses: they decide, or they are the wire.
var outcomeOwners = []string{"pkg/verdict/", "pkg/api/", "pkg/sandbox/"}

// outcomeExceptions are lines that compare a status for a reason of their
// own, each with it.
var outcomeExceptions = map[string]string{
	// The benchmark's floor is a client written with the standard library
	// alone, so that it measures what any Go client pays: it cannot call
	// the outcome model, and decides nothing anyone reads.
	`scripts/bench.sh: if tc.Result == "FAILED" || tc.Result == "ERROR" {`: "the floor of the failure story",
}

// The guard: no comparison with a run or test case status or result outside
// the outcome model, in the repository's non-test Go, JavaScript (and the
// HTML pages that carry it), shell and YAML. Each finding is file:line.
func TestNoStatusComparisonOutsideTheOutcomeModel(t *testing.T) {
	var found []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "e2e", "acceptance":
				return filepath.SkipDir
			}
			return nil
		}
		slash := filepath.ToSlash(path)
		if slices.ContainsFunc(outcomeOwners, func(p string) bool { return strings.HasPrefix(slash, p) }) {
			return nil
		}
		switch ext := filepath.Ext(path); {
		case ext == ".go" && !strings.HasSuffix(path, "_test.go"):
			found = append(found, goComparisons(t, path)...)
		case ext == ".js" || ext == ".html" || ext == ".sh" || ext == ".yml" || ext == ".yaml" || strings.HasPrefix(slash, ".ci/"):
			found = append(found, textComparisons(t, path)...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("%d comparisons with a status or result outside pkg/verdict (decide there, render here):\n%s",
			len(found), strings.Join(found, "\n"))
	}
}

// The guard finds what it is for: a file of each kind with a comparison.
func TestStatusGuardFindsComparisons(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goFile := write("x.go", `package x
import "github.com/testctl/testctl/pkg/api"
func a(s, r string) bool { return s == "COMPLETED" || r != api.ResultFailed }
func b(s string) int { switch s { case "PASSED": return 1 }; return 0 }
func c(s string) bool { return api.IsTerminalStatus(s) }
var m = map[string]int{api.StatusError: 3}
var help = "select(.result == \"FAILED\")" // text, not a comparison
`)
	if got := goComparisons(t, goFile); len(got) != 5 {
		t.Errorf("Go: %d findings, want 5:\n%s", len(got), strings.Join(got, "\n"))
	}
	for name, content := range map[string]string{
		"x.js":   "if (c.result === 'FAILED') {}\nswitch (s) { case \"PASSED\": }\n",
		"x.html": "<script>\nif (c.result !== \"PASSED\") show();\nvar ok = run.status == 'COMPLETED';\n</script>\n",
		"x.sh":   "if [ \"$status\" = \"COMPLETED\" ]; then :; fi\ncase $r in PASSED) ;; esac\n",
		"x.yml":  "run: |\n  case \"$code\" in\n    1) verdict=failed ;;\n  esac\nif: ${{ steps.x.outputs.result == 'FAILED' }}\n",
	} {
		if got := textComparisons(t, write(name, content)); len(got) != 2 {
			t.Errorf("%s: %d findings, want 2:\n%s", name, len(got), strings.Join(got, "\n"))
		}
	}
}

// goComparisons are the comparisons of one Go file: == and != with a status
// word or an api.Status*/api.Result* constant, a case of a switch, a map
// key, and api.IsTerminalStatus (verdict.Final is the one to call).
func goComparisons(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	report := func(n ast.Node, what string) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), what))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isOutcome(n.X) || isOutcome(n.Y)) {
				report(n, "comparison")
			}
		case *ast.CaseClause:
			if slices.ContainsFunc(n.List, isOutcome) {
				report(n, "case")
			}
		case *ast.KeyValueExpr:
			if isOutcome(n.Key) {
				report(n, "map key")
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "IsTerminalStatus" {
				report(n, "api.IsTerminalStatus (call verdict.Final)")
			}
		}
		return true
	})
	return out
}

// isOutcome reports whether e is a status or result: a string literal of
// one, or a constant of the API models.
func isOutcome(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return e.Kind == token.STRING && err == nil && slices.Contains(outcomeWords, s)
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "api" && (strings.HasPrefix(e.Sel.Name, "Status") || strings.HasPrefix(e.Sel.Name, "Result"))
	}
	return false
}

// textComparison finds, in JavaScript, shell and YAML, a status word
// compared (==, ===, !=, !==, a test's =) or used as a case, and an exit
// code turned into a word by a case of its own (the Action's verdict): the
// word of a code is testctl's to say.
var textComparison = regexp.MustCompile(
	`(?:[!=]==?|\s=)\s*['"]?(?:` + strings.Join(outcomeWords, "|") + `)\b|` +
		`\b(?:` + strings.Join(outcomeWords, "|") + `)['"]?\s*(?:[!=]==?|\s=\s)|` +
		`\bcase\s+['"](?:` + strings.Join(outcomeWords, "|") + `)['"]|` +
		`(?:^|\s)(?:` + strings.Join(outcomeWords, "|") + `)(?:\|\w+)*\)|` +
		`\b\d+\)\s*verdict=`)

func textComparisons(t *testing.T, path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, line := range strings.Split(string(b), "\n") {
		if _, ok := outcomeExceptions[filepath.ToSlash(path)+": "+strings.TrimSpace(line)]; ok {
			continue
		}
		if textComparison.MatchString(line) {
			out = append(out, fmt.Sprintf("%s:%d: %s", path, i+1, strings.TrimSpace(line)))
		}
	}
	return out
}
