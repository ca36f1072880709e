package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// listedPackage is what `go list -json` says of a package.
type listedPackage struct {
	ImportPath string
	Standard   bool
	Module     *struct{ Main bool }
	Imports    []string
	Deps       []string
}

// ours reports whether p is a package of this module (not the standard
// library's, not a third party's).
func (p listedPackage) ours() bool { return p.Module != nil && p.Module.Main }

const modulePath = "github.com/testctl/testctl/"

// The rules of docs/architecture.md's "Dependencies point one way" that a
// package list can check. Paths are relative to the module.
var (
	// emulatorLinkers alone import the emulator: the factory starts it for
	// --sandbox, `testctl sandbox` serves it, cmdtest runs tests on it.
	emulatorLinkers = []string{"cmd/factory", "cmd/sandbox", "internal/cmdtest"}
	// notWaiting are commands that do not wait on runs: they share checks
	// with the wait (pkg/flagcheck, pkg/api) but never link it.
	notWaiting = []string{"cmd/tunnel/", "cmd/run/get"}
	// leaves decide and name outcomes: the standard library and our own
	// leaves only, so nothing can make them heavy or change them underneath.
	leaves = []string{"pkg/verdict", "pkg/exitcode"}
	// streamsNeed are the only packages of ours pkg/iostreams may depend on:
	// streams, terminals and colour know nothing of the domain (the views
	// pick the colour of an outcome), as gh's iostreams imports nothing of gh.
	streamsNeed = []string{"pkg/termtext"}
)

// The guard: the packages that ship (tests aside) keep the dependency rules.
func TestDependenciesPointOneWay(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed to list the packages: %v", err)
	}
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,Module,Imports,Deps", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	pkgs, err := decodePackages(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range dependencyViolations(pkgs) {
		t.Error(v)
	}
}

func decodePackages(data []byte) ([]listedPackage, error) {
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
}

// dependencyViolations lists each broken rule, one sentence each.
func dependencyViolations(pkgs []listedPackage) []string {
	byPath := map[string]listedPackage{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	within := func(p listedPackage, prefixes []string) bool {
		rel := strings.TrimPrefix(p.ImportPath, modulePath)
		return slices.ContainsFunc(prefixes, func(pre string) bool {
			return rel == pre || strings.HasSuffix(pre, "/") && strings.HasPrefix(rel, pre)
		})
	}
	const emulator, wait, streams = modulePath + "pkg/sandbox", modulePath + "pkg/runwait", modulePath + "pkg/iostreams"
	var found []string
	for _, p := range pkgs {
		if !p.ours() {
			continue
		}
		rel := strings.TrimPrefix(p.ImportPath, modulePath)
		if slices.Contains(p.Imports, emulator) && !within(p, emulatorLinkers) {
			found = append(found, rel+" imports pkg/sandbox: only "+strings.Join(emulatorLinkers, ", ")+
				" may link the emulator (commands reach it through cmd/factory)")
		}
		if strings.HasPrefix(rel, "pkg/") && slices.ContainsFunc(p.Imports, func(i string) bool { return strings.HasPrefix(i, modulePath+"cmd/") }) {
			found = append(found, rel+" imports the command tree: pkg/ holds what commands use, never the reverse (a test helper that runs the tree lives under internal/)")
		}
		if slices.Contains(p.Deps, wait) && within(p, notWaiting) {
			found = append(found, rel+" depends on pkg/runwait, the wait: move what it borrows to a package both can use")
		}
		if within(p, leaves) {
			for _, d := range p.Deps {
				if dep, ok := byPath[d]; ok && !dep.Standard && !dep.ours() {
					found = append(found, rel+" depends on "+d+", a third party's: a leaf imports the standard library and our leaves only")
				}
			}
		}
		if p.ImportPath == streams {
			for _, d := range p.Deps {
				if dep, ok := byPath[d]; ok && dep.ours() && !within(dep, streamsNeed) {
					found = append(found, rel+" depends on "+strings.TrimPrefix(d, modulePath)+
						": pkg/iostreams knows nothing of the domain (only "+strings.Join(streamsNeed, ", ")+"); the views own their colours")
				}
			}
		}
	}
	return found
}

// The guard finds what it is for: each rule broken once, and nothing when
// they are kept.
func TestDependencyGuardFindsViolations(t *testing.T) {
	thisModule := &struct{ Main bool }{true}
	other := &struct{ Main bool }{false}
	pkg := func(rel string, imports []string, deps ...string) listedPackage {
		return listedPackage{ImportPath: modulePath + rel, Module: thisModule, Imports: imports, Deps: append(deps, imports...)}
	}
	sandbox, runwait := modulePath+"pkg/sandbox", modulePath+"pkg/runwait"
	verdict, api, termtext := modulePath+"pkg/verdict", modulePath+"pkg/api", modulePath+"pkg/termtext"
	pkgs := []listedPackage{
		{ImportPath: "fmt", Standard: true},
		{ImportPath: "github.com/spf13/cobra", Module: other},
		pkg("pkg/sandbox", []string{"fmt"}),
		pkg("pkg/runwait", []string{"fmt"}),
		pkg("cmd/factory", []string{sandbox}),
		pkg("cmd/sandbox", []string{sandbox}),
		pkg("internal/cmdtest", []string{sandbox, modulePath + "cmd/root"}),
		pkg("pkg/helper", []string{modulePath + "cmd/root"}),    // 7: pkg/ importing the command tree
		pkg("pkg/cmdutil", []string{sandbox}),                   // 1
		pkg("cmd/run/wait", []string{runwait}),                  // allowed: it waits
		pkg("cmd/run/get", []string{"fmt"}, runwait),            // 2: through another package
		pkg("cmd/tunnel/status", []string{runwait}),             // 3
		pkg("pkg/verdict", []string{"fmt"}),                     // clean
		pkg("pkg/exitcode", []string{"github.com/spf13/cobra"}), // 4
		pkg("pkg/api", []string{"fmt"}),
		pkg("pkg/termtext", []string{"fmt"}),
		pkg("pkg/iostreams", []string{termtext, verdict, "github.com/spf13/cobra"}, api), // 5, 6: the outcome, and the API through it
	}
	got := dependencyViolations(pkgs)
	for _, want := range []string{"pkg/cmdutil imports pkg/sandbox", "cmd/run/get depends on pkg/runwait",
		"cmd/tunnel/status depends on pkg/runwait", "pkg/exitcode depends on github.com/spf13/cobra",
		"pkg/iostreams depends on pkg/verdict", "pkg/iostreams depends on pkg/api", "pkg/helper imports the command tree"} {
		if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, want) }) {
			t.Errorf("the guard missed %q; it found:\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(got) != 7 {
		t.Errorf("the guard found %d violations, want 7:\n%s", len(got), strings.Join(got, "\n"))
	}
}

// The Factory holds dependencies only: a command line's own state (the
// record of its runs and reports for a CI step's outputs) travels with the
// command line, never in the factory that concurrent MCP tool calls share.
func TestFactoryHoldsNoCommandState(t *testing.T) {
	perCommand := []string{modulePath + "pkg/stepoutputs"}
	ft := reflect.TypeFor[cmdutil.Factory]()
	for i := range ft.NumField() {
		f := ft.Field(i)
		typ := f.Type
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if slices.Contains(perCommand, typ.PkgPath()) {
			t.Errorf("cmdutil.Factory.%s is a command line's own state (%s): pass it with the command line", f.Name, typ)
		}
	}
}
