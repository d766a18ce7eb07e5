// Package nodeharness_test plays every bundled scenario with the Node
// example harness, built on the official SDKs, under llmtck test's runner.
package nodeharness_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/conformance/runner"
)

// The harness runs where node and the SDKs are installed: make
// node-example installs them (npm install) and runs this test.
func TestNodeHarnessPassesEveryScenario(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed here, so the Node example harness cannot run")
	}
	if _, err := os.Stat("node_modules/@anthropic-ai/sdk"); err != nil {
		t.Skip("the SDKs are not installed in examples/node-harness/node_modules: run make node-example (npm install) first")
	}
	all, err := runner.Bundled()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			r := runner.Run(context.Background(), s, runner.Options{Command: []string{node, "harness.mjs"}, Timeout: 3 * time.Minute})
			if !r.Pass || len(r.Warnings) > 0 {
				t.Fatalf("%s: pass %v\n%s\n%s\noutput:\n%s", s.Name, r.Pass, strings.Join(r.Failures, "\n"), strings.Join(r.Warnings, "\n"), r.Output)
			}
		})
	}
}
