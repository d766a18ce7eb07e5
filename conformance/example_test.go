package conformance_test

import (
	"fmt"
	"testing"

	"github.com/llmtck/llmtck/conformance"
)

// A harness repository lints the cassettes its tests recorded: each check is
// a subtest named by its ID.
func TestExampleCheckCassette(t *testing.T) {
	conformance.CheckCassette(t, "../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml")
}

// Golden pins what the harness sent, normalised; `go test -update` rewrites
// testdata/TestExampleGolden.golden after a deliberate change.
func TestExampleGolden(t *testing.T) {
	conformance.Golden(t, "../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml")
}

// CheckPaths is the library form of `llmtck check`.
func ExampleCheckPaths() {
	rep, err := conformance.CheckPaths([]string{"../fixtures/checks/ANT-STREAM-004"}, conformance.Options{Only: []string{"ANT-STREAM-*"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range rep.Files {
		for _, fd := range f.Findings {
			fmt.Println(fd.Check, fd.Interaction, fd.Location)
		}
	}
	fmt.Printf("%d files, %d errors\n", rep.Summary.Files, rep.Summary.Errors)
	// Output:
	// ANT-STREAM-004 0 response.events[6]
	// 2 files, 1 errors
}
