package engine_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The model never imports a codec, the checker or the reference engine:
// arrows point from those down to the model, so codecs can decode into it.
func TestModelImportsNothingAbove(t *testing.T) {
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gotool, "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, above := range []string{"providers", "conformance", "reference", "proxy", "cmd"} {
			if strings.HasPrefix(dep, "github.com/llmtck/llmtck/"+above) {
				t.Errorf("engine imports %s", dep)
			}
		}
	}
}
