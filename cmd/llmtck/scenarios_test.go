package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/fixtures"
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
		cols := strings.Split(l, "\t")
		provider, what, ok := strings.Cut(cols[0], "/")
		if !ok || provider == "" || what == "" || strings.Contains(cols[0], " ") {
			t.Errorf("line %q does not start with a <provider>/<what> name", l)
		}
		if len(cols) != 4 || !strings.HasSuffix(cols[1], " steps") || !strings.HasPrefix(cols[2], "requires "+provider) || cols[3] == "" {
			t.Errorf("line %q: want name, N steps, requires <provider>[,…], description", l)
		}
	}
	if !strings.Contains(out, "anthropic/thinking-tool-loop\t3 steps\trequires anthropic\tSigned thinking") {
		t.Errorf("list lacks anthropic/thinking-tool-loop as expected:\n%s", out)
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
	code, out, errOut = runCLI(t, "check", "--format", "json", dir)
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("check on the exported cassettes exited %d: %v\n%s", code, err, errOut)
	}
	if rep.Summary.Files != len(scenario.Names()) {
		t.Errorf("check read %d files, want one per scenario (%d)", rep.Summary.Files, len(scenario.Names()))
	}
	for _, f := range rep.Files {
		for _, fd := range f.Findings {
			// A stream the scenario's user stopped is partial by design: a
			// cut stream is a warning, never an error.
			if strings.HasSuffix(f.Path, filepath.FromSlash("anthropic/aborted-stream.yaml")) && fd.Check == "ANT-STREAM-001" && fd.Severity == check.SeverityWarning {
				t.Logf("expected: %s: %s", f.Path, fd)
				continue
			}
			if fd.Severity != check.SeverityInfo {
				t.Errorf("%s: %s", f.Path, fd)
			}
		}
	}
}

// scenarios show prints a scenario for people, or with --json the file a
// harness in another language reads; an unknown name is a usage error.
func TestScenariosShow(t *testing.T) {
	code, out, _ := runCLI(t, "scenarios", "show", "anthropic/schema-retry")
	if code != 0 || !strings.Contains(out, "turn 1 (anthropic, claude-sonnet-4-5): Extract the contact") ||
		!strings.Contains(out, "retried once with the ephemeral feedback") || !strings.Contains(out, "  step 2:") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "scenarios", "show", "anthropic/schema-retry", "--json")
	want, _ := fixtures.Scenarios.ReadFile("scenarios/anthropic/schema-retry.json")
	if code != 0 || out != string(want) {
		t.Fatalf("show --json: exit %d, the file itself expected", code)
	}
	if code, _, stderr := runCLI(t, "scenarios", "show", "anthropic/nope"); code != 2 || !strings.Contains(stderr, "no scenario") {
		t.Errorf("unknown scenario: exit %d %s", code, stderr)
	}
}
