package lint_test

import (
	"fmt"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/conformance/report"
)

// A Linter judges each request of a conversation against the calls answered
// before it, as the recording proxy and replay --check do. Here the harness
// dropped the tool_result of its second request: the verdict names the
// check and carries the 400 Anthropic would send.
func ExampleLinter() {
	tr, err := report.LoadTraffic("../../fixtures/checks/ANT-TOOL-001/fail-tool-result-dropped.i1.yaml", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	l := lint.New(checks.All()) // the whole catalogue
	first, next := tr.Exchanges[0], tr.Exchanges[1]
	fmt.Println("first:", len(l.Judge(first).Findings), "findings")
	l.Add(first)
	v := l.Judge(next)
	for _, f := range v.Findings {
		fmt.Println(f.Severity, f.Check, f.Location)
	}
	fmt.Println(v.Rejection.Status, string(v.Rejection.Body))
	// Output:
	// first: 0 findings
	// error ANT-MSG-001 request.messages[2].content
	// error ANT-TOOL-001 request.messages[1].content[0].id
	// 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.2: all messages must have non-empty content except for the optional final assistant message"}}
}
