// Package pythonharness_test plays every bundled scenario with the Python
// example harness under llmtck test's runner.
package pythonharness_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/conformance/runner"
)

func python(t *testing.T) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed here, so the Python example harness cannot run: install python3 to play it")
	}
	return []string{py, "harness.py"}
}

// The Python example, standard library only, passes every bundled
// scenario, with no warning but the side requests it does not send.
func TestPythonHarnessPassesEveryScenario(t *testing.T) {
	cmd := python(t)
	all, err := runner.Bundled()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			r := runner.Run(context.Background(), s, runner.Options{Command: cmd, Timeout: 2 * time.Minute})
			if !r.Pass {
				t.Fatalf("%s failed:\n%s\noutput:\n%s", s.Name, strings.Join(r.Failures, "\n"), r.Output)
			}
			if len(r.Warnings) > 0 {
				t.Errorf("%s passed with warnings:\n%s", s.Name, strings.Join(r.Warnings, "\n"))
			}
		})
	}
}

// Kept as @google/genai's streamed Chat keeps a Gemini answer, a model
// content per chunk, the history passes without a warning: Gemini reads
// consecutive contents of one role as one turn.
func TestPythonHarnessGenAIChatHistory(t *testing.T) {
	cmd := python(t)
	all, err := runner.Bundled()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "LLMTCK_EXAMPLE_STYLE=genai-chat")
	for _, s := range all {
		if !strings.HasPrefix(s.Name, "gemini/") {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			r := runner.Run(context.Background(), s, runner.Options{Command: cmd, Env: env, Timeout: 2 * time.Minute})
			if !r.Pass || len(r.Warnings) > 0 {
				t.Fatalf("%s: pass %v\n%s\n%s\noutput:\n%s", s.Name, r.Pass, strings.Join(r.Failures, "\n"), strings.Join(r.Warnings, "\n"), r.Output)
			}
		})
	}
}

// Bugs planted in the example are caught, each by the failure it should
// cause, and the harness is told why in the provider's own error.
func TestPythonHarnessDefectsAreCaught(t *testing.T) {
	cmd := python(t)
	all, err := runner.Bundled()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]runner.Scenario{}
	for _, s := range all {
		byName[s.Name] = s
	}
	for _, c := range []struct{ defect, scenario, want string }{
		{"split-results", "anthropic/parallel-tools", "ANT-TOOL-001"},
		{"exit-early", "anthropic/cancelled-tool", "step 2 of 3 was left unserved"},
	} {
		t.Run(c.defect, func(t *testing.T) {
			t.Setenv("LLMTCK_EXAMPLE_DEFECT", c.defect)
			r := runner.Run(context.Background(), byName[c.scenario], runner.Options{Command: cmd, Timeout: 2 * time.Minute})
			if r.Pass || !slices.ContainsFunc(r.Failures, func(f string) bool { return strings.Contains(f, c.want) }) {
				t.Fatalf("pass %v, failures:\n%s\nwant one naming %s", r.Pass, strings.Join(r.Failures, "\n"), c.want)
			}
			if c.want == "ANT-TOOL-001" && (r.ExitCode != 1 || !strings.Contains(r.Output, "finding: ANT-TOOL-001 error")) {
				t.Errorf("exit %d; the harness did not print the X-Llmtck-Finding header it was answered with:\n%s", r.ExitCode, r.Output)
			}
		})
	}
}
