package conformance

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/conformance/report"
)

// update is Golden's own flag, namespaced so it never collides with an
// -update flag of the test package (a package that defines one gets Golden
// to honour it too).
var update = flag.Bool("llmtck.update", false, "rewrite the golden files of conformance.Golden")

// Golden pins what a harness sent: it renders the requests of a recorded
// cassette as a normalised, human-readable transcript (report.Transcript)
// and compares it with testdata/<test name>.golden (or GoldenFile).
// Volatile ids, dates and request ids are replaced by stable placeholders
// and opaque payloads are shown by length and hash, so the golden file
// changes only when what the harness sends changes.
//
// It rewrites the file instead when run with -llmtck.update, with an -update
// flag the test package defines, or with LLMTCK_UPDATE=1; a failure ends
// with the command to do so.
func Golden(t TB, path string, opts ...Option) {
	t.Helper()
	cfg, err := newConfig(entryGolden, opts)
	if err != nil {
		t.Fatalf("%v", err)
		return
	}
	tr, err := report.LoadTraffic(path, cfg.wire)
	if err != nil {
		t.Fatalf("%v", err)
		return
	}
	name := cfg.goldenFile
	if name == "" {
		name = strings.NewReplacer("/", "__", " ", "_").Replace(t.Name()) + ".golden"
	}
	file := filepath.Join("testdata", name)
	got := report.Transcript(tr)
	if updating() {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatalf("%v", err)
			return
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatalf("%v", err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("conformance.Golden: %s does not exist yet; to write it, run\n\t%s", file, updateCommand(t.Name()))
		return
	}
	if err != nil {
		t.Fatalf("%v", err)
		return
	}
	if d := cmp.Diff(lines(string(want)), lines(got)); d != "" {
		t.Errorf("conformance.Golden: %s mismatch (-want +got):\n%s\nIf the change is deliberate, rewrite the file:\n\t%s", file, d, updateCommand(t.Name()))
	}
}

// updating reports whether golden files are to be rewritten.
func updating() bool {
	if *update || os.Getenv("LLMTCK_UPDATE") == "1" {
		return true
	}
	if f := flag.Lookup("update"); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			if on, ok := g.Get().(bool); ok {
				return on
			}
		}
	}
	return false
}

// updateCommand is the command that rewrites the golden file of test name.
func updateCommand(name string) string {
	top, _, _ := strings.Cut(name, "/")
	fl := "-llmtck.update"
	if flag.Lookup("update") != nil {
		fl = "-update"
	}
	return fmt.Sprintf("go test -run '^%s$' %s", top, fl)
}

func lines(s string) []string { return strings.SplitAfter(s, "\n") }
