package reconcile

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"
)

// reconcile sits above pkg/api and below the commands; pkg/wait, whose
// reruns it reconciles, must stay free to be split without it.
func TestDoesNotImportWait(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/testctl/testctl/pkg/wait" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
