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

// CheckCassette in a harness repository: every applicable check is a
// subtest named by its ID, and a known gap is declared with its reason.
func ExampleCheckCassette() {
	// func TestRecordedTraffic(t *testing.T) {
	// 	conformance.CheckCassette(t, "testdata/cassettes/tool_loop.yaml",
	// 		conformance.Gap("ANT-MSG-002", "we merge consecutive user turns next release"),
	// 		conformance.Skip("ANT-HDR-*"))
	// }
	//
	// go test -run 'TestRecordedTraffic/ANT-THINK' runs the thinking checks only.
}

// Golden in a harness repository: what the harness sent, normalised, pinned
// in testdata/TestWhatWeSend.golden; `go test -update` rewrites it.
func ExampleGolden() {
	// func TestWhatWeSend(t *testing.T) {
	// 	conformance.Golden(t, "testdata/cassettes/tool_loop.yaml")
	// }
}

// Lint judges one live request against the calls before it, as the replay
// server does with --check: here a harness dropped a tool_result.
func ExampleLint() {
	tr, err := conformance.LoadTraffic("../fixtures/checks/ANT-TOOL-001/fail-tool-result-dropped.i1.yaml", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	last := len(tr.Exchanges) - 1
	for _, f := range conformance.Lint(tr.Exchanges[:last], tr.Exchanges[last], conformance.Checks()) {
		if f.Severity == conformance.SeverityError {
			fmt.Println(f.Check, f.Location)
		}
	}
	// Output:
	// ANT-MSG-001 request.messages[2].content
	// ANT-TOOL-001 request.messages[1].content[0].id
}
