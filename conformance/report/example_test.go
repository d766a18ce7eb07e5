package report_test

import (
	"fmt"
	"os"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
)

// CheckPaths is the library form of `llmtck check`: it walks folders,
// decodes every recording and judges it with the checks given.
func ExampleCheckPaths() {
	streams, err := checks.Select([]string{"ANT-STREAM-*"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := report.CheckPaths([]string{"../../fixtures/checks/ANT-STREAM-004"}, streams, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep.WriteText(os.Stdout)
	// Output:
	// ../../fixtures/checks/ANT-STREAM-004/fail-tool-input-cut.i0.yaml  anthropic  2 interactions  status 200×2
	//   [0] error ANT-STREAM-004 response.events[6]: tool_use (index 0, content[0]): partial_json does not parse as JSON: "{\"path\": \"testdata/working_dir\""
	// ../../fixtures/checks/ANT-STREAM-004/pass-real-tool-stream.yaml  anthropic  2 interactions  status 200×2
	// 2 files, 4 interactions: 1 error, 0 warnings
}
