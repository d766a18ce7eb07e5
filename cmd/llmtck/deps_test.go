package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The binary links no test code: the testing package and test helpers drag
// their flags and their init work into every run of llmtck.
func TestBinaryLinksNoTestCode(t *testing.T) {
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gotool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "testing" || strings.HasPrefix(dep, "gotest.tools") || strings.HasPrefix(dep, "testing/") {
			t.Errorf("llmtck links %s", dep)
		}
	}
}
