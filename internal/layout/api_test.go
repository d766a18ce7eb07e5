package layout

import (
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// internalPath reports whether a package path is one only its own tree may
// import.
func internalPath(path string) bool {
	return strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}

// No exported declaration of a package users can import names a type of an
// internal package: a user could get such a value but never name its type
// (declare a variable of it, write a helper taking it).
func TestExportedAPINamesNoInternalType(t *testing.T) {
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gotool, "list", "-export", "-deps", "-f", `{{.ImportPath}} {{.Export}} {{.Name}} {{.Module}}`, module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	exports := map[string]string{}
	var public []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		exports[f[0]] = f[1]
		if strings.HasPrefix(f[0], module) && f[2] != "main" && !internalPath(strings.TrimPrefix(f[0], module)) {
			public = append(public, f[0])
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	sort.Strings(public)
	for _, path := range public {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		for _, problem := range internalTypesIn(pkg) {
			t.Errorf("%s: %s", strings.TrimPrefix(path, module), problem)
		}
	}
}

// internalTypesIn lists each exported declaration of pkg that names a type
// of an internal package, and where.
func internalTypesIn(pkg *types.Package) []string {
	var problems []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		w := walker{seen: map[types.Type]bool{}, report: func(where string, n *types.TypeName) {
			problems = append(problems, fmt.Sprintf("%s names %s.%s", where, n.Pkg().Path(), n.Name()))
		}}
		switch o := obj.(type) {
		case *types.TypeName:
			w.typeDecl(o)
		default:
			w.visit(name, obj.Type())
		}
	}
	return problems
}

type walker struct {
	seen   map[types.Type]bool
	report func(where string, n *types.TypeName)
}

// typeDecl walks an exported type: what it is made of and its exported
// methods.
func (w *walker) typeDecl(o *types.TypeName) {
	if o.IsAlias() {
		w.visit(o.Name(), o.Type())
		return
	}
	named, ok := o.Type().(*types.Named)
	if !ok {
		return
	}
	w.visit(o.Name(), named.Underlying())
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := range ms.Len() {
		if m := ms.At(i).Obj(); m.Exported() {
			w.visit(o.Name()+"."+m.Name(), m.Type())
		}
	}
}

// visit reports every internal named type t is built of, through what a
// user can reach: exported fields and methods, parameters and results.
func (w *walker) visit(where string, t types.Type) {
	if w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		w.visit(where, types.Unalias(t))
	case *types.Named:
		if n := t.Obj(); n.Pkg() != nil && internalPath(n.Pkg().Path()) && n.Exported() {
			w.report(where, n)
		}
		for i := range t.TypeArgs().Len() {
			w.visit(where, t.TypeArgs().At(i))
		}
	case *types.Pointer:
		w.visit(where, t.Elem())
	case *types.Slice:
		w.visit(where, t.Elem())
	case *types.Array:
		w.visit(where, t.Elem())
	case *types.Chan:
		w.visit(where, t.Elem())
	case *types.Map:
		w.visit(where, t.Key())
		w.visit(where, t.Elem())
	case *types.Signature:
		for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tuple.Len() {
				w.visit(where, tuple.At(i).Type())
			}
		}
	case *types.Struct:
		for i := range t.NumFields() {
			if f := t.Field(i); f.Exported() {
				w.visit(where+"."+f.Name(), f.Type())
			}
		}
	case *types.Interface:
		for i := range t.NumMethods() {
			if m := t.Method(i); m.Exported() {
				w.visit(where+"."+m.Name(), m.Type())
			}
		}
		for i := range t.NumEmbeddeds() {
			w.visit(where, t.EmbeddedType(i))
		}
	}
}
