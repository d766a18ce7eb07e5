package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScenariosList(t *testing.T) {
	code, out, errOut := runCLI(t, "scenarios", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 {
		t.Fatalf("list printed %q", out)
	}
	for _, l := range lines {
		name, _, _ := strings.Cut(l, "\t")
		if !strings.HasPrefix(name, "anthropic/") || strings.Contains(name, " ") {
			t.Errorf("line %q does not start with a <provider>/<what> name", l)
		}
	}
	if _, bare, _ := runCLI(t, "scenarios"); bare != out {
		t.Errorf("bare scenarios printed %q, want the list", bare)
	}
	if code, _, _ := runCLI(t, "scenarios", "export"); code != 2 {
		t.Errorf("export without DIR exited %d, want 2", code)
	}
}

// Exported scenarios are cassettes the checker reads and passes.
func TestScenariosExport(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "scenarios", "export", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, name := range []string{"thinking-tool-loop", "parallel-tools", "redacted-thinking"} {
		path := filepath.Join(dir, "anthropic", name+".yaml")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, path) || !strings.HasPrefix(string(data), "---\nversion: 1\n") {
			t.Errorf("%s: not reported or not a go-vcr v2 cassette", path)
		}
	}
	if code, out, errOut := runCLI(t, "check", dir); code != 0 {
		t.Fatalf("check on the exported cassettes exited %d\n%s%s", code, out, errOut)
	}
}
