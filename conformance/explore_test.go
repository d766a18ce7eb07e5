package conformance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/reference"
)

func init() {
	for name, v := range map[string]reference.Variant{"explore-broken": reference.VariantIgnoreRetryAfter, "explore-fixed": ""} {
		runCases[name] = func(t *testing.T) {
			conformance.Run(t, func(t *testing.T, s *conformance.Session) {
				reference.Play(t.Context(), s, reference.Options{Stream: true, Variant: v})
			}, conformance.Scenarios("anthropic/parallel-tools"), conformance.Capabilities("anthropic", "stream", "retry"),
				conformance.Explore(2), conformance.Seed(1))
		}
	}
}

// runChildIn runs TestHelperRun's case name in dir, where Run keeps its
// regression files.
func runChildIn(t *testing.T, dir, name string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRun$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "LLMTCK_RUN_CASE="+name, conformance.SeedEnv+"=")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatal(err)
	}
	return string(out), err == nil
}

// A generated scenario that fails is shrunk, kept under
// testdata/llmtck/explore and played on the next run: it fails there
// while the bug stays, and passes once it is fixed.
func TestExploreKeepsShrunkFailures(t *testing.T) {
	if os.Getenv("LLMTCK_RUN_CASE") != "" {
		t.Skip("in the child process")
	}
	dir := t.TempDir()
	out, passed := runChildIn(t, dir, "explore-broken")
	if passed || !strings.Contains(out, "--- FAIL: TestHelperRun/explore/anthropic/1/RETRY-003 ") || !strings.Contains(out, "shrunk in") {
		t.Fatalf("the broken engine was not caught and shrunk at seed 1:\n%s", out)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, conformance.RegressionDir, "anthropic-*.json"))
	if len(kept) == 0 {
		t.Fatalf("no regression file kept:\n%s", out)
	}
	for _, p := range kept {
		data, _ := os.ReadFile(p)
		sc, err := scenario.Parse("anthropic/"+strings.TrimSuffix(filepath.Base(p), ".json"), data)
		if err != nil {
			t.Fatal(err)
		}
		if len(sc.Turns) > 2 || !strings.Contains(sc.Description, "Replay:") {
			t.Errorf("%s: %d turns (want at most 2), description %q", p, len(sc.Turns), sc.Description)
		}
	}
	name := strings.TrimSuffix(filepath.Base(kept[0]), ".json")
	if out, passed := runChildIn(t, dir, "explore-broken"); passed || !strings.Contains(out, "--- FAIL: TestHelperRun/explore/regression/"+name+" ") {
		t.Errorf("the kept file did not fail the next run:\n%s", out)
	}
	if out, passed := runChildIn(t, dir, "explore-fixed"); !passed || !strings.Contains(out, "--- PASS: TestHelperRun/explore/regression/"+name+" ") {
		t.Errorf("the fixed engine does not pass the kept file:\n%s", out)
	}
}
