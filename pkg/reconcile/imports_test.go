package reconcile

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"
)

// reconcile sits above pkg/api and below the commands; the wait, whose
// reruns it reconciles, imports nothing of it and it nothing of the wait.
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
			path, _ := strconv.Unquote(imp.Path.Value)
			switch path {
			case "github.com/testctl/testctl/pkg/runwait", "github.com/testctl/testctl/pkg/poll",
				"github.com/testctl/testctl/pkg/report", "github.com/testctl/testctl/pkg/verdict":
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
