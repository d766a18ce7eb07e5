package layout

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/llmtck/llmtck/"

// allowed says, for each package (or folder of packages, ending in "/"),
// which of the module's packages it may import (a trailing "/" takes the
// folder and everything under it). A package's own row wins over its
// folder's. It is DESIGN.md's layout table as data: a new arrow is a
// deliberate change here and there.
var allowed = map[string][]string{
	"cmd/":      {"proxy", "cassette/", "conformance/", "reference/", "traffic", "fixtures", "internal/"},
	"examples/": {"proxy", "cassette/", "conformance/", "reference/", "traffic", "internal/"},
	"engine":    {"traffic", "reference/engine"}, // deprecated aliases, one release
	"engine/":   {"reference/store/"},

	"proxy": {"cassette/", "conformance/check", "conformance/lint", "providers/", "traffic", "internal/"},

	"conformance":           {"conformance/", "cassette/", "reference/store/", "traffic"},
	"conformance/check":     {"traffic"},
	"conformance/checks":    {"conformance/checks/", "conformance/check"},
	"conformance/checks/":   {"conformance/check", "conformance/internal/", "providers/", "traffic", "internal/rawjson", "internal/redact"},
	"conformance/internal/": {"conformance/check", "conformance/internal/", "providers/responses", "traffic", "internal/rawjson"},
	"conformance/lint":      {"conformance/check", "conformance/internal/thread", "providers/", "traffic"},
	"conformance/report":    {"conformance/check", "cassette/", "providers/", "traffic", "internal/"},
	"conformance/view":      {"conformance/check", "conformance/checks", "conformance/report", "traffic"},
	"conformance/scenario":  {"providers/", "traffic", "fixtures", "internal/"},
	"conformance/simulator": {"conformance/check", "conformance/checks", "conformance/lint", "conformance/scenario", "cassette/", "providers/", "traffic", "internal/"},
	"reference":             {"conformance/simulator", "reference/", "providers/", "traffic", "internal/"},
	"reference/engine":      {"traffic", "internal/rawjson"},
	"reference/harness":     {"reference/engine", "reference/store", "providers/", "traffic", "internal/rawjson"},
	"reference/store":       {},
	"reference/store/":      {"reference/store", "internal/rawjson"},
	"providers":             {"providers/", "traffic", "cassette/", "internal/"},
	"providers/":            {"providers/", "traffic", "cassette/", "internal/"},
	"traffic":               {"internal/rawjson"},
	"cassette":              {"cassette/", "internal/"},
	"cassette/":             {"cassette/", "internal/"},
	"fixtures":              {},
	"internal/":             {"internal/"},

	// The check families' test helper, imported by their tests only.
	"conformance/checks/checktest": {"conformance/check", "conformance/checks", "conformance/lint", "providers", "traffic", "fixtures", "cassette", "internal/corpus"},
}

// rule returns the row that governs pkg: its own, or the nearest folder's.
func rule(pkg string) (deps []string, row string, ok bool) {
	if r, ok := allowed[pkg]; ok {
		return r, pkg, true
	}
	for dir := pkg; strings.Contains(dir, "/"); {
		dir = filepath.Dir(dir)
		if r, ok := allowed[dir+"/"]; ok {
			return r, dir + "/", true
		}
	}
	return nil, "", false
}

func allows(row []string, dep string) bool {
	for _, a := range row {
		if dep == a {
			return true
		}
		if folder, ok := strings.CutSuffix(a, "/"); ok && (dep == folder || strings.HasPrefix(dep, a)) {
			return true
		}
	}
	return false
}

// Every package of the module imports only what its row allows, so the
// arrows point one way: cmd → proxy → conformance → providers → traffic →
// internal, with the reference engine beside the simulator.
func TestArrowsPointOneWay(t *testing.T) {
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gotool, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		row, key, ok := rule(pkg)
		if !ok {
			t.Errorf("%s has no row in the layout table (allowed)", pkg)
			continue
		}
		for _, dep := range fields[1:] {
			dep, own := strings.CutPrefix(dep, module)
			if own && !allows(row, dep) {
				t.Errorf("%s imports %s, which its row %q does not allow", pkg, dep, key)
			}
		}
	}
}

// Arrows that must never appear, whatever the rows say.
func TestNoBackArrows(t *testing.T) {
	never := [][2]string{
		{"traffic", "providers"}, {"traffic", "conformance/check"}, {"traffic", "reference/engine"},
		{"providers/anthropic", "conformance/check"}, {"cassette", "traffic"},
		{"reference/engine", "providers"}, {"conformance/check", "conformance/checks"},
		{"conformance/checks/crosswire", "conformance/lint"}, {"cassette", "proxy"},
	}
	for _, n := range never {
		if row, _, _ := rule(n[0]); allows(row, n[1]) {
			t.Errorf("the layout table lets %s import %s", n[0], n[1])
		}
	}
}

// The recorder links no check: the CLI builds its judge with the checks it
// names (proxy.Judge), so a program that records links only what it runs.
func TestProxyLinksNoCatalogue(t *testing.T) {
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gotool, "list", "-deps", module+"proxy").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, module+"conformance/checks") {
			t.Errorf("proxy links %s", dep)
		}
	}
}
