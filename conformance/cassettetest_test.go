package conformance_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance"
)

// The helpers below are tests a harness repository would write; they run
// only inside a child process started by TestCheckCassetteOutcomes, which
// asserts how each one ends.
const childEnv = "LLMTCK_CHILD_TEST"

func child(t *testing.T) {
	if os.Getenv(childEnv) != t.Name() {
		t.Skip("run by TestCheckCassetteOutcomes")
	}
}

const (
	failing = "../fixtures/checks/ANT-STREAM-002/fail-delta-for-unstarted-block.i0.yaml"
	passing = "../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml"
)

func TestChildFailing(t *testing.T) { child(t); conformance.CheckCassette(t, failing) }
func TestChildGap(t *testing.T) {
	child(t)
	// The moved delta also leaves the tool input unparsable (ANT-STREAM-004).
	conformance.CheckCassette(t, failing, conformance.Gap("ANT-STREAM-002", "our proxy renumbers blocks"), conformance.Skip("ANT-STREAM-004"))
}
func TestChildStaleGap(t *testing.T) {
	child(t)
	conformance.CheckCassette(t, passing, conformance.Gap("ANT-STREAM-002", "fixed last week"))
}
func TestChildUnknownGap(t *testing.T) {
	child(t)
	conformance.CheckCassette(t, passing, conformance.Gap("ANT-NOPE-999", "typo"))
}
func TestChildOnlyNothing(t *testing.T) {
	child(t)
	conformance.CheckCassette(t, passing, conformance.Only("NOPE-*"))
}

func TestChildWrongOption(t *testing.T) {
	child(t)
	conformance.CheckCassette(t, passing, conformance.GoldenFile("x.golden"))
}

func TestCheckCassetteOutcomes(t *testing.T) {
	tests := []struct {
		name     string
		wantPass bool
		want     []string // substrings of the child's output
	}{
		{"TestChildFailing", false, []string{"--- FAIL: TestChildFailing/ANT-STREAM-002", "--- PASS: TestChildFailing/ANT-STREAM-001", "never started"}},
		{"TestChildGap", true, []string{"known gap (our proxy renumbers blocks)", "--- PASS: TestChildGap/ANT-STREAM-002"}},
		{"TestChildStaleGap", false, []string{"stale gap: ANT-STREAM-002 passes now", "--- FAIL: TestChildStaleGap/ANT-STREAM-002"}},
		{"TestChildUnknownGap", false, []string{`conformance.Gap("ANT-NOPE-999", "typo"): no such check`}},
		{"TestChildOnlyNothing", false, []string{"no check matches"}},
		{"TestChildWrongOption", false, []string{`conformance.GoldenFile("x.golden"): conformance.CheckCassette has no use for this option (it applies to Golden)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^"+tt.name+"$", "-test.v")
			cmd.Env = append(os.Environ(), childEnv+"="+tt.name)
			out, err := cmd.CombinedOutput()
			if passed := err == nil; passed != tt.wantPass {
				t.Errorf("child passed=%t, want %t\n%s", passed, tt.wantPass, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("child output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
